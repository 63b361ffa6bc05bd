// Webhook events, their delivery with PayPal's transmission headers, and the Notifications API:
// verify-webhook-signature, webhook registration, events and the signing certificate.
//
// Signatures follow PayPal's scheme: `paypal-transmission-sig` is base64 SHA256withRSA over
// `<transmission_id>|<transmission_time>|<webhook_id>|<crc32 of the raw body, decimal>`, made with
// a key generated per emulator whose public half is served at `paypal-cert-url` (a PEM public key,
// not an X.509 certificate; `crypto.createPublicKey` reads both). Every attempt is a new transmission
// (id, time, signature). `POST /v1/notifications/verify-webhook-signature` answers SUCCESS only
// when the event is one this emulator sent, `webhook_event` equals it (as JSON: key order and
// whitespace do not matter, any changed value does) and the signature checks out for that
// `webhook_id`; anything else is FAILURE.
//
// What a receiver must survive can be asked for, as from the Stripe emulator (the shared engine in
// ../webhook-delivery.ts): a delay, the same event N times (one after the other, or all at once),
// held events released in another order, and non-2xx answers retried with exponential backoff.
// Every attempt is logged with the status it got.
import { generateKeyPairSync, randomBytes, randomUUID, sign, verify, type KeyObject } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { WebhookDelivery, type DeliveryOptions, type DeliveryOutcome, type ReleaseOrder, type Transmission } from '../webhook-delivery';
import { BodyCheck, notFound } from './errors';
import { isoTime, link, ppId, snapshot, type EventRecord, type Json, type Route } from './store';

export interface WebhookEndpoint {
  /** The webhook id PayPal gives a registered webhook; the receiver passes it to verify-webhook-signature. */
  id: string;
  url: string;
  /** Event types sent to it; `*` (default) for all. */
  events: string[];
}

export interface Delivery extends DeliveryOutcome {
  event_id: string;
  event_type: string;
  webhook_id: string;
  url: string;
  transmission_id: string;
  /** 1 for the first attempt of a copy. */
  attempt: number;
  /** Which copy (0-based) when duplicates are asked for; each copy is its own transmission. */
  copy: number;
  at: number;
}

export type { DeliveryOptions, ReleaseOrder };

export const AUTH_ALGO = 'SHA256withRSA';

/** The string PayPal signs for one transmission. */
export function signedMessage(transmissionId: string, transmissionTime: string, webhookId: string, payload: string): string {
  return `${transmissionId}|${transmissionTime}|${webhookId}|${crc32(payload)}`;
}

/** The emulator's signing key and the URL its public half is served at. */
export class WebhookSigner {
  readonly certId = `CERT-${randomBytes(4).toString('hex')}-${randomBytes(4).toString('hex')}-${randomBytes(4).toString('hex')}`;
  readonly publicKeyPem: string;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;

  constructor(private readonly origin: () => string) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateKey = privateKey;
    this.publicKey = publicKey;
    this.publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  }

  get certUrl(): string {
    return `${this.origin()}/v1/notifications/certs/${this.certId}`;
  }

  sign(message: string): string {
    return sign('sha256', Buffer.from(message, 'utf8'), this.privateKey).toString('base64');
  }

  verify(message: string, signature: string): boolean {
    try {
      return verify('sha256', Buffer.from(message, 'utf8'), this.publicKey, Buffer.from(signature, 'base64'));
    } catch {
      return false;
    }
  }

  /** The headers of one transmission of `payload` to `webhookId`. */
  headers(payload: string, webhookId: string): Record<string, string> {
    const transmissionId = randomUUID();
    const time = isoTime();
    return {
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': time,
      'paypal-transmission-sig': this.sign(signedMessage(transmissionId, time, webhookId, payload)),
      'paypal-cert-url': this.certUrl,
      'paypal-auth-algo': AUTH_ALGO,
      'paypal-auth-version': 'v2',
    };
  }
}

export class WebhookDispatcher extends WebhookDelivery<EventRecord, WebhookEndpoint, Delivery> {
  constructor(
    private readonly signer: WebhookSigner,
    options: Partial<DeliveryOptions> = {},
  ) {
    super(options);
  }

  addEndpoint(input: { url: string; id?: string; events?: string[] }): WebhookEndpoint {
    return this.register({ id: input.id ?? ppId(17), url: input.url, events: input.events?.length ? input.events : ['*'] });
  }

  /** Sends an existing event again to its endpoints (`times` copies). */
  redeliver(event: EventRecord, times = 1): void {
    this.resend(event, times);
  }

  protected eventType(event: EventRecord): string {
    return event.wire.event_type;
  }

  protected payload(event: EventRecord): string {
    return event.payload;
  }

