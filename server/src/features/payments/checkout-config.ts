// GET /api/checkout/config (public) and the Content-Security-Policy sources checkout needs
// (docs/decisions.md "Stripe checkout and webhooks", "Saved cards, plan switching and the offline demo").
import type { CheckoutConfigResponse } from '@pluma/common/checkout';
import type { AppContext } from '../../context';
import type { Env } from '../../env';
import { getConfig } from '../../platform/appconfig/read';
import { stripeSettings, type StripeScope } from './stripe-client';

/**
 * Stripe's own script: the release train @stripe/stripe-js 10 loads (`endive`, the API version the
 * `stripe` SDK pins). Stripe.js is never bundled; STRIPE_JS_URL or PAYMENTS_DEMO points it elsewhere.
 */
export const STRIPE_JS_DEFAULT_URL = 'https://js.stripe.com/endive/stripe.js';

export function stripeJsUrl(env: Pick<Env, 'STRIPE_JS_URL'>): string {
  return env.STRIPE_JS_URL ?? STRIPE_JS_DEFAULT_URL;
}

/**
 * Public values only: the publishable key and the script's URL. The operator's key (app configuration, else
 * STRIPE_PUBLISHABLE_KEY) in Personal; inside an organization, whose checkout sells its products into its own
 * Stripe account, the organization's stripe_public (spec part 2 §3), never the operator's.
 */
export async function checkoutConfig(ctx: AppContext, scope: StripeScope = null): Promise<CheckoutConfigResponse> {
  const demo = ctx.env.PAYMENTS_DEMO;
  if (scope !== null) {
    const organization = await stripeSettings(ctx, scope);
    if (!organization.secretKey || !organization.publishableKey) return { stripe: null, demo };
    return { stripe: { publishable_key: organization.publishableKey, js_url: stripeJsUrl(ctx.env) }, demo };
  }
  const { secretKey } = await stripeSettings(ctx);
  const publishableKey = (demo ? '' : (await getConfig(ctx, 'stripe_public_key')).trim()) || ctx.env.STRIPE_PUBLISHABLE_KEY || '';
  // Without both keys the page cannot take a card: it says payments are not configured.
  if (!secretKey || !publishableKey) return { stripe: null, demo };
  return { stripe: { publishable_key: publishableKey, js_url: stripeJsUrl(ctx.env) }, demo };
}

/**
 * Stripe's origins (docs.stripe.com/security/guide, "Content Security Policy"): its script and its
 * frames (Payment Element, 3-D Secure, hooks), its API and fraud-signal endpoints.
 */
const STRIPE = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com', 'https://m.stripe.network'],
  connect: ['https://api.stripe.com', 'https://m.stripe.network', 'https://m.stripe.com'],
};
/** PayPal's JS SDK, its buttons' frames and its API, live and sandbox. */
const PAYPAL = ['https://www.paypal.com', 'https://*.paypal.com', 'https://www.sandbox.paypal.com'];

export interface PaymentCspSources {
  script: string[];
  frame: string[];
  connect: string[];
}

/**
 * The payment origins for script-src, frame-src and connect-src: Stripe's and PayPal's, plus the origin
 * of a configured STRIPE_JS_URL or PAYPAL_JS_URL that is not Stripe's or PayPal's (the offline demo's emulator
 * stand-ins), which also serve their API calls, 3-D Secure page and buyer page.
 */
export function paymentCspSources(env: Pick<Env, 'STRIPE_JS_URL' | 'PAYPAL_JS_URL'>): PaymentCspSources {
  const extra: string[] = [];
  if (env.STRIPE_JS_URL) {
    const origin = new URL(env.STRIPE_JS_URL).origin;
    if (origin !== 'https://js.stripe.com') extra.push(origin);
  }
  // A stand-in of PayPal's script that is not PayPal's (the offline demo's emulator, which also serves its
  // buyer page and API).
  if (env.PAYPAL_JS_URL) {
    const origin = new URL(env.PAYPAL_JS_URL).origin;
    if (!PAYPAL.includes(origin)) extra.push(origin);
  }
  return {
    script: [...STRIPE.script, ...PAYPAL, ...extra],
    frame: [...STRIPE.frame, ...PAYPAL, ...extra],
    connect: [...STRIPE.connect, ...PAYPAL, ...extra],
  };
}
