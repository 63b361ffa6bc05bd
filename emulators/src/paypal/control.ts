// Test control, not part of PayPal's API: everything under /_emulator/ (JSON in, JSON out, no
// credentials, CORS open), and the buyer's approval pages that the `approve` links open.
//
//   POST   /_emulator/orders/:id/approve              { payer?: { email_address, given_name, surname },
//                                                     capture?: 'COMPLETED' | 'PENDING' | 'DECLINED' | 'INSTRUMENT_DECLINED' }
//   POST   /_emulator/captures/:id/complete           a PENDING capture completes (PAYMENT.CAPTURE.COMPLETED)
//   POST   /_emulator/captures/:id/deny               a PENDING capture is denied (PAYMENT.CAPTURE.DENIED)
//   POST   /_emulator/subscriptions/:id/approve       { payer? } ACTIVE, first cycle billed
//   POST   /_emulator/subscriptions/:id/renew         { outcome?: 'COMPLETED' | 'FAILED' } the next cycle
//   GET    /_emulator/webhooks/endpoints              list; POST { url, id?, events? } adds one
//   DELETE /_emulator/webhooks/endpoints/:id
//   GET    /_emulator/webhooks/options                POST { delayMs, duplicates, concurrent, hold,
//                                                     maxAttempts, retryBaseMs, timeoutMs } changes them
//   POST   /_emulator/webhooks/release                { order?: 'fifo' | 'reverse' | 'shuffle' } held events
//   POST   /_emulator/webhooks/flush                  waits until no delivery is in flight
//   GET    /_emulator/webhooks/deliveries             every attempt with its status
//   GET    /_emulator/events                          every event sent (newest last)
//   POST   /_emulator/events/:id/redeliver            { times? }
//   GET    /_emulator/requests                        API calls received
//   POST   /_emulator/fail-next                       { status?: 500, times?: 1, match?: '' } the next API calls
//                                                     whose "METHOD path" contains match fail with status
//   POST   /_emulator/reset                           forgets every object, event and delivery
//   GET    /_emulator/paypal-web-sdk-v6-core.js       the stand-in of PayPal's JS SDK v6 core script
//                                                     (web-sdk-v6.browser.js)
//
//   GET    /checkoutnow?token=ORDER_ID                the buyer's page for an order: Approve / Cancel
//   GET    /webapps/billing/subscriptions?ba_token=BA-...   the same for a subscription (or
//                                                     ?subscription_id=I-..., as the JS SDK stand-in opens it)
// Approving redirects (303) to the return_url with PayPal's query (`token` and `PayerID` for an
// order; `subscription_id`, `ba_token` and `token` for a subscription); cancelling to the
// cancel_url. Without those URLs the page says so and posts a message to `window.opener`.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendJson } from '../http-kit';
import { NOT_HANDLED, webhookControl } from '../webhook-control';
import { PayPalError } from './errors';
import { approveOrder, renderOrder, settlePendingCapture, type PayerInput } from './orders';
import type { EmulatorCore } from './server';
import { ppId, type CaptureOutcome, type Json, type Money } from './store';
import { approveSubscription, renderSubscription, renewSubscription, subscriptionByToken } from './subscriptions';

const CAPTURE_OUTCOMES: CaptureOutcome[] = ['COMPLETED', 'PENDING', 'DECLINED', 'INSTRUMENT_DECLINED'];

/** The operations behind the control routes, for tests that hold the emulator in-process. */
export function controls(core: EmulatorCore) {
  const { ctx } = core;
  return {
    /** The buyer approves an order; `capture` decides what capturing it will do (default COMPLETED). */
    approveOrder: (id: string, options: { payer?: PayerInput; capture?: CaptureOutcome } = {}) => approveOrder(ctx, id, options),
    completeCapture: (id: string) => settlePendingCapture(ctx, id, 'COMPLETED'),
    denyCapture: (id: string) => settlePendingCapture(ctx, id, 'DECLINED'),
    approveSubscription: (id: string, options: { payer?: PayerInput } = {}) => approveSubscription(ctx, id, options),
    renewSubscription: (id: string, outcome: 'COMPLETED' | 'FAILED' = 'COMPLETED') => renewSubscription(ctx, id, outcome),
    /** Every event emitted so far (newest last), as delivered. */
    events: () => [...ctx.state.events.values()].map((e) => JSON.parse(e.payload) as Json),
    /** The next `times` API calls whose `METHOD path` contains `match` answer `status` (PayPal's INTERNAL_SERVICE_ERROR shape). */
    failNext: (status = 500, times = 1, match = '') => {
      core.failures.push({ status, times, match });
    },
    reset: () => core.reset(),
  };
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  if ((req.headers['content-type'] ?? '').includes('json')) return JSON.parse(text) as Record<string, unknown>;
  return Object.fromEntries(new URLSearchParams(text));
}

