import { describe, expect, it } from 'vitest';
import { LruCache } from './lru';

describe('LruCache', () => {
  it('returns live entries and drops them at their deadline', () => {
    const lru = new LruCache<string, number>(10);
    lru.set('a', 1, 1_000);
    expect(lru.get('a', 999)).toBe(1);
    expect(lru.get('a', 1_000)).toBeUndefined();
    expect(lru.size).toBe(0);
  });

  it('evicts the least recently used entry when full; a read counts as a use', () => {
    const lru = new LruCache<string, number>(2);
    lru.set('a', 1, 10_000);
    lru.set('b', 2, 10_000);
    expect(lru.get('a', 0)).toBe(1);
    lru.set('c', 3, 10_000);
    expect(lru.get('b', 0)).toBeUndefined();
    expect(lru.get('a', 0)).toBe(1);
    expect(lru.get('c', 0)).toBe(3);
    expect(lru.size).toBe(2);
  });

  it('setting a key again replaces value and deadline', () => {
    const lru = new LruCache<string, number>(2);
    lru.set('a', 1, 100);
    lru.set('a', 2, 200);
    expect(lru.size).toBe(1);
    expect(lru.get('a', 150)).toBe(2);
  });

  it('replace keeps the deadline and only touches present keys; peek neither reorders nor expires', () => {
    const lru = new LruCache<string, number>(2);
    lru.set('a', 1, 100);
    lru.set('b', 2, 100);
    expect(lru.replace('a', 10)).toBe(true);
    expect(lru.replace('missing', 1)).toBe(false);
    expect(lru.peek('a')).toBe(10);
    // 'a' was not moved by replace or peek, so it is still the oldest.
    lru.set('c', 3, 100);
    expect(lru.peek('a')).toBeUndefined();
    expect(lru.get('b', 100)).toBeUndefined();
  });

  it('deleteWhere drops every match and reports how many', () => {
    const lru = new LruCache<string, { user: number }>(10);
    lru.set('t1', { user: 1 }, 100);
    lru.set('t2', { user: 2 }, 100);
    lru.set('t3', { user: 1 }, 100);
    expect(lru.deleteWhere((v) => v.user === 1)).toBe(2);
    expect(lru.peek('t1')).toBeUndefined();
    expect(lru.peek('t2')).toEqual({ user: 2 });
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new LruCache(0)).toThrow(/positive/);
  });
});
