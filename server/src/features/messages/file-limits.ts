// What files may go to a model and how (spec part 2 §9 "Claude file limits"): shared by avatar answers
// (avatar-chat.ts) and chat attachments (attachments.ts).
import { MAX_CONVERSATION_TOKENS } from '@pluma/common/constants';
import type { Readable } from 'node:stream';
import type { ChatAttachmentMediaType } from '../../platform/ai/types';

/** spec part 2 §9: Claude's file context is limited to pdf, jpeg, png, gif, webp and 100 PDF pages in total. */
export const CLAUDE_PDF_PAGE_LIMIT = 100;
export const CLAUDE_MEDIA_TYPES: Record<string, ChatAttachmentMediaType> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};
/** Anthropic's own limits: 5 MB per image, 32 MB per request (kept well under with the text around it). */
export const CLAUDE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const CLAUDE_FILES_MAX_BYTES = 20 * 1024 * 1024;
/** Characters of knowledge given to the model: as much again as the conversation's own 7500-token budget. */
export const KNOWLEDGE_BUDGET_CHARS = MAX_CONVERSATION_TOKENS * 4;

/** A stored file's bytes as base64 (the providers' inline file shape). */
export async function base64Of(body: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(Buffer.isBuffer(part) ? part : Buffer.from(part as Uint8Array));
  return Buffer.concat(parts).toString('base64');
}
