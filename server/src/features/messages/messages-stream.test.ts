// Chat through the real app, the real OpenAI/Anthropic SDKs and the wire-protocol emulators, with a
// socket.io-client in room user-{id}: streaming, saving as it streams, errors, continue, enhance, credits.
import { startAiEmulators, type RunningAiEmulators } from '@pluma/emulators/index';
import { SocketEvents, type MessageStreamPayload, type ProviderErrorPayload } from '@pluma/common/events';
import { countWords } from '@pluma/common/rules/token-estimate';
import { UNLIMITED_WORDS } from '@pluma/common/constants';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../../test/test-db';
import { creditLedger, messages, users } from '../../db/schema';
import { nextEvent, recordEvents } from '../../platform/realtime/socket-test-helpers';
import { buildUser, type BuiltUser } from '../../test/factories';
import { endOf, useChatApp } from '../../test/chat-app';
import { createTestApp, type TestApp } from '../../test/test-app';
import { hashToken } from '../../platform/auth/tokens';
import { generationsOf } from '../../platform/ai/generation-registry';
import { streamingSaves } from './streaming-saves';

const STREAM_KEYS = ['content', 'conversation_id', 'isThread', 'message_id', 'stream'];

describe('chat streaming', () => {
  const chat = useChatApp((ai) => ({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: ai.openai.url, ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: ai.anthropic.url }));
  const { connect, newConversation, send, messageRow, userWithWords } = chat;
  let t: TestApp;
  let ai: RunningAiEmulators;
  beforeAll(() => {
    ({ t, ai } = chat);
  });

  const balance = async (who: BuiltUser) => (await t.ctx.db.select().from(users).where(eq(users.userId, who.user.userId)))[0].availableWords;

  it('saves the prompt and a pending answer at once, streams batched deltas, saves and charges once at the end', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const events = recordEvents(socket);
    const before = await balance(owner);

    const res = await send(owner, { content: '[words:300] Write about our product launch', conversation_id: conversationId, stream: true });
    expect(res.statusCode).toBe(201);
    const { user_message, assistant_message } = res.json();
    expect(user_message).toMatchObject({ role: 'user', content: '[words:300] Write about our product launch', status: 'done', conversation_id: conversationId });
    expect(assistant_message).toMatchObject({ role: 'assistant', content: null, status: 'pending', user_message_id: user_message.message_id, isThread: false });

    const end = await endOf(socket, assistant_message.message_id);
    const frames = events.filter((e) => e.event === SocketEvents.messageStream).map((e) => e.payload as MessageStreamPayload);
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) {
      expect(Object.keys(frame).sort()).toEqual(STREAM_KEYS);
      expect(frame).toMatchObject({ message_id: assistant_message.message_id, conversation_id: conversationId, stream: true, isThread: false });
      expect(frame.content.length).toBeGreaterThan(0);
    }
    // Frames carry deltas: together they are the answer, and none repeats the text so far.
    expect(frames.map((f) => f.content).join('')).toBe(end.content);
    expect(frames.length).toBeLessThan(300);
    expect(countWords(end.content)).toBe(300);
    expect(end).toMatchObject({ stream: true, isThread: false, finish_reason: 'stop', conversation_id: conversationId });
    expect(end.message).toMatchObject({ message_id: assistant_message.message_id, status: 'done', content: end.content, words_charged: 300 });

    const row = await messageRow(assistant_message.message_id);
    expect(row).toMatchObject({ content: end.content, status: 'done', finishReason: 'stop', wordsCharged: 300, model: null });
    expect(await balance(owner)).toBe(before - 300);
    const ledger = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, owner.user.userId));
    expect(ledger).toEqual([expect.objectContaining({ sourceType: 'message', sourceId: String(assistant_message.message_id), words: -300, balanceAfter: before - 300 })]);

    // The current user reflects the new balance once the stream ends (spec part 2 §4).
    const me = await t.app.inject({ url: '/api/users', headers: owner.auth });
    expect(me.json().available_words).toBe(before - 300);

    // The model was sent the prompt (OpenAI wire format, bounded by max tokens).
    expect(ai.openai.stats.lastRequest).toMatchObject({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: '[words:300] Write about our product launch' }] });
    const page = await t.app.inject({ url: `/api/messages/conversation/${conversationId}`, headers: owner.auth });
    expect(page.json().messages.map((m: { message_id: number }) => m.message_id)).toEqual([assistant_message.message_id, user_message.message_id]);
  });

  it('a charge keeps the cached actor, yet a prompt past the balance is still refused exactly (412, nothing saved)', async () => {
    const owner = await userWithWords(40);
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const first = await send(owner, { content: '[words:40] Spend every word', conversation_id: conversationId, stream: true });
    expect(first.statusCode).toBe(201);
    await endOf(socket, first.json().assistant_message.message_id);
    expect(await balance(owner)).toBe(0);
    // The charge dropped GET /api/users' view (it shows the balance) but not the cached actor, whose
    // words (40) are only a pre-check: the word hold in SQL refuses the next prompt.
    expect(t.ctx.services.authCache?.actor(hashToken(owner.token))?.actor.user.availableWords).toBe(40);
    expect((await t.app.inject({ url: '/api/users', headers: owner.auth })).json().available_words).toBe(0);
    const refused = await send(owner, { content: 'One more', conversation_id: conversationId, stream: true });
    expect(refused.statusCode).toBe(412);
    expect(refused.json()).toMatchObject({ error: 'premium_required', message: 'You have no words left. Get a subscription or contact support to keep creating content.' });
    const rows = await t.ctx.db.select().from(messages).where(eq(messages.conversationId, conversationId));
    expect(rows).toHaveLength(2);
  });

  it('keeps frames to about 60 per second while tokens arrive faster', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const events = recordEvents(socket);
    ai.openai.setTokenDelay(2);
    const started = Date.now();
    const res = await send(owner, { content: '[words:400] Many small tokens', conversation_id: conversationId });
    const end = await endOf(socket, res.json().assistant_message.message_id);
    const elapsed = Date.now() - started;
    const frames = events.filter((e) => e.event === SocketEvents.messageStream);
    expect(frames.length).toBeLessThanOrEqual(Math.ceil(elapsed / 16) + 2);
    expect(frames.length).toBeLessThan(400);
    expect(frames.map((f) => (f.payload as MessageStreamPayload).content).join('')).toBe(end.content);
  });

  it('saves the text as it streams, so a reload mid-stream shows the text so far', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const res = await send(owner, { content: '[words:80] [rate:40] A slow answer', conversation_id: conversationId });
    const id = res.json().assistant_message.message_id;
    const ended = endOf(socket, id);
    await new Promise((r) => setTimeout(r, 1200));
    const page = await t.app.inject({ url: `/api/messages/conversation/${conversationId}`, headers: owner.auth });
    const midway = page.json().messages[0];
    expect(midway.message_id).toBe(id);
    expect(midway.status).toBe('streaming');
    expect(midway.content.length).toBeGreaterThan(0);
    const end = await ended;
    expect(end.content.startsWith(midway.content)).toBe(true);
    expect(end.content.length).toBeGreaterThan(midway.content.length);
  });

  it('saves every streaming answer of the process in one statement; an answer whose row is no longer active is told to stop', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    const answer = (status: 'pending' | 'streaming' | 'done') => ({ conversationId, userId: owner.user.userId, role: 'assistant' as const, content: null, status });
    const rows = await t.ctx.db.insert(messages).values([answer('pending'), answer('pending'), answer('pending'), answer('done')]).returning();
    const [first, second, quiet, finished] = rows.map((r) => r.messageId);
    const texts = new Map([[first, 'One two'], [second, 'Three'], [quiet, ''], [finished, 'Late']]);
    const gone: number[] = [];
    const saves = streamingSaves(t.ctx);
    const execute = vi.spyOn(t.ctx.db, 'execute');
    try {
      for (const id of texts.keys()) saves.track(id, { text: () => texts.get(id)!, gone: () => gone.push(id), log: { error: () => undefined } });
      await vi.waitFor(() => expect(gone).toEqual([finished]), { timeout: 3000 });
      // One UPDATE for the three with text (the quiet one has nothing to save yet).
      expect(execute).toHaveBeenCalledTimes(1);
      texts.set(first, 'One two four');
      await vi.waitFor(async () => expect((await messageRow(first)).content).toBe('One two four'), { timeout: 3000 });
      for (const id of texts.keys()) await saves.untrack(id);
    } finally {
      execute.mockRestore();
    }
    const saved = await t.ctx.db.select().from(messages).where(inArray(messages.messageId, [first, second, quiet, finished])).orderBy(messages.messageId);
    expect(saved.map((r) => [r.content, r.status])).toEqual([
      ['One two four', 'streaming'],
      ['Three', 'streaming'],
      [null, 'pending'],
      [null, 'done'],
    ]);
  });

  it("one answer's text that cannot be saved stops no other answer's save", async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    const rows = await t.ctx.db
      .insert(messages)
      .values([0, 1].map(() => ({ conversationId, userId: owner.user.userId, role: 'assistant' as const, content: null, status: 'pending' as const })))
      .returning();
    const [good, bad] = rows.map((r) => r.messageId);
    const errors: number[] = [];
    const saves = streamingSaves(t.ctx);
    // PostgreSQL text cannot hold NUL (model-text.ts drops it from a provider's text; here it comes straight in).
    const texts = new Map([[good, 'Fine so far'], [bad, 'Not\u0000this']]);
    for (const id of texts.keys()) saves.track(id, { text: () => texts.get(id)!, gone: () => undefined, log: { error: (details) => errors.push((details as { messageId: number }).messageId) } });
    await vi.waitFor(async () => expect((await messageRow(good)).content).toBe('Fine so far'), { timeout: 3000 });
    for (const id of texts.keys()) await saves.untrack(id);
    expect(errors).toContain(bad);
    expect(errors).not.toContain(good);
    expect((await messageRow(bad)).content).toBeNull();
  });

  it('a provider error mid-stream keeps the partial text, marks the answer failed and emits openai-error', async () => {
    const owner = await userWithWords(5000);
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const events = recordEvents(socket);
    const failed = nextEvent<ProviderErrorPayload>(socket, SocketEvents.openaiError, 15_000);
    const res = await send(owner, { content: '[words:100] [stream-error:25] Break halfway', conversation_id: conversationId });
    const id = res.json().assistant_message.message_id;
    const error = await failed;
    expect(error).toMatchObject({ status: 500, message_id: id, conversation_id: conversationId, provider: 'openai' });
    expect(error.message.length).toBeGreaterThan(0);
    expect(error).toHaveProperty('code');

    const row = await messageRow(id);
    const streamed = events
      .filter((e) => e.event === SocketEvents.messageStream)
      .map((e) => (e.payload as MessageStreamPayload).content)
      .join('');
    expect(row).toMatchObject({ status: 'failed', finishReason: 'error' });
    expect(row.errorCode).toBeTruthy();
    expect(countWords(row.content ?? '')).toBe(25);
    expect(row.content).toBe(streamed);
    expect(events.some((e) => e.event === SocketEvents.messageStreamEnd)).toBe(false);
    // What was written is charged once, like any finished answer.
    expect(await balance(owner)).toBe(5000 - 25);
  });

  it('a provider refusal before any text fails the answer with empty content; Claude errors arrive as anthropic-error', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    ai.openai.failNext(429);
    const openaiFailed = nextEvent<ProviderErrorPayload>(socket, SocketEvents.openaiError, 15_000);
    const first = await send(owner, { content: 'Hello there', conversation_id: conversationId });
    expect(await openaiFailed).toMatchObject({ status: 429, code: 'rate_limit_exceeded', message_id: first.json().assistant_message.message_id });
    expect(await messageRow(first.json().assistant_message.message_id)).toMatchObject({ status: 'failed', content: '', errorCode: 'rate_limit_exceeded' });

    const claude = await newConversation(owner, { model: 'claude-sonnet-4-6' });
    const anthropicFailed = nextEvent<ProviderErrorPayload>(socket, SocketEvents.anthropicError, 15_000);
    const second = await send(owner, { content: '[error:529] Are you there?', conversation_id: claude });
    expect(await anthropicFailed).toMatchObject({ status: 529, provider: 'anthropic', message_id: second.json().assistant_message.message_id, conversation_id: claude });
    expect(await messageRow(second.json().assistant_message.message_id)).toMatchObject({ status: 'failed', finishReason: 'error', model: 'claude-sonnet-4-6' });
  });

  it('streams from Claude when the conversation uses it', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner, { model: 'claude-sonnet-4-6' });
    const socket = await connect(owner);
    const res = await send(owner, { content: '[words:40] Hi Claude', conversation_id: conversationId });
    const end = await endOf(socket, res.json().assistant_message.message_id);
    expect(countWords(end.content)).toBe(40);
    expect(ai.anthropic.stats.lastRequest).toMatchObject({ model: 'claude-sonnet-4-6', stream: true });
  });

  it('continues an answer cut off at the length limit, appending and charging only the new words', async () => {
    const owner = await userWithWords(50_000);
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const res = await send(owner, { content: '[words:2500] A very long essay', conversation_id: conversationId });
    const id = res.json().assistant_message.message_id;
    const first = await endOf(socket, id);
    expect(first.finish_reason).toBe('length');
    const firstWords = countWords(first.content);
    expect(firstWords).toBeGreaterThan(1000);
    expect(await balance(owner)).toBe(50_000 - firstWords);

    const continued = await send(owner, { conversation_id: conversationId, message_id: id });
    expect(continued.statusCode).toBe(200);
    expect(continued.json()).toMatchObject({ user_message: null, assistant_message: { message_id: id, status: 'pending', content: first.content } });
    const second = await endOf(socket, id);
    expect(second.content.startsWith(first.content)).toBe(true);
    const added = second.content.slice(first.content.length);
    expect(added.length).toBeGreaterThan(0);
    expect(second.finish_reason).toBe('stop');
    // The model saw the cut-off answer and was asked to go on.
    const sent = (ai.openai.stats.lastRequest?.messages ?? []) as Array<{ role: string; content: string }>;
    expect(sent.at(-2)).toMatchObject({ role: 'assistant' });
    expect(sent.at(-1)?.content).toMatch(/Continue/);

    const ledger = await t.ctx.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, owner.user.userId), eq(creditLedger.sourceType, 'message')));
    expect(ledger.map((e) => e.sourceId).sort()).toEqual([String(id), `${id}:continue:1`]);
    expect(await balance(owner)).toBe(50_000 - firstWords - countWords(added));
    expect((await messageRow(id)).wordsCharged).toBe(firstWords + countWords(added));

    // A finished (stop) answer is not continued: the same request regenerates it as a new answer.
    const again = await send(owner, { conversation_id: conversationId, message_id: id });
    expect(again.statusCode).toBe(201);
    const regenerated = again.json().assistant_message;
    expect(regenerated.message_id).not.toBe(id);
    expect(regenerated).toMatchObject({ user_message_id: res.json().user_message.message_id, prompt: '[words:2500] A very long essay', status: 'pending' });
    await endOf(socket, regenerated.message_id);
    // A user message is not an answer.
    const wrong = await send(owner, { conversation_id: conversationId, message_id: res.json().user_message.message_id });
    expect(wrong.statusCode).toBe(409);
  });

  it('enhances a prompt with message_stream_enhance events and saves no message', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const events = recordEvents(socket);
    const ended = nextEvent<{ enhance_id: string; content: string; conversation_id: number }>(socket, SocketEvents.messageStreamEnhanceEnd, 15_000);
    const res = await send(owner, { content: '[words:30] write a post about cats', conversation_id: conversationId, enhance: true, stream: true });
    expect(res.statusCode).toBe(202);
    const { enhance_id } = res.json();
    const end = await ended;
    expect(end).toMatchObject({ enhance_id, conversation_id: conversationId });
    const deltas = events.filter((e) => e.event === SocketEvents.messageStreamEnhance).map((e) => e.payload as { enhance_id: string; content: string });
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.every((d) => d.enhance_id === enhance_id)).toBe(true);
    expect(deltas.map((d) => d.content).join('').trim()).toBe(end.content);
    expect(countWords(end.content)).toBe(30);
    expect(events.some((e) => e.event === SocketEvents.messageStream)).toBe(false);
    expect(await t.ctx.db.select().from(messages).where(eq(messages.conversationId, conversationId))).toEqual([]);
    const sent = (ai.openai.stats.lastRequest?.messages ?? []) as Array<{ role: string }>;
    expect(sent[0].role).toBe('system');
    const ledger = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, owner.user.userId));
    expect(ledger).toEqual([expect.objectContaining({ sourceType: 'enhance', sourceId: enhance_id, words: -30 })]);
  });

  it('stream false: no frames, the finished answer arrives as one message event', async () => {
    const owner = await userWithWords(UNLIMITED_WORDS);
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const events = recordEvents(socket);
    const done = nextEvent<{ message_id: number; content: string; stream: boolean }>(socket, SocketEvents.message, 15_000);
    const res = await send(owner, { content: '[words:20] quick', conversation_id: conversationId, stream: false });
    const message = await done;
    expect(message).toMatchObject({ message_id: res.json().assistant_message.message_id, stream: false });
    expect(countWords(message.content)).toBe(20);
    expect(events.filter((e) => e.event === SocketEvents.messageStream)).toEqual([]);
    // Unlimited words are never decremented; the use is still recorded.
    expect(await balance(owner)).toBe(UNLIMITED_WORDS);
    const ledger = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, owner.user.userId));
    expect(ledger).toEqual([expect.objectContaining({ words: 0, balanceAfter: UNLIMITED_WORDS })]);
  });

  it("a socket never receives another user's events", async () => {
    const alice = await buildUser(t.ctx, { access: true });
    const bob = await buildUser(t.ctx, { access: true });
    const aliceSocket = await connect(alice);
    const bobSocket = await connect(bob);
    const bobEvents = recordEvents(bobSocket);
    // Bob asks to join Alice's room: refused, and nothing changes.
    const joined = await bobSocket.timeout(2000).emitWithAck('join', `user-${alice.user.userId}`);
    expect(joined).toEqual({ ok: false });
    const conversationId = await newConversation(alice);
    const res = await send(alice, { content: '[words:50] secret plans', conversation_id: conversationId });
    await endOf(aliceSocket, res.json().assistant_message.message_id);
    ai.openai.failNext(500);
    const failed = nextEvent(aliceSocket, SocketEvents.openaiError, 15_000);
    await send(alice, { content: 'again', conversation_id: conversationId });
    await failed;
    await new Promise((r) => setTimeout(r, 100));
    expect(bobEvents).toEqual([]);
  });

  it('deleting a message mid-stream stops its generation; deleting the conversation stops all of them', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    await connect(owner);
    const res = await send(owner, { content: '[words:200] [rate:20] slow', conversation_id: conversationId });
    const id = res.json().assistant_message.message_id;
    await new Promise((r) => setTimeout(r, 300));
    const del = await t.app.inject({ method: 'DELETE', url: `/api/messages/${id}`, headers: owner.auth });
    expect(del.json()).toEqual({ deleted: true });
    expect(await messageRow(id)).toBeUndefined();
    expect([...generationsOf(t.ctx).values()].filter((g) => g.messageId === id)).toEqual([]);

    const res2 = await send(owner, { content: '[words:200] [rate:20] slow again', conversation_id: conversationId });
    await new Promise((r) => setTimeout(r, 300));
    const before = ai.openai.stats.clientAborts;
    await t.app.inject({ method: 'DELETE', url: `/api/conversations/${conversationId}`, headers: owner.auth });
    expect([...generationsOf(t.ctx).values()].filter((g) => g.conversationId === conversationId)).toEqual([]);
    expect(await messageRow(res2.json().assistant_message.message_id)).toBeUndefined();
    await new Promise((r) => setTimeout(r, 100));
    expect(ai.openai.stats.clientAborts).toBeGreaterThan(before);
  });

  it('sends the recent history that fits the token budget, oldest first', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    // An old turn too large to fit beside the newer ones, then two small turns.
    await t.ctx.db.insert(messages).values([
      { conversationId, userId: owner.user.userId, role: 'user', content: 'x'.repeat(29_990) },
      { conversationId, userId: owner.user.userId, role: 'assistant', content: 'old answer' },
      { conversationId, userId: owner.user.userId, role: 'user', content: 'second question' },
      { conversationId, userId: owner.user.userId, role: 'assistant', content: 'second answer', status: 'done' },
      { conversationId, userId: owner.user.userId, role: 'assistant', content: null, status: 'failed' },
    ]);
    const socket = await connect(owner);
    const res = await send(owner, { content: '[echo] and now?', conversation_id: conversationId });
    await endOf(socket, res.json().assistant_message.message_id);
    const sent = ai.openai.stats.lastRequest?.messages as Array<{ role: string; content: string }>;
    expect(sent).toEqual([
      { role: 'user', content: 'second question' },
      { role: 'assistant', content: 'second answer' },
      { role: 'user', content: '[echo] and now?' },
    ]);
  });

  // POST /messages' fields (issue 32 item 2; docs/decisions.md).
  it('learnFromPrevResponse gives the previous answer to rework whatever the budget; new-answer-only fields refuse nonsense with 400', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    // The previous answer, then a turn so large that the token budget would drop the answer from the history.
    await t.ctx.db.insert(messages).values([
      { conversationId, userId: owner.user.userId, role: 'user', content: 'Write about cats' },
      { conversationId, userId: owner.user.userId, role: 'assistant', content: 'Cats are calm and curious companions.', status: 'done' },
      { conversationId, userId: owner.user.userId, role: 'user', content: 'x'.repeat(29_960) },
      { conversationId, userId: owner.user.userId, role: 'assistant', content: null, status: 'failed' },
    ]);
    const socket = await connect(owner);
    const rework = await send(owner, { content: '[words:5] Make it shorter', conversation_id: conversationId, learnFromPrevResponse: true });
    expect(rework.statusCode, rework.body).toBe(201);
    await endOf(socket, rework.json().assistant_message.message_id);
    const sent = ai.openai.stats.lastRequest?.messages as Array<{ role: string; content: string }>;
    // The large turn no longer fits beside it: the previous answer is the whole request.
    expect(sent).toHaveLength(1);
    expect(sent[0].role).toBe('user');
    expect(sent[0].content).toContain('<previous_answer>\nCats are calm and curious companions.\n</previous_answer>');
    expect(sent[0].content.endsWith('[words:5] Make it shorter')).toBe(true);

    // Without it (default), the budget drops that answer: the behaviour is unchanged.
    const plain = await send(owner, { content: '[words:5] Make it shorter', conversation_id: conversationId });
    await endOf(socket, plain.json().assistant_message.message_id);
    const without = ai.openai.stats.lastRequest?.messages as Array<{ role: string; content: string }>;
    expect(without.some((m) => m.content.includes('Cats are calm') || m.content.includes('<previous_answer>'))).toBe(false);

    // Fields that shape a new answer make no sense with message_id or enhance; an unsaved favorite neither.
    const answerId = rework.json().assistant_message.message_id;
    for (const [body, field] of [
      [{ message_id: answerId, saveOnConversation: false }, 'saveOnConversation'],
      [{ message_id: answerId, deleteUserMsg: true }, 'deleteUserMsg'],
      [{ message_id: answerId, learnFromPrevResponse: true }, 'learnFromPrevResponse'],
      [{ content: 'Improve this prompt please', enhance: true, deleteUserMsg: true }, 'deleteUserMsg'],
      [{ content: 'One-off', saveOnConversation: false, favorite: true }, 'favorite'],
    ] as const) {
      const res = await send(owner, { conversation_id: conversationId, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toContain(field);
    }
  });

  it('saveOnConversation false: streams and is charged, never listed, searched or context, and both rows go at any end; deleteUserMsg drops the prompt once done', async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const kept = await send(owner, { content: '[words:5] A kept question', conversation_id: conversationId });
    await endOf(socket, kept.json().assistant_message.message_id);

    const oneOff = await send(owner, { content: '[words:60] [rate:40] A zanzibar one-off', conversation_id: conversationId, saveOnConversation: false });
    expect(oneOff.statusCode, oneOff.body).toBe(201);
    const { user_message, assistant_message } = oneOff.json();
    expect(assistant_message).toMatchObject({ saveOnConversation: false, isThread: false, status: 'pending' });
    const ended = endOf(socket, assistant_message.message_id);
    await new Promise((r) => setTimeout(r, 400));
    // Mid-stream: neither row is in the conversation's page nor found by search.
    const page = (await t.app.inject({ url: `/api/messages/conversation/${conversationId}`, headers: owner.auth })).json();
    expect(page.messages.map((m: { message_id: number }) => m.message_id)).not.toContain(assistant_message.message_id);
    expect(page.messages.map((m: { message_id: number }) => m.message_id)).not.toContain(user_message.message_id);
    expect((await t.app.inject({ url: '/api/messages?query=zanzibar', headers: owner.auth })).json().messages).toEqual([]);
    const end = await ended;
    expect(countWords(end.content)).toBe(60);
    expect(end.message).toMatchObject({ saveOnConversation: false, status: 'done' });
    expect(await messageRow(assistant_message.message_id)).toBeUndefined();
    expect(await messageRow(user_message.message_id)).toBeUndefined();
    // The ledger keeps its entry.
    const ledger = await t.ctx.db.select().from(creditLedger).where(and(eq(creditLedger.userId, owner.user.userId), eq(creditLedger.sourceId, String(assistant_message.message_id))));
    expect(ledger).toHaveLength(1);
    expect(ledger[0].words).toBe(-60);

    // A failed one-off goes too.
    const failed = nextEvent<ProviderErrorPayload>(socket, SocketEvents.openaiError, 15_000);
    const broken = (await send(owner, { content: '[words:40] [stream-error:10] zanzibar again', conversation_id: conversationId, saveOnConversation: false })).json();
    await failed;
    expect(await messageRow(broken.assistant_message.message_id)).toBeUndefined();
    expect(await messageRow(broken.user_message.message_id)).toBeUndefined();
    // Deleted mid-stream, a one-off takes its prompt with it.
    const deleted = (await send(owner, { content: '[words:200] [rate:20] zanzibar to delete', conversation_id: conversationId, saveOnConversation: false })).json();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/messages/${deleted.assistant_message.message_id}`, headers: owner.auth })).statusCode).toBe(200);
    expect(await messageRow(deleted.user_message.message_id)).toBeUndefined();

    // deleteUserMsg: the prompt goes once the answer is done; the answer keeps its prompt text.
    const dropped = (await send(owner, { content: '[words:6] A private question', conversation_id: conversationId, deleteUserMsg: true })).json();
    await endOf(socket, dropped.assistant_message.message_id);
    expect(await messageRow(dropped.user_message.message_id)).toBeUndefined();
    const listed = (await t.app.inject({ url: `/api/messages/conversation/${conversationId}`, headers: owner.auth })).json().messages;
    expect(listed.map((m: { content: string }) => m.content)).not.toContain('[words:6] A private question');
    expect(listed.find((m: { message_id: number }) => m.message_id === dropped.assistant_message.message_id)).toMatchObject({
      deleteUserMsg: true,
      prompt: '[words:6] A private question',
    });
    // The next answer's context: the kept turns and the dropped prompt's text before its answer, never the one-offs.
    const next = (await send(owner, { content: '[words:3] And then?', conversation_id: conversationId })).json();
    await endOf(socket, next.assistant_message.message_id);
    const sent = ai.openai.stats.lastRequest?.messages as Array<{ role: string; content: string }>;
    expect(sent.map((m) => m.content).filter((c) => c.includes('zanzibar'))).toEqual([]);
    expect(sent.map((m) => [m.role, m.content.slice(0, 28)])).toEqual([
      ['user', '[words:5] A kept question'],
      ['assistant', expect.any(String)],
      ['user', '[words:6] A private question'],
      ['assistant', expect.any(String)],
      ['user', '[words:3] And then?'],
    ]);
    // Regenerate still works from the answer's own prompt.
    const again = await send(owner, { conversation_id: conversationId, message_id: dropped.assistant_message.message_id, regenerate: true });
    expect(again.statusCode, again.body).toBe(201);
    await endOf(socket, again.json().assistant_message.message_id);
    const resent = ai.openai.stats.lastRequest?.messages as Array<{ role: string; content: string }>;
    expect(resent[resent.length - 1]).toEqual({ role: 'user', content: '[words:6] A private question' });
  });
});

describe('chat generation and shutdown', () => {
  it('closing the app stops running generations and saves them as interrupted with their text', async () => {
    const ai = await startAiEmulators();
    const database = await createTestDatabase();
    const t = await createTestApp({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: ai.openai.url }, { database });
    try {
      const owner = await buildUser(t.ctx, { access: true });
      const created = await t.app.inject({ method: 'POST', url: '/api/conversations', headers: owner.auth, payload: { name: 'x' } });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/messages',
        headers: owner.auth,
        payload: { content: '[words:300] [rate:30] long and slow', conversation_id: created.json().conversation_id },
      });
      const id = res.json().assistant_message.message_id;
      await new Promise((r) => setTimeout(r, 800));
      await t.close();
      const [row] = await database.db.select().from(messages).where(eq(messages.messageId, id));
      expect(row.status).toBe('interrupted');
      expect(row.finishReason).toBe('interrupted');
      expect(countWords(row.content ?? '')).toBeGreaterThan(5);
      expect(countWords(row.content ?? '')).toBeLessThan(300);
    } finally {
      await database.close();
      await ai.close();
    }
  });
});
