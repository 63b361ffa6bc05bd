// The /_emulator/webhooks/... control routes both emulators serve over their delivery engine:
//
//   GET    /_emulator/webhooks/endpoints              list; POST adds one (the provider reads the body)
//   DELETE /_emulator/webhooks/endpoints/:id
//   GET    /_emulator/webhooks/options                POST { delayMs, duplicates, concurrent, hold,
//                                                     maxAttempts, retryBaseMs, timeoutMs } changes them
//   POST   /_emulator/webhooks/release                { order?: 'fifo' | 'reverse' | 'shuffle' } held events
//   POST   /_emulator/webhooks/flush                  waits until no delivery is in flight
//   GET    /_emulator/webhooks/deliveries             every attempt with its status
import type { DeliveryOptions, DeliveryOutcome, DeliveryTarget, ReleaseOrder, WebhookDelivery } from './webhook-delivery';

/** The part of a delivery engine the control routes use. */
export type WebhookControls = Pick<
  WebhookDelivery<unknown, DeliveryTarget, DeliveryOutcome>,
  'endpoints' | 'deliveries' | 'removeEndpoint' | 'currentOptions' | 'configure' | 'release' | 'flush' | 'heldCount'
>;

/** What `webhookControl` answers for a route it does not serve. */
export const NOT_HANDLED = Symbol('not handled');

/** Delivery options from a JSON or form body (numbers and booleans may come as strings). */
export function deliveryOptions(body: Record<string, unknown>): Partial<DeliveryOptions> {
  const out: Partial<DeliveryOptions> = {};
  for (const key of ['delayMs', 'duplicates', 'maxAttempts', 'retryBaseMs', 'timeoutMs'] as const) if (body[key] !== undefined) out[key] = Number(body[key]);
  for (const key of ['concurrent', 'hold'] as const) if (body[key] !== undefined) out[key] = body[key] === true || body[key] === 'true';
  return out;
}

/**
 * Serves `/_emulator/webhooks/<id>/<action>`; `addEndpoint` reads a POST to `endpoints` the
 * provider's way. Returns NOT_HANDLED for anything else.
 */
export async function webhookControl(
  webhooks: WebhookControls,
  method: string,
  id: string | undefined,
  action: string | undefined,
  body: Record<string, unknown>,
  addEndpoint: (body: Record<string, unknown>) => unknown,
): Promise<unknown> {
  if (id === 'endpoints' && method === 'GET') return { data: [...webhooks.endpoints.values()] };
  if (id === 'endpoints' && method === 'POST' && !action) return addEndpoint(body);
  if (id === 'endpoints' && method === 'DELETE' && action) return { id: action, deleted: webhooks.removeEndpoint(action) };
  if (id === 'options' && method === 'GET') return webhooks.currentOptions;
  if (id === 'options' && method === 'POST') return webhooks.configure(deliveryOptions(body));
  if (id === 'release' && method === 'POST') return { released: webhooks.release((body.order as ReleaseOrder) ?? 'fifo') };
  if (id === 'flush' && method === 'POST') {
    await webhooks.flush();
    return { deliveries: webhooks.deliveries.length, held: webhooks.heldCount };
  }
  if (id === 'deliveries' && method === 'GET') return { data: webhooks.deliveries };
  return NOT_HANDLED;
}
