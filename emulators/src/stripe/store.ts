// In-memory objects in the shape the API returns them, with ids by Stripe prefix, list pages and
// `expand[]`. Fields starting with `_` are the emulator's own bookkeeping and never leave the store.
import { randomBytes } from 'node:crypto';
import { invalidRequest, noSuch } from './errors';
import { int, str, strings, type Params } from './form';

export interface StoredObject {
  id: string;
  object: string;
  created: number;
  livemode: false;
  /** Insertion order: lists are newest first, and `created` has only second precision. */
  _seq?: number;
}

type Json = unknown;
type Includable = (record: StoredObject) => Json;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `cus_` + 24 characters, like Stripe's ids (`cus_NffrFeUfNV2Hib...`). */
export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return `${prefix}${out}`;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Human names Stripe uses in "No such ..." messages, by object type. */
const RESOURCE_NAMES: Record<string, string> = {
  customer: 'customer',
  payment_method: 'PaymentMethod',
  payment_intent: 'payment_intent',
  refund: 'refund',
  setup_intent: 'setupintent',
  product: 'product',
  price: 'price',
  coupon: 'coupon',
  subscription: 'subscription',
  invoice: 'invoice',
  event: 'event',
  discount: 'discount',
};

export class Store {
  private objects = new Map<string, StoredObject>();
  private seq = 0;
  /** Fields returned only when expanded (e.g. `invoice.confirmation_secret`), by object type. */
  private includables = new Map<string, Map<string, Includable>>();

  put<T extends StoredObject>(record: T): T {
    if (record._seq === undefined) record._seq = ++this.seq;
    this.objects.set(record.id, record);
    return record;
  }

  find<T extends StoredObject>(object: string, id: string): T | undefined {
    const record = this.objects.get(id);
    return record && record.object === object ? (record as T) : undefined;
  }

  /** The object, or Stripe's 404 (`param` names the request field that held the id). */
  get<T extends StoredObject>(object: string, id: string | undefined, param = 'id'): T {
    const record = id ? this.find<T>(object, id) : undefined;
    if (!record) throw noSuch(RESOURCE_NAMES[object] ?? object, id ?? '', param);
    return record;
  }

  all<T extends StoredObject>(object: string, filter: (record: T) => boolean = () => true): T[] {
    const out: T[] = [];
    for (const record of this.objects.values()) if (record.object === object && filter(record as T)) out.push(record as T);
    return out.sort((a, b) => (b._seq ?? 0) - (a._seq ?? 0));
  }

  delete(id: string) {
    this.objects.delete(id);
  }

  clear() {
    this.objects.clear();
  }

  registerIncludable(object: string, field: string, fn: Includable) {
    if (!this.includables.has(object)) this.includables.set(object, new Map());
    this.includables.get(object)!.set(field, fn);
  }

  /** The API shape of a stored object: a deep copy without the `_` bookkeeping fields. */
  render(record: StoredObject): Record<string, Json> {
    const copy = structuredClone(record) as unknown as Record<string, Json>;
    for (const key of Object.keys(copy)) if (key.startsWith('_')) delete copy[key];
    return copy;
  }

  /** `render` plus the request's `expand[]` paths. */
  present(record: StoredObject, params: Params, prefix = ''): Record<string, Json> {
    const paths = strings(params, 'expand').map((p) => (prefix && p.startsWith(prefix) ? p.slice(prefix.length) : p));
    return this.expand(this.render(record), paths.map((p) => p.split('.'))) as Record<string, Json>;
  }

  /** A list page: newest first, `limit` (1..100, default 10), `starting_after` / `ending_before` cursors. */
  page(records: StoredObject[], params: Params, url: string): Record<string, Json> {
    const limit = int(params, 'limit') ?? 10;
    if (limit < 1 || limit > 100) throw invalidRequest('This value must be between 1 and 100 (it currently is ' + limit + ').', 'limit');
    let items = records;
    const after = str(params, 'starting_after');
    const before = str(params, 'ending_before');
    if (after) items = items.slice(items.findIndex((r) => r.id === after) + 1);
    let data: StoredObject[];
    let hasMore: boolean;
    if (before && !after) {
      const end = items.findIndex((r) => r.id === before);
      const upTo = end < 0 ? [] : items.slice(0, end);
      data = upTo.slice(Math.max(0, upTo.length - limit));
      hasMore = upTo.length > limit;
    } else {
      data = items.slice(0, limit);
      hasMore = items.length > limit;
    }
    const list = { object: 'list', data: data.map((r) => this.render(r)), has_more: hasMore, url };
    return this.expand(list, strings(params, 'expand').map((p) => p.split('.'))) as Record<string, Json>;
  }

  /**
   * Replaces ids at the given paths with their objects, recursively: `latest_invoice.payments`,
   * `data.customer`. Arrays apply the path to every element. Stripe refuses paths that are not
   * expandable; so does the emulator, so a typo fails here as it would in production.
   */
  expand(value: Json, paths: string[][]): Json {
    if (paths.length === 0 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => this.expand(item, paths));
    const target = value as Record<string, Json>;
    const byField = new Map<string, string[][]>();
    for (const [field, ...rest] of paths) {
      if (!byField.has(field)) byField.set(field, []);
      if (rest.length) byField.get(field)!.push(rest);
    }
    for (const [field, rests] of byField) {
      const include = this.includables.get(String(target.object))?.get(field);
      const stored = typeof target.id === 'string' ? this.objects.get(target.id) : undefined;
      let next: Json = target[field];
      if (include && stored) next = include(stored);
      else if (typeof next === 'string') next = this.expandId(next, field);
      else if (Array.isArray(next)) next = next.map((item) => (typeof item === 'string' ? this.expandId(item, field) : item));
      else if (next === undefined || (next !== null && typeof next !== 'object')) {
        throw invalidRequest(`This property cannot be expanded (${field}).`, 'expand');
      }
      target[field] = this.expand(next, rests);
    }
    return target;
  }

  private expandId(id: string, field: string): Json {
    const record = this.objects.get(id);
    if (!record) throw invalidRequest(`This property cannot be expanded (${field}).`, 'expand');
    return this.render(record);
  }
}
