// Messages API rules through the real app: the premium gate, the prompt limit, ownership (404), paging,
// edits, the once-only finalize, recovery of abandoned answers, and the PDF/Word exports.
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { conversations, creditLedger, messages, purchases, users } from '../../db/schema';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { zipEntry } from '../../test/zip-entry';
import { finalizeMessage } from './finalize';
import { markInterruptedMessages } from './interrupted';
import { settleGenerations } from '../../platform/ai/generation-registry';

describe('messages API', () => {
  let t: TestApp;
  let owner: BuiltUser;
  let other: BuiltUser;
  beforeAll(async () => {
    // The offline demo model answers (no provider key in tests).
    t = await createTestApp();
    owner = await buildUser(t.ctx, { access: true });
    other = await buildUser(t.ctx, { access: true });
  });
  afterEach(() => settleGenerations(t.ctx));
  afterAll(() => t.close());

  const newConversation = async (who: BuiltUser) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/conversations', headers: who.auth, payload: { name: 'Chat' } });
    return res.json().conversation_id as number;
  };
  const send = (who: BuiltUser, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/messages', headers: { ...who.auth, ...headers }, payload });
  const rowsOf = (conversationId: number) => t.ctx.db.select().from(messages).where(eq(messages.conversationId, conversationId));

  it('Last used (issue 30 item 8): opening the app is not a use; the first message is, then at most once a minute', async () => {
    const fresh = await buildUser(t.ctx, { access: true });
    const lastUsed = async () => (await t.ctx.db.select({ at: users.lastUsedAt }).from(users).where(eq(users.userId, fresh.user.userId)))[0]?.at ?? null;
    expect((await t.app.inject({ url: '/api/users', headers: fresh.auth })).statusCode).toBe(200);
    expect(await lastUsed()).toBeNull();
    // Staff see 'Not used yet' for them (a null last_used).
    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const listed = (await t.app.inject({ url: `/api/users/admin/all?field=email&query=${encodeURIComponent(fresh.user.email)}`, headers: admin.auth })).json();
    const row = listed.users.find((u: { user_id: number }) => u.user_id === fresh.user.userId);
    expect(row).toBeDefined();
    expect(row.last_used).toBeNull();

    const conversationId = await newConversation(fresh);
    expect(await lastUsed()).toBeNull();
    const sent = await send(fresh, { content: 'Hello there', conversation_id: conversationId, stream: false });
    expect(sent.statusCode, sent.body).toBe(201);
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await settleGenerations(t.ctx);
    expect((await send(fresh, { content: 'And again', conversation_id: conversationId, stream: false })).statusCode).toBe(201);
    expect((await lastUsed())?.getTime()).toBe(first?.getTime());
  });

  it('412 premium_required without access, and without words left; nothing is saved', async () => {
    const noAccess = await buildUser(t.ctx);
    const conversationId = await newConversation(noAccess);
    const refused = await send(noAccess, { content: 'Hello', conversation_id: conversationId });
    expect(refused.statusCode).toBe(412);
    expect(refused.json()).toEqual({ error: 'premium_required', message: 'This is a premium feature. Please, upgrade your account.' });

    const spent = await buildUser(t.ctx, { access: true });
    // Errors after sign-in speak the user's saved language.
    await t.ctx.db.update(users).set({ availableWords: 0, lang: 'es' }).where(eq(users.userId, spent.user.userId));
    const spentConversation = await newConversation(spent);
    const empty = await send(spent, { content: 'Hello', conversation_id: spentConversation });
    expect(empty.statusCode).toBe(412);
    expect(empty.json().error).toBe('premium_required');
    expect(empty.json().message).toMatch(/No te quedan palabras/);
    const enhance = await send(spent, { content: 'Hello there friend', conversation_id: spentConversation, enhance: true });
    expect(enhance.statusCode).toBe(412);

    // An expired purchase gives no access either.
    const expired = await buildUser(t.ctx, { access: true });
    await t.ctx.db
      .update(purchases)
      .set({ createdAt: new Date(Date.now() - 40 * 86_400_000) })
      .where(eq(purchases.userId, expired.user.userId));
    expect((await send(expired, { content: 'Hello', conversation_id: await newConversation(expired) })).statusCode).toBe(412);

    expect(await rowsOf(conversationId)).toEqual([]);
    expect(await rowsOf(spentConversation)).toEqual([]);
  });

  it('staff have access and unlimited words', async () => {
    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const res = await send(admin, { content: 'Hello', conversation_id: await newConversation(admin) });
    expect(res.statusCode).toBe(201);
  });

  it('refuses a prompt over 7500 tokens (characters ÷ 4, rounded) with a clear message and saves nothing', async () => {
    const conversationId = await newConversation(owner);
    const over = await send(owner, { content: 'a'.repeat(30_002), conversation_id: conversationId });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ error: 'validation_error', message: 'Your message is too long: about 7501 tokens, the maximum is 7500. Please shorten it.' });
    expect(over.json().details.content).toBeTruthy();
    const enhanceOver = await send(owner, { content: 'a'.repeat(30_002), conversation_id: conversationId, enhance: true });
    expect(enhanceOver.statusCode).toBe(400);
    // spec part 2 §5: enhance needs more than 12 characters.
    const enhanceShort = await send(owner, { content: '  twelve chars ', conversation_id: conversationId, enhance: true });
    expect(enhanceShort.json().details.content).toBe('Write more than 12 characters to enhance a prompt.');
    expect(await rowsOf(conversationId)).toEqual([]);
    const ledger = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, owner.user.userId));
    expect(ledger).toEqual([]);

    const atLimit = await send(owner, { content: 'a'.repeat(30_001), conversation_id: conversationId });
    expect(atLimit.statusCode).toBe(201);
  });

  it('validates the body: content required (translated), types, unknown model', async () => {
    const conversationId = await newConversation(owner);
    const empty = await send(owner, { content: '   ', conversation_id: conversationId });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details.content).toBe("The input can't be empty");
    // In the user's saved language: the session is read before the body is validated.
    const spanish = await buildUser(t.ctx, { access: true, lang: 'es' });
    const emptyEs = await send(spanish, { conversation_id: conversationId }, { 'accept-language': 'en' });
    expect(emptyEs.json().details.content).toBe('El campo no puede estar vacío');
    expect((await send(owner, { content: 'x', conversation_id: 'abc' })).statusCode).toBe(400);
    expect((await send(owner, { content: 'x', conversation_id: conversationId, message_type_id: 9 })).statusCode).toBe(400);
    const model = await send(owner, { content: 'x', conversation_id: conversationId, model: 'gpt-9-ultra' });
    expect(model.statusCode).toBe(400);
    expect(model.json().message).toBe('Unknown model: gpt-9-ultra.');
    expect(await rowsOf(conversationId)).toEqual([]);
    // 'Unset' is the default model.
    const unset = await send(owner, { content: 'x', conversation_id: conversationId, model: 'Unset' });
    expect(unset.statusCode).toBe(201);
    expect(unset.json().assistant_message.model).toBeNull();
  });

  it('presents exactly the spec fields plus the abilities its state allows', async () => {
    const conversationId = await newConversation(owner);
    const sent = await send(owner, { content: 'Hello there', conversation_id: conversationId, stream: false });
    expect(sent.statusCode).toBe(201);
    const { user_message, assistant_message } = sent.json();
    expect(Object.keys(user_message).sort()).toEqual(
      [
        'abilities', 'avatar_id', 'citations', 'content', 'conversation_id', 'createdAt', 'error_code', 'favorite', 'files', 'finish_reason', 'isThread',
        'message_id', 'message_type_id', 'model', 'organization_id', 'prompt', 'role', 'status', 'updatedAt', 'user_message_id', 'words_charged',
        // spec part 2 §3 deleteUserMsg, and ours: saveOnConversation (issue 32 item 2).
        'deleteUserMsg', 'saveOnConversation',
      ].sort(),
    );
    // A prompt is edited, shared, deleted; it is never written again itself.
    expect(user_message.abilities).toEqual({ edit: true, favorite: true, delete: true, share: true, continue: false, retry: false, regenerate: false });
    // A pending answer: only Favorite and Delete (which stops it).
    expect(assistant_message.abilities).toEqual({ edit: false, favorite: true, delete: true, share: false, continue: false, retry: false, regenerate: false });
    await settleGenerations(t.ctx);
    const page = (await t.app.inject({ url: `/api/messages/conversation/${conversationId}`, headers: owner.auth })).json();
    const answer = page.messages.find((m: { message_id: number }) => m.message_id === assistant_message.message_id);
    expect(answer.status).toBe('done');
    expect(answer.abilities).toMatchObject({ edit: true, share: true, regenerate: true, retry: false, continue: answer.finish_reason === 'length' });
  });

  it("another user's conversation or message is a 404 on every route, and nothing changes", async () => {
    const theirConversation = await newConversation(other);
    const created = await send(other, { content: 'their prompt', conversation_id: theirConversation });
    expect(created.statusCode).toBe(201);
    await settleGenerations(t.ctx);
    const theirMessage = created.json().assistant_message.message_id;
    const mine = await newConversation(owner);

    const attempts = [
      t.app.inject({ url: `/api/messages/conversation/${theirConversation}`, headers: owner.auth }),
      send(owner, { content: 'hi', conversation_id: theirConversation }),
      send(owner, { content: 'hello there my friend', conversation_id: theirConversation, enhance: true }),
      // A child id of another user's conversation, sent with my own conversation.
      send(owner, { conversation_id: mine, message_id: theirMessage }),
      t.app.inject({ method: 'PUT', url: '/api/messages', headers: owner.auth, payload: { message_id: theirMessage, content: 'hacked', favorite: true } }),
      t.app.inject({ method: 'DELETE', url: `/api/messages/${theirMessage}`, headers: owner.auth }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found', message: 'Not found.' });
    }
    // My own message id inside another of my conversations is not found there either.
    const mineElsewhere = await send(owner, { content: 'elsewhere', conversation_id: await newConversation(owner) });
    await settleGenerations(t.ctx);
    expect((await send(owner, { conversation_id: mine, message_id: mineElsewhere.json().assistant_message.message_id })).statusCode).toBe(404);

    const rows = await rowsOf(theirConversation);
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.messageId === theirMessage)).toMatchObject({ favorite: false, status: 'done' });
    expect(await rowsOf(mine)).toEqual([]);
  });

  it('needs a session on every route', async () => {
    const routes = [
      { method: 'POST' as const, url: '/api/messages', payload: { content: 'x', conversation_id: 1 } },
      { method: 'GET' as const, url: '/api/messages/conversation/1' },
      { method: 'PUT' as const, url: '/api/messages', payload: { message_id: 1, favorite: true } },
      { method: 'DELETE' as const, url: '/api/messages/1' },
      { method: 'POST' as const, url: '/api/messages/pdf', payload: { text: 'x' } },
      { method: 'POST' as const, url: '/api/messages/word', payload: { text: 'x' } },
    ];
    for (const route of routes) expect((await t.app.inject(route)).statusCode, route.url).toBe(401);
  });

  it('pages 250 messages newest first with a message_id cursor: no gaps, no repeats', async () => {
    const conversationId = await newConversation(owner);
    await t.ctx.db.insert(messages).values(
      Array.from({ length: 250 }, (_, i) => ({ conversationId, userId: owner.user.userId, role: i % 2 ? 'assistant' : 'user', content: `m${i}` })),
    );
    const seen: number[] = [];
    let cursor: number | null = null;
    let pages = 0;
    do {
      const res = await t.app.inject({ url: `/api/messages/conversation/${conversationId}${cursor ? `?cursor=${cursor}` : ''}`, headers: owner.auth });
      const page: { messages: Array<{ message_id: number; content: string }>; next_cursor: number | null } = res.json();
      expect(page).not.toHaveProperty('total');
      expect(page.messages.length).toBeLessThanOrEqual(20);
      seen.push(...page.messages.map((m) => m.message_id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor !== null && pages < 20);
    expect(pages).toBe(13);
    expect(seen).toHaveLength(250);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
    expect(new Set(seen).size).toBe(250);

    const big = await t.app.inject({ url: `/api/messages/conversation/${conversationId}?limit=100`, headers: owner.auth });
    expect(big.json().messages).toHaveLength(100);
    expect(big.json().messages[0].content).toBe('m249');
    const after = await t.app.inject({ url: `/api/messages/conversation/${conversationId}?limit=100&cursor=${big.json().next_cursor}`, headers: owner.auth });
    expect(after.json().messages[0].content).toBe('m149');
    expect((await t.app.inject({ url: `/api/messages/conversation/${conversationId}?limit=101`, headers: owner.auth })).statusCode).toBe(400);
  });

  it('edits own messages (content, favorite), refuses edits of an answer being written, deletes', async () => {
    const conversationId = await newConversation(owner);
    const [done] = await t.ctx.db.insert(messages).values({ conversationId, userId: owner.user.userId, role: 'assistant', content: 'draft' }).returning();
    const edit = await t.app.inject({ method: 'PUT', url: '/api/messages', headers: owner.auth, payload: { message_id: done.messageId, content: 'final', favorite: true } });
    expect(edit.statusCode).toBe(200);
    expect(edit.json()).toMatchObject({ message_id: done.messageId, content: 'final', favorite: true });
    const unfav = await t.app.inject({ method: 'PUT', url: '/api/messages', headers: owner.auth, payload: { message_id: done.messageId, favorite: false } });
    expect(unfav.json()).toMatchObject({ content: 'final', favorite: false });
    expect((await t.app.inject({ method: 'PUT', url: '/api/messages', headers: owner.auth, payload: { message_id: done.messageId } })).statusCode).toBe(400);

    const [pending] = await t.ctx.db
      .insert(messages)
      .values({ conversationId, userId: owner.user.userId, role: 'assistant', content: null, status: 'pending' })
      .returning();
    const busy = await t.app.inject({ method: 'PUT', url: '/api/messages', headers: owner.auth, payload: { message_id: pending.messageId, content: 'x' } });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error).toBe('conflict');
    const favPending = await t.app.inject({ method: 'PUT', url: '/api/messages', headers: owner.auth, payload: { message_id: pending.messageId, favorite: true } });
    expect(favPending.statusCode).toBe(200);
    // Continue/regenerate is refused while it is being written.
    expect((await send(owner, { conversation_id: conversationId, message_id: pending.messageId })).statusCode).toBe(409);

    const del = await t.app.inject({ method: 'DELETE', url: `/api/messages/${done.messageId}`, headers: owner.auth });
    expect(del.json()).toEqual({ deleted: true });
    expect((await rowsOf(conversationId)).map((r) => r.messageId)).toEqual([pending.messageId]);
  });

  it('two concurrent finalizes of one answer charge once', async () => {
    const payer = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(payer);
    const [row] = await t.ctx.db
      .insert(messages)
      .values({ conversationId, userId: payer.user.userId, role: 'assistant', content: null, status: 'streaming' })
      .returning();
    const finalize = () => finalizeMessage(t.ctx, { messageId: row.messageId, status: 'done', finishReason: 'stop', content: 'one two three four five', words: 5 });
    const results = await Promise.all([finalize(), finalize(), finalize()]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const ledger = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, payer.user.userId));
    expect(ledger).toEqual([expect.objectContaining({ sourceType: 'message', sourceId: String(row.messageId), words: -5, balanceAfter: 9995 })]);
    const [user] = await t.ctx.db.select().from(users).where(eq(users.userId, payer.user.userId));
    expect(user.availableWords).toBe(9995);
    // Finalizing an already final answer again changes nothing.
    expect(await finalize()).toBeNull();
    const [after] = await t.ctx.db.select().from(messages).where(eq(messages.messageId, row.messageId));
    expect(after).toMatchObject({ status: 'done', wordsCharged: 5 });
  });

  it('concurrent finalizes of different answers of one user each charge, and the balances chain', async () => {
    const payer = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(payer);
    const rows = await t.ctx.db
      .insert(messages)
      .values(Array.from({ length: 4 }, () => ({ conversationId, userId: payer.user.userId, role: 'assistant' as const, content: null, status: 'streaming' as const })))
      .returning();
    const finalized = await Promise.all(
      rows.map((row, index) => finalizeMessage(t.ctx, { messageId: row.messageId, status: 'done', finishReason: 'stop', content: 'word '.repeat(index + 1), words: index + 1 })),
    );
    // The row comes back as drizzle maps it (dates as Date, camelCase keys).
    expect(finalized[0]).toMatchObject({ status: 'done', finishReason: 'stop', wordsCharged: 1, content: 'word ' });
    expect(finalized[0]?.createdAt).toBeInstanceOf(Date);
    const [user] = await t.ctx.db.select().from(users).where(eq(users.userId, payer.user.userId));
    expect(user.availableWords).toBe(10_000 - (1 + 2 + 3 + 4));
    const ledger = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, payer.user.userId));
    // In the order they applied, each entry starts from the balance the previous one left: no charge read a stale balance.
    const applied = [...ledger].sort((a, b) => b.balanceAfter - a.balanceAfter);
    expect(applied.map((entry) => entry.balanceAfter - entry.words)).toEqual([10_000, ...applied.slice(0, -1).map((entry) => entry.balanceAfter)]);
  });

  it('a restart leaves answers pending from the previous process interrupted, never pending', async () => {
    const user = await buildUser(t.ctx, { access: true });
    const conversationId = await newConversation(user);
    const old = new Date(Date.now() - 10 * 60_000);
    const inserted = await t.ctx.db
      .insert(messages)
      .values([
        { conversationId, userId: user.user.userId, role: 'assistant', content: null, status: 'pending' },
        { conversationId, userId: user.user.userId, role: 'assistant', content: 'half of an answer', status: 'streaming', updatedAt: old },
        { conversationId, userId: user.user.userId, role: 'assistant', content: 'finished', status: 'done', finishReason: 'stop' },
      ])
      .returning();
    const ids = inserted.map((r) => r.messageId);

    // The periodic sweep (stale only) and this process's own generations are left alone.
    expect(await markInterruptedMessages(t.ctx, { staleAfterMs: 60_000, exceptIds: [ids[1]] })).toBe(0);
    expect(await markInterruptedMessages(t.ctx, { staleAfterMs: 60_000 })).toBe(1);
    // At boot (single node): every active message.
    expect(await markInterruptedMessages(t.ctx)).toBeGreaterThanOrEqual(1);

    const rows = await t.ctx.db.select().from(messages).where(inArray(messages.messageId, ids));
    const byId = new Map(rows.map((r) => [r.messageId, r]));
    expect(byId.get(ids[0])).toMatchObject({ status: 'interrupted', finishReason: 'interrupted', content: '' });
    expect(byId.get(ids[1])).toMatchObject({ status: 'interrupted', finishReason: 'interrupted', content: 'half of an answer', wordsCharged: 4 });
    expect(byId.get(ids[2])).toMatchObject({ status: 'done', content: 'finished' });
    const ledger = await t.ctx.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, user.user.userId), eq(creditLedger.sourceId, String(ids[1]))));
    expect(ledger).toHaveLength(1);
    const left = await t.ctx.db.select().from(messages).where(and(eq(messages.conversationId, conversationId), inArray(messages.status, ['pending', 'streaming'])));
    expect(left).toEqual([]);
    const page = await t.app.inject({ url: `/api/messages/conversation/${conversationId}`, headers: user.auth });
    expect(page.json().messages.map((m: { status: string }) => m.status).sort()).toEqual(['done', 'interrupted', 'interrupted']);
  });

  it('exports a message as PDF and as Word with headings, lists and paragraphs', async () => {
    const text = '# Launch plan\n\nIntro with **bold** and _italic_ words.\n\n- first item\n- second item\n\n1. step one\n2. step two\n\n| Col | Val |\n| --- | --- |\n| a | 1 |\n\nAcentos: canción, niño. Emoji 🚀.';
    const pdf = await t.app.inject({ method: 'POST', url: '/api/messages/pdf', headers: owner.auth, payload: { text } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="message\.pdf"/);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.subarray(-6).toString()).toMatch(/%%EOF/);
    const long = await t.app.inject({ method: 'POST', url: '/api/messages/pdf', headers: owner.auth, payload: { text: Array.from({ length: 120 }, (_, i) => `Paragraph ${i} with some words to wrap across the page width.`).join('\n\n') } });
    const pageCount = (buffer: Buffer) => (buffer.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
    expect(pageCount(pdf.rawPayload)).toBe(1);
    expect(pageCount(long.rawPayload)).toBeGreaterThan(1);

    const word = await t.app.inject({ method: 'POST', url: '/api/messages/word', headers: owner.auth, payload: { text } });
    expect(word.statusCode).toBe(200);
    expect(word.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(word.headers['content-disposition']).toMatch(/^attachment; filename="message\.docx"/);
    const xml = zipEntry(word.rawPayload, 'word/document.xml');
    expect(xml).toBeTruthy();
    expect(xml).toContain('Heading1');
    expect(xml).toContain('Launch plan');
    expect(xml).toContain('<w:b/>');
    expect(xml).toContain('second item');
    expect(xml).toContain('<w:numPr>');
    expect(xml).toContain('<w:tbl>');
    expect(xml).toContain('canción');

    const empty = await t.app.inject({ method: 'POST', url: '/api/messages/word', headers: owner.auth, payload: { text: '  ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('There is no text to export.');
  });

  it('keeps a conversation list fresh: sending a message bumps updatedAt', async () => {
    const conversationId = await newConversation(owner);
    const before = (await t.ctx.db.select().from(conversations).where(eq(conversations.conversationId, conversationId)))[0].updatedAt;
    await new Promise((r) => setTimeout(r, 10));
    await send(owner, { content: 'bump', conversation_id: conversationId });
    const after = (await t.ctx.db.select().from(conversations).where(eq(conversations.conversationId, conversationId)))[0].updatedAt;
    expect(after.getTime()).toBeGreaterThan(before.getTime());
  });
});
