// Outputs left pending by a stopped process are closed at boot (failed, 'interrupted'); with several nodes
// only the stale ones, so a live node's work is left alone.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatars, outputMessages, outputs } from '../../db/schema';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';
import { closeAbandonedOutputs, INTERRUPTED_OUTPUT } from './abandoned';

describe(`abandoned outputs (${testDbKind()})`, () => {
  let t: TestApp;
  let ana: BuiltUser;
  let avatarId: number;

  beforeAll(async () => {
    t = await createTestApp();
    ana = await buildUser(t.ctx, { access: true });
    [{ avatarId }] = await t.ctx.db.insert(avatars).values({ userId: ana.user.userId, name: 'Coach', context: 'Warm.' }).returning();
  }, 60_000);
  afterAll(() => t?.close());

  const addOutput = async (status: string, minutesAgo: number) => {
    const at = new Date(Date.now() - minutesAgo * 60_000);
    const [row] = await t.ctx.db
      .insert(outputs)
      .values({ userId: ana.user.userId, avatarId, prompt: 'Tip', content: status === 'pending' ? null : 'Done.', status, createdAt: at, updatedAt: at })
      .returning();
    return row.outputId;
  };
  const statusOf = async (outputId: number) => (await t.ctx.db.select().from(outputs).where(eq(outputs.outputId, outputId)))[0];

  it('with several nodes closes only the stale pending outputs and thread answers', async () => {
    const fresh = await addOutput('pending', 1);
    const stale = await addOutput('pending', 60);
    const done = await addOutput('done', 60);
    const old = new Date(Date.now() - 60 * 60_000);
    await t.ctx.db.insert(outputMessages).values([
      { outputId: done, role: 'user', content: 'Shorter?', createdAt: old },
      { outputId: done, role: 'assistant', content: null, createdAt: old },
    ]);
    expect(await closeAbandonedOutputs(t.ctx.db, { staleAfterMs: 15 * 60_000 })).toEqual({ outputs: 1, threadAnswers: 1 });
    expect(await statusOf(stale)).toMatchObject({ status: 'failed', errorCode: INTERRUPTED_OUTPUT, content: '' });
    expect((await statusOf(fresh)).status).toBe('pending');
    expect((await statusOf(done)).status).toBe('done');
    const thread = await t.ctx.db.select().from(outputMessages).where(eq(outputMessages.outputId, done));
    expect(thread.map((m) => m.role)).toEqual(['user']);
  });

  it('at the boot of a single node closes every pending output', async () => {
    const fresh = await addOutput('pending', 0);
    expect((await closeAbandonedOutputs(t.ctx.db)).outputs).toBeGreaterThanOrEqual(1);
    expect((await statusOf(fresh)).status).toBe('failed');
  });
});
