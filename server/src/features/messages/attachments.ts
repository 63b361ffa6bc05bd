// Files attached to a chat prompt reach the model (issue 27 item 2). A prompt carries the actor's own uploads
// (POST /conversations/file/{id}), saved in message_files. Before the provider call, the conversation's
// attached files become: text-like files (txt, md, csv, docx, pptx, pdf — read and indexed by the ingestion
// pipeline) as their whole text when it fits the budget, else the passages most relevant to the prompt, each
// under its file's name; images as image parts for models that take them (the OpenAI and Anthropic SDKs'
// shapes), or a note naming them for models that don't; PDFs to Claude as document blocks (100 PDF pages in
// all); a file that could not be read is named with why.
import { modelAcceptsImages } from '@pluma/common/models';
import { ingestionFailureParams, isIngestionFailure } from '@pluma/common/ingestion';
import type { MessageFile } from '@pluma/common/messages-api';
import { translate, type MessageKey } from '@pluma/common/messages';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { conversations, files, messageFiles, messages } from '../../db/schema';
import type { ChatAttachment, ChatAttachmentMediaType, ChatTurn, ProviderName } from '../../platform/ai/types';
import type { Actor } from '../../platform/auth/actor';
import { notFound } from '../../platform/http/errors';
import { isKnowledgeFileType } from '../ingestion';
import { fileIndexStatuses, searchPassages, wholeFileText } from '../knowledge';
import { base64Of, CLAUDE_FILES_MAX_BYTES, CLAUDE_PDF_PAGE_LIMIT, KNOWLEDGE_BUDGET_CHARS } from './file-limits';

const IMAGE_TYPES: Record<string, ChatAttachmentMediaType> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };
/** Files of a conversation considered for one answer (the newest first). */
const MAX_CONVERSATION_FILES = 20;
/** Images sent with one answer, and the largest one sent (providers refuse bigger ones). */
const MAX_IMAGES = 4;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** How long an answer waits for attached files still being read before it goes without them. */
export const ATTACHMENT_WAIT_MS = 20_000;

/** The actor's own files among `fileIds`, in that order; any other id is a 404 (another user's file is never named). */
export async function requireOwnFiles(db: Db, actor: Actor, fileIds: readonly number[]): Promise<number[]> {
  const ids = [...new Set(fileIds)];
  if (ids.length === 0) return [];
  const found = await db
    .select({ fileId: files.fileId })
    .from(files)
    .where(and(inArray(files.fileId, ids), eq(files.userId, actor.user.userId)));
  if (found.length !== ids.length) throw notFound();
  return ids;
}

export async function saveMessageFiles(db: Db, conversationId: number, messageId: number, fileIds: readonly number[]): Promise<void> {
  if (fileIds.length === 0) return;
  await db.insert(messageFiles).values(fileIds.map((fileId, i) => ({ messageId, fileId, position: i + 1 })));
  // Answers in a conversation without attachments skip their lookup (fixed-cost.test.ts: three statements).
  await db.update(conversations).set({ hasAttachedFiles: true }).where(eq(conversations.conversationId, conversationId));
}

/** The attached files of these messages, by message id (one query; none when no id is given). */
export async function filesOfMessages(db: Db, messageIds: readonly number[]): Promise<Map<number, MessageFile[]>> {
  const byMessage = new Map<number, MessageFile[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = await db
    .select({ messageId: messageFiles.messageId, fileId: files.fileId, name: files.name, type: files.type, size: files.size })
    .from(messageFiles)
    .innerJoin(files, eq(files.fileId, messageFiles.fileId))
    .where(inArray(messageFiles.messageId, [...messageIds]))
    .orderBy(asc(messageFiles.messageId), asc(messageFiles.position));
  for (const row of rows) {
    const list = byMessage.get(row.messageId) ?? [];
    list.push({ file_id: row.fileId, name: row.name, type: row.type, size: row.size });
    byMessage.set(row.messageId, list);
  }
  return byMessage;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (bounded) for files still queued or being read, so a file attached a moment ago is answered from. */
async function settledStatuses(ctx: AppContext, fileIds: number[], waitMs: number) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const rows = await fileIndexStatuses({ ctx, fileIds });
    const pending = rows.some((r) => r.status === 'queued' || r.status === 'indexing');
    if (!pending || Date.now() >= deadline) return new Map(rows.map((r) => [r.fileId, r]));
    await sleep(250);
  }
}

function failureText(reason: string | null): string {
  if (isIngestionFailure(reason)) return translate('en', `ingestion_${reason}` as MessageKey, ingestionFailureParams(reason));
  return reason === 'no_text' ? 'No text was found in it (a scanned document?).' : 'It could not be read.';
}

type AttachedFile = { fileId: number; name: string; type: string; size: number; storageKey: string };

/**
 * spec part 2 §9: Claude reads PDFs itself (document blocks), "100 PDF pages in total", within Anthropic's
 * request size. The PDFs that fit go so; any other goes as its text, said in a note.
 */
function claudeDocuments(ready: AttachedFile[], pagesOf: (fileId: number) => number | null, notes: string[]): AttachedFile[] {
  const chosen: AttachedFile[] = [];
  let pages = 0;
  let bytes = 0;
  for (const f of ready) {
    if (f.type !== 'pdf') continue;
    const filePages = pagesOf(f.fileId);
    if (filePages === null || pages + filePages > CLAUDE_PDF_PAGE_LIMIT || bytes + f.size > CLAUDE_FILES_MAX_BYTES) {
      notes.push(`The PDF "${f.name}" goes past what this model reads as a document (${CLAUDE_PDF_PAGE_LIMIT} PDF pages in all): its text is given instead.`);
      continue;
    }
    pages += filePages;
    bytes += f.size;
    chosen.push(f);
  }
  return chosen;
}

