// The fixed cost of sending a message (bench/chat-first-token.mjs measures its time): which statements
// run between POST /api/messages and the answer's first frame. Each one is a round trip to PostgreSQL, or
// event-loop time with PGlite, added to every answer's first token.
import { UNLIMITED_WORDS } from '@pluma/common/constants';
import { SocketEvents } from '@pluma/common/events';
import { eq } from 'drizzle-orm';
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { purchases, users } from '../../db/schema';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { settleGenerations } from '../../platform/ai/generation-registry';

type QueryFn = (...args: unknown[]) => Promise<unknown>;

describe('the fixed cost of sending a message', () => {
  let t: TestApp;
  // Statements are attributed to the request that ran them, so jobs and sweeps running meanwhile do not count.
  const request = new AsyncLocalStorage<{ statements: string[]; beforeFirstFrame: string[] | null }>();

  beforeAll(async () => {
    t = await createTestApp();
    // The driver under drizzle: a PGlite instance or a pg Pool; both run every statement outside a
    // transaction through query(). A transaction shows as PGlite's transaction() or as the pool's connect()
    // without a callback (the pool's own query() connects with one).
    const client = (t.ctx.db as unknown as { $client: Record<string, unknown> }).$client;
    for (const method of ['query', 'exec', 'transaction', 'connect']) {
      const original = client[method];
      if (typeof original !== 'function') continue;
      client[method] = function (this: unknown, ...args: unknown[]) {
        const first = args[0] as string | { text?: string } | undefined;
        if (method === 'query' || method === 'exec') request.getStore()?.statements.push(String(typeof first === 'string' ? first : first?.text));
        else if (args.length === 0 || method === 'transaction') request.getStore()?.statements.push(`${method}()`);
        return (original as QueryFn).apply(this, args);
      };
    }
    const realtime = t.ctx.services.realtime;
    if (!realtime) throw new Error('the test app has no real-time service');
    const emitToUser = realtime.emitToUser.bind(realtime);
    realtime.emitToUser = (userId, event, payload) => {
      const store = request.getStore();
      if (store && store.beforeFirstFrame === null && event === SocketEvents.messageStream) store.beforeFirstFrame = [...store.statements];
      emitToUser(userId, event, payload);
    };
  });
  afterEach(() => settleGenerations(t.ctx));
  afterAll(() => t.close());

  const newConversation = async (who: BuiltUser) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/conversations', headers: who.auth, payload: { name: 'Chat' } });
    return res.json().conversation_id as number;
  };
  /** Statements of one POST /api/messages up to its first frame, once the actor and provider settings are cached. */
  const statementsBeforeProvider = async (who: BuiltUser, conversationId: number) => {
    expect((await t.app.inject({ url: '/api/models', headers: who.auth })).statusCode).toBe(200);
    const store = { statements: [] as string[], beforeFirstFrame: null as string[] | null };
    // Awaited inside run(): inject (like a query builder) starts only when awaited.
    const res = await request.run(store, async () =>
      await t.app.inject({ method: 'POST', url: '/api/messages', headers: who.auth, payload: { content: 'Hello there', conversation_id: conversationId } }),
    );
    expect(res.statusCode).toBe(201);
    // The answer is written in the background; its first frame may follow the response.
    await settleGenerations(t.ctx);
    return store.beforeFirstFrame;
  };
  // Users who used the app this minute: a message notes a use (users.last_used_at) at most once a minute,
  // so an active user's messages do not pay that write (the first message of a minute does, after the
  // provider request is out).
  const unlimitedUser = async () => {
    const who = await buildUser(t.ctx, { access: true, lastUsedAt: new Date() });
    // Unlimited words: the answers' charges change no balance, so the cached actor stays cached.
    await t.ctx.db.update(users).set({ availableWords: UNLIMITED_WORDS }).where(eq(users.userId, who.user.userId));
    return who;
  };

  it('a new answer costs three statements: conversation with purchases, context, prompt with answer', async () => {
    const who = await unlimitedUser();
    const conversationId = await newConversation(who);
    // Twice: the second message also has a history to read.
    for (let i = 0; i < 2; i++) {
      const statements = await statementsBeforeProvider(who, conversationId);
      expect(statements).toHaveLength(3);
      expect(statements?.[0]).toMatch(/^select .* from "conversations" left join "purchases"/);
      expect(statements?.[1]).toMatch(/^select .* from "messages"/);
      expect(statements?.[2]).toMatch(/^with "ids" as .* insert into "messages"/);
    }
  });

  it('staff have access by their role: no purchases are read', async () => {
    const admin = await buildUser(t.ctx, { staffRole: 'admin', lastUsedAt: new Date() });
    const statements = await statementsBeforeProvider(admin, await newConversation(admin));
    expect(statements).toHaveLength(3);
    expect(statements?.[0]).not.toMatch(/purchases/);
  });

  it('any one valid purchase gives access, among expired, revoked and pending ones', async () => {
    const who = await unlimitedUser();
    const conversationId = await newConversation(who);
    const [valid] = await t.ctx.db.select().from(purchases).where(eq(purchases.userId, who.user.userId));
    const old = new Date(Date.now() - 400 * 86_400_000);
    const { purchaseId: _id, ...terms } = valid;
    await t.ctx.db.insert(purchases).values([
      { ...terms, createdAt: old, updatedAt: old },
      { ...terms, status: 'revoked' },
      { ...terms, status: 'pending' },
    ]);
    const send = () => t.app.inject({ method: 'POST', url: '/api/messages', headers: who.auth, payload: { content: 'Hi', conversation_id: conversationId } });
    expect((await send()).statusCode).toBe(201);
    await settleGenerations(t.ctx);

    // Without the valid one, the rest give no access.
    await t.ctx.db.delete(purchases).where(eq(purchases.purchaseId, valid.purchaseId));
    const refused = await send();
    expect(refused.statusCode).toBe(412);
    expect(refused.json().error).toBe('premium_required');
  });
});
