// Writing an answer (DESIGN.md §4, §6): runs on the server apart from the request, sends deltas to room
// user-{id} in batched frames, saves the text as it streams (every 500 ms, in one UPDATE with every other
// answer streaming in the process: streaming-saves.ts), and finalizes once with its word charge. A provider error keeps the
// partial text; so does the user's Stop (stop-service.ts), which ends the answer as done with finish_reason 'stopped'.
import {
  SocketEvents,
  type MessagePayload,
  type MessageStreamEndPayload,
  type MessageStreamPayload,
  type ProviderErrorPayload,
} from '@pluma/common/events';
import { STOPPED_FINISH_REASON, type MessageCitation } from '@pluma/common/messages-api';
import { WordBudget } from '@pluma/common/rules/answer-words';
import { countWords } from '@pluma/common/rules/token-estimate';
import type { AppContext } from '../../context';
import { organizationCredentials } from '../../platform/ai/organization-keys';
import { streamOpenAiChat } from '../../platform/ai/openai-chat';
import { ProviderError, type AiService, type ChatStreamEvent, type ChatStreamRequest, type ChatTurn, type ProviderCredentials, type ProviderName } from '../../platform/ai/types';
import { readOrganizationOpenAiKey } from '../organizations';
import { userKeyClient } from '../../platform/ai/user-key-client';
import { withAttachedFiles } from './attachments';
import { avatarTurns, type AvatarAnswer } from './avatar-chat';
import { finalizeMessage } from './finalize';
import { startEarly, type EarlyStream } from './early-answer';
import { FrameBatcher, frameIntervalFor } from './frame-batcher';
import { presentMessage } from './present';
import { generationsOf, messageKey, track } from '../../platform/ai/generation-registry';
import { isStoppedByUser } from '../../platform/ai/stops';
import { streamingSaves } from './streaming-saves';
/**
 * Longest answer asked of a model in one go; a longer one stops with finish_reason 'length' (then Continue).
 * Answers use the deployment's AI_MAX_ANSWER_TOKENS (default this value); prompt enhancement uses this.
 */
export const MAX_ANSWER_TOKENS = 2048;
/** A generation that has not finished after this long is stopped (and saved as interrupted). */
export const GENERATION_TIMEOUT_MS = 10 * 60_000;

export interface GenerationJob {
  userId: number;
  conversationId: number;
  /** The conversation's organization (null = Personal): its own AI key, when set, writes the answer. */
  organizationId: number | null;
  messageId: number;
  model: string | null;
  turns: ChatTurn[];
  /** Text the message already has (a continuation appends to it). */
  prefix: string;
  /** false: no delta frames; the finished answer arrives as one `message` event. */
  stream: boolean;
  /**
   * Words the answer may write: its word hold (credits/holds.ts). Reaching it ends the answer as cut off
   * (finish_reason 'length'). null = no limit (staff, unlimited balance).
   */
  wordLimit: number | null;
  log: GenerationLog;
  /** Answering as an avatar (avatar-chat.ts): its context, knowledge and citations. */
  avatar?: AvatarAnswer | null;
  /** false: the conversation has no attached files, so they are not looked up (unset: looked up). */
  attachedFiles?: boolean;
  /**
   * searchOnInternet (features/web-search): run first, inside the generation, so a Stop during the search
   * ends it (no answer is written, no words charged). Returns the turns with the sources; null: the answer
   * is no longer pending (deleted, or stopped on another node): nothing is written.
   */
  ground?: (signal: AbortSignal) => Promise<ChatTurn[] | null>;
  /**
   * The provider request, already sent while the rows were saved (startAnswerEarly): only for an answer
   * whose turns need nothing more (no search, no avatar, no attached files).
   */
  early?: EarlyStream<ChatStreamEvent>;
}

export interface GenerationLog {
  error(details: object, message: string): void;
}

/**
 * The keys an AI call in this scope uses (spec part 2 §3 Organization `openai_api_key`): the organization's
 * own when it has one, else undefined (the operator's). Personal scope costs nothing; an organization's key
 * is cached for a few seconds (platform/ai/organization-keys.ts), so the send path waits for no query.
 */
export function scopeCredentials(ctx: AppContext, organizationId: number | null): Promise<ProviderCredentials | undefined> {
  return organizationCredentials(ctx, organizationId, readOrganizationOpenAiKey);
}

