// Events and their delivery to webhook endpoints, signed with Stripe's scheme:
// `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed by whsec_...>`,
// re-signed on every attempt, as Stripe does, so `stripe.webhooks.constructEvent` accepts them.
//
// What a receiver must survive can be asked for: a delay, the same event N times (one after the
// other, or all at once), held events released in another order, and non-2xx answers retried with
// exponential backoff. Every attempt is logged with the status it got.
import { createHmac, randomBytes } from 'node:crypto';
import { sleep } from '../http-kit';
import type { RequestInfo } from './context';
import { newId, type Store, type StoredObject } from './store';

export interface EventRecord extends StoredObject {
  object: 'event';
  api_version: string;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  pending_webhooks: number;
  request: RequestInfo;
  type: string;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  /** whsec_... (generated unless given). */
  secret: string;
  /** Event types sent to it; `*` (default) for all. */
  events: string[];
}

export interface DeliveryOptions {
  /** Wait before each delivery. */
  delayMs: number;
  /** Copies of each event sent (same id, same body). */
  duplicates: number;
  /** Send the copies at the same time instead of one after the other. */
  concurrent: boolean;
  /** Keep events until `release()`. */
  hold: boolean;
  /** Attempts per copy when the endpoint answers non-2xx or cannot be reached. */
  maxAttempts: number;
  /** Backoff before retry n: retryBaseMs × 2^(n-1). */
  retryBaseMs: number;
  timeoutMs: number;
}

export interface Delivery {
  event_id: string;
  event_type: string;
  endpoint_id: string;
  url: string;
  /** 1 for the first attempt of a copy. */
  attempt: number;
  /** Which copy (0-based) when duplicates are asked for. */
  copy: number;
  /** HTTP status, or null when the endpoint could not be reached. */
  status: number | null;
  error?: string;
  at: number;
}

export type ReleaseOrder = 'fifo' | 'reverse' | 'shuffle';

const DEFAULT_OPTIONS: DeliveryOptions = { delayMs: 0, duplicates: 1, concurrent: false, hold: false, maxAttempts: 3, retryBaseMs: 1000, timeoutMs: 10_000 };

/** The header value Stripe sends for `payload` at time `t` (seconds). */
export function signPayload(payload: string, secret: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`, 'utf8').digest('hex')}`;
}

export class WebhookDispatcher {
  readonly endpoints = new Map<string, WebhookEndpoint>();
  readonly deliveries: Delivery[] = [];
  private options: DeliveryOptions;
  private held: { event: EventRecord; endpoint: WebhookEndpoint }[] = [];
  private pending = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly store: Store,
    options: Partial<DeliveryOptions> = {},
  ) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
  }

  addEndpoint(input: { url: string; secret?: string; events?: string[] }): WebhookEndpoint {
    const endpoint = { id: newId('we_'), url: input.url, secret: input.secret ?? `whsec_${randomBytes(24).toString('hex')}`, events: input.events?.length ? input.events : ['*'] };
    this.endpoints.set(endpoint.id, endpoint);
    return endpoint;
  }

  removeEndpoint(id: string): boolean {
    return this.endpoints.delete(id);
  }

  configure(options: Partial<DeliveryOptions>): DeliveryOptions {
    for (const [key, value] of Object.entries(options)) {
      if (key in DEFAULT_OPTIONS && value !== undefined) (this.options as unknown as Record<string, unknown>)[key] = value;
    }
    return { ...this.options };
  }

  get currentOptions(): DeliveryOptions {
    return { ...this.options };
  }

  /** Endpoints that take this event type. */
  private targets(type: string): WebhookEndpoint[] {
    return [...this.endpoints.values()].filter((e) => e.events.includes('*') || e.events.includes(type));
  }

  /** Hands a new event to every matching endpoint (or holds it). Returns how many endpoints take it. */
  dispatch(event: EventRecord): number {
    const targets = this.targets(event.type);
    // Set before the first send, which renders the payload synchronously.
    event.pending_webhooks = targets.length;
    for (const endpoint of targets) {
      if (this.options.hold) this.held.push({ event, endpoint });
      else this.track(this.send(event, endpoint));
    }
    return targets.length;
  }

  /** Sends the held events, one after the other, in the order asked for. */
  release(order: ReleaseOrder = 'fifo'): number {
    const batch = this.held.splice(0);
    if (order === 'reverse') batch.reverse();
    if (order === 'shuffle') {
      for (let i = batch.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [batch[i], batch[j]] = [batch[j], batch[i]];
      }
    }
    this.track(
      (async () => {
        for (const { event, endpoint } of batch) await this.send(event, endpoint);
      })(),
    );
    return batch.length;
  }

  get heldCount(): number {
    return this.held.length;
  }

  /** Sends an existing event again to its endpoints (`times` copies). */
  redeliver(eventId: string, times = 1): void {
    const event = this.store.get<EventRecord>('event', eventId);
    for (const endpoint of this.targets(event.type)) {
      for (let i = 0; i < times; i++) this.track(this.deliverCopy(event, endpoint, i));
    }
  }

  /** Resolves once nothing is in flight (held events excluded). */
  async flush(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  close() {
    this.closed = true;
    this.held = [];
  }

  private track(promise: Promise<void>) {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise));
  }

  private async send(event: EventRecord, endpoint: WebhookEndpoint): Promise<void> {
    const { duplicates, concurrent, delayMs } = this.options;
    if (delayMs > 0) await sleep(delayMs);
    const copies = Math.max(1, duplicates);
    if (concurrent) {
      await Promise.all(Array.from({ length: copies }, (_, i) => this.deliverCopy(event, endpoint, i)));
      return;
    }
    for (let i = 0; i < copies; i++) await this.deliverCopy(event, endpoint, i);
  }

  private async deliverCopy(event: EventRecord, endpoint: WebhookEndpoint, copy: number): Promise<void> {
    // Pretty-printed, as Stripe sends it; receivers must verify the raw bytes, not a re-serialisation.
    const payload = JSON.stringify(this.store.render(event), null, 2);
    for (let attempt = 1; attempt <= this.options.maxAttempts && !this.closed; attempt++) {
      if (attempt > 1) await sleep(this.options.retryBaseMs * 2 ** (attempt - 2));
      const record: Delivery = { event_id: event.id, event_type: event.type, endpoint_id: endpoint.id, url: endpoint.url, attempt, copy, status: null, at: Date.now() };
      try {
        const response = await fetch(endpoint.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signPayload(payload, endpoint.secret), 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
          body: payload,
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
        record.status = response.status;
        await response.arrayBuffer().catch(() => undefined);
      } catch (error) {
        record.error = error instanceof Error ? error.message : String(error);
      }
      this.deliveries.push(record);
      if (record.status !== null && record.status >= 200 && record.status < 300) return;
    }
  }
}
