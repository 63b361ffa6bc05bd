// Prompt enhancement (spec part 2 §4, §7: a message post with enhance true): the model rewrites the
// prompt; deltas go out as message_stream_enhance and the whole text as message_stream_enhance_end.
// Nothing is saved as a message (the result replaces the prompt in the UI); its words are charged once.
import {
  SocketEvents,
  type MessageStreamEnhanceEndPayload,
  type MessageStreamEnhancePayload,
  type ProviderErrorPayload,
} from '@pluma/common/events';
import { countWords } from '@pluma/common/rules/token-estimate';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import { ProviderError, type ChatTurn } from '../../platform/ai/types';
import { chargeWords } from '../credits/ledger';
import { FrameBatcher } from './frame-batcher';
import { describeFailure, GENERATION_TIMEOUT_MS, MAX_ANSWER_TOKENS, providerErrorEvent, type GenerationLog } from './generation';
import { track } from './registry';

export const ENHANCE_INSTRUCTION =
  'You improve prompts for an AI writing assistant. Rewrite the user\'s prompt so it is clear, specific and complete: ' +
  'state the goal, audience, tone and format when they can be inferred. Keep the language of the original prompt. ' +
  'Answer with the improved prompt only, without quotes, comments or a preface.';

export interface EnhanceJob {
  userId: number;
  conversationId: number;
  model: string | null;
  prompt: string;
  log: GenerationLog;
}

export function enhanceTurns(prompt: string): ChatTurn[] {
  return [
    { role: 'system', content: ENHANCE_INSTRUCTION },
    { role: 'user', content: prompt },
  ];
}

/** Starts an enhancement in the background; returns its id (carried by its events). */
export function startEnhancement(ctx: AppContext, job: EnhanceJob): string {
  const enhanceId = randomUUID();
  track(ctx, { key: `enhance:${enhanceId}`, userId: job.userId, conversationId: job.conversationId, messageId: null }, (signal) =>
    runEnhancement(ctx, job, enhanceId, signal).catch((err: unknown) => job.log.error({ err, enhanceId }, 'prompt enhancement failed')),
  );
  return enhanceId;
}

async function runEnhancement(ctx: AppContext, job: EnhanceJob, enhanceId: string, stopSignal: AbortSignal): Promise<void> {
  const ai = ctx.services.ai;
  const base = { enhance_id: enhanceId, conversation_id: job.conversationId };
  const emit = (event: string, payload: unknown) => ctx.services.realtime?.emitToUser(job.userId, event, payload);
  const signal = AbortSignal.any([stopSignal, AbortSignal.timeout(GENERATION_TIMEOUT_MS)]);
  const frames = new FrameBatcher((delta) =>
    emit(SocketEvents.messageStreamEnhance, { ...base, content: delta, stream: true, isThread: false } satisfies MessageStreamEnhancePayload),
  );
  let text = '';
  try {
    if (!ai) throw new ProviderError('demo', 503, 'ai_unavailable', 'The AI service is not configured.');
    for await (const event of ai.stream({ model: job.model, messages: enhanceTurns(job.prompt), maxTokens: MAX_ANSWER_TOKENS, signal })) {
      if (signal.aborted) break;
      if (event.type === 'delta' && event.text) {
        text += event.text;
        frames.push(event.text);
      }
    }
    frames.flush();
    if (signal.aborted) return;
    const content = text.trim();
    await ctx.db.transaction((tx) =>
      chargeWords(tx, { userId: job.userId, sourceType: 'enhance', sourceId: enhanceId, words: countWords(content) }),
    );
    emit(SocketEvents.messageStreamEnhanceEnd, { ...base, content, stream: true, isThread: false } satisfies MessageStreamEnhanceEndPayload);
  } catch (err) {
    frames.flush();
    if (signal.aborted && !(err instanceof ProviderError)) return;
    const failure = describeFailure(err);
    const provider = err instanceof ProviderError ? err.provider : ((await ai?.providerOf(job.model).catch(() => 'openai' as const)) ?? 'openai');
    emit(providerErrorEvent(provider), { ...failure, provider, message_id: null, ...base } satisfies ProviderErrorPayload);
  }
}
