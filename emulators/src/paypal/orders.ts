// Orders v2 (one-time payments): create, get, capture, plus GET of a capture. The buyer's approval
// happens outside the API (the approve page or the control route) through `approveOrder`.
//
// Statuses: CREATED (or PAYER_ACTION_REQUIRED when the order names `payment_source.paypal`, whose
// link is then `payer-action` instead of `approve`) → APPROVED → COMPLETED. Capturing before the
// buyer approves is 422 ORDER_NOT_APPROVED; capturing twice is 422 ORDER_ALREADY_CAPTURED. What the
// capture does is the buyer's choice at approval: COMPLETED, PENDING (then completed or denied by
// control), DECLINED (the order completes, its capture is DECLINED), or INSTRUMENT_DECLINED (422).
// `PayPal-Mock-Response: {"mock_application_codes":"INSTRUMENT_DECLINED"}` works too, as in the sandbox.
import { BodyCheck, notFound, unprocessable } from './errors';
import { feeBreakdown, isoTime, link, ppId, snapshot, type CaptureOutcome, type Ctx, type Json, type Money, type OrderRecord, type Route } from './store';

export const MERCHANT = { email_address: 'merchant@example.com', merchant_id: 'PLUMAMERCHANT1' };

export interface PayerInput {
  email_address?: string;
  given_name?: string;
  surname?: string;
}

export function buyer(input: PayerInput = {}) {
  return {
    payer_id: ppId(13),
    email_address: input.email_address ?? 'buyer@example.com',
    name: { given_name: input.given_name ?? 'Test', surname: input.surname ?? 'Buyer' },
    address: { country_code: 'US' },
  };
}

function order(ctx: Ctx, id: string): OrderRecord {
  const record = ctx.state.orders.get(id);
  if (!record) throw notFound('orders/v2', 'Specified resource ID does not exist. Please check the resource ID and try again.');
  return record;
}

function orderLinks(ctx: Ctx, record: OrderRecord) {
  const { id, status, intent } = record.wire;
  const self = `${ctx.origin}/v2/checkout/orders/${id}`;
  const links = [link(self, 'self')];
  if (status === 'CREATED') links.push(link(`${ctx.origin}/checkoutnow?token=${id}`, 'approve'));
  if (status === 'PAYER_ACTION_REQUIRED') links.push(link(`${ctx.origin}/checkoutnow?token=${id}`, 'payer-action'));
  if (status !== 'COMPLETED') links.push(link(self, 'update', 'PATCH'), link(`${self}/${intent === 'CAPTURE' ? 'capture' : 'authorize'}`, intent === 'CAPTURE' ? 'capture' : 'authorize', 'POST'));
  return links;
}

/** The whole order, as GET and `Prefer: return=representation` show it. */
export function renderOrder(ctx: Ctx, record: OrderRecord): Json {
  return snapshot({ ...record.wire, links: orderLinks(ctx, record) });
}

function createOrder(ctx: Ctx, call: { body: Json; representation: boolean }) {
  const { body } = call;
  const check = new BodyCheck('orders/v2');
  const intent = check.text(body, 'intent', '', { required: true });
  if (intent && intent !== 'CAPTURE' && intent !== 'AUTHORIZE') check.invalid('/intent', intent);
  const units = body.purchase_units;
  if (units === undefined) check.missing('/purchase_units');
  else if (!Array.isArray(units) || units.length === 0 || units.length > 10) check.invalid('/purchase_units', units, 'INVALID_ARRAY_MAX_ITEMS', 'The number of items in an array parameter is invalid.');
  const purchaseUnits: Json[] = [];
  if (Array.isArray(units)) {
    units.forEach((raw: unknown, i) => {
      const path = `/purchase_units/${i}`;
      const unit = raw && typeof raw === 'object' ? (raw as Json) : {};
      const amount = check.money(unit, 'amount', path);
      const out: Json = { reference_id: check.text(unit, 'reference_id', path, { max: 256 }) ?? 'default' };
      if (amount) out.amount = { ...(unit.amount as Json), ...amount };
      out.payee = { ...MERCHANT };
      for (const key of ['description', 'custom_id', 'invoice_id', 'soft_descriptor']) {
        const value = check.text(unit, key, path, { max: key === 'soft_descriptor' ? 22 : 127 });
        if (value !== undefined) out[key] = value;
      }
      if (Array.isArray(unit.items)) out.items = unit.items;
      purchaseUnits.push(out);
    });
  }
  check.done();
  if (purchaseUnits.length > 1) {
    const refs = purchaseUnits.map((u) => u.reference_id);
    if (new Set(refs).size !== refs.length) throw unprocessable('DUPLICATE_REFERENCE_ID', '`reference_id` must be unique if multiple `purchase_unit` are provided.', 'orders/v2');
  }
  const paypal = ((body.payment_source as Json | undefined)?.paypal as Json | undefined) ?? undefined;
  const context = ((paypal?.experience_context ?? body.application_context) as Json | undefined) ?? {};
  const now = isoTime();
  const record: OrderRecord = {
    wire: {
      id: ppId(17),
      intent: intent!,
      status: paypal ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
      ...(paypal ? { payment_source: { paypal: {} } } : {}),
      purchase_units: purchaseUnits,
      create_time: now,
      update_time: now,
    },
    returnUrl: typeof context.return_url === 'string' ? context.return_url : undefined,
    cancelUrl: typeof context.cancel_url === 'string' ? context.cancel_url : undefined,
    captureOutcome: 'COMPLETED',
  };
  ctx.state.orders.set(record.wire.id, record);
  const full = renderOrder(ctx, record);
  if (call.representation) return { status: 201, body: full };
  const { id, status, payment_source, links } = full;
  return { status: 201, body: { id, status, ...(payment_source ? { payment_source } : {}), links } };
}