/** Providers name their finish reasons differently; the spec knows 'stop' and 'length'. */
export function normalizeFinishReason(reason: string | null | undefined): string {
  if (reason === 'length' || reason === 'max_tokens') return 'length';
  return 'stop';
}

export function providerErrorEvent(provider: ProviderName): typeof SocketEvents.openaiError | typeof SocketEvents.anthropicError {
  return provider === 'anthropic' ? SocketEvents.anthropicError : SocketEvents.openaiError;
}

/** The provider's status, message and code; anything else is reported as the provider's 500. */
export function describeFailure(err: unknown): { status: number; message: string; code: string | null } {
  if (err instanceof ProviderError) return { status: err.status, message: err.message, code: err.code };
  return { status: 500, message: 'The AI provider could not complete the answer.', code: null };
}

function emit(ctx: AppContext, userId: number, event: string, payload: unknown): void {
  ctx.services.realtime?.emitToUser(userId, event, payload);
}

/**
 * The provider's stream of one answer. The avatar's trained model (avatar-chat.ts) goes to OpenAI through
 * the official SDK on the actor's own key: the app's AI service offers only the operator's models and would
 * put a fine-tuned name on its default. Anything else goes through the AI service with the scope's keys.
 */
async function* answerStream(ctx: AppContext, ai: AiService, job: Pick<GenerationJob, 'avatar' | 'model' | 'organizationId'>, request: Omit<ChatStreamRequest, 'model' | 'credentials'>): AsyncGenerator<ChatStreamEvent> {
  const trained = job.avatar?.trained;
  if (trained && job.model === trained.model) {
    return yield* streamOpenAiChat(userKeyClient(ctx, trained.apiKey), 'openai', trained.model, request);
  }
  const credentials = await scopeCredentials(ctx, job.organizationId);
  return yield* ai.stream({ ...request, model: job.model, credentials });
}

/**
 * Sends a plain new answer's provider request now, before its rows are saved (early-answer.ts); the
 * generation takes it over (`job.early`) or the caller cancels it when saving fails.
 */
export function startAnswerEarly(ctx: AppContext, ai: AiService, job: Pick<GenerationJob, 'model' | 'organizationId' | 'turns'>): EarlyStream<ChatStreamEvent> {
  return startEarly((signal) => answerStream(ctx, ai, { ...job, avatar: null }, { messages: job.turns, maxTokens: ctx.env.AI_MAX_ANSWER_TOKENS, signal }));
}

/** Starts writing the answer in the background; returns at once. */
export function startGeneration(ctx: AppContext, job: GenerationJob): void {
  track(ctx, { key: messageKey(job.messageId), userId: job.userId, conversationId: job.conversationId, messageId: job.messageId }, (signal) =>
    runGeneration(ctx, job, signal).catch((err: unknown) => {
      // Left active, the message is marked interrupted by the sweep (or at the next boot).
      job.log.error({ err, messageId: job.messageId }, 'generation could not be saved');
    }),
  );
}

