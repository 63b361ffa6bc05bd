// The settings screen's "Test" of a provider key (issue 11 item 5): one real call through the provider's
// official SDK — the OpenAI model named by openai_model, Stripe's balance — with the key the admin typed
// (before saving it) or, without one, the key in use (the saved one, else the deployment's environment).
// A refused key is an answer (ok false with the provider's status, code and message), not an error of ours.
import { isMaskedSecret, type ConfigKeyTestResult, type TestableConfigKey } from '@pluma/common/appconfig';
import OpenAI from 'openai';
import Stripe from 'stripe';
import type { AppContext } from '../../context';
import type { Actor } from '../../platform/auth/actor';
import { getConfig } from '../../platform/appconfig/read';
import { stripeClientForKey } from '../payments';
import { appConfigRules } from './policy';

const TEST_TIMEOUT_MS = 10_000;

/** The typed value when it is a real key, else the one in use (as platform/ai/settings.ts and payments read them). */
async function keyToTest(ctx: AppContext, key: TestableConfigKey, typed: string | undefined): Promise<string> {
  const value = typed?.trim() ?? '';
  if (value && !isMaskedSecret(value)) return value;
  const saved = (await getConfig(ctx, key)).trim();
  if (saved) return saved;
  return (key === 'openai_secret_key' ? ctx.env.OPENAI_API_KEY : ctx.env.STRIPE_SECRET_KEY) ?? '';
}

async function testOpenAiKey(ctx: AppContext, apiKey: string): Promise<ConfigKeyTestResult> {
  const client = new OpenAI({ apiKey, baseURL: ctx.env.OPENAI_BASE_URL, maxRetries: 0, timeout: TEST_TIMEOUT_MS });
  // The default chat model (openai_model): the key works and the model is there for it.
  const model = (await getConfig(ctx, 'openai_model')).trim() || 'gpt-4o-mini';
  try {
    await client.models.retrieve(model);
    return { ok: true, provider: 'openai', status: 200, code: null, message: null };
  } catch (err) {
    if (err instanceof OpenAI.APIError && err.status !== undefined) {
      return { ok: false, provider: 'openai', status: err.status, code: String(err.code ?? err.type ?? 'error'), message: err.message };
    }
    return { ok: false, provider: 'openai', status: null, code: 'unreachable', message: err instanceof Error ? err.message : null };
  }
}

async function testStripeKey(ctx: AppContext, secretKey: string): Promise<ConfigKeyTestResult> {
  try {
    await stripeClientForKey(ctx, secretKey).balance.retrieve();
    return { ok: true, provider: 'stripe', status: 200, code: null, message: null };
  } catch (err) {
    if (err instanceof Stripe.errors.StripeError) {
      return { ok: false, provider: 'stripe', status: err.statusCode ?? null, code: err.code ?? err.type, message: err.message };
    }
    return { ok: false, provider: 'stripe', status: null, code: 'unreachable', message: err instanceof Error ? err.message : null };
  }
}

/** POST /api/appconfig/admin/test. */
export async function testConfigKey({ ctx, actor, key, typed }: { ctx: AppContext; actor: Actor; key: TestableConfigKey; typed?: string }): Promise<ConfigKeyTestResult> {
  appConfigRules.authorize(actor, 'test', null);
  const provider = key === 'openai_secret_key' ? 'openai' : 'stripe';
  const secret = await keyToTest(ctx, key, typed);
  if (!secret) return { ok: false, provider, status: null, code: 'not_configured', message: null };
  return provider === 'openai' ? testOpenAiKey(ctx, secret) : testStripeKey(ctx, secret);
}
