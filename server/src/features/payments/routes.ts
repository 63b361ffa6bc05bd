// Checkout and Stripe (spec part 1 §7; docs/decisions.md "Stripe checkout and webhooks", "Saved cards, plan
// switching and the offline demo"): /checkout/config, /checkout/attempt, /checkout (a saved card),
// /checkout/customer_session, /payment_sources, /payment_method, /stripe/*, the signed webhook, and the
// reconciliation sweep.
import {
  checkoutAttemptRequest,
  checkoutAttemptResponse,
  checkoutConfigResponse,
  checkoutRequest,
  checkoutResponse,
  createPaymentSourceResponse,
  organizationWebhookParams,
  customerSessionResponse,
  paymentMethodList,
  paymentSourceIdParams,
  paymentSourceList,
  stripePriceList,
  stripeProductIdParams,
  stripeProductList,
} from '@pluma/common/checkout';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, signedIn, type Gate } from '../../platform/auth/guard';
import { requestedOrganizationId } from '../../platform/auth/organization';
import { catalogRules } from '../products';
import { registerPaymentProvider } from '../purchase-lifecycle';
import { attemptCheckout } from './checkout';
import { checkoutConfig } from './checkout-config';
import { createCheckoutCustomerSession } from './customer-session';
import { stripeProviderPort } from './provider-port';
import { payWithSavedCard } from './saved-card';
import { createPaymentSource, deletePaymentSource, listPaymentMethods, listPaymentSources } from './sources';
import { startReconciliation } from './reconcile';
import { listStripePrices, listStripeProducts } from './stripe-catalog';
import { processStripeEvent, verifyStripeEvent } from './webhook';

const CHECKOUT_ATTEMPTS_PER_MINUTE = 20;
/** Saving or removing cards, or a customer session: each call reaches Stripe. */
const CARD_CHANGES_PER_MINUTE = 20;
/** Stripe's events are small; a larger body is not one of theirs. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * The Stripe catalog of the request's context: staff admins the operator's (Personal), an organization's
 * Admin its own (spec part 2 "Payment provider": used from organization product screens); anyone else 403,
 * a non-member 404 (the guard). The same right as managing that context's products (products/policy.ts).
 */
const catalogReaders: Gate = async (request) => {
  catalogRules.authorize(actorOf(request), 'manage', null);
  request.staffAudit = true;
};

const webhookResponse = { 200: z.object({ received: z.boolean(), duplicate: z.boolean() }) };