async function runGeneration(ctx: AppContext, job: GenerationJob, stopSignal: AbortSignal): Promise<void> {
  const ai = ctx.services.ai;
  const base = { message_id: job.messageId, conversation_id: job.conversationId };
  let appended = '';
  let finishReason: string | null = null;
  let citations: MessageCitation[] = [];
  const local = new AbortController();
  const budget = job.wordLimit === null ? null : new WordBudget(job.wordLimit);
  const signal = AbortSignal.any([stopSignal, local.signal, AbortSignal.timeout(GENERATION_TIMEOUT_MS)]);
  // Its text is saved with every other answer streaming in the process (streaming-saves.ts); if its row is
  // gone or no longer active (deleted, swept), it stops generating.
  const saves = streamingSaves(ctx);
  saves.track(job.messageId, { text: () => job.prefix + appended, gone: () => local.abort(), log: job.log });
  const running = generationsOf(ctx);
  const frames = new FrameBatcher(
    (delta) => {
      emit(ctx, job.userId, SocketEvents.messageStream, { ...base, content: delta, stream: true, isThread: false } satisfies MessageStreamPayload);
    },
    // Frames are spaced out when many answers stream at once (frame-batcher.ts).
    () => frameIntervalFor(running.size),
  );
  /** Saves the answer as done (its text so far, its words charged) and tells the user's tabs it ended. */
  const finishAnswer = async (reason: string): Promise<void> => {
    const row = await finalizeMessage(ctx, {
      messageId: job.messageId,
      status: 'done',
      finishReason: reason,
      content: job.prefix + appended,
      words: countWords(appended),
    });
    if (!row) return;
    const message = presentMessage(row, citations);
    const content = row.content ?? '';
    if (job.stream) {
      emit(ctx, job.userId, SocketEvents.messageStreamEnd, {
        ...base,
        content,
        finish_reason: row.finishReason,
        stream: true,
        isThread: false,
        message,
      } satisfies MessageStreamEndPayload);
    } else {
      emit(ctx, job.userId, SocketEvents.message, { ...base, content, stream: false, isThread: false, message } satisfies MessagePayload);
    }
  };

  try {
    if (!ai) throw new ProviderError('demo', 503, 'ai_unavailable', 'The AI service is not configured.');
    let turns = job.turns;
    if (job.ground) {
      const grounded = await job.ground(signal);
      if (signal.aborted) throw signal.reason ?? new Error('aborted');
      if (!grounded) return;
      turns = grounded;
    }
    if (job.avatar) ({ turns, citations } = await avatarTurns(ctx, job.avatar, turns, job.messageId));
    // The conversation's attached files: their text (whole or the relevant passages) and images (issue 27 item 2).
    const prompt = turns.findLast((t) => t.role === 'user')?.content ?? '';
    if (job.attachedFiles !== false) turns = await withAttachedFiles(ctx, { conversationId: job.conversationId, userId: job.userId, model: job.model, prompt, language: job.avatar?.language ?? null, turns });
    const events = job.early ? job.early.take(signal) : answerStream(ctx, ai, job, { messages: turns, maxTokens: ctx.env.AI_MAX_ANSWER_TOKENS, signal });
    for await (const event of events) {
      if (signal.aborted) break;
      if (event.type === 'delta') {
        // An empty chunk carries nothing; no frame is sent for it (spec part 2 §4: clients ignore them).
        if (!event.text) continue;
        const text = budget ? budget.take(event.text) : event.text;
        appended += text;
        if (job.stream && text) frames.push(text);
        if (budget?.exhausted) {
          // The hold is written: the answer stops here, to be continued with new words (docs/decisions.md).
          finishReason = 'length';
          break;
        }
      } else {
        finishReason = event.finishReason;
      }
    }
    if (signal.aborted) throw signal.reason ?? new Error('aborted');
    frames.flush();
    await saves.untrack(job.messageId);
    await finishAnswer(normalizeFinishReason(finishReason));
  } catch (err) {
    frames.flush();
    await saves.untrack(job.messageId);
    if (isStoppedByUser(stopSignal)) {
      // The user's Stop (stop-service.ts): the text so far is the answer, charged for the words written
      // (the rest of the hold released), and every open tab gets the usual end event.
      await finishAnswer(STOPPED_FINISH_REASON);
      return;
    }
    if (signal.aborted && !(err instanceof ProviderError)) {
      // Stopped by us (deleted, shutting down, timed out): keep the text, charge what was written.
      await finalizeMessage(ctx, { messageId: job.messageId, status: 'interrupted', finishReason: 'interrupted', content: job.prefix + appended, words: countWords(appended) });
      return;
    }
    const failure = describeFailure(err);
    const row = await finalizeMessage(ctx, {
      messageId: job.messageId,
      status: 'failed',
      finishReason: 'error',
      errorCode: failure.code ?? `http_${failure.status}`,
      content: job.prefix + appended,
      words: countWords(appended),
    });
    if (!row) return;
    const provider = ai && err instanceof ProviderError ? err.provider : ((await ai?.providerOf(job.model).catch(() => 'openai' as const)) ?? 'openai');
    emit(ctx, job.userId, providerErrorEvent(provider), { ...failure, provider, ...base } satisfies ProviderErrorPayload);
  } finally {
    void saves.untrack(job.messageId);
    // Not taken (the generation failed before its stream): the early request ends too.
    job.early?.cancel();
  }
}
