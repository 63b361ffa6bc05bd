// Prompt enhancement (spec part 2 §4, §7: a message post with enhance true): the model rewrites the
// prompt; deltas go out as message_stream_enhance and the whole text as message_stream_enhance_end.
// Nothing is saved as a message (the result replaces the prompt in the UI). Like an answer it first holds
// its words (credits/holds.ts), stops at its hold, and is charged once for what it wrote — also when it is
// stopped or fails part-way.
import {
  SocketEvents,
  type MessageStreamEnhanceEndPayload,
  type MessageStreamEnhancePayload,
  type ProviderErrorPayload,
} from '@pluma/common/events';
import { WordBudget } from '@pluma/common/rules/answer-words';
import { countWords } from '@pluma/common/rules/token-estimate';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import { ProviderError, type ChatTurn } from '../../platform/ai/types';
import { chargeWords, reserveWords, type HoldRequest } from '../credits';
import { FrameBatcher } from './frame-batcher';
import { describeFailure, GENERATION_TIMEOUT_MS, MAX_ANSWER_TOKENS, providerErrorEvent, scopeCredentials, type GenerationLog } from './generation';
import { track } from '../../platform/ai/generation-registry';

export const ENHANCE_INSTRUCTION =
  'You improve prompts for an AI writing assistant. Rewrite the user\'s prompt so it is clear, specific and complete: ' +
  'state the goal, audience, tone and format when they can be inferred. Keep the language of the original prompt. ' +
  'Answer with the improved prompt only, without quotes, comments or a preface.';

export interface EnhanceJob {
  userId: number;
  conversationId: number;
  /** The conversation's organization (null = Personal): its own AI key, when set, is used. */
  organizationId: number | null;
  model: string | null;
  prompt: string;
  log: GenerationLog;
  /** Its word hold (credits/holds.ts holdRequest). */
  hold: HoldRequest;
}

export function enhanceTurns(prompt: string): ChatTurn[] {
  return [
    { role: 'system', content: ENHANCE_INSTRUCTION },
    { role: 'user', content: prompt },
  ];
}

/**
 * Holds its words (412 words_exhausted when none are left), then starts the enhancement in the background;
 * returns its id (carried by its events).
 */
export async function startEnhancement(ctx: AppContext, job: EnhanceJob): Promise<string> {
  const enhanceId = randomUUID();
  // A fresh id holds nothing yet, so the reservation is not null.
  const limit = (await reserveWords(ctx.db, job.hold, { type: 'enhance', id: enhanceId }))?.limit ?? null;
  track(ctx, { key: `enhance:${enhanceId}`, userId: job.userId, conversationId: job.conversationId, messageId: null }, (signal) =>
    runEnhancement(ctx, job, enhanceId, limit, signal).catch((err: unknown) => job.log.error({ err, enhanceId }, 'prompt enhancement failed')),
  );
  return enhanceId;
}

async function runEnhancement(ctx: AppContext, job: EnhanceJob, enhanceId: string, wordLimit: number | null, stopSignal: AbortSignal): Promise<void> {
  const ai = ctx.services.ai;
  const base = { enhance_id: enhanceId, conversation_id: job.conversationId };
  const emit = (event: string, payload: unknown) => ctx.services.realtime?.emitToUser(job.userId, event, payload);
  const signal = AbortSignal.any([stopSignal, AbortSignal.timeout(GENERATION_TIMEOUT_MS)]);
  const frames = new FrameBatcher((delta) =>
    emit(SocketEvents.messageStreamEnhance, { ...base, content: delta, stream: true, isThread: false } satisfies MessageStreamEnhancePayload),
  );
  const budget = wordLimit === null ? null : new WordBudget(wordLimit);
  let text = '';
  // Charged once whatever the outcome, for the words written (the charge releases the hold).
  const charge = () => chargeWords(ctx.db, { userId: job.userId, sourceType: 'enhance', sourceId: enhanceId, words: countWords(text) });
  try {
    if (!ai) throw new ProviderError('demo', 503, 'ai_unavailable', 'The AI service is not configured.');
    const credentials = await scopeCredentials(ctx, job.organizationId);
    for await (const event of ai.stream({ model: job.model, messages: enhanceTurns(job.prompt), maxTokens: MAX_ANSWER_TOKENS, signal, credentials })) {
      if (signal.aborted) break;
      if (event.type === 'delta' && event.text) {
        const kept = budget ? budget.take(event.text) : event.text;
        text += kept;
        if (kept) frames.push(kept);
        // The hold is written: the enhancement ends here.
        if (budget?.exhausted) break;
      }
    }
    frames.flush();
    await charge();
    if (signal.aborted) return;
    const content = text.trim();
    emit(SocketEvents.messageStreamEnhanceEnd, { ...base, content, stream: true, isThread: false } satisfies MessageStreamEnhanceEndPayload);
  } catch (err) {
    frames.flush();
    await charge();
    if (signal.aborted && !(err instanceof ProviderError)) return;
    const failure = describeFailure(err);
    const provider = err instanceof ProviderError ? err.provider : ((await ai?.providerOf(job.model).catch(() => 'openai' as const)) ?? 'openai');
    emit(providerErrorEvent(provider), { ...failure, provider, message_id: null, ...base } satisfies ProviderErrorPayload);
  }
}
