// Environment, validated once at boot (docs/configuration.md lists every variable).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalUrl = z.url().optional().or(z.literal('').transform(() => undefined));
const optionalText = z.string().optional().transform((v) => (v ? v : undefined));

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  PUBLIC_URL: optionalUrl,
  /** 32+ characters; encrypts stored secrets. Generated and kept in DATA_DIR when not given. */
  APP_SECRET: z.string().min(32, 'APP_SECRET must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  S3_BUCKET: optionalText,
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: bool,
  SMTP_URL: optionalText,
  SMTP_FROM: z.string().default('Pluma <no-reply@localhost>'),
  ADMIN_EMAIL: z.email().optional().or(z.literal('').transform(() => undefined)),
  ADMIN_PASSWORD: z.string().min(6).optional().or(z.literal('').transform(() => undefined)),
  /** Comma-separated hosts that outbound webhooks may reach even though they are private (e.g. an internal relay). */
  OUTBOUND_ALLOW_HOSTS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)),
  /**
   * Comma-separated origins the page may frame and send requests to besides its own and the payment
   * providers' (the admin's tracking codes: a tag manager, analytics beacons). Origins only: a path or a
   * CSP keyword is refused at boot, so nothing can be written into the header.
   */
  CSP_EXTRA_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .refine((list) => list.every((o) => /^https:\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/.test(o)), 'CSP_EXTRA_ORIGINS must be https:// origins, comma-separated'),
  MAX_UPLOAD_MB: z.coerce.number().positive().default(20),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalUrl,
  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: optionalUrl,
  XAI_API_KEY: optionalText,
  XAI_BASE_URL: optionalUrl,
  /** Extra OpenAI-compatible server (Ollama, vLLM, LM Studio): base URL and comma-separated model names. */
  OPENAI_COMPAT_BASE_URL: optionalUrl,
  OPENAI_COMPAT_API_KEY: optionalText,
  OPENAI_COMPAT_MODELS: optionalText,
  /**
   * Embedding model for the knowledge area's vector search (e.g. text-embedding-3-small), called on the
   * OpenAI endpoint above; unset → full-text search only. EMBEDDING_DIMENSIONS shortens v3 vectors.
   */
  EMBEDDING_MODEL: optionalText,
  EMBEDDING_DIMENSIONS: z.coerce.number().int().min(1).max(16_000).optional(),
  /** Serve the offline demo model (local emulator) when no provider key is configured. Default on. */
  DEMO_AI: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((v) => v !== 'false' && v !== '0'),
  /**
   * The demo model's pace in ms per token (default 25: ~40 tokens/s, so the demo shows streaming). The
   * journeys set 0: a prompt whose test needs a visible stream asks for a pace itself (`[rate:N]`).
   */
  DEMO_TOKEN_DELAY_MS: z.coerce.number().int().min(0).max(1000).optional(),
  /**
   * Behind a reverse proxy: 'true' (trust X-Forwarded-* from any hop) or a comma-separated list of proxy
   * addresses/CIDRs. Off by default: client addresses (rate limits) cannot be forged.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v): boolean | string => (v === 'true' ? true : v === 'false' || v === '' ? false : v)),
  RATE_LIMIT_AUTH_PER_MINUTE: z.coerce.number().int().positive().default(10),
  /** Longest answer asked of a model in one go (tokens); a longer one stops with finish_reason 'length' and offers Continue. */
  /** Web search in chat (issue 32): how long one page may take to read (the slowest are left out). */
  WEB_SEARCH_PAGE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  AI_MAX_ANSWER_TOKENS: z.coerce.number().int().min(1).max(100_000).default(2048),
  WEB_DIST_DIR: optionalText,
  /** Stripe keys when the app configuration has none (stripe_private_key, stripe_webhook_key win). */
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  /** Seconds a webhook signature stays valid (Stripe's default 300). */
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  /** Point the Stripe SDK at another server (the emulator in tests and the offline demo); default Stripe's API. */
  STRIPE_API_HOST: optionalText,
  STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
  /** Stripe's publishable key when the app configuration has none (stripe_public_key wins); sent to the checkout page. */
  STRIPE_PUBLISHABLE_KEY: optionalText,
  /** Where the checkout page loads Stripe.js from; default Stripe's own (features/payments/checkout-config.ts). */
  STRIPE_JS_URL: optionalUrl,
  /** Run checkout offline against the in-process Stripe and PayPal emulators (demo/payments.ts); refused in production. */
  PAYMENTS_DEMO: bool,
  /** PayPal REST app credentials (docs/decisions.md "PayPal checkout"); without both, PayPal is not offered. */
  PAYPAL_CLIENT_ID: optionalText,
  PAYPAL_CLIENT_SECRET: optionalText,
  /** The webhook's id at PayPal: verify-webhook-signature needs it (without it, webhooks answer 500 and PayPal retries). */
  PAYPAL_WEBHOOK_ID: optionalText,
  /** sandbox or live, chosen explicitly (the web's JS SDK loads the same environment). */
  PAYPAL_ENVIRONMENT: z.enum(['sandbox', 'live']).default('sandbox'),
  /**
   * Where the PayPal button loads PayPal's v6 core script from when not PayPal's own: the offline demo's
   * stand-in (demo/payments.ts); its origin joins the CSP (features/payments/checkout-config.ts).
   */
  PAYPAL_JS_URL: optionalUrl,
  /** Point the PayPal SDK and REST calls at another server (the emulator in tests and the offline demo). */
  PAYPAL_API_URL: optionalUrl,
  /** Point the Twilio SDK at another server (the SMS emulator in tests and the offline demo; issue 33 item 1). */
  TWILIO_API_URL: optionalUrl,
});

export type Env = z.infer<typeof envSchema> & { APP_SECRET: string };

/** Reads and validates the environment. Throws an Error whose message lists every problem. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}\nSee docs/configuration.md.`);
  }
  const env = parsed.data;
  return { ...env, APP_SECRET: env.APP_SECRET ?? appSecretFromDataDir(env.DATA_DIR) };
}

/** Keeps a generated secret in DATA_DIR so encrypted settings survive restarts. */
function appSecretFromDataDir(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
