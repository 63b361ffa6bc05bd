// Retry and Continue of answers that did not finish (issue "Hardening" item 8): a failed or interrupted
// answer written again REPLACES its own row (one answer, not two); an interrupted answer can be continued
// like one cut off at the length limit; Regenerate of a finished answer uses the prompt as edited.
// Through the real app, the real OpenAI SDK and the wire-protocol emulator.
import { type RunningAiEmulators } from '@pluma/emulators/index';
import { SocketEvents, type ProviderErrorPayload } from '@pluma/common/events';
import { countWords } from '@pluma/common/rules/token-estimate';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, messages, users } from '../../db/schema';
import { nextEvent, type ClientSocket } from '../../platform/realtime/socket-test-helpers';
import { buildUser, type BuiltUser } from '../../test/factories';
import { endOf, useChatApp } from '../../test/chat-app';
import { type TestApp } from '../../test/test-app';
import { abortMessageGeneration } from '../../platform/ai/generation-registry';

describe('retry and continue of unfinished answers', () => {
  const chat = useChatApp();
  const { connect, newConversation, send, messageRow } = chat;
  let t: TestApp;
  let ai: RunningAiEmulators;
  beforeAll(() => {
    ({ t, ai } = chat);
  });

  const answersOf = async (conversationId: number) =>
    t.ctx.db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.role, 'assistant')));
  const ledgerOf = (who: BuiltUser) =>
    t.ctx.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, who.user.userId), eq(creditLedger.sourceType, 'message')));
  const balance = async (who: BuiltUser) => (await t.ctx.db.select().from(users).where(eq(users.userId, who.user.userId)))[0].availableWords;
  /** A slow answer stopped by the server part-way (as on a restart): saved as interrupted with its text. */
  const interruptedAnswer = async (who: BuiltUser, socket: ClientSocket, conversationId: number, prompt: string) => {
    const firstFrame = nextEvent(socket, SocketEvents.messageStream, 15_000);
    const res = await send(who, { content: prompt, conversation_id: conversationId });
    expect(res.statusCode).toBe(201);
    const id = res.json().assistant_message.message_id as number;
    await firstFrame;
    // Saved text first (the row is written every half second), then the stop.
    await expect.poll(async () => (await messageRow(id)).content?.length ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
    await abortMessageGeneration(t.ctx, id);
    const row = await messageRow(id);
    expect(row).toMatchObject({ status: 'interrupted', finishReason: 'interrupted' });
    return { id, userMessageId: res.json().user_message.message_id as number, row };
  };

  it('Retry on a failed answer writes it again in the same row: one answer, its words charged once more', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const failed = nextEvent<ProviderErrorPayload>(socket, SocketEvents.openaiError, 15_000);
    const res = await send(owner, { content: '[words:60] [stream-error:20] Break part-way', conversation_id: conversationId });
    const id = res.json().assistant_message.message_id as number;
    await failed;
    const before = await messageRow(id);
    expect(before).toMatchObject({ status: 'failed', wordsCharged: 20 });
    const balanceBefore = await balance(owner);

    // The prompt still carries [stream-error:20], so the emulator is told to behave through the edited prompt.
    const edit = await t.app.inject({ method: 'PUT', url: '/api/messages', headers: owner.auth, payload: { message_id: res.json().user_message.message_id, content: '[words:30] Now answer fully' } });
    expect(edit.statusCode).toBe(200);

    const retried = await send(owner, { conversation_id: conversationId, message_id: id, regenerate: true });
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ user_message: null, assistant_message: { message_id: id, status: 'pending', content: null, finish_reason: null, error_code: null, prompt: '[words:30] Now answer fully' } });
    const end = await endOf(socket, id);
    expect(countWords(end.content)).toBe(30);
    expect(end.message).toMatchObject({ message_id: id, status: 'done', finish_reason: 'stop', words_charged: 30 });

    // One answer to the prompt, not two; the model was asked the prompt as edited.
    expect((await answersOf(conversationId)).map((m) => m.messageId)).toEqual([id]);
    const sent = (ai.openai.stats.lastRequest?.messages ?? []) as Array<{ role: string; content: string }>;
    expect(sent.at(-1)).toEqual({ role: 'user', content: '[words:30] Now answer fully' });
    // The failed attempt's 20 words stay charged; the new text is charged under its own ledger source.
    expect((await ledgerOf(owner)).map((e) => [e.sourceId, e.words]).sort()).toEqual([
      [String(id), -20],
      [`${id}:continue:1`, -30],
    ]);
    expect(await balance(owner)).toBe(balanceBefore - 30);

    // Without `regenerate` a failed answer is written again in place too (it cannot be continued).
    const refused = nextEvent<ProviderErrorPayload>(socket, SocketEvents.openaiError, 15_000);
    const other = await send(owner, { content: '[error:400] Fail at once', conversation_id: conversationId });
    const otherId = other.json().assistant_message.message_id as number;
    await refused;
    expect(await messageRow(otherId)).toMatchObject({ status: 'failed', content: '' });
    await t.app.inject({ method: 'PUT', url: '/api/messages', headers: owner.auth, payload: { message_id: other.json().user_message.message_id, content: '[words:10] Short' } });
    const plain = await send(owner, { conversation_id: conversationId, message_id: otherId });
    expect(plain.statusCode).toBe(200);
    expect(plain.json().assistant_message.message_id).toBe(otherId);
    expect(countWords((await endOf(socket, otherId)).content)).toBe(10);
    expect((await answersOf(conversationId)).map((m) => m.messageId).sort((a, b) => a - b)).toEqual([id, otherId]);
  });

  it('Retry on an interrupted answer replaces it; Continue on one appends to its text and charges only the new words', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);

    // Continue: the saved text stays and the model is asked to go on from it.
    const first = await interruptedAnswer(owner, socket, conversationId, '[words:200] [rate:40] A slow story');
    const partial = first.row.content ?? '';
    const charged = first.row.wordsCharged ?? 0;
    expect(charged).toBe(countWords(partial));
    const continued = await send(owner, { conversation_id: conversationId, message_id: first.id });
    expect(continued.statusCode).toBe(200);
    expect(continued.json().assistant_message).toMatchObject({ message_id: first.id, status: 'pending', content: partial });
    const end = await endOf(socket, first.id);
    expect(end.content.startsWith(partial)).toBe(true);
    const added = end.content.slice(partial.length);
    expect(countWords(added)).toBeGreaterThan(0);
    expect(end.message).toMatchObject({ status: 'done', finish_reason: 'stop', words_charged: charged + countWords(added) });
    const sent = (ai.openai.stats.lastRequest?.messages ?? []) as Array<{ role: string; content: string }>;
    expect(sent.at(-2)).toEqual({ role: 'assistant', content: partial });
    expect(sent.at(-1)?.content).toMatch(/Continue/);
    expect((await ledgerOf(owner)).map((e) => e.sourceId).sort()).toEqual([String(first.id), `${first.id}:continue:1`]);

    // Retry (regenerate): the interrupted text is replaced in the same row.
    const second = await interruptedAnswer(owner, socket, conversationId, '[words:150] [rate:40] Another slow one');
    const retried = await send(owner, { conversation_id: conversationId, message_id: second.id, regenerate: true });
    expect(retried.statusCode).toBe(200);
    expect(retried.json().assistant_message).toMatchObject({ message_id: second.id, status: 'pending', content: null });
    const rewritten = await endOf(socket, second.id, 30_000);
    expect(rewritten.content.startsWith(second.row.content ?? '')).toBe(true); // the emulator answers a prompt the same way
    expect(countWords(rewritten.content)).toBe(150);
    expect(rewritten.message).toMatchObject({ message_id: second.id, status: 'done', words_charged: 150 });
    expect((await answersOf(conversationId)).map((m) => m.messageId).sort((a, b) => a - b)).toEqual([first.id, second.id]);
  });

  it('two concurrent Retry clicks write the answer once: the second gets 409', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const { id } = await interruptedAnswer(owner, socket, conversationId, '[words:100] [rate:40] Slow');
    const ended = endOf(socket, id, 30_000);
    const [a, b] = await Promise.all([
      send(owner, { conversation_id: conversationId, message_id: id, regenerate: true }),
      send(owner, { conversation_id: conversationId, message_id: id, regenerate: true }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    await ended;
    expect(await answersOf(conversationId)).toHaveLength(1);
  });

  it('Regenerate of a finished answer (also one cut off) adds a new answer to the prompt as edited', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const res = await send(owner, { content: '[words:20] Original prompt', conversation_id: conversationId });
    const id = res.json().assistant_message.message_id as number;
    await endOf(socket, id);
    const edit = await t.app.inject({ method: 'PUT', url: '/api/messages', headers: owner.auth, payload: { message_id: res.json().user_message.message_id, content: '[words:25] Edited prompt' } });
    expect(edit.statusCode).toBe(200);

    const again = await send(owner, { conversation_id: conversationId, message_id: id, regenerate: true });
    expect(again.statusCode).toBe(201);
    const regenerated = again.json().assistant_message;
    expect(regenerated.message_id).not.toBe(id);
    expect(regenerated).toMatchObject({ prompt: '[words:25] Edited prompt', user_message_id: res.json().user_message.message_id });
    expect(countWords((await endOf(socket, regenerated.message_id)).content)).toBe(25);
    const sent = (ai.openai.stats.lastRequest?.messages ?? []) as Array<{ role: string; content: string }>;
    expect(sent).toEqual([{ role: 'user', content: '[words:25] Edited prompt' }]);
    // The first answer is untouched.
    expect(await messageRow(id)).toMatchObject({ status: 'done', prompt: '[words:20] Original prompt' });
  });
});
