// What the resource modules share: the in-memory state, PayPal-looking ids and timestamps, HATEOAS
// links, and the route type. Objects are kept in PayPal's wire shape (snake_case JSON), next to the
// few facts PayPal keeps to itself (return URLs, what the buyer's capture will do).
import { randomBytes } from 'node:crypto';

export type Json = Record<string, unknown>;
export type Money = { currency_code: string; value: string };

/** What capturing an approved order does; chosen when the buyer approves (default COMPLETED). */
export type CaptureOutcome = 'COMPLETED' | 'PENDING' | 'DECLINED' | 'INSTRUMENT_DECLINED';

export interface OrderRecord {
  wire: Json & { id: string; intent: string; status: string; purchase_units: Json[] };
  returnUrl?: string;
  cancelUrl?: string;
  captureOutcome: CaptureOutcome;
}

export interface SubscriptionRecord {
  wire: Json & { id: string; plan_id: string; status: string };
  baToken: string;
  returnUrl?: string;
  cancelUrl?: string;
  /** When the next cycle is billed (ms); moves on with each emulated renewal, not with the clock. */
  nextBillingAt: number;
  transactions: Json[];
}

export interface EventRecord {
  wire: Json & { id: string; event_type: string };
  /** The exact bytes delivered (compact JSON, as PayPal sends), which the signature covers. */
  payload: string;
}

export class State {
  readonly orders = new Map<string, OrderRecord>();
  /** Capture id → its order (the capture object itself lives in the order's purchase unit). */
  readonly captures = new Map<string, { orderId: string; capture: Json }>();
  readonly products = new Map<string, Json & { id: string }>();
  readonly plans = new Map<string, Json & { id: string; status: string; billing_cycles: Json[] }>();
  readonly subscriptions = new Map<string, SubscriptionRecord>();
  readonly events = new Map<string, EventRecord>();

  clear() {
    for (const map of [this.orders, this.captures, this.products, this.plans, this.subscriptions, this.events]) map.clear();
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Upper-case alphanumerics, the way PayPal's ids look (`5O190127TN364715T`). */
export function ppId(length: number): string {
  return Array.from(randomBytes(length), (b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** `2026-01-31T12:00:00Z` (PayPal's timestamps have no milliseconds). */
export const isoTime = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export const link = (href: string, rel: string, method = 'GET') => ({ href, rel, method });

export const cents = (value: string) => Math.round(Number(value) * 100);
export const fromCents = (amount: number) => (amount / 100).toFixed(2);

/** A made-up PayPal fee (3.49% + 0.49), so gross, fee and net add up. */
export function feeBreakdown(gross: Money) {
  const fee = Math.min(cents(gross.value), Math.round(cents(gross.value) * 0.0349) + 49);
  const money = (amount: number) => ({ currency_code: gross.currency_code, value: fromCents(amount) });
  return { gross: money(cents(gross.value)), fee: money(fee), net: money(cents(gross.value) - fee) };
}

/** Deep copy, so events and answers are snapshots that later changes do not reach. */
export const snapshot = <T>(value: T): T => structuredClone(value);

export interface Call {
  body: Json;
  query: URLSearchParams;
  /** Path parameters (`:id`). */
  ids: Record<string, string>;
  /** `Prefer: return=representation` asks for the whole resource; PayPal's default is minimal. */
  representation: boolean;
  /** `PayPal-Mock-Response` (negative testing), parsed; null when absent. */
  mock: { mock_application_codes?: string } | null;
}

export interface Reply {
  status: number;
  body?: unknown;
}

export interface Ctx {
  state: State;
  /** http://host:port of the emulator: links in objects point here. */
  origin: string;
  /** Records an event whose `resource` is a snapshot of `resource`, and hands it to delivery. */
  emit(eventType: string, resource: Json, meta: { resourceType: string; summary: string; resourceVersion?: string }): EventRecord;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH';
  /** `/v2/checkout/orders/:id`. */
  pattern: string;
  handle(ctx: Ctx, call: Call): Reply;
}

/** `page` (1-based) and `page_size` of a list, with PayPal's `total_items`/`total_pages` when asked for. */
export function paginate<T>(items: T[], query: URLSearchParams, key: string, maxSize: number, selfUrl: string): Json {
  const size = Math.min(maxSize, Math.max(1, Number(query.get('page_size')) || 10));
  const page = Math.max(1, Number(query.get('page')) || 1);
  const totalPages = Math.max(1, Math.ceil(items.length / size));
  const links = [link(`${selfUrl}?page_size=${size}&page=${page}`, 'self')];
  if (page < totalPages) links.push(link(`${selfUrl}?page_size=${size}&page=${page + 1}`, 'next'));
  const out: Json = { [key]: items.slice((page - 1) * size, page * size) };
  if (query.get('total_required') === 'true') Object.assign(out, { total_items: items.length, total_pages: totalPages });
  out.links = links;
  return out;
}
