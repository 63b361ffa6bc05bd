// The official Stripe SDK, built from configuration: the admin's stripe_private_key (encrypted app
// configuration) wins over STRIPE_SECRET_KEY; STRIPE_API_HOST/PORT/PROTOCOL point it at the emulator in
// tests and the offline demo. Settings are read again after PAYMENT_SETTINGS_TTL_MS (as the AI provider
// settings are, platform/ai/settings.ts) and the client is rebuilt only when the key or the endpoint changed.
import { PaymentErrorIds } from '@pluma/common/checkout';
import Stripe from 'stripe';
import type { AppContext } from '../../context';
import { getConfig } from '../../platform/appconfig/read';
import { AppError } from '../../platform/http/errors';

export const PAYMENT_SETTINGS_TTL_MS = 5_000;

export interface StripeSettings {
  secretKey: string | null;
  webhookSecret: string | null;
  toleranceSeconds: number;
}

interface Cached {
  settings: Promise<StripeSettings>;
  until: number;
  client?: { key: string; stripe: Stripe };
}

const cache = new WeakMap<AppContext, Cached>();

async function readStripeSettings(ctx: AppContext): Promise<StripeSettings> {
  // PAYMENTS_DEMO: the demo's keys (demo.ts) win, so keys saved for the real Stripe never meet the emulator.
  const demo = ctx.env.PAYMENTS_DEMO;
  const secretKey = (demo ? '' : (await getConfig(ctx, 'stripe_private_key')).trim()) || ctx.env.STRIPE_SECRET_KEY || null;
  const webhookSecret = (demo ? '' : (await getConfig(ctx, 'stripe_webhook_key')).trim()) || ctx.env.STRIPE_WEBHOOK_SECRET || null;
  return { secretKey, webhookSecret, toleranceSeconds: ctx.env.STRIPE_WEBHOOK_TOLERANCE_SECONDS };
}

/** The Stripe settings of the last few seconds, or a fresh read. */
export function stripeSettings(ctx: AppContext, now: number = Date.now()): Promise<StripeSettings> {
  const hit = cache.get(ctx);
  if (hit && hit.until > now) return hit.settings;
  const entry: Cached = { settings: readStripeSettings(ctx), until: now + PAYMENT_SETTINGS_TTL_MS, client: hit?.client };
  cache.set(ctx, entry);
  entry.settings.catch(() => {
    if (cache.get(ctx) === entry) cache.delete(ctx);
  });
  return entry.settings;
}

/** The configuration changed (the app configuration save may call it): the next call reads it again. */
export function stripeSettingsChanged(ctx: AppContext): void {
  const hit = cache.get(ctx);
  if (hit) hit.until = 0;
}

/** The SDK options of the environment: the emulator's host/port/protocol when set. */
function sdkOptions(ctx: AppContext): Stripe.StripeConfig {
  const { STRIPE_API_HOST: host, STRIPE_API_PORT: port, STRIPE_API_PROTOCOL: protocol } = ctx.env;
  return {
    ...(host ? { host } : {}),
    ...(port ? { port } : {}),
    ...(protocol ? { protocol } : {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Pluma' },
  };
}

/** The Stripe client, or null when no secret key is configured. */
export async function stripeClient(ctx: AppContext): Promise<Stripe | null> {
  const settings = await stripeSettings(ctx);
  if (!settings.secretKey) return null;
  const entry = cache.get(ctx);
  const { STRIPE_API_HOST, STRIPE_API_PORT, STRIPE_API_PROTOCOL } = ctx.env;
  const key = `${settings.secretKey}|${STRIPE_API_HOST ?? ''}|${STRIPE_API_PORT ?? ''}|${STRIPE_API_PROTOCOL ?? ''}`;
  if (entry?.client?.key === key) return entry.client.stripe;
  const stripe = new Stripe(settings.secretKey, sdkOptions(ctx));
  if (entry) entry.client = { key, stripe };
  return stripe;
}

/** A client for a key that may not be saved yet (the settings' key test), on the environment's endpoint; no retries. */
export function stripeClientForKey(ctx: AppContext, secretKey: string): Stripe {
  return new Stripe(secretKey, { ...sdkOptions(ctx), maxNetworkRetries: 0, timeout: 10_000 });
}

/**
 * 409 'payments not configured': a state of the installation the customer cannot change, told in their
 * language (not a 5xx: nothing failed, and the API's invariant is that no request gets a 5xx by design).
 */
export const paymentsNotConfigured = () => new AppError(409, PaymentErrorIds.notConfigured, 'payments_not_configured');

/** The Stripe client, or 409 'payments not configured'. */
export async function requireStripe(ctx: AppContext): Promise<Stripe> {
  const stripe = await stripeClient(ctx);
  if (!stripe) throw paymentsNotConfigured();
  return stripe;
}

/** A Stripe failure as our error: a card error is 402 with Stripe's message, anything else 502. */
export function providerError(err: unknown): AppError {
  if (err instanceof Stripe.errors.StripeCardError) {
    return new AppError(402, PaymentErrorIds.provider, 'payments_provider_error', {}, { provider: 'stripe', code: err.code ?? 'card_error' });
  }
  const code = err instanceof Stripe.errors.StripeError ? (err.code ?? err.type) : 'unreachable';
  return new AppError(502, PaymentErrorIds.provider, 'payments_provider_error', {}, { provider: 'stripe', code });
}
