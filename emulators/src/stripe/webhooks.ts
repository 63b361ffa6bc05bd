// Events and their delivery to webhook endpoints (through ../webhook-delivery.ts), signed with Stripe's scheme:
// `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed by whsec_...>`,
// re-signed on every attempt, as Stripe does, so `stripe.webhooks.constructEvent` accepts them.
//
// What a receiver must survive (delay, duplicates, hold/release, retries with backoff, the
// deliveries log) is the shared engine's.
import { createHmac, randomBytes } from 'node:crypto';
import { WebhookDelivery, type DeliveryOptions, type DeliveryOutcome, type ReleaseOrder, type Transmission } from '../webhook-delivery';
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

export interface Delivery extends DeliveryOutcome {
  event_id: string;
  event_type: string;
  endpoint_id: string;
  url: string;
  /** 1 for the first attempt of a copy. */
  attempt: number;
  /** Which copy (0-based) when duplicates are asked for. */
  copy: number;
  at: number;
}

export type { DeliveryOptions, ReleaseOrder };

/** The header value Stripe sends for `payload` at time `t` (seconds). */
export function signPayload(payload: string, secret: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`, 'utf8').digest('hex')}`;
}

export class WebhookDispatcher extends WebhookDelivery<EventRecord, WebhookEndpoint, Delivery> {
  constructor(
    private readonly store: Store,
    options: Partial<DeliveryOptions> = {},
  ) {
    super(options);
  }

  addEndpoint(input: { url: string; secret?: string; events?: string[] }): WebhookEndpoint {
    return this.register({ id: newId('we_'), url: input.url, secret: input.secret ?? `whsec_${randomBytes(24).toString('hex')}`, events: input.events?.length ? input.events : ['*'] });
  }

  /** Sends an existing event again to its endpoints (`times` copies). */
  redeliver(eventId: string, times = 1): void {
    this.resend(this.store.get<EventRecord>('event', eventId), times);
  }

  protected eventType(event: EventRecord): string {
    return event.type;
  }

  protected override beforeDispatch(event: EventRecord, targets: number): void {
    // Set before the first send, which renders the payload synchronously.
    event.pending_webhooks = targets;
  }

  protected payload(event: EventRecord): string {
    // Pretty-printed, as Stripe sends it; receivers must verify the raw bytes, not a re-serialisation.
    return JSON.stringify(this.store.render(event), null, 2);
  }

  protected transmission(event: EventRecord, endpoint: WebhookEndpoint, payload: string, attempt: number, copy: number): Transmission<Delivery> {
    return {
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signPayload(payload, endpoint.secret), 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
      record: { event_id: event.id, event_type: event.type, endpoint_id: endpoint.id, url: endpoint.url, attempt, copy, status: null, at: Date.now() },
    };
  }
}
