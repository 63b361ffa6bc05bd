// What an upload really is, from its bytes (spec part 2 §7 files): the name and the browser's content type
// are never trusted, so an executable renamed .png is refused and a PDF renamed .txt is stored as a PDF.
import type { FileType } from '@pluma/common/files';
import { fileTypeFromBuffer } from 'file-type';

export interface SniffedFile {
  type: FileType;
  mime: string;
}

/** Detected formats we accept: file-type's extension → our type and the mime we serve it with. */
const BINARY_TYPES: Record<string, SniffedFile> = {
  png: { type: 'png', mime: 'image/png' },
  jpg: { type: 'jpg', mime: 'image/jpeg' },
  gif: { type: 'gif', mime: 'image/gif' },
  webp: { type: 'webp', mime: 'image/webp' },
  pdf: { type: 'pdf', mime: 'application/pdf' },
  docx: { type: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  pptx: { type: 'pptx', mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  xlsx: { type: 'xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  mp4: { type: 'mp4', mime: 'video/mp4' },
  webm: { type: 'webm', mime: 'video/webm' },
  mov: { type: 'mov', mime: 'video/quicktime' },
};

const TEXT_TYPES: Record<string, SniffedFile> = {
  txt: { type: 'txt', mime: 'text/plain; charset=utf-8' },
  md: { type: 'md', mime: 'text/markdown; charset=utf-8' },
  csv: { type: 'csv', mime: 'text/csv; charset=utf-8' },
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isPlainUtf8(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The accepted type of these bytes, or null when the file is not allowed. */
export async function sniffUpload(bytes: Buffer, fileName: string): Promise<SniffedFile | null> {
  if (bytes.length === 0) return null;
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) return BINARY_TYPES[detected.ext] ?? null;
  // Text has no signature: accepted only under a text name, and only if it really is text.
  const text = TEXT_TYPES[extensionOf(fileName)];
  return text && isPlainUtf8(bytes) ? text : null;
}
