import { UNLIMITED_WORDS } from '@pluma/common/constants';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditHolds, creditLedger, users } from '../../db/schema';
import { processAuthChanges } from '../../platform/auth/invalidation';
import { buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { reserveWords } from './holds';
import { chargeWords, grantWords } from './ledger';

describe('credit ledger', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const balanceOf = async (userId: number) =>
    (await t.ctx.db.select({ w: users.availableWords }).from(users).where(eq(users.userId, userId)))[0].w;
  const entriesOf = (userId: number) => t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, userId));

  it('charges once per source and records the balance after', async () => {
    const { user } = await buildUser(t.ctx, { availableWords: 100 });
    const first = await t.ctx.db.transaction((tx) => chargeWords(tx, { userId: user.userId, sourceType: 'message', sourceId: 'a1', words: 30 }));
    expect(first).toEqual({ applied: true, balanceAfter: 70, change: -30 });
    const again = await t.ctx.db.transaction((tx) => chargeWords(tx, { userId: user.userId, sourceType: 'message', sourceId: 'a1', words: 30 }));
    expect(again.applied).toBe(false);
    expect(await balanceOf(user.userId)).toBe(70);
    const entries = await entriesOf(user.userId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ words: -30, balanceAfter: 70, sourceType: 'message', sourceId: 'a1' });
  });

  it('settles the hold of its cause: charged what was written, at most the hold, the rest released', async () => {
    const { user } = await buildUser(t.ctx, { availableWords: 100 });
    const hold = (id: string) => reserveWords(t.ctx.db, { userId: user.userId, exempt: false, words: 30 }, { type: 'enhance', id });
    const heldWords = async () => (await t.ctx.db.select({ h: users.heldWords }).from(users).where(eq(users.userId, user.userId)))[0].h;
    expect(await hold('h1')).toEqual({ limit: 30 });
    expect(await hold('h2')).toEqual({ limit: 30 });
    expect(await heldWords()).toBe(60);
    expect(await chargeWords(t.ctx.db, { userId: user.userId, sourceType: 'enhance', sourceId: 'h1', words: 5 })).toEqual({ applied: true, balanceAfter: 95, change: -5 });
    expect(await heldWords()).toBe(30);
    expect(await chargeWords(t.ctx.db, { userId: user.userId, sourceType: 'enhance', sourceId: 'h2', words: 50 })).toEqual({ applied: true, balanceAfter: 65, change: -30 });
    expect(await heldWords()).toBe(0);
    expect(await t.ctx.db.select().from(creditHolds).where(eq(creditHolds.userId, user.userId))).toEqual([]);
  });

  it('never goes below 0', async () => {
    const { user } = await buildUser(t.ctx, { availableWords: 10 });
    const result = await t.ctx.db.transaction((tx) => chargeWords(tx, { userId: user.userId, sourceType: 'message', sourceId: 'b1', words: 50 }));
    expect(result).toEqual({ applied: true, balanceAfter: 0, change: -10 });
    expect(await balanceOf(user.userId)).toBe(0);
  });

  it('never decrements an unlimited balance, but records the use', async () => {
    const { user } = await buildUser(t.ctx, { availableWords: UNLIMITED_WORDS });
    const result = await t.ctx.db.transaction((tx) => chargeWords(tx, { userId: user.userId, sourceType: 'message', sourceId: 'c1', words: 500 }));
    expect(result).toEqual({ applied: true, balanceAfter: UNLIMITED_WORDS, change: 0 });
    expect(await balanceOf(user.userId)).toBe(UNLIMITED_WORDS);
    expect(await entriesOf(user.userId)).toHaveLength(1);
  });

  it('concurrent charges of one source apply once; of different sources, each once', async () => {
    const { user } = await buildUser(t.ctx, { availableWords: 1000 });
    const charge = (sourceId: string) =>
      t.ctx.db.transaction((tx) => chargeWords(tx, { userId: user.userId, sourceType: 'message', sourceId, words: 100 }));
    const same = await Promise.all([charge('d1'), charge('d1'), charge('d1')]);
    expect(same.filter((r) => r.applied)).toHaveLength(1);
    await Promise.all([charge('d2'), charge('d3')]);
    expect(await balanceOf(user.userId)).toBe(700);
    expect((await entriesOf(user.userId)).map((e) => e.balanceAfter).sort()).toEqual([700, 800, 900]);
  });

  it('announces a charge as balanceSpent and a grant as a user change, nothing for an entry that changes nothing', async () => {
    const finite = (await buildUser(t.ctx, { availableWords: 100 })).user.userId;
    const unlimited = (await buildUser(t.ctx, { availableWords: UNLIMITED_WORDS })).user.userId;
    const announced: unknown[] = [];
    const stop = processAuthChanges.listen((change) => announced.push(change));
    try {
      await t.ctx.db.transaction((tx) => chargeWords(tx, { userId: unlimited, sourceType: 'message', sourceId: 'e1', words: 40 }));
      await t.ctx.db.transaction((tx) => grantWords(tx, { userId: unlimited, sourceType: 'purchase', sourceId: 'e2', words: 'unlimited' }));
      expect(announced).toEqual([]);
      await t.ctx.db.transaction((tx) => chargeWords(tx, { userId: finite, sourceType: 'message', sourceId: 'e3', words: 40 }));
      await t.ctx.db.transaction((tx) => grantWords(tx, { userId: finite, sourceType: 'purchase', sourceId: 'e4', words: 10 }));
      // A charge only lowers the balance: the current-user view goes, cached actors stay (auth-cache.ts).
      expect(announced).toEqual([{ balanceOf: finite }, { userId: finite }]);
    } finally {
      stop();
    }
  });

  it('grants once; unlimited sets 1000000; finite grants stay below it', async () => {
    const { user } = await buildUser(t.ctx, { availableWords: 0 });
    const grant = (sourceId: string, words: number | 'unlimited') =>
      t.ctx.db.transaction((tx) => grantWords(tx, { userId: user.userId, sourceType: 'purchase', sourceId, words }));
    expect(await grant('p1', 5000)).toEqual({ applied: true, balanceAfter: 5000, change: 5000 });
    expect((await grant('p1', 5000)).applied).toBe(false);
    expect((await grant('p2', 999_999)).balanceAfter).toBe(UNLIMITED_WORDS - 1);
    expect((await grant('p3', 'unlimited')).balanceAfter).toBe(UNLIMITED_WORDS);
    expect(await balanceOf(user.userId)).toBe(UNLIMITED_WORDS);
  });
});
