// POST /documents/avatar-output and the generations' reads (issue 15 item 1; spec part 2 §2 "Documents and
// editor": the Tools panel's Prompt, Avatars, Templates and Super-fetch sections, the campaign document page's
// 'Generate Document'; §7). Framework-free. Authorization before anything is held or saved:
// - the document: the actor's own (documents policy), or — with campaign_id — one the campaign links and the
//   actor sees through it (requireCampaign + sharedThroughCampaigns, as GET /documents/{id}/campaigns/{c});
// - the avatar: one the actor may use (avatars policy); the template: one the actor sees (templates policy —
//   public, own, or shared by a campaign). Anything else is a 404, never a 403.
// The filled template prompt never leaves the server (a template may hide its prompt: show_prompt).
import { DOCUMENT_CONTEXT_INSTRUCTION, withDocumentContext } from '@pluma/common/documents';
import {
  DOCUMENT_GENERATIONS_LIST_MAX,
  type DocumentGenerateRequest,
  type DocumentGeneration,
  type documentGenerateRequest,
} from '@pluma/common/documents-generate';
import type { MessageKey } from '@pluma/common/messages';
import { checkFieldValues, fillTemplate, parseTemplateFields } from '@pluma/common/rules/template-fields';
import { fillSuperFetchPrompt, SUPER_FETCH_FILE_CONTEXT_MAX, SUPER_FETCH_FILE_TYPES, SUPER_FETCH_INPUTS, type SuperFetchInputs } from '@pluma/common/super-fetch';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { documentGenerations, documents } from '../../db/schema';
import { getConfig } from '../../platform/appconfig/read';
import type { ChatTurn } from '../../platform/ai/types';
import type { Actor } from '../../platform/auth/actor';
import { AppError, badRequest, notFound } from '../../platform/http/errors';
import { requireFeature } from '../appconfig';
import { avatarPolicy, type AvatarRow } from '../avatars';
import { requireCampaign, sharedThroughCampaigns } from '../campaigns';
import { holdRequest, releaseHold, reserveWords } from '../credits';
import type { Upload } from '../files';
import { fileReadError, FileReadFailure, readUploadText } from '../ingestion';
import { templatePolicy } from '../templates';
import { presentGeneration, startGeneration, stopGeneration, type GenerationLog, type GenerationRow } from './generation';
import { documentPolicy } from './policy';
import { touchLastUsed } from '../users';
import { groundDocument } from '../web-search';

type GenerateInput = z.output<typeof documentGenerateRequest>;
export type { DocumentGenerateRequest };

/** The whole user message at most (the document's text is cut from its start to fit: withDocumentContext). */
export const GENERATE_MESSAGE_MAX = 60_000;

/** When no avatar is chosen. */
const DEFAULT_ASSISTANT = 'You are a helpful writing assistant working inside a document editor.';
/** The editor converts the answer's markdown to blocks (spec part 2 §2: tables, strikethrough, tasklists). */
const MARKDOWN_RULE =
  'Answer in Markdown (headings, lists, tables, strikethrough and task lists are fine). Answer with the text for the document only, without a preface or comments.';

function systemOf(avatar: AvatarRow | null): string {
  const persona = avatar ? avatar.context.trim() || `You are ${avatar.name}.` : DEFAULT_ASSISTANT;
  return `${persona}\n\n${MARKDOWN_RULE}`;
}

/** The document written into: own, or linked by campaign `campaignId` and seen through it; 404 otherwise. */
async function requireTargetDocument(db: Db, actor: Actor, documentId: number, campaignId: number | undefined): Promise<void> {
  if (campaignId === undefined) {
    await documentPolicy.require(db, actor, documentId);
    return;
  }
  await requireCampaign(db, actor, campaignId, 'read');
  const [row] = await db
    .select({ documentId: documents.documentId })
    .from(documents)
    .where(and(eq(documents.documentId, documentId), sharedThroughCampaigns(actor, 'document', documents.documentId, campaignId)))
    .limit(1);
  if (!row) throw notFound();
}

