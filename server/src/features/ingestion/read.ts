// The pipeline's front door (issue 27): what every entry point that takes a user's file calls — avatar
// knowledge indexing, Super Fetch, documents' tools, chat attachments. Type from the bytes (files/sniff.ts),
// then text out of a worker thread within the limits (pool.ts, extract.ts, zip.ts). A file that cannot be
// read is a FileReadFailure with its reason; requests turn it into a translated error (fileReadError).
import { ErrorIds } from '@pluma/common/errors';
import { ingestionFailureParams } from '@pluma/common/ingestion';
import type { MessageKey } from '@pluma/common/messages';
import { AppError } from '../../platform/http/errors';
import { sniffUpload, type Upload } from '../files';
import type { KnowledgeLanguage } from './chunk';
import { isKnowledgeFileType, type KnowledgeFileType } from './extract';
import { contentLimits, FileReadFailure } from './failure';
import { IngestionBusyError, readInWorker } from './pool';
import type { ReadChunks, ReadText } from './worker';

function readableType(type: string, allowed?: readonly string[]): KnowledgeFileType {
  if (!isKnowledgeFileType(type) || (allowed && !allowed.includes(type))) throw new FileReadFailure('unsupported_type', type);
  return type;
}

/** The whole text of a file of `type` (cleaned, blocks joined by blank lines). */
export async function readFileText(options: { bytes: Uint8Array; type: string; allowed?: readonly string[] }): Promise<ReadText> {
  const type = readableType(options.type, options.allowed);
  return (await readInWorker({ type, bytes: options.bytes, limits: contentLimits(), mode: 'text', language: 'english' })) as ReadText;
}

/** The passages of a file for the search index, each with its language (`language` when the text does not tell). */
export async function readFileChunks(options: { bytes: Uint8Array; type: string; language: KnowledgeLanguage }): Promise<ReadChunks> {
  const type = readableType(options.type);
  return (await readInWorker({ type, bytes: options.bytes, limits: contentLimits(), mode: 'chunks', language: options.language })) as ReadChunks;
}

/** An upload's text, its type taken from its bytes; `allowed` narrows the types (Super Fetch's four). */
export async function readUploadText(options: { upload: Upload; allowed?: readonly string[] }): Promise<ReadText & { type: KnowledgeFileType }> {
  const sniffed = await sniffUpload(options.upload.bytes, options.upload.fileName);
  if (!sniffed) throw new FileReadFailure('unsupported_type', 'not an accepted file');
  const type = readableType(sniffed.type, options.allowed);
  return { ...(await readFileText({ bytes: options.upload.bytes, type })), type };
}

/**
 * The translated error of a failed read, for a request: 422 file_unreadable with the reason's text (also on
 * `field` in details), 503 ingestion_busy when the readers are full. Anything else is returned unchanged.
 */
export function fileReadError(err: unknown, field = 'file'): unknown {
  if (err instanceof IngestionBusyError) return new AppError(503, ErrorIds.ingestionBusy, 'ingestion_busy');
  if (!(err instanceof FileReadFailure)) return err;
  const key = `ingestion_${err.reason}` as MessageKey;
  return new AppError(422, ErrorIds.fileUnreadable, key, ingestionFailureParams(err.reason), { details: { [field]: key } });
}
