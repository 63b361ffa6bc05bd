// Test control, not part of Stripe's API: everything under /_emulator/ (JSON in, JSON out, no key,
// CORS open), for tests in other processes, the browser journeys and the offline demo.
//
//   GET    /_emulator/stripe.js[?version=basil]       the Stripe.js stand-in (stripe-js.browser.js); `version`
//                                                     sets the Stripe.version @stripe/stripe-js checks
//   GET    /_emulator/3ds/:intent                     a 3-D Secure challenge page (redirect flow)
//   POST   /_emulator/3ds/:intent                     { outcome: 'succeed' | 'fail' } ends the challenge
//   POST   /_emulator/subscriptions/:id/advance       { outcome?: 'succeed' | 'fail' } next period
//   POST   /_emulator/subscriptions/:id/end_trial     { outcome? } the trial ends now
//   POST   /_emulator/subscriptions/:id/trial_will_end   sends customer.subscription.trial_will_end
//   POST   /_emulator/subscriptions/:id/status        { status } forces a status (unpaid, paused, ...)
//   GET    /_emulator/webhooks/endpoints              list; POST { url, secret?, events? } adds one
//   DELETE /_emulator/webhooks/endpoints/:id
//   GET    /_emulator/webhooks/options                POST { delayMs, duplicates, concurrent, hold,
//                                                     maxAttempts, retryBaseMs, timeoutMs } changes them
//   POST   /_emulator/webhooks/release                { order?: 'fifo' | 'reverse' | 'shuffle' } held events
//   POST   /_emulator/webhooks/flush                  waits until no delivery is in flight
//   GET    /_emulator/webhooks/deliveries             every attempt with its status
//   POST   /_emulator/events/:id/redeliver            { times? }
//   GET    /_emulator/requests                        API calls received
//   POST   /_emulator/reset                           forgets every object, event and delivery
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendJson } from '../http-kit';
import { NOT_HANDLED, webhookControl } from '../webhook-control';
import { StripeApiError, invalidRequest } from './errors';
import { parseForm } from './form';
import { completeThreeDSecure, type PaymentIntentRecord, type SetupIntentRecord } from './intents';
import type { EmulatorCore } from './server';
import { advanceSubscription, endTrial, type AdvanceOptions, type SubscriptionRecord } from './subscriptions';

const SUBSCRIPTION_STATUSES = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'];

/** The operations behind the control routes, for tests that hold the emulator in-process. */
export function controls(core: EmulatorCore) {
  const { ctx } = core;
  const subscription = (id: string) => ctx.store.get<SubscriptionRecord>('subscription', id);
  return {
    completeThreeDSecure: (intentId: string, outcome: 'succeed' | 'fail' = 'succeed') => ctx.store.render(completeThreeDSecure(ctx, intentId, outcome)),
    advanceSubscription: (id: string, options: AdvanceOptions = {}) => ctx.store.render(advanceSubscription(ctx, id, options)),
    endTrial: (id: string, options: AdvanceOptions = {}) => ctx.store.render(endTrial(ctx, subscription(id), ctx.now(), options)),
    sendTrialWillEnd: (id: string) => {
      ctx.emit('customer.subscription.trial_will_end', subscription(id));
      return ctx.store.render(subscription(id));
    },
    setSubscriptionStatus: (id: string, status: string) => {
      if (!SUBSCRIPTION_STATUSES.includes(status)) throw invalidRequest(`Invalid status: must be one of ${SUBSCRIPTION_STATUSES.join(', ')}`, 'status');
      const sub = subscription(id);
      const previous = { status: sub.status };
      sub.status = status as SubscriptionRecord['status'];
      if (status === 'canceled') {
        sub.canceled_at = sub.ended_at = ctx.now();
        ctx.emit('customer.subscription.deleted', sub);
      } else ctx.emit('customer.subscription.updated', sub, previous);
      return ctx.store.render(sub);
    },
  };
}

