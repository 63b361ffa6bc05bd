// PayPal checkout routes (spec part 1 §7 POST /checkout/capture and the wallet order create row; issue 10
// item 4; docs/decisions.md "PayPal checkout"): the public config, one-time orders and their capture,
// subscriptions, and the signed webhook.
import {
  payPalCaptureRequest,
  payPalCaptureResponse,
  payPalConfigResponse,
  payPalOrderRequest,
  payPalOrderResponse,
  payPalSubscriptionRequest,
  payPalSubscriptionResponse,
} from '@pluma/common/paypal';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { registerPaymentProvider } from '../purchase-lifecycle';
import { capturePayPalOrder, createPayPalOrder } from './orders';
import { payPalNotConfigured, payPalSettings } from './paypal-client';
import { payPalProviderPort } from './provider-port';
import { startPayPalReconciliation } from './reconcile';
import { createPayPalSubscription } from './subscriptions';
import { processPayPalEvent, verifyPayPalEvent } from './webhook';

const CHECKOUT_CALLS_PER_MINUTE = 20;
/** PayPal's events are small; a larger body is not one of theirs. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

const perUser = (name: string) => ({
  rateLimit: {
    max: CHECKOUT_CALLS_PER_MINUTE,
    timeWindow: '1 minute',
    hook: 'preHandler' as const,
    keyGenerator: (request: FastifyRequest) => `${name}:${request.actor?.user.userId ?? request.ip}`,
  },
});

export async function payPalRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  // The lifecycle's refunds and cancels at PayPal go through this adapter (purchase-lifecycle/providers.ts).
  registerPaymentProvider(ctx, 'paypal', payPalProviderPort);
  const stopReconciliation = startPayPalReconciliation(ctx, app.log);
  app.addHook('preClose', async () => stopReconciliation());

  // Public values only: the client id and the environment the JS SDK must load (and, in PAYMENTS_DEMO, the
  // emulator's stand-in of its script); never the secret or webhook id.
  app.get('/paypal/config', { schema: { tags: ['paypal'], response: { 200: payPalConfigResponse } } }, async () => {
    const settings = payPalSettings(ctx);
    if (!settings) throw payPalNotConfigured(404);
    const demoScript = ctx.env.PAYPAL_JS_URL;
    return { client_id: settings.clientId, environment: settings.environment, currency: 'USD' as const, ...(demoScript ? { js_url: demoScript } : {}) };
  });

  app.post(
    '/paypal/orders',
    { ...signedIn(app, { tags: ['paypal'], body: payPalOrderRequest, response: { 200: payPalOrderResponse } }), config: perUser('paypal-order') },
    async (request) => createPayPalOrder({ ctx, actor: actorOf(request), input: request.body, log: request.log }),
  );

  app.post(
    '/checkout/capture',
    { ...signedIn(app, { tags: ['checkout'], body: payPalCaptureRequest, response: { 200: payPalCaptureResponse } }), config: perUser('paypal-capture') },
    async (request) => capturePayPalOrder({ ctx, actor: actorOf(request), input: request.body, log: request.log }),
  );

  app.post(
    '/paypal/subscriptions',
    { ...signedIn(app, { tags: ['paypal'], body: payPalSubscriptionRequest, response: { 200: payPalSubscriptionResponse } }), config: perUser('paypal-subscription') },
    async (request) => createPayPalSubscription({ ctx, actor: actorOf(request), input: request.body, log: request.log }),
  );

  // The webhook needs the exact bytes PayPal signed: in this plugin only, every body is kept as a Buffer.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    raw.post(
      '/paypal/webhook',
      { schema: { tags: ['paypal'], summary: 'PayPal webhook (verified with PayPal)', response: { 200: z.object({ received: z.boolean(), duplicate: z.boolean() }) } } },
      async (request) => {
        const event = await verifyPayPalEvent(ctx, request.body, request.headers);
        const { duplicate } = await processPayPalEvent(ctx, request.log, event);
        return { received: true, duplicate };
      },
    );
  });
}
