// Super Fetch operations (spec part 2 §2 "Super Fetch", §5 Super Fetch rules, §7; issue 14 item 4),
// framework-free. Everything is the actor's own: runs and outputs are scoped by user_id in SQL (another
// user's run, output or private avatar is a 404), and the area exists in Personal scope only.
import {
  fillSuperFetchPrompt,
  SUPER_FETCH_FILE_CONTEXT_MAX,
  SUPER_FETCH_FILE_TYPES,
  SUPER_FETCH_INPUTS,
  superFetchRequest,
  type SuperFetchInputs,
} from '@pluma/common/super-fetch';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { files, superFetchOutputs, superFetchRuns } from '../../db/schema';
import { getConfig } from '../../platform/appconfig/read';
import type { ChatTurn } from '../../platform/ai/types';
import type { Actor } from '../../platform/auth/actor';
import { AppError, badRequest, notFound } from '../../platform/http/errors';
import { ensureDefaultAvatar, avatarPolicy, type AvatarRow } from '../avatars';
import { holdRequest, releaseHold, reserveWords } from '../credits';
import { fileReadError, readFileText } from '../ingestion';
import { requestStop } from '../../platform/ai/stops';
import { outputStopKey, startRun, stopRuns, type GenerationLog } from './generate';
import { isActive, type OutputRow, type RunRow } from './output-state';
import { assertPersonal, superFetchOutputPolicy, superFetchRunPolicy } from './policy';
import { touchLastUsed } from '../users';

type SuperFetchInput = z.output<typeof superFetchRequest>;

/** A run with its outputs (in any order: the presenter sorts them by position). */
export interface RunWithOutputs {
  run: RunRow;
  outputs: OutputRow[];
}

/** Instructions every output is written under; the avatar's own context (a persona) follows them. */
export const SUPER_FETCH_SYSTEM =
  'You are Super Fetch, a copywriting assistant. You receive a brief (task, topic, audience, persona, tone, formula and optional ' +
  'examples, call to action and instructions) and write one finished piece that follows it. Answer with the piece only, without ' +
  'a preface or comments, in the language of the brief.';

/** spec part 2 §2 (Documents): a document given as context is prefixed with this instruction. */
const FILE_INSTRUCTION = 'Use the above text to make a response for the next request';

const VARIABLE = /\{\s*(task|topic|target|person|tone|format|examples|cta|prompt)\s*\}/i;

/**
 * The Super Fetch avatar's context is made from `super_fetch_prompt` (avatars/service.ts), i.e. the template
 * with its {Variables}: that is the user message already, so only a context without variables (a persona an
 * admin or the user wrote) joins the system prompt.
 */
function systemOf(avatar: AvatarRow): string {
  const persona = avatar.context.trim();
  return persona && !VARIABLE.test(persona) ? `${SUPER_FETCH_SYSTEM}\n\n${persona}` : SUPER_FETCH_SYSTEM;
}

/** The avatar written with: the one asked for (any the actor may use), else the actor's Super Fetch avatar. */
async function avatarFor(ctx: AppContext, actor: Actor, assistantId: number | null | undefined): Promise<AvatarRow> {
  if (assistantId) return avatarPolicy.require(ctx.db, actor, assistantId);
  return ensureDefaultAvatar({ actor, db: ctx.db, kind: 'super_fetch', context: await getConfig(ctx, 'super_fetch_prompt') });
}

