// Sharing a message through the real app: the owner shares, anyone reads the public link signed out (the
// presented fields only), revoking ends it, nobody else can share or revoke, sharing again is idempotent.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, messages, messageShares } from '../../db/schema';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('message sharing', () => {
  let t: TestApp;
  let owner: BuiltUser;
  let other: BuiltUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await buildUser(t.ctx);
    other = await buildUser(t.ctx);
  });
  afterAll(() => t.close());

  /** A finished answer (no generation needed): rows as the chat leaves them. */
  async function answerOf(who: BuiltUser, fields: Partial<typeof messages.$inferInsert> = {}) {
    const [conversation] = await t.ctx.db.insert(conversations).values({ userId: who.user.userId, name: 'Private plans' }).returning();
    const [row] = await t.ctx.db
      .insert(messages)
      .values({ conversationId: conversation.conversationId, userId: who.user.userId, role: 'assistant', content: '# Plan\n\nStep **one**.', prompt: 'secret prompt', model: 'gpt-4o-mini', status: 'done', finishReason: 'stop', ...fields })
      .returning();
    return row;
  }
  const share = (who: BuiltUser, messageId: number, url = '/api/messages/share') =>
    t.app.inject({ method: 'POST', url, headers: who.auth, payload: { message_id: messageId } });
  const revoke = (who: BuiltUser, shareId: number) => t.app.inject({ method: 'DELETE', url: `/api/messages/share/${shareId}`, headers: who.auth });
  const readPublic = (token: string) => t.app.inject({ method: 'GET', url: `/api/shared/${token}` });

  it('the owner shares an answer; the link reads signed out with exactly the presented fields', async () => {
    const answer = await answerOf(owner);
    const res = await share(owner, answer.messageId);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'message_id', 'path', 'share_id', 'token']);
    expect(body.message_id).toBe(answer.messageId);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.path).toBe(`/shared/${body.token}`);

    const shared = await readPublic(body.token);
    expect(shared.statusCode).toBe(200);
    // Never the owner, the prompt, the conversation or any message id: exactly these keys (citations: an
    // avatar answer's cited passages, none here; avatar-citations-everywhere.test.ts).
    expect(Object.keys(shared.json()).sort()).toEqual(['citations', 'content', 'createdAt', 'model', 'role']);
    expect(shared.json()).toEqual({ role: 'assistant', content: '# Plan\n\nStep **one**.', model: 'gpt-4o-mini', createdAt: answer.createdAt.toISOString(), citations: [] });
    expect(shared.headers['cache-control']).toBe('no-store');
    expect(JSON.stringify(shared.json())).not.toContain(owner.user.email);
  });

  it('sharing again returns the same link (also via the spec path with a trailing slash); one row', async () => {
    const answer = await answerOf(owner);
    const first = await share(owner, answer.messageId);
    const again = await share(owner, answer.messageId, '/api/messages/share/');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const rows = await t.ctx.db.select().from(messageShares).where(eq(messageShares.messageId, answer.messageId));
    expect(rows).toHaveLength(1);
  });

  it('two shares at once still make one link', async () => {
    const answer = await answerOf(owner);
    const [a, b] = await Promise.all([share(owner, answer.messageId), share(owner, answer.messageId)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().token).toBe(b.json().token);
  });

  it('revoking ends the link (404), revoking twice is a 404, sharing again makes a new link', async () => {
    const answer = await answerOf(owner);
    const first = (await share(owner, answer.messageId)).json();
    const res = await revoke(owner, first.share_id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ revoked: true });
    const gone = await readPublic(first.token);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('not_found');
    expect((await revoke(owner, first.share_id)).statusCode).toBe(404);

    const second = await share(owner, answer.messageId);
    expect(second.statusCode).toBe(201);
    expect(second.json().token).not.toBe(first.token);
    expect((await readPublic(second.json().token)).statusCode).toBe(200);
    expect((await readPublic(first.token)).statusCode).toBe(404);
  });

  it("another user's message cannot be shared, nor their share revoked (404, nothing changes)", async () => {
    const answer = await answerOf(owner);
    const refused = await share(other, answer.messageId);
    expect(refused.statusCode).toBe(404);
    expect(await t.ctx.db.select().from(messageShares).where(eq(messageShares.messageId, answer.messageId))).toHaveLength(0);

    const mine = (await share(owner, answer.messageId)).json();
    expect((await revoke(other, mine.share_id)).statusCode).toBe(404);
    expect((await readPublic(mine.token)).statusCode).toBe(200);
  });

  it('unknown, malformed and deleted-message tokens are 404; a pending answer cannot be shared; sign-in required to share', async () => {
    expect((await readPublic('A'.repeat(43))).statusCode).toBe(404);
    expect((await readPublic('not-a-token')).statusCode).toBe(404);
    expect((await readPublic(`${'x'.repeat(43)}%27%20or%201%3D1`)).statusCode).toBe(404);

    const pending = await answerOf(owner, { content: null, status: 'pending', finishReason: null });
    const busy = await share(owner, pending.messageId);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe('There is nothing to share yet: wait for the answer to be written.');
    // Errors speak the user's saved language.
    const hispanic = await buildUser(t.ctx, { lang: 'es' });
    const spanish = await share(hispanic, (await answerOf(hispanic, { content: null, status: 'streaming', finishReason: null })).messageId);
    expect(spanish.statusCode).toBe(409);
    expect(spanish.json().message).toMatch(/^Aún no hay nada que compartir/);

    const answer = await answerOf(owner);
    expect((await t.app.inject({ method: 'POST', url: '/api/messages/share', payload: { message_id: answer.messageId } })).statusCode).toBe(401);
    const link = (await share(owner, answer.messageId)).json();
    await t.ctx.db.delete(messages).where(eq(messages.messageId, answer.messageId));
    expect((await readPublic(link.token)).statusCode).toBe(404);
  });

  // Last: it spends this address's allowance of the public read.
  it('the public read is rate-limited', async () => {
    let status = 0;
    for (let i = 0; i < 125 && status !== 429; i++) status = (await readPublic('not-a-token')).statusCode;
    expect(status).toBe(429);
  });
});
