// Stop generating (issue 30 item 1): POST /api/messages/{id}/stop through the real app, the real OpenAI SDK
// and the wire-protocol emulator (`[rate:N]` paces an answer so it can be stopped part-way), with sockets in
// the user's room. The answer keeps its text, ends as done with finish_reason 'stopped', is charged only the
// words it wrote (the rest of its hold released), every open tab gets its end, and Continue goes on from it.
import { type RunningAiEmulators } from '@pluma/emulators/index';
import { SocketEvents, type MessagePayload, type MessageStreamPayload } from '@pluma/common/events';
import { countWords } from '@pluma/common/rules/token-estimate';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { creditHolds, creditLedger, messages, users } from '../../db/schema';
import { nextEvent, recordEvents, type ClientSocket } from '../../platform/realtime/socket-test-helpers';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { endOf, useChatApp } from '../../test/chat-app';
import { type TestApp } from '../../test/test-app';
import { generationsOf } from '../../platform/ai/generation-registry';
import { saveAiKey } from '../../test/ai-app';
import { multipartBody } from '../files/test-fixtures';
import { fileIndexStatuses } from '../knowledge';

describe('stop generating', () => {
  const chat = useChatApp();
  const { connect, newConversation, send, messageRow, userWithWords } = chat;
  let t: TestApp;
  let ai: RunningAiEmulators;
  beforeAll(() => {
    ({ t, ai } = chat);
  });

  const stop = (who: BuiltUser, id: number, query = '') => t.app.inject({ method: 'POST', url: `/api/messages/${id}/stop${query}`, headers: who.auth });
  const userRow = async (who: BuiltUser) => (await t.ctx.db.select().from(users).where(eq(users.userId, who.user.userId)))[0];
  const ledgerOf = (who: BuiltUser) =>
    t.ctx.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, who.user.userId), eq(creditLedger.sourceType, 'message')));
  const holdsOf = (who: BuiltUser) => t.ctx.db.select().from(creditHolds).where(eq(creditHolds.userId, who.user.userId));
  const streamedText = (events: ReturnType<typeof recordEvents>, id: number) =>
    events
      .filter((e) => e.event === SocketEvents.messageStream && (e.payload as MessageStreamPayload).message_id === id)
      .map((e) => (e.payload as MessageStreamPayload).content)
      .join('');
  /** Sends a slow answer and waits until it has written some words (in its frames). */
  const slowAnswer = async (who: BuiltUser, socket: ClientSocket, payload: Record<string, unknown>, query = '') => {
    const events = recordEvents(socket);
    const res = await t.app.inject({ method: 'POST', url: `/api/messages${query}`, headers: who.auth, payload: { content: '[words:400] [rate:40] A long slow story', stream: true, ...payload } });
    expect(res.statusCode).toBe(201);
    const id = res.json().assistant_message.message_id as number;
    await expect.poll(() => countWords(streamedText(events, id)), { timeout: 10_000 }).toBeGreaterThan(5);
    return { id, events, response: res.json() };
  };

  it('keeps the text written, ends it as stopped, charges only its words, releases the hold and tells every tab', async () => {
    const owner = await userWithWords(5000);
    const conversationId = await newConversation(owner);
    const tab = await connect(owner);
    const otherTab = await connect(owner);
    const { id, events } = await slowAnswer(owner, tab, { conversation_id: conversationId });
    const ends = [endOf(tab, id), endOf(otherTab, id)];
    // The answer's words are held while it is written.
    expect((await userRow(owner)).heldWords).toBeGreaterThan(0);
    const abortsBefore = ai.openai.stats.clientAborts;

    const res = await stop(owner, id);
    expect(res.statusCode).toBe(200);
    const stopped = res.json();
    expect(stopped).toMatchObject({ message_id: id, conversation_id: conversationId, role: 'assistant', status: 'done', finish_reason: 'stopped' });
    const written = countWords(stopped.content);
    expect(written).toBeGreaterThan(5);
    expect(written).toBeLessThan(400);
    expect(stopped.words_charged).toBe(written);
    // A stopped answer is continued like one cut off, and can be regenerated, edited and shared.
    expect(stopped.abilities).toMatchObject({ continue: true, regenerate: true, retry: false, edit: true, share: true });

    // Every open tab of the user gets the end, with the text as saved.
    const [first, second] = await Promise.all(ends);
    for (const end of [first, second]) {
      expect(end).toMatchObject({ message_id: id, finish_reason: 'stopped', content: stopped.content, message: { status: 'done', finish_reason: 'stopped', words_charged: written } });
    }
    // What the screens were sent is the text kept: nothing written after the stop, nothing lost.
    expect(streamedText(events, id)).toBe(stopped.content);
    expect(await messageRow(id)).toMatchObject({ status: 'done', finishReason: 'stopped', content: stopped.content, wordsCharged: written });

    // Charged the words written, once; the rest of the hold is released.
    expect((await ledgerOf(owner)).map((e) => [e.sourceId, e.words])).toEqual([[String(id), -written]]);
    const after = await userRow(owner);
    expect(after.availableWords).toBe(5000 - written);
    expect(after.heldWords).toBe(0);
    expect(await holdsOf(owner)).toEqual([]);
    expect((await t.app.inject({ url: '/api/users', headers: owner.auth })).json().available_words).toBe(5000 - written);
    // The provider's stream was closed, and nothing runs for the answer any more.
    await expect.poll(() => ai.openai.stats.clientAborts).toBeGreaterThan(abortsBefore);
    expect([...generationsOf(t.ctx).values()].filter((g) => g.messageId === id)).toEqual([]);
  });

  it("another user's stop, or the owner's from another context, is a 404 and the answer goes on", async () => {
    const owner = await buildUser(t.ctx, { access: true });
    const colleague = await buildUser(t.ctx, { access: true });
    const stranger = await buildUser(t.ctx, { access: true });
    const organization = await buildOrganization(t.ctx, [
      { user: owner, role: 'member' },
      { user: colleague, role: 'admin' },
    ]);
    const inOrg = `?organization_id=${organization.organizationId}`;
    const created = await t.app.inject({ method: 'POST', url: `/api/conversations${inOrg}`, headers: owner.auth, payload: { name: 'Team chat', organization_id: organization.organizationId } });
    expect(created.statusCode).toBe(201);
    const socket = await connect(owner);
    const { id } = await slowAnswer(owner, socket, { conversation_id: created.json().conversation_id }, inOrg);

    for (const [who, query] of [
      [stranger, ''],
      [colleague, inOrg],
      [owner, ''],
    ] as const) {
      const refused = await stop(who, id, query);
      expect(refused.statusCode).toBe(404);
      expect(refused.body).not.toContain('A long slow story');
    }
    expect((await stop(owner, 2_000_000_000, inOrg)).statusCode).toBe(404);
    expect(['pending', 'streaming']).toContain((await messageRow(id)).status);
    expect([...generationsOf(t.ctx).values()].some((g) => g.messageId === id)).toBe(true);

    // The owner, in the answer's organization, stops it.
    const stopped = await stop(owner, id, inOrg);
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toMatchObject({ message_id: id, status: 'done', finish_reason: 'stopped', organization_id: organization.organizationId });
  });

  it('stopping an answer that has ended, or a prompt, returns it unchanged', async () => {
    const owner = await userWithWords(5000);
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const res = await send(owner, { content: '[words:30] A short one', conversation_id: conversationId });
    const id = res.json().assistant_message.message_id as number;
    await endOf(socket, id);
    const before = await messageRow(id);
    const ledger = await ledgerOf(owner);
    const events = recordEvents(socket);

    const again = await stop(owner, id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ message_id: id, status: 'done', finish_reason: 'stop', words_charged: 30, content: before.content, updatedAt: before.updatedAt.toISOString() });
    expect(await messageRow(id)).toEqual(before);
    expect(await ledgerOf(owner)).toEqual(ledger);
    const prompt = await stop(owner, res.json().user_message.message_id);
    expect(prompt.json()).toMatchObject({ role: 'user', status: 'done', content: '[words:30] A short one' });
    // A second stop of a stopped answer is as harmless.
    const { id: slow } = await slowAnswer(owner, socket, { conversation_id: conversationId });
    const first = await stop(owner, slow);
    const second = await stop(owner, slow);
    expect(second.json()).toEqual(first.json());
    expect((await ledgerOf(owner)).filter((e) => e.sourceId.startsWith(String(slow)))).toHaveLength(1);
    expect(events.filter((e) => e.event === SocketEvents.messageStreamEnd && (e.payload as { message_id: number }).message_id === id)).toEqual([]);
  });

  it('Continue on a stopped answer appends to its text and charges only the new words', async () => {
    const owner = await userWithWords(5000);
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const { id } = await slowAnswer(owner, socket, { conversation_id: conversationId, content: '[words:120] [rate:40] A story to stop' });
    const stopped = (await stop(owner, id)).json();
    const partial = stopped.content as string;
    const charged = stopped.words_charged as number;
    // The stop's own end may reach the socket after the stop's response: taken here, it is not the Continue's.
    expect((await endOf(socket, id)).finish_reason).toBe('stopped');

    const continued = await send(owner, { conversation_id: conversationId, message_id: id });
    expect(continued.statusCode).toBe(200);
    expect(continued.json()).toMatchObject({ user_message: null, assistant_message: { message_id: id, status: 'pending', content: partial } });
    const end = await endOf(socket, id, 30_000);
    expect(end.content.startsWith(partial)).toBe(true);
    const added = countWords(end.content.slice(partial.length));
    expect(added).toBeGreaterThan(0);
    expect(end.message).toMatchObject({ status: 'done', finish_reason: 'stop', words_charged: charged + added });
    const sent = (ai.openai.stats.lastRequest?.messages ?? []) as Array<{ role: string; content: string }>;
    expect(sent.at(-2)).toEqual({ role: 'assistant', content: partial });
    expect(sent.at(-1)?.content).toMatch(/Continue/);
    expect((await ledgerOf(owner)).map((e) => [e.sourceId, e.words]).sort()).toEqual([
      [String(id), -charged],
      [`${id}:continue:1`, -added],
    ]);
    expect((await userRow(owner)).availableWords).toBe(5000 - charged - added);
  });

  it("an avatar's answer stops the same way and keeps its citations", async () => {
    const owner = await userWithWords(5000);
    await saveAiKey(t, owner);
    const created = await t.app.inject({ method: 'POST', url: '/api/avatars', headers: owner.auth, payload: { name: 'Keeper', context: 'You are a lighthouse keeper.' } });
    expect(created.statusCode).toBe(201);
    const avatarId = created.json().avatar_id as number;
    const { payload, headers } = multipartBody({ name: 'keeper-notes.txt', bytes: Buffer.from('The Corran lighthouse keeper logs the foghorn every night at eleven.') });
    const upload = await t.app.inject({ method: 'POST', url: `/api/avatars/add-file/${avatarId}`, payload, headers: { ...headers, ...owner.auth } });
    expect(upload.statusCode).toBe(201);
    const fileId = upload.json().file_id as number;
    await expect.poll(async () => (await fileIndexStatuses({ ctx: t.ctx, fileIds: [fileId] }))[0]?.status, { timeout: 20_000 }).toBe('ready');
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const { id } = await slowAnswer(owner, socket, { conversation_id: conversationId, avatar_id: avatarId, content: '[words:400] [rate:40] When does the keeper log the foghorn?' });
    const ended = endOf(socket, id);

    const stopped = (await stop(owner, id)).json();
    expect(stopped).toMatchObject({ message_id: id, avatar_id: avatarId, status: 'done', finish_reason: 'stopped', words_charged: countWords(stopped.content) });
    expect(stopped.citations).toEqual([expect.objectContaining({ file_id: fileId, name: 'keeper-notes.txt' })]);
    expect((await ended).message).toMatchObject({ finish_reason: 'stopped', avatar_id: avatarId, citations: [expect.objectContaining({ file_id: fileId })] });
  });

  it('an answer stopped before its first word ends empty and uncharged; one written without frames ends with a message event', async () => {
    const owner = await userWithWords(5000);
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    // One token a second: stopped before the first arrives.
    const res = await send(owner, { content: '[words:50] [rate:1] Take your time', conversation_id: conversationId });
    const id = res.json().assistant_message.message_id as number;
    const ended = endOf(socket, id);
    const stopped = await stop(owner, id);
    expect(stopped.json()).toMatchObject({ status: 'done', finish_reason: 'stopped', content: '', words_charged: 0 });
    // Nothing to continue from: it is written again instead (Regenerate).
    expect(stopped.json().abilities).toMatchObject({ continue: false, regenerate: true });
    expect((await ended).finish_reason).toBe('stopped');
    expect((await userRow(owner)).availableWords).toBe(5000);
    expect(await holdsOf(owner)).toEqual([]);

    const finished = nextEvent<MessagePayload>(socket, SocketEvents.message, 15_000);
    const quiet = await send(owner, { content: '[words:300] [rate:40] No frames please', conversation_id: conversationId, stream: false });
    const quietId = quiet.json().assistant_message.message_id as number;
    await expect.poll(async () => (await messageRow(quietId)).content?.length ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
    const stoppedQuiet = (await stop(owner, quietId)).json();
    const message = await finished;
    expect(message).toMatchObject({ message_id: quietId, stream: false, content: stoppedQuiet.content, message: { finish_reason: 'stopped' } });
    expect(countWords(stoppedQuiet.content)).toBeLessThan(300);
  });
  it('a new answer its cached balance allowed but saving refuses (no words left): 412, nothing saved, the early provider request cancelled', async () => {
    const owner = await userWithWords(5000);
    // An authenticated request caches the actor with its words (platform/auth/auth-cache.ts) ...
    const conversationId = await newConversation(owner);
    const socket = await connect(owner);
    const events = recordEvents(socket);
    // ... which a write that announces nothing leaves stale: the answer's provider request goes out early.
    await t.ctx.db.update(users).set({ availableWords: 0 }).where(eq(users.userId, owner.user.userId));
    const before = { ...ai.openai.stats };
    const res = await send(owner, { content: '[words:400] [rate:40] A long slow story', conversation_id: conversationId, stream: true });
    expect(res.statusCode).toBe(412);
    expect(res.json()).toMatchObject({ error: expect.any(String) });
    expect(await t.ctx.db.select().from(messages).where(eq(messages.conversationId, conversationId))).toEqual([]);
    // A later answer (another user's) reaches the provider after the refused one's early request would have;
    // by then that request was either never sent or aborted by the server: none completed but the later one.
    // (At least as many aborts as other requests: an earlier test's abort can reach the emulator late. The
    // emulator sees an abort at its next token, 25 ms apart at [rate:40]: the later answer can end first, so
    // the count is waited for.)
    const other = await userWithWords(5000);
    const otherSocket = await connect(other);
    const later = await send(other, { content: '[words:3] Hi', conversation_id: await newConversation(other), stream: true });
    await endOf(otherSocket, later.json().assistant_message.message_id as number);
    const othersSent = ai.openai.stats.generations - before.generations - 1;
    await expect.poll(() => ai.openai.stats.clientAborts - before.clientAborts, { timeout: 5000 }).toBeGreaterThanOrEqual(othersSent);
    expect(ai.openai.stats.completed).toBe(before.completed + 1);
    expect(events.filter((e) => e.event === SocketEvents.messageStream)).toEqual([]);
    expect(generationsOf(t.ctx).size).toBe(0);
  });
});