async function readAll(body: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** The text of one of the actor's own uploads (spec part 2 §5: .docx, .pdf, .pptx, .txt), within the budget. */
async function fileContext(ctx: AppContext, actor: Actor, fileId: number): Promise<{ fileId: number; name: string; text: string; truncated: boolean }> {
  const [file] = await ctx.db
    .select()
    .from(files)
    .where(and(eq(files.fileId, fileId), eq(files.userId, actor.user.userId)))
    .limit(1);
  if (!file) throw notFound();
  if (!(SUPER_FETCH_FILE_TYPES as readonly string[]).includes(file.type)) {
    throw badRequest('super_fetch_file_type', { file_id: 'super_fetch_file_type' });
  }
  const storage = ctx.services.storage;
  if (!storage) throw new Error('storage service is not configured');
  let text: string;
  try {
    // Read off the event loop within the pipeline's limits (issue 27); over a limit is a translated 422.
    ({ text } = await readFileText({ bytes: await readAll(await storage.get(file.storageKey)), type: file.type }));
  } catch (err) {
    throw fileReadError(err, 'file_id');
  }
  if (!text) throw badRequest('super_fetch_file_unreadable', { file_id: 'super_fetch_file_unreadable' });
  const truncated = text.length > SUPER_FETCH_FILE_CONTEXT_MAX;
  return { fileId: file.fileId, name: file.name, text: truncated ? text.slice(0, SUPER_FETCH_FILE_CONTEXT_MAX) : text, truncated };
}

/** The actor's run `runId` of this avatar (feedback on it), else a 404. */
async function requireRun(db: Db, actor: Actor, runId: number, avatarId: number): Promise<RunRow> {
  const row = await superFetchRunPolicy.require(db, actor, runId);
  if (row.avatarId !== avatarId) throw notFound();
  return row;
}

async function latestRun(db: Db, actor: Actor, avatarId: number): Promise<RunRow | null> {
  const [row] = await db
    .select()
    .from(superFetchRuns)
    .where(and(superFetchRunPolicy.visibleTo(actor), eq(superFetchRuns.avatarId, avatarId)))
    .orderBy(desc(superFetchRuns.runId))
    .limit(1);
  return row ?? null;
}

const verdict = (liked: boolean | null) => (liked === true ? 'liked' : liked === false ? 'disliked' : 'not rated');

/**
 * A modified prompt (spec part 2 §2 "input form versus feedback form"): the previous results with how each
 * was rated, the overall verdict and the feedback text, after the brief.
 */
function feedbackBlock(previous: OutputRow[], feedback: { input: string; liked: boolean | null }): string {
  const results = previous
    .filter((o) => o.content)
    .map((o) => `### Result ${o.position} (${verdict(o.liked)})\n${o.content}`)
    .join('\n\n');
  return [
    'Previous results for this brief:',
    results || '(none were written)',
    '',
    `Overall verdict on them: ${verdict(feedback.liked)}.`,
    `Feedback: ${feedback.input}`,
    '',
    'Write a new version of the piece that follows the brief and this feedback.',
  ].join('\n');
}

/**
 * POST /super_fetch/v2: holds words for each output asked for (as many as the balance covers — none at all
 * is 412 words_exhausted, and nothing is saved), saves the run with its pending outputs, starts them all at
 * once and answers 202 with the run; the text arrives as `super_fetch_outputs`.
 */
export async function startSuperFetch(options: { ctx: AppContext; log: GenerationLog; actor: Actor; input: SuperFetchInput }): Promise<RunWithOutputs> {
  const { ctx, log, actor, input } = options;
  assertPersonal(actor);
  const avatar = await avatarFor(ctx, actor, input.assistant_id);
  // A use of the app (the customers tables' 'Last used', spec part 1 §2 Screens).
  await touchLastUsed({ ctx, actor });
  const inputs = Object.fromEntries(SUPER_FETCH_INPUTS.map((key) => [key, input[key]])) as SuperFetchInputs;
  const prompt = fillSuperFetchPrompt(await getConfig(ctx, 'super_fetch_prompt'), inputs);

  let previous: RunWithOutputs | null = null;
  if (input.feedback) {
    const run = input.feedback.run_id ? await requireRun(ctx.db, actor, input.feedback.run_id, avatar.avatarId) : await latestRun(ctx.db, actor, avatar.avatarId);
    if (!run) throw badRequest('super_fetch_no_previous_run', { feedback: 'super_fetch_no_previous_run' });
    const outputs = await ctx.db.select().from(superFetchOutputs).where(eq(superFetchOutputs.runId, run.runId)).orderBy(superFetchOutputs.position);
    previous = { run, outputs };
  }

  // A new file, else (a feedback round) the file the previous run used.
  const file = input.file_id
    ? await fileContext(ctx, actor, input.file_id)
    : previous?.run.fileText
      ? { fileId: previous.run.fileId, name: previous.run.fileName ?? '', text: previous.run.fileText, truncated: previous.run.fileTruncated }
      : null;

  const userMessage = [
    ...(file ? [file.text, '', FILE_INSTRUCTION, ''] : []),
    prompt,
    ...(previous && input.feedback ? ['', feedbackBlock(previous.outputs, input.feedback)] : []),
  ].join('\n');
  const turns: ChatTurn[] = [
    { role: 'system', content: systemOf(avatar) },
    { role: 'user', content: userMessage },
  ];

  // Words are held per output, one after the other: each takes min(cap, what is left), so a short balance
  // starts fewer outputs rather than none (docs/decisions.md "Super Fetch").
  const maxTokens = ctx.env.AI_MAX_ANSWER_TOKENS;
  const hold = holdRequest(actor, maxTokens);
  const holds: { holdId: string; wordLimit: number | null }[] = [];
  for (let i = 0; i < input.outputs; i++) {
    const holdId = randomUUID();
    try {
      const reservation = await reserveWords(ctx.db, hold, { type: 'super_fetch', id: holdId });
      holds.push({ holdId, wordLimit: reservation?.limit ?? null });
    } catch (err) {
      if (holds.length === 0) throw err; // 412 words_exhausted: nothing held, nothing saved
      break;
    }
  }

  let saved: RunWithOutputs;
  try {
    saved = await ctx.db.transaction(async (tx) => {
      const [run] = await tx
        .insert(superFetchRuns)
        .values({
          userId: actor.user.userId,
          avatarId: avatar.avatarId,
          inputs,
          prompt,
          feedbackInput: input.feedback?.input ?? null,
          feedbackLiked: input.feedback ? input.feedback.liked : null,
          feedbackRunId: previous?.run.runId ?? null,
          fileId: file?.fileId ?? null,
          fileName: file?.name ?? null,
          fileText: file?.text ?? null,
          fileTruncated: file?.truncated ?? false,
          requested: input.outputs,
        })
        .returning();
      const outputs = await tx
        .insert(superFetchOutputs)
        .values(holds.map((h, i) => ({ runId: run.runId, userId: actor.user.userId, position: i + 1, status: 'pending', holdId: h.holdId })))
        .returning();
      return { run, outputs };
    });
  } catch (err) {
    for (const h of holds) await releaseHold(ctx.db, { type: 'super_fetch', id: h.holdId }).catch(() => undefined);
    throw err;
  }

  startRun(ctx, {
    userId: actor.user.userId,
    runId: saved.run.runId,
    avatarId: avatar.avatarId,
    prompt,
    turns,
    maxTokens,
    outputs: saved.outputs.map((row) => ({ row, wordLimit: holds.find((h) => h.holdId === row.holdId)?.wordLimit ?? null })),
    log,
  });
  return saved;
}

/** GET /super_fetch/messages/{assistant_id}: the actor's runs with that avatar, newest first, paged. */
export async function listSuperFetchRuns(options: { db: Db; actor: Actor; assistantId: number; limit: number; offset: number }): Promise<{ runs: RunRow[]; outputs: OutputRow[]; total: number }> {
  const { db, actor } = options;
  assertPersonal(actor);
  const avatar = await avatarPolicy.require(db, actor, options.assistantId);
  const where = and(superFetchRunPolicy.visibleTo(actor), eq(superFetchRuns.avatarId, avatar.avatarId));
  const runs = await db.select().from(superFetchRuns).where(where).orderBy(desc(superFetchRuns.runId)).limit(options.limit).offset(options.offset);
  const [{ total }] = await db.select({ total: count() }).from(superFetchRuns).where(where);
  const outputs = runs.length
    ? await db
        .select()
        .from(superFetchOutputs)
        .where(
          inArray(
            superFetchOutputs.runId,
            runs.map((r) => r.runId),
          ),
        )
    : [];
  return { runs, outputs, total };
}

/** DELETE /super_fetch/messages/{assistant_id} (the page's clean action): the actor's runs with that avatar go. */
export async function clearSuperFetchRuns(options: { ctx: AppContext; actor: Actor; assistantId: number }): Promise<{ deleted: number }> {
  const { ctx, actor } = options;
  assertPersonal(actor);
  const avatar = await avatarPolicy.require(ctx.db, actor, options.assistantId);
  const where = and(superFetchRunPolicy.visibleTo(actor), eq(superFetchRuns.avatarId, avatar.avatarId));
  const runIds = (await ctx.db.select({ runId: superFetchRuns.runId }).from(superFetchRuns).where(where)).map((r) => r.runId);
  // Running outputs stop first (and are charged for what they wrote), then go with their runs.
  await stopRuns(ctx, runIds);
  const gone = await ctx.db.delete(superFetchRuns).where(where).returning({ runId: superFetchRuns.runId });
  return { deleted: gone.length };
}

/** POST /super_fetch/rate {output_id, liked}: true, false or null (cleared); a running output waits (409). */
export async function rateSuperFetchOutput(options: { db: Db; actor: Actor; outputId: number; liked: boolean | null }): Promise<OutputRow> {
  const { db, actor } = options;
  assertPersonal(actor);
  const row = await superFetchOutputPolicy.require(db, actor, options.outputId);
  // A running output is not refused for good: it can be rated once it has finished (409, not 403).
  if (!superFetchOutputPolicy.can(actor, 'rate', row)) throw new AppError(409, 'super_fetch_output_pending', 'super_fetch_output_pending');
  const [updated] = await db.update(superFetchOutputs).set({ liked: options.liked }).where(eq(superFetchOutputs.outputId, row.outputId)).returning();
  return updated;
}

/**
 * POST /super_fetch/stop {run_id, output_id?} (issue 30 item 1): the user's Stop. Each of the run's outputs
 * still running (or only `output_id`, which must be one of the run's) ends as 'stopped', keeping and being
 * charged for the text it wrote; its end event goes to every open tab (generate.ts). Stopping an output that
 * has ended changes nothing. Returns the run with its outputs as they are then: an output running on another
 * node is told to stop there, and its end arrives over the realtime channel.
 */
export async function stopSuperFetch(options: { ctx: AppContext; actor: Actor; runId: number; outputId?: number | null }): Promise<RunWithOutputs> {
  const { ctx, actor } = options;
  assertPersonal(actor);
  const run = await superFetchRunPolicy.require(ctx.db, actor, options.runId);
  const outputsOf = () => ctx.db.select().from(superFetchOutputs).where(eq(superFetchOutputs.runId, run.runId));
  const outputs = await outputsOf();
  const chosen = options.outputId ? outputs.filter((o) => o.outputId === options.outputId) : outputs;
  if (chosen.length === 0) throw notFound();
  const running = chosen.filter((o) => isActive(o.status) && superFetchOutputPolicy.can(actor, 'stop', o));
  if (running.length === 0) return { run, outputs };
  await Promise.all(running.map((o) => requestStop(ctx, outputStopKey(o.outputId))));
  return { run, outputs: await outputsOf() };
}