let standIn: string | undefined;
/** The script, with the origin to call back and the `Stripe.version` @stripe/stripe-js expects (`?version=`). */
function stripeJs(origin: string, version: string | null): string {
  // import.meta.dirname: under some test runners' DOM environments import.meta.url is not a file: URL.
  standIn ??= readFileSync(join(import.meta.dirname ?? dirname(fileURLToPath(import.meta.url)), 'stripe-js.browser.js'), 'utf8');
  const versionLine = version ? `window.__stripeEmulatorVersion = ${JSON.stringify(version)};\n` : '';
  return `window.__stripeEmulatorOrigin = window.__stripeEmulatorOrigin || ${JSON.stringify(origin)};\n${versionLine}${standIn}`;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  if ((req.headers['content-type'] ?? '').includes('json')) return JSON.parse(text) as Record<string, unknown>;
  return parseForm(text);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function challengePage(intent: PaymentIntentRecord | SetupIntentRecord, returnUrl: string): string {
  const what = intent.object === 'payment_intent' ? `${(intent.amount / 100).toFixed(2)} ${intent.currency.toUpperCase()}` : 'saving your card';
  const form = (outcome: string, label: string) =>
    `<form method="post"><input type="hidden" name="outcome" value="${outcome}"><input type="hidden" name="return_url" value="${escapeHtml(returnUrl)}"><button>${label}</button></form>`;
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>3-D Secure test challenge</title>
<main><h1>3-D Secure test challenge</h1><p>Authenticate ${escapeHtml(what)} (Stripe emulator).</p>
${form('succeed', 'Complete')}${form('fail', 'Fail')}</main></html>`;
}

export function controlHandler(core: EmulatorCore) {
  const ops = controls(core);
  const { webhooks, ctx } = core;

  const route = async (req: IncomingMessage, res: ServerResponse, path: string, query: string): Promise<unknown> => {
    const method = req.method ?? 'GET';
    const parts = path.split('/').slice(2); // ['', '_emulator', ...]
    const body = method === 'POST' ? await readBody(req) : {};
    const [section, id, action] = parts;
    if (section === '3ds' && id) {
      const intent = ctx.store.find<PaymentIntentRecord>('payment_intent', id) ?? ctx.store.get<SetupIntentRecord>('setup_intent', id);
      const returnUrl = String(body.return_url ?? new URLSearchParams(query).get('return_url') ?? '');
      if (method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(challengePage(intent, returnUrl));
        return undefined;
      }
      const done = ops.completeThreeDSecure(id, body.outcome === 'fail' ? 'fail' : 'succeed');
      if (!returnUrl) return done;
      // The redirect flow returns to the app the way Stripe does, with the intent in the query.
      const kind = intent.object === 'payment_intent' ? 'payment_intent' : 'setup_intent';
      const target = new URL(returnUrl);
      target.searchParams.set(kind, intent.id);
      target.searchParams.set(`${kind}_client_secret`, intent.client_secret);
      target.searchParams.set('redirect_status', intent.status === 'succeeded' ? 'succeeded' : 'failed');
      res.writeHead(303, { location: target.toString() });
      res.end();
      return undefined;
    }
    if (section === 'subscriptions' && id && method === 'POST') {
      const options: AdvanceOptions = body.outcome === 'fail' || body.outcome === 'succeed' ? { outcome: body.outcome } : {};
      if (action === 'advance') return ops.advanceSubscription(id, options);
      if (action === 'end_trial') return ops.endTrial(id, options);
      if (action === 'trial_will_end') return ops.sendTrialWillEnd(id);
      if (action === 'status') return ops.setSubscriptionStatus(id, String(body.status ?? ''));
    }
    if (section === 'webhooks') {
      const answer = await webhookControl(webhooks, method, id, action, body, (input) => {
        if (typeof input.url !== 'string') throw invalidRequest('Missing required param: url.', 'url');
        return webhooks.addEndpoint({ url: input.url, secret: typeof input.secret === 'string' ? input.secret : undefined, events: Array.isArray(input.events) ? input.events.map(String) : undefined });
      });
      if (answer !== NOT_HANDLED) return answer;
    }
    if (section === 'events' && id && action === 'redeliver' && method === 'POST') {
      webhooks.redeliver(id, Number(body.times ?? 1));
      return { redelivered: id };
    }
    if (section === 'requests' && method === 'GET') return { data: core.requests };
    if (section === 'reset' && method === 'POST') {
      core.reset();
      return { reset: true };
    }
    throw new StripeApiError(404, { type: 'invalid_request_error', message: `Unknown emulator control route: ${method} ${path}` });
  };

  return async (req: IncomingMessage, res: ServerResponse, path: string, query: string) => {
    if (path === '/_emulator/stripe.js' && req.method === 'GET') {
      const text = stripeJs(`http://${req.headers.host ?? ctx.origin.replace(/^http:\/\//, '')}`, new URLSearchParams(query).get('version'));
      res.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'no-store' });
      res.end(text);
      return;
    }
    try {
      const result = await route(req, res, path, query);
      if (result !== undefined) sendJson(res, 200, result);
    } catch (error) {
      if (error instanceof StripeApiError) sendJson(res, error.status, { error: error.body });
      else sendJson(res, 400, { error: { type: 'invalid_request_error', message: error instanceof Error ? error.message : String(error) } });
    }
  };
}
