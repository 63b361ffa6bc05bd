// The official Stripe SDK, built from configuration, per Stripe account (a "scope"):
// - the operator's (scope null): the admin's stripe_private_key (encrypted app configuration) wins over
//   STRIPE_SECRET_KEY, and stripe_webhook_key over STRIPE_WEBHOOK_SECRET;
// - an organization's (scope = its id): its own stripe_secret and stripe_webhook_secret (spec part 2 §3
//   Organization), sealed in organizations (platform/crypto/secret-box.ts) and unsealed here only. An
//   organization's products are sold with its keys alone: the operator's keys are never its fallback
//   (docs/decisions.md "Organization products and their Stripe keys").
// STRIPE_API_HOST/PORT/PROTOCOL point every client at the emulator in tests and the offline demo. Settings are
// read again after PAYMENT_SETTINGS_TTL_MS (as the AI provider settings are, platform/ai/settings.ts), cached
// per (context, scope), and a client is rebuilt only when its key or the endpoint changed.
import { PaymentErrorIds } from '@pluma/common/checkout';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import type { AppContext } from '../../context';
import { organizations } from '../../db/schema';
import { getConfig } from '../../platform/appconfig/read';
import { decryptSecret } from '../../platform/crypto/secret-box';
import { AppError, notFound } from '../../platform/http/errors';

export const PAYMENT_SETTINGS_TTL_MS = 5_000;

/** Whose Stripe account: null is the operator's, a number that organization's. */
export type StripeScope = number | null;

export interface StripeSettings {
  secretKey: string | null;
  webhookSecret: string | null;
  toleranceSeconds: number;
  /** An organization's stripe_public (the operator's is read by checkout-config.ts); null when none. */
  publishableKey: string | null;
  /** false: the organization does not exist (its webhook route answers 404). Always true for the operator. */
  exists: boolean;
}

interface Cached {
  settings: Promise<StripeSettings>;
  until: number;
  client?: { key: string; stripe: Stripe };
}

const cache = new WeakMap<AppContext, Map<StripeScope, Cached>>();

function scopeCache(ctx: AppContext): Map<StripeScope, Cached> {
  let byScope = cache.get(ctx);
  if (!byScope) {
    byScope = new Map();
    cache.set(ctx, byScope);
  }
  return byScope;
}

async function readOperatorSettings(ctx: AppContext): Promise<StripeSettings> {
  // PAYMENTS_DEMO: the demo's keys (demo.ts) win, so keys saved for the real Stripe never meet the emulator.
  const demo = ctx.env.PAYMENTS_DEMO;
  const secretKey = (demo ? '' : (await getConfig(ctx, 'stripe_private_key')).trim()) || ctx.env.STRIPE_SECRET_KEY || null;
  const webhookSecret = (demo ? '' : (await getConfig(ctx, 'stripe_webhook_key')).trim()) || ctx.env.STRIPE_WEBHOOK_SECRET || null;
  return { secretKey, webhookSecret, toleranceSeconds: ctx.env.STRIPE_WEBHOOK_TOLERANCE_SECONDS, publishableKey: null, exists: true };
}

/** A sealed secret in clear, or null when there is none or it was sealed with another APP_SECRET. */
function unsealed(ctx: AppContext, sealed: string | null): string | null {
  if (!sealed) return null;
  try {
    return decryptSecret(ctx.env.APP_SECRET, sealed).trim() || null;
  } catch {
    return null;
  }
}

async function readOrganizationSettings(ctx: AppContext, organizationId: number): Promise<StripeSettings> {
  const [row] = await ctx.db
    .select({ pub: organizations.stripePublic, secret: organizations.stripeSecretSealed, webhook: organizations.stripeWebhookSecretSealed })
    .from(organizations)
    .where(eq(organizations.organizationId, organizationId))
    .limit(1);
  return {
    secretKey: unsealed(ctx, row?.secret ?? null),
    webhookSecret: unsealed(ctx, row?.webhook ?? null),
    toleranceSeconds: ctx.env.STRIPE_WEBHOOK_TOLERANCE_SECONDS,
    publishableKey: row?.pub?.trim() || null,
    exists: Boolean(row),
  };
}

/** The Stripe settings of `scope` (the operator's by default) of the last few seconds, or a fresh read. */
export function stripeSettings(ctx: AppContext, scope: StripeScope = null, now: number = Date.now()): Promise<StripeSettings> {
  const byScope = scopeCache(ctx);
  const hit = byScope.get(scope);
  if (hit && hit.until > now) return hit.settings;
  const settings = scope === null ? readOperatorSettings(ctx) : readOrganizationSettings(ctx, scope);
  const entry: Cached = { settings, until: now + PAYMENT_SETTINGS_TTL_MS, client: hit?.client };
  byScope.set(scope, entry);
  entry.settings.catch(() => {
    if (byScope.get(scope) === entry) byScope.delete(scope);
  });
  return entry.settings;
}

/**
 * The configuration changed (the app configuration save calls it; an organization's settings save may call it
 * with its id): the next call reads it again. Without a scope, every scope is read again.
 */
export function stripeSettingsChanged(ctx: AppContext, scope?: StripeScope): void {
  const byScope = cache.get(ctx);
  if (!byScope) return;
  for (const [key, entry] of byScope) if (scope === undefined || key === scope) entry.until = 0;
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

/** The Stripe client of `scope` (the operator's by default), or null when it has no secret key. */
export async function stripeClient(ctx: AppContext, scope: StripeScope = null): Promise<Stripe | null> {
  const settings = await stripeSettings(ctx, scope);
  if (!settings.secretKey) return null;
  const entry = scopeCache(ctx).get(scope);
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

/**
 * 409 'organization payments not configured': the organization sells a product but saved no Stripe secret
 * key; the operator's keys are never used instead (the money would reach the wrong account).
 */
export const organizationPaymentsNotConfigured = () => new AppError(409, PaymentErrorIds.organizationNotConfigured, 'organization_payments_not_configured');

/** The Stripe client of `scope`, or 409 (payments not configured, or the organization's). */
export async function requireStripe(ctx: AppContext, scope: StripeScope = null): Promise<Stripe> {
  const stripe = await stripeClient(ctx, scope);
  if (!stripe) throw scope === null ? paymentsNotConfigured() : organizationPaymentsNotConfigured();
  return stripe;
}

/** The Stripe account of a product: its organization's for an organization's product, else the operator's. */
export const scopeOfProduct = (product: { organizationId: number | null } | null | undefined): StripeScope => product?.organizationId ?? null;

/** The settings of an organization's webhook route: 404 when the organization does not exist. */
export async function organizationStripeSettings(ctx: AppContext, organizationId: number): Promise<StripeSettings> {
  const settings = await stripeSettings(ctx, organizationId);
  if (!settings.exists) {
    // Not kept: ids that name no organization must not fill the cache.
    cache.get(ctx)?.delete(organizationId);
    throw notFound();
  }
  return settings;
}

/** A Stripe failure as our error: a card error is 402 with Stripe's message, anything else 502. */
export function providerError(err: unknown): AppError {
  if (err instanceof Stripe.errors.StripeCardError) {
    return new AppError(402, PaymentErrorIds.provider, 'payments_provider_error', {}, { provider: 'stripe', code: err.code ?? 'card_error' });
  }
  const code = err instanceof Stripe.errors.StripeError ? (err.code ?? err.type) : 'unreachable';
  return new AppError(502, PaymentErrorIds.provider, 'payments_provider_error', {}, { provider: 'stripe', code });
}