/** The text of an uploaded file (spec part 2 §2 "Super-fetch section: ... plus a file"), as Super Fetch reads it. */
export async function uploadText(upload: Upload): Promise<string> {
  let text: string;
  try {
    // Sniffed, then read off the event loop within the pipeline's limits (issue 27).
    ({ text } = await readUploadText({ upload, allowed: SUPER_FETCH_FILE_TYPES }));
  } catch (err) {
    if (err instanceof FileReadFailure && err.reason === 'unsupported_type') throw badRequest('document_generate_file_type', { file: 'document_generate_file_type' });
    throw fileReadError(err, 'file');
  }
  if (!text) throw badRequest('document_generate_file_unreadable', { file: 'document_generate_file_unreadable' });
  return text.slice(0, SUPER_FETCH_FILE_CONTEXT_MAX);
}

/** The request of each kind, before the document's context. */
async function requestOf(ctx: AppContext, actor: Actor, input: GenerateInput, fileText: string | null): Promise<string> {
  switch (input.kind) {
    case 'prompt':
    case 'avatar':
      return input.prompt;
    case 'template': {
      const template = await templatePolicy.require(ctx.db, actor, input.template_id!);
      const values = input.values ?? {};
      const problems = checkFieldValues(parseTemplateFields(template.content).fields, values);
      const first = Object.values(problems)[0];
      if (first) throw badRequest(first as MessageKey, Object.fromEntries(Object.entries(problems).map(([name, key]) => [`values.${name}`, key])));
      const filled = fillTemplate(template.content, values);
      return input.prompt ? `${filled}\n\n${input.prompt}` : filled;
    }
    case 'super_fetch': {
      const inputs = Object.fromEntries(SUPER_FETCH_INPUTS.map((key) => [key, input.inputs?.[key] ?? ''])) as SuperFetchInputs;
      const prompt = fillSuperFetchPrompt(await getConfig(ctx, 'super_fetch_prompt'), inputs);
      // The file comes first with the spec's instruction, as in Super Fetch.
      return fileText ? `${fileText}\n\n${DOCUMENT_CONTEXT_INSTRUCTION}\n\n${prompt}` : prompt;
    }
  }
}

/**
 * POST /documents/avatar-output: authorizes, builds the prompt, holds words (none at all: 412
 * words_exhausted, nothing saved), saves the generation as 'streaming' and starts it; answers at once.
 */
export async function startDocumentGeneration(options: {
  ctx: AppContext;
  log: GenerationLog;
  actor: Actor;
  input: GenerateInput;
  file?: Upload | null;
}): Promise<DocumentGeneration> {
  const { ctx, log, actor, input } = options;
  // Each tool exists only where its own area does (spec part 1 §2 switches; part 2 §2: Super Fetch is not in
  // organization scope — the same 404 as its own routes).
  if (input.kind === 'super_fetch') {
    await requireFeature(ctx, 'super_fetch');
    if (actor.organization) throw new AppError(404, 'not_found', 'super_fetch_not_in_organization');
  }
  if (input.kind === 'template') await requireFeature(ctx, 'templates_enabled');
  if (input.avatar_id) await requireFeature(ctx, 'avatars_enabled');
  if (input.document_id) await requireTargetDocument(ctx.db, actor, input.document_id, input.campaign_id);
  else if (input.campaign_id) await requireCampaign(ctx.db, actor, input.campaign_id, 'read');
  // A use of the app (the customers tables' 'Last used', spec part 1 §2 Screens).
  await touchLastUsed({ ctx, actor });
  const avatar = input.avatar_id ? await avatarPolicy.require(ctx.db, actor, input.avatar_id) : null;
  // A file is read for Super Fetch (its context), and for an avatar message about a document (spec part 2 §7
  // POST /avatars/user-message/document-request: the file's text is the document given as context).
  const fileText = (input.kind === 'super_fetch' || input.kind === 'avatar') && options.file ? await uploadText(options.file) : null;
  const request = await requestOf(ctx, actor, input, input.kind === 'super_fetch' ? fileText : null);
  // spec part 2 §2: the document's text before the request, with 'Use the above text to make a response…'.
  const context = input.document_text ?? (input.kind === 'avatar' ? fileText : null);
  const message = context ? withDocumentContext(context, request, GENERATE_MESSAGE_MAX) : request;
  const turns: ChatTurn[] = [
    { role: 'system', content: systemOf(avatar) },
    { role: 'user', content: message },
  ];

  const maxTokens = ctx.env.AI_MAX_ANSWER_TOKENS;
  const holdId = randomUUID();
  const source = { type: 'document' as const, id: holdId };
  // Throws 412 words_exhausted when nothing can be held: nothing saved. The hold is atomic in SQL, so
  // concurrent requests cannot hold more than the balance.
  const reservation = await reserveWords(ctx.db, holdRequest(actor, maxTokens), source);
  let row: GenerationRow;
  try {
    [row] = await ctx.db
      .insert(documentGenerations)
      .values({
        userId: actor.user.userId,
        organizationId: actor.organization?.organizationId ?? null,
        documentId: input.document_id ?? null,
        campaignId: input.campaign_id ?? null,
        kind: input.kind,
        avatarId: avatar?.avatarId ?? null,
        templateId: input.kind === 'template' ? input.template_id! : null,
        status: 'streaming',
        holdId,
      })
      .returning();
  } catch (err) {
    await releaseHold(ctx.db, source).catch(() => undefined);
    throw err;
  }
  // Web search (issue 32): the request is what is searched for (the document's text is context, not the question).
  const ground = input.searchOnInternet ? (signal: AbortSignal) => groundDocument({ ctx, actor, query: input.prompt || request, turns, signal }) : undefined;
  startGeneration(ctx, { userId: actor.user.userId, row, turns, maxTokens, wordLimit: reservation?.limit ?? null, log, ground });
  return presentGeneration(row);
}

