// The two stores behind the sign-in limits keep the same contract; with Redis, two nodes see one count.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountLimits } from './account-limits';
import { MemoryAttemptStore, RedisAttemptStore } from './attempt-store';
import { ACCOUNT_FREE_FAILURES } from './rate-limits';

const REDIS_URL = process.env.REDIS_URL;

describe('MemoryAttemptStore', () => {
  it('counts in a fixed window, hands attempts back, and forgets expired keys', async () => {
    let now = 1_000_000;
    const store = new MemoryAttemptStore(() => now);
    expect(await store.increment('a', 1000)).toBe(1);
    now += 600;
    expect(await store.increment('a', 1000)).toBe(2);
    expect(await store.remainingMs('a')).toBe(400);
    await store.decrement('a');
    expect(await store.count('a')).toBe(1);
    now += 400;
    expect(await store.count('a')).toBe(0);
    // Handing back an expired attempt does not bring the key back.
    await store.decrement('a');
    expect(await store.remainingMs('a')).toBe(0);
    expect(await store.increment('a', 1000)).toBe(1);
  });

  it('stays within its bound however many keys arrive', async () => {
    const store = new MemoryAttemptStore(Date.now, 100);
    for (let i = 0; i < 1000; i++) await store.increment(`k${i}`, 60_000);
    expect(await store.count('k999')).toBe(1);
    expect(await store.count('k0')).toBe(0);
    expect((store as unknown as { entries: Map<string, unknown> }).entries.size).toBeLessThanOrEqual(100);
  });
});

describe.skipIf(!REDIS_URL)('RedisAttemptStore (needs REDIS_URL)', () => {
  let a: Redis;
  let b: Redis;
  const prefix = `pluma-limits-test-${randomBytes(4).toString('hex')}:`;
  beforeAll(() => {
    a = new Redis(REDIS_URL!, { maxRetriesPerRequest: 3 });
    b = new Redis(REDIS_URL!, { maxRetriesPerRequest: 3 });
  });
  afterAll(async () => {
    const keys = await a.keys(`${prefix}*`);
    if (keys.length) await a.del(...keys);
    a.disconnect();
    b.disconnect();
  });

  it('counts with an expiry set once, and never revives an expired key on hand-back', async () => {
    const store = new RedisAttemptStore(a, prefix);
    expect(await store.increment('c', 60_000)).toBe(1);
    expect(await store.increment('c', 60_000)).toBe(2);
    const left = await store.remainingMs('c');
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(60_000);
    await store.decrement('c');
    expect(await store.count('c')).toBe(1);
    await store.decrement('gone');
    expect(await a.exists(`${prefix}gone`)).toBe(0);
    await store.mark('m', 5_000);
    expect(await store.remainingMs('m')).toBeGreaterThan(0);
    await store.delete('m', 'c');
    expect(await store.remainingMs('m')).toBe(0);
    expect(await store.count('c')).toBe(0);
  });

  it('two nodes share an account wait: failures on one are refused on the other', async () => {
    const nodeA = new AccountLimits(new RedisAttemptStore(a, prefix));
    const nodeB = new AccountLimits(new RedisAttemptStore(b, prefix));
    const email = `shared-${randomBytes(3).toString('hex')}@example.com`;
    // Each attempt is a wrong password (never handed back), alternating nodes and addresses.
    for (let i = 0; i <= ACCOUNT_FREE_FAILURES; i++) {
      const gate = await (i % 2 ? nodeA : nodeB).beginLogin(email, `10.94.0.${i + 1}`);
      expect(gate.allowed).toBe(true);
    }
    const refused = await nodeB.beginLogin(email, '10.94.1.1');
    expect(refused).toMatchObject({ allowed: false, reason: 'account' });
  });
});