/** The buyer approves the order on PayPal's page (or a test says they did). */
export function approveOrder(ctx: Ctx, id: string, options: { payer?: PayerInput; capture?: CaptureOutcome } = {}): Json {
  const record = order(ctx, id);
  const { status } = record.wire;
  if (status !== 'CREATED' && status !== 'PAYER_ACTION_REQUIRED' && status !== 'APPROVED') {
    throw unprocessable('ORDER_COMPLETED_OR_VOIDED', `The order is ${status} and cannot be approved.`, 'orders/v2');
  }
  const payer = buyer(options.payer);
  record.wire.status = 'APPROVED';
  record.wire.payer = { name: payer.name, email_address: payer.email_address, payer_id: payer.payer_id, address: payer.address };
  record.wire.payment_source = { paypal: { email_address: payer.email_address, account_id: payer.payer_id, account_status: 'VERIFIED', name: payer.name, address: payer.address } };
  record.wire.update_time = isoTime();
  record.captureOutcome = options.capture ?? 'COMPLETED';
  const rendered = renderOrder(ctx, record);
  ctx.emit('CHECKOUT.ORDER.APPROVED', rendered, { resourceType: 'checkout-order', resourceVersion: '2.0', summary: 'An order has been approved by buyer' });
  return rendered;
}

const CAPTURE_EVENTS: Record<string, [string, string]> = {
  COMPLETED: ['PAYMENT.CAPTURE.COMPLETED', 'Payment completed for'],
  PENDING: ['PAYMENT.CAPTURE.PENDING', 'Payment pending for'],
  DECLINED: ['PAYMENT.CAPTURE.DECLINED', 'Payment declined for'],
  DENIED: ['PAYMENT.CAPTURE.DENIED', 'Payment denied for'],
};

/** PAYMENT.CAPTURE.* for a capture's status; `DENIED` when a pending capture is turned down later. */
function emitCapture(ctx: Ctx, orderId: string, capture: Json, denied = false) {
  const amount = capture.amount as Money;
  const [type, summary] = CAPTURE_EVENTS[denied ? 'DENIED' : (capture.status as string)];
  const resource = { ...snapshot(capture), supplementary_data: { related_ids: { order_id: orderId } } };
  ctx.emit(type, resource, { resourceType: 'capture', resourceVersion: '2.0', summary: `${summary} $ ${amount.value} ${amount.currency_code}` });
}

function captureOrder(ctx: Ctx, call: { ids: Record<string, string>; representation: boolean; mock: { mock_application_codes?: string } | null }) {
  const record = order(ctx, call.ids.id);
  const mockCode = call.mock?.mock_application_codes;
  if (mockCode) throw unprocessable(mockCode, `Negative test: ${mockCode}.`, 'orders/v2');
  const { wire } = record;
  if (wire.intent !== 'CAPTURE') throw unprocessable('ACTION_DOES_NOT_MATCH_INTENT', 'Order was created with an intent to \'AUTHORIZE\'. Please use v2/checkout/orders/order_id/authorize to complete the transaction or alternately Create an order with an intent of \'CAPTURE\'.', 'orders/v2');
  if (wire.status === 'COMPLETED') throw unprocessable('ORDER_ALREADY_CAPTURED', "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.", 'orders/v2');
  if (wire.status !== 'APPROVED') {
    throw unprocessable('ORDER_NOT_APPROVED', "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.", 'orders/v2');
  }
  if (record.captureOutcome === 'INSTRUMENT_DECLINED') {
    throw unprocessable('INSTRUMENT_DECLINED', "The instrument presented  was either declined by the processor or bank, or it can't be used for this payment.", 'orders/v2');
  }
  const now = isoTime();
  const status = record.captureOutcome;
  const captures = wire.purchase_units.map((unit) => {
    const amount = unit.amount as Money;
    const id = ppId(17);
    const fee = feeBreakdown(amount);
    const capture: Json = {
      id,
      status,
      ...(status === 'PENDING' ? { status_details: { reason: 'PENDING_REVIEW' } } : {}),
      amount: { currency_code: amount.currency_code, value: amount.value },
      final_capture: true,
      seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
      ...(status === 'COMPLETED' ? { seller_receivable_breakdown: { gross_amount: fee.gross, paypal_fee: fee.fee, net_amount: fee.net } } : {}),
      ...(unit.custom_id ? { custom_id: unit.custom_id } : {}),
      ...(unit.invoice_id ? { invoice_id: unit.invoice_id } : {}),
      links: [
        link(`${ctx.origin}/v2/payments/captures/${id}`, 'self'),
        link(`${ctx.origin}/v2/payments/captures/${id}/refund`, 'refund', 'POST'),
        link(`${ctx.origin}/v2/checkout/orders/${wire.id}`, 'up'),
      ],
      create_time: now,
      update_time: now,
    };
    unit.payments = { captures: [capture] };
    ctx.state.captures.set(id, { orderId: wire.id, capture });
    return capture;
  });
  // As PayPal does, a declined capture still completes the order: check the capture's status.
  wire.status = 'COMPLETED';
  wire.update_time = now;
  for (const capture of captures) emitCapture(ctx, wire.id, capture);
  const full = renderOrder(ctx, record);
  if (call.representation) return { status: 201, body: full };
  return {
    status: 201,
    body: {
      id: full.id,
      status: full.status,
      payment_source: full.payment_source,
      purchase_units: (full.purchase_units as Json[]).map((u) => ({ reference_id: u.reference_id, payments: u.payments })),
      payer: full.payer,
      links: full.links,
    },
  };
}