/** The actor's own generation (any context: it is theirs); 404 otherwise. */
async function requireGeneration(db: Db, actor: Actor, generationId: number): Promise<GenerationRow> {
  const [row] = await db
    .select()
    .from(documentGenerations)
    .where(and(eq(documentGenerations.generationId, generationId), eq(documentGenerations.userId, actor.user.userId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

export async function getDocumentGeneration({ db, actor, generationId }: { db: Db; actor: Actor; generationId: number }): Promise<DocumentGeneration> {
  return presentGeneration(await requireGeneration(db, actor, generationId));
}

/** GET /documents/{id}/generations: the actor's own generations into that document, newest first (max 20). */
export async function listDocumentGenerations({ db, actor, documentId, unapplied }: { db: Db; actor: Actor; documentId: number; unapplied: boolean }) {
  const rows = await db
    .select()
    .from(documentGenerations)
    .where(
      and(
        eq(documentGenerations.userId, actor.user.userId),
        eq(documentGenerations.documentId, documentId),
        unapplied ? isNull(documentGenerations.appliedAt) : undefined,
      ),
    )
    .orderBy(desc(documentGenerations.generationId))
    .limit(DOCUMENT_GENERATIONS_LIST_MAX);
  return { generations: rows.map(presentGeneration) };
}

/** POST /documents/generations/{id}/applied: the editor inserted it and saved (the first time counts). */
export async function markGenerationApplied({ db, actor, generationId }: { db: Db; actor: Actor; generationId: number }): Promise<DocumentGeneration> {
  const row = await requireGeneration(db, actor, generationId);
  if (row.appliedAt) return presentGeneration(row);
  const [saved] = await db
    .update(documentGenerations)
    .set({ appliedAt: new Date() })
    .where(and(eq(documentGenerations.generationId, row.generationId), isNull(documentGenerations.appliedAt)))
    .returning();
  return presentGeneration(saved ?? (await requireGeneration(db, actor, generationId)));
}

/**
 * POST /documents/generations/{id}/stop (issue 30 item 1): the actor's own generation (404 otherwise) is
 * stopped wherever it runs; it ends 'stopped' with the text written so far, charged for those words, and the
 * end frame reaches every tab. Idempotent: an ended generation is returned as it is. Answers the generation
 * as saved (still 'streaming' when another node runs it: its end arrives as `document_output`).
 */
export async function stopDocumentGeneration({ ctx, actor, generationId }: { ctx: AppContext; actor: Actor; generationId: number }): Promise<DocumentGeneration> {
  const row = await requireGeneration(ctx.db, actor, generationId);
  if (row.status !== 'streaming') return presentGeneration(row);
  await stopGeneration(ctx, row.generationId);
  return presentGeneration(await requireGeneration(ctx.db, actor, generationId));
}