export function controlHandler(core: EmulatorCore) {
  const ops = controls(core);
  const { webhooks, ctx } = core;

  const route = async (method: string, path: string, body: Record<string, unknown>): Promise<unknown> => {
    const [section, id, action] = path.split('/').slice(2); // ['', '_emulator', ...]
    const payer = body.payer && typeof body.payer === 'object' ? (body.payer as PayerInput) : undefined;
    if (method === 'POST' && section === 'orders' && id && action === 'approve') {
      const capture = body.capture === undefined ? undefined : String(body.capture);
      if (capture !== undefined && !CAPTURE_OUTCOMES.includes(capture as CaptureOutcome)) throw new Error(`capture must be one of ${CAPTURE_OUTCOMES.join(', ')}`);
      return ops.approveOrder(id, { payer, capture: capture as CaptureOutcome | undefined });
    }
    if (method === 'POST' && section === 'captures' && id && action === 'complete') return ops.completeCapture(id);
    if (method === 'POST' && section === 'captures' && id && action === 'deny') return ops.denyCapture(id);
    if (method === 'POST' && section === 'subscriptions' && id && action === 'approve') return ops.approveSubscription(id, { payer });
    if (method === 'POST' && section === 'subscriptions' && id && action === 'renew') return ops.renewSubscription(id, body.outcome === 'FAILED' ? 'FAILED' : 'COMPLETED');
    if (section === 'webhooks') {
      const answer = await webhookControl(webhooks, method, id, action, body, (input) => {
        if (typeof input.url !== 'string') throw new Error('Missing required param: url.');
        return webhooks.addEndpoint({ url: input.url, id: typeof input.id === 'string' ? input.id : undefined, events: Array.isArray(input.events) ? input.events.map(String) : undefined });
      });
      if (answer !== NOT_HANDLED) return answer;
    }
    if (section === 'events' && !id && method === 'GET') return { data: ops.events() };
    if (section === 'events' && id && action === 'redeliver' && method === 'POST') {
      const event = ctx.state.events.get(id);
      if (!event) throw new PayPalError(404, { name: 'RESOURCE_NOT_FOUND', message: `No event ${id}.` });
      webhooks.redeliver(event, Number(body.times ?? 1));
      return { redelivered: id };
    }
    if (section === 'requests' && method === 'GET') return { data: core.requests };
    if (section === 'fail-next' && method === 'POST') {
      ops.failNext(Number(body.status ?? 500), Number(body.times ?? 1), String(body.match ?? ''));
      return { failing: true };
    }
    if (section === 'reset' && method === 'POST') {
      ops.reset();
      return { reset: true };
    }
    throw new PayPalError(404, { name: 'RESOURCE_NOT_FOUND', message: `Unknown emulator control route: ${method} ${path}` });
  };

  return async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const method = req.method ?? 'GET';
    if (path === '/_emulator/paypal-web-sdk-v6-core.js' && method === 'GET') {
      const text = webSdkV6(`http://${req.headers.host ?? ctx.origin.replace(/^http:\/\//, '')}`);
      res.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'no-store' });
      res.end(text);
      return;
    }
    try {
      const body = method === 'POST' ? await readBody(req) : {};
      sendJson(res, 200, await route(method, path, body));
    } catch (error) {
      if (error instanceof PayPalError) sendJson(res, error.status, error.body);
      else sendJson(res, 400, { name: 'INVALID_REQUEST', message: error instanceof Error ? error.message : String(error) });
    }
  };
}

let standIn: string | undefined;
/**
 * The JS SDK v6 stand-in, told the emulator's origin: browser tests serve it at PayPal's own URL
 * (https://www.sandbox.paypal.com/web-sdk/v6/core), so the script cannot take the origin from its src.
 */
function webSdkV6(origin: string): string {
  // import.meta.dirname: under some test runners' DOM environments import.meta.url is not a file: URL.
  standIn ??= readFileSync(join(import.meta.dirname ?? dirname(fileURLToPath(import.meta.url)), 'web-sdk-v6.browser.js'), 'utf8');
  return `window.__paypalEmulatorOrigin = window.__paypalEmulatorOrigin || ${JSON.stringify(origin)};\n${standIn}`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, content: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem"><main><p><strong>PayPal</strong> (emulator)</p>${content}</main></body></html>`;
}