/** Ends a PENDING capture: COMPLETED (PAYMENT.CAPTURE.COMPLETED) or DECLINED (PAYMENT.CAPTURE.DENIED). */
export function settlePendingCapture(ctx: Ctx, captureId: string, outcome: 'COMPLETED' | 'DECLINED'): Json {
  const found = ctx.state.captures.get(captureId);
  if (!found) throw notFound('payments/v2');
  const { capture, orderId } = found;
  if (capture.status !== 'PENDING') throw unprocessable('CAPTURE_STATUS_NOT_VALID', `The capture is ${String(capture.status)}, not PENDING.`, 'payments/v2');
  capture.status = outcome;
  delete capture.status_details;
  capture.update_time = isoTime();
  if (outcome === 'COMPLETED') {
    const fee = feeBreakdown(capture.amount as Money);
    capture.seller_receivable_breakdown = { gross_amount: fee.gross, paypal_fee: fee.fee, net_amount: fee.net };
  }
  emitCapture(ctx, orderId, capture, outcome === 'DECLINED');
  return renderCapture(found);
}

/**
 * POST /v2/payments/captures/:id/refund: the whole COMPLETED capture (an `amount` is not supported) goes back:
 * the capture becomes REFUNDED and PAYMENT.CAPTURE.REFUNDED is emitted. A capture refunded already is 422
 * CAPTURE_FULLY_REFUNDED; one not COMPLETED is 422 CAPTURE_STATUS_NOT_VALID.
 */
function refundCapture(ctx: Ctx, captureId: string): Json {
  const found = ctx.state.captures.get(captureId);
  if (!found) throw notFound('payments/v2');
  const { capture } = found;
  if (capture.status === 'REFUNDED') throw unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded.', 'payments/v2');
  if (capture.status !== 'COMPLETED') throw unprocessable('CAPTURE_STATUS_NOT_VALID', `The capture is ${String(capture.status)}, not COMPLETED.`, 'payments/v2');
  const now = isoTime();
  capture.status = 'REFUNDED';
  capture.update_time = now;
  const id = ppId(17);
  const refund: Json = {
    id,
    status: 'COMPLETED',
    amount: snapshot(capture.amount),
    ...(capture.custom_id ? { custom_id: capture.custom_id } : {}),
    links: [link(`${ctx.origin}/v2/payments/refunds/${id}`, 'self'), link(`${ctx.origin}/v2/payments/captures/${captureId}`, 'up')],
    create_time: now,
    update_time: now,
  };
  const amount = capture.amount as Money;
  ctx.emit('PAYMENT.CAPTURE.REFUNDED', { ...snapshot(capture), supplementary_data: { related_ids: { order_id: found.orderId } } }, {
    resourceType: 'capture',
    resourceVersion: '2.0',
    summary: `A $ ${amount.value} ${amount.currency_code} capture payment was refunded`,
  });
  return refund;
}

function renderCapture(found: { orderId: string; capture: Json }): Json {
  return snapshot({ ...found.capture, supplementary_data: { related_ids: { order_id: found.orderId } } });
}

export const orderRoutes: Route[] = [
  { method: 'POST', pattern: '/v2/checkout/orders', handle: (ctx, call) => createOrder(ctx, call) },
  { method: 'GET', pattern: '/v2/checkout/orders/:id', handle: (ctx, { ids }) => ({ status: 200, body: renderOrder(ctx, order(ctx, ids.id)) }) },
  { method: 'POST', pattern: '/v2/checkout/orders/:id/capture', handle: (ctx, call) => captureOrder(ctx, call) },
  { method: 'POST', pattern: '/v2/payments/captures/:id/refund', handle: (ctx, { ids }) => ({ status: 201, body: refundCapture(ctx, ids.id) }) },
  {
    method: 'GET',
    pattern: '/v2/payments/captures/:id',
    handle: (ctx, { ids }) => {
      const found = ctx.state.captures.get(ids.id);
      if (!found) throw notFound('payments/v2');
      return { status: 200, body: renderCapture(found) };
    },
  },
];
