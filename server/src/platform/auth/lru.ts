// A bounded in-memory map for the auth cache: each entry has its own deadline, and when the map is full
// the least recently used entry goes first. A Map keeps insertion order, so "recently used" is "last".

interface Slot<V> {
  value: V;
  /** Epoch ms after which the entry is never returned. */
  expiresAt: number;
}

export class LruCache<K, V> {
  readonly #slots = new Map<K, Slot<V>>();

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new Error(`LruCache needs a positive size, got ${maxEntries}`);
  }

  get size(): number {
    return this.#slots.size;
  }

  /** The live value, marked as most recently used; an expired entry is dropped and reads as a miss. */
  get(key: K, now: number): V | undefined {
    const slot = this.#slots.get(key);
    if (!slot) return undefined;
    this.#slots.delete(key);
    if (slot.expiresAt <= now) return undefined;
    this.#slots.set(key, slot);
    return slot.value;
  }

  set(key: K, value: V, expiresAt: number): void {
    this.#slots.delete(key);
    this.#slots.set(key, { value, expiresAt });
    while (this.#slots.size > this.maxEntries) {
      const oldest = this.#slots.keys().next().value as K;
      this.#slots.delete(oldest);
    }
  }

  /** The stored value without marking it used or checking its deadline (for in-place updates). */
  peek(key: K): V | undefined {
    return this.#slots.get(key)?.value;
  }

  /** Replaces the value of a present entry, keeping its deadline and its place in the order. */
  replace(key: K, value: V): boolean {
    const slot = this.#slots.get(key);
    if (!slot) return false;
    slot.value = value;
    return true;
  }

  delete(key: K): void {
    this.#slots.delete(key);
  }

  /** Drops every entry whose value matches (invalidation by user or session family). */
  deleteWhere(matches: (value: V, key: K) => boolean): number {
    let dropped = 0;
    for (const [key, slot] of this.#slots) {
      if (matches(slot.value, key)) {
        this.#slots.delete(key);
        dropped++;
      }
    }
    return dropped;
  }

  /** Calls `visit` for every stored entry (expired ones included: they are harmless to update). */
  forEach(visit: (value: V, key: K) => void): void {
    for (const [key, slot] of this.#slots) visit(slot.value, key);
  }

  clear(): void {
    this.#slots.clear();
  }
}