function donePage(title: string, message: string, data: Json): string {
  const script = `<script>try{window.opener&&window.opener.postMessage(${JSON.stringify({ source: 'paypal-emulator', ...data }).replace(/</g, '\\u003c')},'*')}catch(e){}</script>`;
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${script}`);
}

function redirect(res: ServerResponse, base: string, params: Record<string, string>) {
  const target = new URL(base);
  for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
  res.writeHead(303, { location: target.toString() });
  res.end();
}

function html(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

/** The buyer-facing approval pages the `approve` links open. */
export async function buyerPage(core: EmulatorCore, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {
  const { ctx } = core;
  const method = req.method ?? 'GET';
  const form = method === 'POST' ? await readBody(req) : {};
  const action = form.action === 'approve' || form.action === 'cancel' ? form.action : null;
  const buttons = (extra = '') =>
    `<form method="post">${extra}<button name="action" value="approve" style="font-size:1.1rem;padding:.5rem 1.5rem">Approve</button> <button name="action" value="cancel" style="font-size:1.1rem;padding:.5rem 1.5rem">Cancel</button></form>`;
  try {
    if (path === '/checkoutnow') {
      const id = query.get('token') ?? '';
      const record = ctx.state.orders.get(id);
      if (!record) return html(res, 404, page('Order not found', `<h1>Order not found</h1><p>No order ${escapeHtml(id)}.</p>`));
      if (action === 'approve') {
        const capture = CAPTURE_OUTCOMES.includes(form.capture as CaptureOutcome) ? (form.capture as CaptureOutcome) : 'COMPLETED';
        const order = approveOrder(ctx, id, { capture });
        const payerId = String((order.payer as Json).payer_id);
        if (record.returnUrl) return redirect(res, record.returnUrl, { token: id, PayerID: payerId });
        return html(res, 200, donePage('Payment approved', 'You can close this window.', { type: 'approved', orderID: id, payerID: payerId }));
      }
      if (action === 'cancel') {
        if (record.cancelUrl) return redirect(res, record.cancelUrl, { token: id });
        return html(res, 200, donePage('Payment cancelled', 'You can close this window.', { type: 'cancelled', orderID: id }));
      }
      const order = renderOrder(ctx, record);
      const units = order.purchase_units as Json[];
      const lines = units.map((u) => `<li>${escapeHtml(String(u.description ?? u.reference_id))}: <strong>${escapeHtml((u.amount as Money).value)} ${escapeHtml((u.amount as Money).currency_code)}</strong></li>`).join('');
      const open = order.status === 'CREATED' || order.status === 'PAYER_ACTION_REQUIRED' || order.status === 'APPROVED';
      const outcome = `<p><label>Test outcome of the capture <select name="capture">${CAPTURE_OUTCOMES.map((o) => `<option>${o}</option>`).join('')}</select></label></p>`;
      return html(res, 200, page('Pay with PayPal', `<h1>Pay with PayPal</h1><ul>${lines}</ul><p>Order ${escapeHtml(id)} (${escapeHtml(String(order.status))})</p>${open ? buttons(outcome) : ''}`));
    }
    const byId = query.get('subscription_id');
    const found = byId ? ctx.state.subscriptions.get(byId) : subscriptionByToken(ctx, query.get('ba_token') ?? '');
    const baToken = found?.baToken ?? query.get('ba_token') ?? '';
    const record = found;
    if (!record) return html(res, 404, page('Subscription not found', `<h1>Subscription not found</h1><p>No subscription for ${escapeHtml(baToken)}.</p>`));
    const params = { subscription_id: record.wire.id, ba_token: baToken, token: ppId(17) };
    if (action === 'approve') {
      approveSubscription(ctx, record.wire.id);
      if (record.returnUrl) return redirect(res, record.returnUrl, params);
      return html(res, 200, donePage('Subscription approved', 'You can close this window.', { type: 'approved', subscriptionID: record.wire.id }));
    }
    if (action === 'cancel') {
      if (record.cancelUrl) return redirect(res, record.cancelUrl, params);
      return html(res, 200, donePage('Subscription cancelled', 'You can close this window.', { type: 'cancelled', subscriptionID: record.wire.id }));
    }
    const sub = renderSubscription(ctx, record);
    const plan = ctx.state.plans.get(record.wire.plan_id);
    const cycles = ((plan?.billing_cycles ?? []) as Json[])
      .map((c) => {
        const price = (c.pricing_scheme as { fixed_price?: Money } | undefined)?.fixed_price;
        const frequency = c.frequency as { interval_unit: string; interval_count: number };
        return `<li>${escapeHtml(String(c.tenure_type))}: ${price ? `${escapeHtml(price.value)} ${escapeHtml(price.currency_code)}` : 'free'} every ${frequency.interval_count} ${escapeHtml(frequency.interval_unit.toLowerCase())}(s)</li>`;
      })
      .join('');
    return html(res, 200, page('Subscribe with PayPal', `<h1>Subscribe with PayPal</h1><p>${escapeHtml(String(plan?.name ?? record.wire.plan_id))}</p><ul>${cycles}</ul><p>Subscription ${escapeHtml(record.wire.id)} (${escapeHtml(String(sub.status))})</p>${sub.status === 'APPROVAL_PENDING' ? buttons() : ''}`));
  } catch (error) {
    const message = error instanceof PayPalError ? (error.body.details?.[0]?.description ?? error.message) : String(error);
    return html(res, 422, page('Cannot approve', `<h1>Cannot approve</h1><p>${escapeHtml(message)}</p>`));
  }
}