/**
 * The turns with the conversation's attached files: their text in a system turn (after any system turn
 * already there), the images on the last user turn. Without attached files the turns are returned as they are.
 */
export async function withAttachedFiles(
  ctx: AppContext,
  options: { conversationId: number; userId: number; model: string | null; prompt: string; language: string | null; turns: ChatTurn[]; waitMs?: number },
): Promise<ChatTurn[]> {
  const attached = await ctx.db
    .select({ fileId: files.fileId, name: files.name, type: files.type, size: files.size, storageKey: files.storageKey, messageId: messageFiles.messageId })
    .from(messageFiles)
    .innerJoin(messages, eq(messages.messageId, messageFiles.messageId))
    .innerJoin(files, eq(files.fileId, messageFiles.fileId))
    .where(and(eq(messages.conversationId, options.conversationId), eq(messages.userId, options.userId)))
    .orderBy(desc(messageFiles.messageId), asc(messageFiles.position))
    .limit(MAX_CONVERSATION_FILES);
  if (attached.length === 0) return options.turns;

  const texts = attached.filter((f) => isKnowledgeFileType(f.type));
  const images = attached.filter((f) => IMAGE_TYPES[f.type]);
  const notes: string[] = [];
  const sections: string[] = [];
  const documents: AttachedFile[] = [];
  // The answering model's provider, asked only when it decides something (images; PDFs for Claude).
  const provider: ProviderName | null =
    images.length > 0 || texts.some((f) => f.type === 'pdf') ? ((await ctx.services.ai?.providerOf(options.model)) ?? 'openai') : null;

  if (texts.length > 0) {
    const statuses = await settledStatuses(ctx, texts.map((f) => f.fileId), options.waitMs ?? ATTACHMENT_WAIT_MS);
    const settled = texts.filter((f) => statuses.get(f.fileId)?.status === 'ready');
    if (provider === 'anthropic') documents.push(...claudeDocuments(settled, (id) => statuses.get(id)?.pages ?? null, notes));
    const ready = settled.filter((f) => !documents.includes(f));
    for (const f of texts) {
      const status = statuses.get(f.fileId);
      if (status?.status === 'failed') notes.push(`The file "${f.name}" could not be read: ${failureText(status.failureReason)}`);
      else if (status?.status !== 'ready') notes.push(`The file "${f.name}" is still being read; its text is not included.`);
    }
    const names = new Map(ready.map((f) => [f.fileId, f.name]));
    const whole = ready.length ? await wholeFileText({ ctx, fileIds: ready.map((f) => f.fileId), budgetChars: KNOWLEDGE_BUDGET_CHARS }) : [];
    if (whole !== null) {
      for (const w of whole) if (w.text.trim()) sections.push(`=== ${names.get(w.file_id) ?? ''} ===\n${w.text}`);
    } else {
      // Too long together: the passages most relevant to the prompt, each under its file's name and page.
      const passages = await searchPassages({ ctx, fileIds: ready.map((f) => f.fileId), query: options.prompt, language: options.language ?? undefined, limit: 8 });
      for (const p of passages) sections.push(`=== ${names.get(p.file_id) ?? ''}${p.page ? `, page ${p.page}` : ''} (excerpt) ===\n${p.text}`);
      notes.push('The attached files are too long to include whole: the passages most relevant to the request are given.');
    }
  }

  const attachments: ChatAttachment[] = [];
  for (const f of documents) {
    if (!ctx.services.storage) break;
    attachments.push({ mediaType: 'application/pdf', data: await base64Of(await ctx.services.storage.get(f.storageKey)), title: f.name });
  }
  if (images.length > 0) {
    const models = (await ctx.services.ai?.listModels()) ?? [];
    const id = options.model ?? models.find((m) => m.isDefault)?.id ?? '';
    if (modelAcceptsImages({ id, provider: provider ?? 'openai' })) {
      for (const f of images.slice(0, MAX_IMAGES)) {
        if (f.size > MAX_IMAGE_BYTES || !ctx.services.storage) {
          notes.push(`The image "${f.name}" is too large to send.`);
          continue;
        }
        attachments.push({ mediaType: IMAGE_TYPES[f.type], data: await base64Of(await ctx.services.storage.get(f.storageKey)), title: f.name });
      }
    } else {
      notes.push(`The user attached ${images.map((f) => `"${f.name}"`).join(', ')}, but this model cannot see images; say so if the request needs them.`);
    }
  }

  const turns = [...options.turns];
  if (sections.length > 0 || notes.length > 0) {
    const content = ['The user attached files to this conversation. Use them to answer.', ...notes, ...sections].join('\n\n');
    const firstNonSystem = turns.findIndex((t) => t.role !== 'system');
    turns.splice(firstNonSystem < 0 ? turns.length : firstNonSystem, 0, { role: 'system', content });
  }
  const last = turns.findLastIndex((t) => t.role === 'user');
  if (attachments.length > 0 && last >= 0) turns[last] = { ...turns[last], attachments: [...(turns[last].attachments ?? []), ...attachments] };
  return turns;
}
