// Refunds: POST /v1/refunds (a PaymentIntent's whole amount, or `amount` of it), GET /v1/refunds/:id and the
// list. A refund of a PaymentIntent that has not succeeded is Stripe's 400; refunding more than is left is
// `charge_already_refunded` once nothing is left, `amount_too_large` otherwise. Refunds succeed at once and
// emit `refund.created` and `charge.refunded` (with the intent's charge id).
import { listRoute, type Ctx, type Route } from './context';
import { invalidRequest, missingParam } from './errors';
import { int, metadata, str, type Params } from './form';
import type { PaymentIntentRecord } from './intents';
import { newId, type StoredObject } from './store';

export interface RefundRecord extends StoredObject {
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string | null;
  reason: string | null;
  status: 'succeeded';
  metadata: Record<string, string>;
}

/** What has been refunded of a PaymentIntent so far, in cents. */
export const refundedOf = (ctx: Ctx, intentId: string) => ctx.store.all<RefundRecord>('refund', (r) => r.payment_intent === intentId).reduce((sum, r) => sum + r.amount, 0);

function createRefund(ctx: Ctx, params: Params): RefundRecord {
  const intentId = str(params, 'payment_intent');
  if (!intentId) throw missingParam('payment_intent');
  const intent = ctx.store.get<PaymentIntentRecord>('payment_intent', intentId, 'payment_intent');
  if (intent.status !== 'succeeded') throw invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, 'payment_intent');
  const left = intent.amount_received - refundedOf(ctx, intent.id);
  if (left <= 0) throw invalidRequest(`Charge ${intent.latest_charge ?? intent.id} has already been refunded.`, undefined, 'charge_already_refunded');
  const amount = int(params, 'amount') ?? left;
  if (amount <= 0 || amount > left) throw invalidRequest(`Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`, 'amount', 'amount_too_large');
  const refund = ctx.store.put<RefundRecord>({
    id: newId('re_'),
    object: 'refund',
    created: ctx.now(),
    livemode: false,
    amount,
    currency: intent.currency,
    payment_intent: intent.id,
    charge: intent.latest_charge,
    reason: str(params, 'reason') ?? null,
    status: 'succeeded',
    metadata: metadata(params),
  });
  ctx.emit('refund.created', refund);
  ctx.emit('charge.refunded', refund);
  return refund;
}

export const refundRoutes: Route[] = [
  { method: 'POST', pattern: '/v1/refunds', handle: (ctx, { params }) => ctx.store.present(createRefund(ctx, params), params) },
  { method: 'GET', pattern: '/v1/refunds/:id', handle: (ctx, { params, ids }) => ctx.store.present(ctx.store.get('refund', ids.id), params) },
  listRoute<RefundRecord>('/v1/refunds', 'refund', (params) => (r) => !str(params, 'payment_intent') || r.payment_intent === str(params, 'payment_intent')),
];