  protected transmission(event: EventRecord, endpoint: WebhookEndpoint, payload: string, attempt: number, copy: number): Transmission<Delivery> {
    const signed = this.signer.headers(payload, endpoint.id);
    return {
      headers: { 'content-type': 'application/json', 'user-agent': 'PayPal/AUHD-214.0-58842046', 'correlation-id': randomBytes(7).toString('hex'), ...signed },
      record: {
        event_id: event.wire.id,
        event_type: event.wire.event_type,
        webhook_id: endpoint.id,
        url: endpoint.url,
        transmission_id: signed['paypal-transmission-id'],
        attempt,
        copy,
        status: null,
        at: Date.now(),
      },
    };
  }
}

/** JSON with sorted keys: equal for equal values, whatever the key order or spacing. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Json)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const VERIFY_FIELDS = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id'] as const;

/** The answer of verify-webhook-signature for `body`. */
export function verifyNotification(events: Map<string, EventRecord>, signer: WebhookSigner, body: Json): 'SUCCESS' | 'FAILURE' {
  const check = new BodyCheck('webhooks/v1');
  const fields = Object.fromEntries(VERIFY_FIELDS.map((k) => [k, check.text(body, k, '', { required: true })])) as Record<(typeof VERIFY_FIELDS)[number], string>;
  const event = body.webhook_event;
  if (event === undefined || event === null) check.missing('/webhook_event');
  else if (typeof event !== 'object' || Array.isArray(event)) check.invalid('/webhook_event', event, 'INVALID_PARAMETER_SYNTAX');
  check.done();
  const sent = events.get(String((event as Json).id));
  if (!sent || canonical(event) !== canonical(JSON.parse(sent.payload))) return 'FAILURE';
  if (fields.auth_algo !== AUTH_ALGO || fields.cert_url !== signer.certUrl) return 'FAILURE';
  const message = signedMessage(fields.transmission_id, fields.transmission_time, fields.webhook_id, sent.payload);
  return signer.verify(message, fields.transmission_sig) ? 'SUCCESS' : 'FAILURE';
}

function registration(origin: string, endpoint: WebhookEndpoint): Json {
  const self = `${origin}/v1/notifications/webhooks/${endpoint.id}`;
  return { id: endpoint.id, url: endpoint.url, event_types: endpoint.events.map((name) => ({ name })), links: [link(self, 'self'), link(self, 'update', 'PATCH'), link(self, 'delete', 'DELETE')] };
}

/** The Notifications API (`/v1/notifications/...`) over one dispatcher and signer. */
export function notificationRoutes(dispatcher: WebhookDispatcher, signer: WebhookSigner): Route[] {
  const event = (events: Map<string, EventRecord>, id: string) => {
    const found = events.get(id);
    if (!found) throw notFound('webhooks/v1');
    return found;
  };
  return [
    {
      method: 'POST',
      pattern: '/v1/notifications/verify-webhook-signature',
      handle: (ctx, { body }) => ({ status: 200, body: { verification_status: verifyNotification(ctx.state.events, signer, body) } }),
    },
    {
      method: 'POST',
      pattern: '/v1/notifications/webhooks',
      handle: (ctx, { body }) => {
        const check = new BodyCheck('webhooks/v1');
        const url = check.text(body, 'url', '', { required: true });
        const types = Array.isArray(body.event_types) ? body.event_types.map((t) => String((t as Json)?.name ?? '')) : [];
        if (!types.length) check.missing('/event_types');
        check.done();
        return { status: 201, body: registration(ctx.origin, dispatcher.addEndpoint({ url: url!, events: types })) };
      },
    },
    { method: 'GET', pattern: '/v1/notifications/webhooks', handle: (ctx) => ({ status: 200, body: { webhooks: [...dispatcher.endpoints.values()].map((e) => registration(ctx.origin, e)) } }) },
    {
      method: 'DELETE',
      pattern: '/v1/notifications/webhooks/:id',
      handle: (_ctx, { ids }) => {
        if (!dispatcher.removeEndpoint(ids.id)) throw notFound('webhooks/v1');
        return { status: 204 };
      },
    },
    { method: 'GET', pattern: '/v1/notifications/webhooks-events/:id', handle: (ctx, { ids }) => ({ status: 200, body: snapshot(event(ctx.state.events, ids.id).wire) }) },
    {
      method: 'POST',
      pattern: '/v1/notifications/webhooks-events/:id/resend',
      handle: (ctx, { ids }) => {
        const found = event(ctx.state.events, ids.id);
        dispatcher.redeliver(found);
        return { status: 202, body: snapshot(found.wire) };
      },
    },
  ];
}
