// Writing an output's text (issue 13 item 5): with a finished training's model, through the official SDK on
// the user's own key (the model lives in their provider account); otherwise through the app's AI service on
// the user's own key when they have one, else the operator's (spec part 1 §1: avatars run on the user's key).
// In the background after the request answered: each output is saved when done (or failed) and announced
// to its author — `output`, or `document_avatar` for the editor — and a follow-up as `thread_messages`.
import { SocketEvents } from '@pluma/common/events';
import type { OutputEventPayload, ThreadMessagesPayload } from '@pluma/common/outputs';
import { asc, eq, lt, and } from 'drizzle-orm';
import OpenAI from 'openai';
import type { AppContext } from '../../context';
import { outputMessages, outputs } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { modelText } from '../../platform/ai/model-text';
import type { ChatTurn } from '../../platform/ai/types';
import { userKeyClient } from '../../platform/ai/user-key-client';
import { presentOutput, presentThreadMessage } from './present';

export interface ModelChoice {
  /** A fine-tuned model (the user's key is required), or null for the app's default model. */
  fineTuned: string | null;
  apiKey: string | null;
}

const MAX_ANSWER_TOKENS = 2000;

/** The whole answer of one chat completion. Throws the provider's error. */
export async function completeText(ctx: AppContext, choice: ModelChoice, turns: ChatTurn[]): Promise<{ text: string; model: string | null }> {
  if (choice.fineTuned && choice.apiKey) {
    const client = userKeyClient(ctx, choice.apiKey);
    const answer = await client.chat.completions.create({ model: choice.fineTuned, messages: turns, max_completion_tokens: MAX_ANSWER_TOKENS });
    return { text: modelText(answer.choices[0]?.message?.content ?? ''), model: choice.fineTuned };
  }
  const ai = ctx.services.ai;
  if (!ai) throw new Error('AI service is not configured');
  let text = '';
  for await (const event of ai.stream({ model: null, messages: turns, maxTokens: MAX_ANSWER_TOKENS, credentials: choice.apiKey ? { openaiApiKey: choice.apiKey } : undefined })) {
    if (event.type === 'delta') text += event.text;
  }
  return { text, model: null };
}

const errorCodeOf = (err: unknown) =>
  err instanceof OpenAI.APIError ? String(err.code ?? err.type ?? `provider_${err.status}`) : ((err as { code?: string })?.code ?? 'generation_failed');

/** Writes each pending output in turn (in the background: errors are saved on the output, and logged). */
export interface Log {
  error(obj: unknown, msg?: string): void;
}

export async function writeOutputs(options: { ctx: AppContext; log: Log; actor: Actor; outputIds: number[]; system: string; choice: ModelChoice; event: 'output' | 'document_avatar' }) {
  const { ctx, log, actor, outputIds, system, choice, event } = options;
  for (const outputId of outputIds) {
    const [row] = await ctx.db.select().from(outputs).where(eq(outputs.outputId, outputId)).limit(1);
    if (!row) continue; // deleted meanwhile
    let changes: Partial<typeof outputs.$inferInsert>;
    try {
      const { text, model } = await completeText(ctx, choice, [
        { role: 'system', content: system },
        { role: 'user', content: row.prompt },
      ]);
      changes = { content: text, status: 'done', model: model ?? row.model, errorCode: null };
    } catch (err) {
      // spec part 2 §8: failures on output generation are only logged (the output shows it failed).
      log.error({ err, outputId }, 'output generation failed');
      changes = { content: '', status: 'failed', errorCode: errorCodeOf(err) };
    }
    const [saved] = await ctx.db
      .update(outputs)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(outputs.outputId, outputId))
      .returning();
    if (!saved) continue;
    const payload: OutputEventPayload = { output_id: saved.outputId, avatar_id: saved.avatarId, content: saved.content, isThread: false, stream: false, output: presentOutput(actor, saved) };
    ctx.services.realtime?.emitToUser(actor.user.userId, event === 'document_avatar' ? SocketEvents.documentAvatar : SocketEvents.output, payload);
  }
}

/** Answers the newest follow-up of an output's thread, then sends the whole thread (`thread_messages`). */
export async function answerThread(options: { ctx: AppContext; log: Log; actor: Actor; outputId: number; pendingId: number; system: string; choice: ModelChoice }) {
  const { ctx, log, actor, outputId, pendingId, system, choice } = options;
  const [output] = await ctx.db.select().from(outputs).where(eq(outputs.outputId, outputId)).limit(1);
  if (!output) return;
  const history = await ctx.db
    .select()
    .from(outputMessages)
    .where(and(eq(outputMessages.outputId, outputId), lt(outputMessages.outputMessageId, pendingId)))
    .orderBy(asc(outputMessages.outputMessageId));
  const turns: ChatTurn[] = [
    { role: 'system', content: system },
    { role: 'user', content: output.prompt },
    { role: 'assistant', content: output.content ?? '' },
    ...history.filter((m) => m.content).map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content ?? '' })),
  ];
  let content: string;
  try {
    content = (await completeText(ctx, choice, turns)).text;
  } catch (err) {
    log.error({ err, outputId }, 'output thread answer failed');
    content = '';
  }
  await ctx.db.update(outputMessages).set({ content }).where(eq(outputMessages.outputMessageId, pendingId));
  const thread = await ctx.db.select().from(outputMessages).where(eq(outputMessages.outputId, outputId)).orderBy(asc(outputMessages.outputMessageId));
  const payload: ThreadMessagesPayload = { output_id: outputId, avatar_id: output.avatarId, isThread: true, threadMessages: thread.map(presentThreadMessage) };
  ctx.services.realtime?.emitToUser(actor.user.userId, SocketEvents.threadMessages, payload);
}