export async function paymentRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  // The lifecycle's refunds and cancels at Stripe go through this adapter (purchase-lifecycle/providers.ts).
  registerPaymentProvider(ctx, 'stripe', stripeProviderPort);
  const stopReconciliation = startReconciliation(ctx, app.log);
  app.addHook('preClose', async () => stopReconciliation());

  const perUser = (name: string, max: number) => ({
    rateLimit: { max, timeWindow: '1 minute', hook: 'preHandler' as const, keyGenerator: (request: FastifyRequest) => `${name}:${request.actor?.user.userId ?? request.ip}` },
  });

  /**
   * Signing in is optional, as on the product routes: a request naming an organization (the web appends
   * organization_id while one is active) is authenticated and resolved to the caller's membership (a
   * non-member gets 404, a visitor 401); anyone else is a visitor in Personal.
   */
  const viewer = async (request: FastifyRequest, reply: FastifyReply) => {
    if (requestedOrganizationId(request) !== null) await app.authenticate(request, reply);
  };

  // Public: the checkout page needs it before anyone signs in (public values only). Inside an organization,
  // its publishable key: its products are paid into its own Stripe account.
  app.get(
    '/checkout/config',
    {
      preValidation: [viewer],
      config: { rateLimit: { max: 300, timeWindow: '1 minute' } },
      schema: { tags: ['checkout'], security: [{}, { bearer: [] }], response: { 200: checkoutConfigResponse } },
    },
    async (request) => checkoutConfig(ctx, request.actor?.organization?.organizationId ?? null),
  );

  app.post(
    '/checkout',
    { ...signedIn(app, { tags: ['checkout'], body: checkoutRequest, response: { 200: checkoutResponse } }), config: perUser('checkout', CHECKOUT_ATTEMPTS_PER_MINUTE) },
    async (request) => payWithSavedCard({ ctx, actor: actorOf(request), input: request.body, log: request.log }),
  );

  // The Payment Element's saved cards: a new CustomerSession of the caller's own customer, never cached.
  app.post(
    '/checkout/customer_session',
    { ...signedIn(app, { tags: ['checkout'], response: { 200: customerSessionResponse } }), config: perUser('customer-session', CARD_CHANGES_PER_MINUTE) },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return createCheckoutCustomerSession({ ctx, actor: actorOf(request), log: request.log });
    },
  );

  app.get('/payment_sources', signedIn(app, { tags: ['checkout'], response: { 200: paymentSourceList } }), async (request) =>
    listPaymentSources(ctx, actorOf(request), request.log),
  );
  app.post(
    '/payment_sources',
    { ...signedIn(app, { tags: ['checkout'], response: { 200: createPaymentSourceResponse } }), config: perUser('payment-sources', CARD_CHANGES_PER_MINUTE) },
    async (request) => createPaymentSource(ctx, actorOf(request), request.log),
  );
  app.delete(
    '/payment_sources/:id',
    { ...signedIn(app, { tags: ['checkout'], params: paymentSourceIdParams }), config: perUser('payment-sources', CARD_CHANGES_PER_MINUTE) },
    async (request, reply) => {
      await deletePaymentSource(ctx, actorOf(request), request.params.id, request.log);
      return reply.status(204).send();
    },
  );

  app.get('/payment_method', signedIn(app, { tags: ['checkout'], response: { 200: paymentMethodList } }), async () => listPaymentMethods(ctx));

  app.post(
    '/checkout/attempt',
    {
      ...signedIn(app, { tags: ['checkout'], body: checkoutAttemptRequest, response: { 200: checkoutAttemptResponse } }),
      config: {
        rateLimit: {
          max: CHECKOUT_ATTEMPTS_PER_MINUTE,
          timeWindow: '1 minute',
          hook: 'preHandler',
          keyGenerator: (request: FastifyRequest) => `checkout-attempt:${request.actor?.user.userId ?? request.ip}`,
        },
      },
    },
    async (request) => attemptCheckout({ ctx, actor: actorOf(request), input: request.body, log: request.log }),
  );

  const catalogScope = (request: FastifyRequest) => actorOf(request).organization?.organizationId ?? null;
  app.get('/stripe/products', signedIn(app, { tags: ['stripe'], response: { 200: stripeProductList } }, { gates: [catalogReaders] }), async (request) =>
    listStripeProducts(ctx, catalogScope(request)),
  );

  app.get(
    '/stripe/prices/:stripe_product_id',
    signedIn(app, { tags: ['stripe'], params: stripeProductIdParams, response: { 200: stripePriceList } }, { gates: [catalogReaders] }),
    async (request) => listStripePrices(ctx, request.params.stripe_product_id, catalogScope(request)),
  );

  // The webhook needs the exact bytes Stripe signed: in this plugin only, every body is kept as a Buffer.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    raw.post('/stripe/webhook', { schema: { tags: ['stripe'], summary: 'Stripe webhook (signed)', response: webhookResponse } }, async (request) => {
      const event = await verifyStripeEvent(ctx, request.body, request.headers['stripe-signature']);
      const { duplicate } = await processStripeEvent(ctx, request.log, event);
      return { received: true, duplicate };
    });
    // An organization's own Stripe account (its products are sold with its keys): the URL its Admin registers
    // in Stripe, verified with its stripe_webhook_secret (docs/decisions.md "Organization products").
    raw.withTypeProvider<ZodTypeProvider>().post(
      '/stripe/webhook/organizations/:organization_id',
      { schema: { tags: ['stripe'], summary: "An organization's Stripe webhook (signed with its secret)", params: organizationWebhookParams, response: webhookResponse } },
      async (request) => {
        const scope = request.params.organization_id;
        const event = await verifyStripeEvent(ctx, request.body, request.headers['stripe-signature'], scope);
        const { duplicate } = await processStripeEvent(ctx, request.log, event, scope);
        return { received: true, duplicate };
      },
    );
  });
}
