// What every resource module shares: the store, the clock, event emission, cross-resource hooks
// (an invoice's PaymentIntent settling pays the invoice), and the route type.
import type { Params } from './form';
import type { Store, StoredObject } from './store';

/** The `request` of an event: the API request that caused it (null for automatic ones, e.g. renewals). */
export interface RequestInfo {
  id: string | null;
  idempotency_key: string | null;
}

export interface PaymentIntentHooks {
  /** A PaymentIntent reached `succeeded`, or failed an attempt (`requires_payment_method` again). */
  paymentIntentSettled: ((intentId: string) => void)[];
  setupIntentSucceeded: ((intentId: string) => void)[];
}

export interface Ctx {
  store: Store;
  now(): number;
  /** http://host:port of the emulator, for URLs inside objects (3-D Secure pages, invoice links). */
  origin: string;
  /** Records an event of `type` whose `data.object` is a snapshot of `record`, and hands it to delivery. */
  emit(type: string, record: StoredObject, previousAttributes?: Record<string, unknown>): void;
  /** Set by the server around each API call, read by `emit`. */
  request: RequestInfo;
  hooks: PaymentIntentHooks;
}

export interface Call {
  params: Params;
  /** Path parameters (`:id`). */
  ids: Record<string, string>;
  /** True when the caller used a publishable key (Stripe.js); such routes must check `client_secret`. */
  publishable: boolean;
  /** The path, for list `url`s. */
  path: string;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** `/v1/customers/:id`. */
  pattern: string;
  /** Reachable with a publishable key (Stripe.js), given the intent's client_secret. */
  publishable?: boolean;
  handle(ctx: Ctx, call: Call): unknown;
}

/** A `GET` list route over every `object` that `keep(params)` lets through, paged as Stripe pages. */
export function listRoute<T extends StoredObject>(pattern: string, object: string, keep: (params: Params) => (record: T) => boolean): Route {
  return { method: 'GET', pattern, handle: (ctx, { params, path }) => ctx.store.page(ctx.store.all<T>(object, keep(params)), params, path) };
}
