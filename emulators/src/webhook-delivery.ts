// The webhook delivery engine the Stripe and PayPal emulators share: endpoints, and what a receiver
// must survive, on request: a delay, the same event N times (one after the other, or all at once),
// held events released in another order, and non-2xx answers retried with exponential backoff.
// Every attempt is logged with the status it got.
//
// Each provider subclasses `WebhookDelivery` with how it names an event's type, renders its body
// once per copy, and signs and records each attempt (its headers, its delivery log entry).
import { sleep } from './http-kit';

export interface DeliveryOptions {
  /** Wait before each delivery. */
  delayMs: number;
  /** Copies of each event sent (same event id and body). */
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

export type ReleaseOrder = 'fifo' | 'reverse' | 'shuffle';

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = { delayMs: 0, duplicates: 1, concurrent: false, hold: false, maxAttempts: 3, retryBaseMs: 1000, timeoutMs: 10_000 };

export interface DeliveryTarget {
  id: string;
  url: string;
  /** Event types sent to it; `*` for all. */
  events: string[];
}

/** The part of a delivery log entry the engine fills in. */
export interface DeliveryOutcome {
  /** HTTP status, or null when the endpoint could not be reached. */
  status: number | null;
  error?: string;
}

/** One attempt, as a provider shapes it: its request headers and its (not yet filled) log entry. */
export interface Transmission<Entry extends DeliveryOutcome> {
  headers: Record<string, string>;
  record: Entry;
}

export abstract class WebhookDelivery<Event, Endpoint extends DeliveryTarget, Delivery extends DeliveryOutcome> {
  readonly endpoints = new Map<string, Endpoint>();
  readonly deliveries: Delivery[] = [];
  private options: DeliveryOptions;
  private held: { event: Event; endpoint: Endpoint }[] = [];
  private pending = new Set<Promise<void>>();
  private closed = false;

  constructor(options: Partial<DeliveryOptions> = {}) {
    this.options = { ...DEFAULT_DELIVERY_OPTIONS, ...options };
  }

  /** The event's type, matched against each endpoint's `events`. */
  protected abstract eventType(event: Event): string;
  /** The body sent for every attempt of one copy. */
  protected abstract payload(event: Event): string;
  /** The headers and log entry of one attempt (`attempt` is 1 for the first of a copy). */
  protected abstract transmission(event: Event, endpoint: Endpoint, payload: string, attempt: number, copy: number): Transmission<Delivery>;
  /** Called before the first send of a new event, with how many endpoints take it. */
  protected beforeDispatch(_event: Event, _targets: number): void {}

  protected register(endpoint: Endpoint): Endpoint {
    this.endpoints.set(endpoint.id, endpoint);
    return endpoint;
  }

  removeEndpoint(id: string): boolean {
    return this.endpoints.delete(id);
  }

  configure(options: Partial<DeliveryOptions>): DeliveryOptions {
    for (const [key, value] of Object.entries(options)) {
      if (key in DEFAULT_DELIVERY_OPTIONS && value !== undefined) (this.options as unknown as Record<string, unknown>)[key] = value;
    }
    return { ...this.options };
  }

  get currentOptions(): DeliveryOptions {
    return { ...this.options };
  }

  /** Endpoints that take this event type. */
  private targets(type: string): Endpoint[] {
    return [...this.endpoints.values()].filter((e) => e.events.includes('*') || e.events.includes(type));
  }

  /** Hands a new event to every matching endpoint (or holds it). Returns how many endpoints take it. */
  dispatch(event: Event): number {
    const targets = this.targets(this.eventType(event));
    this.beforeDispatch(event, targets.length);
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
  protected resend(event: Event, times: number): void {
    for (const endpoint of this.targets(this.eventType(event))) {
      for (let i = 0; i < times; i++) this.track(this.deliverCopy(event, endpoint, i));
    }
  }

  /** Resolves once nothing is in flight (held events excluded). */
  async flush(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /** Forgets held events and the delivery log (endpoints and options stay). */
  clear() {
    this.held = [];
    this.deliveries.length = 0;
  }

  close() {
    this.closed = true;
    this.held = [];
  }

  private track(promise: Promise<void>) {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise));
  }

  private async send(event: Event, endpoint: Endpoint): Promise<void> {
    const { duplicates, concurrent, delayMs } = this.options;
    if (delayMs > 0) await sleep(delayMs);
    const copies = Math.max(1, duplicates);
    if (concurrent) {
      await Promise.all(Array.from({ length: copies }, (_, i) => this.deliverCopy(event, endpoint, i)));
      return;
    }
    for (let i = 0; i < copies; i++) await this.deliverCopy(event, endpoint, i);
  }

  private async deliverCopy(event: Event, endpoint: Endpoint, copy: number): Promise<void> {
    const payload = this.payload(event);
    for (let attempt = 1; attempt <= this.options.maxAttempts && !this.closed; attempt++) {
      if (attempt > 1) await sleep(this.options.retryBaseMs * 2 ** (attempt - 2));
      const { headers, record } = this.transmission(event, endpoint, payload, attempt, copy);
      try {
        const response = await fetch(endpoint.url, { method: 'POST', headers, body: payload, signal: AbortSignal.timeout(this.options.timeoutMs) });
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
