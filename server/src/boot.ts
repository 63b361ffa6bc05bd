// Boot steps shared by main.ts and the test app: context → app → services.
import { Redis } from 'ioredis';
import { buildApp } from './app';
import { startRealtime } from './platform/realtime/socket-server';
import { createMailer } from './platform/mail/mailer';
import { createSmsSender } from './platform/sms/sms';
import { startJobs } from './platform/jobs';
import { createStorage } from './platform/storage';
import { createAiService } from './platform/ai/service';
import { DEMO_TOKEN_DELAY_MS, DemoEmulator } from './demo/ai';
import { attachPaymentsDemo } from './demo/payments';
import { AuthCache } from './platform/auth/auth-cache';
import { syncAuthCache } from './platform/auth/cache-sync';
import type { AppContext } from './context';
import type { Database } from './db/client';
import type { Env } from './env';
import type { FastifyInstance } from 'fastify';

/**
 * ioredis emits 'error' on every failed reconnect attempt, and without a listener Node reports each one
 * as an "Unhandled error event". One line when the connection is lost and one when it is back is enough.
 */
export function logRedisOutages(client: Redis, label: string, log: Pick<Console, 'error' | 'warn'> = console) {
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log.error(`${label}: ${err.message} (retrying until it is back)`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.warn(`${label}: connection restored`);
  });
}

/** The auth cache, synced with the other nodes through its own Redis subscriber when REDIS_URL is set. */
async function startAuthCache(redis: Redis | undefined): Promise<AuthCache> {
  const cache = new AuthCache();
  if (!redis) {
    await syncAuthCache(cache);
    return cache;
  }
  const subscriber = redis.duplicate();
  logRedisOutages(subscriber, 'Redis (auth cache subscriber)');
  await syncAuthCache(cache, { redis: { publisher: redis, subscriber } });
  return cache;
}

export async function createContext(env: Env, database: Database): Promise<AppContext> {
  const ctx: AppContext = { env, database, db: database.db, services: {} };
  if (env.REDIS_URL) {
    ctx.services.redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 3, lazyConnect: false });
    logRedisOutages(ctx.services.redis, 'Redis');
  }
  ctx.services.authCache = await startAuthCache(ctx.services.redis).catch((err: unknown) => {
    ctx.services.redis?.disconnect();
    throw err;
  });
  ctx.services.mail = createMailer(ctx);
  ctx.services.sms = createSmsSender(ctx);
  ctx.services.storage = createStorage(env);
  // One demo emulator for the operator's calls and, when the demo is on, the users' own keys (closed by the AI service).
  ctx.services.demoAi = new DemoEmulator(env.DEMO_TOKEN_DELAY_MS ?? (env.NODE_ENV === 'test' ? 0 : DEMO_TOKEN_DELAY_MS));
  ctx.services.ai = await createAiService(ctx, ctx.services.demoAi);
  return ctx;
}

/** Builds the app and starts the platform services that need it (real-time, jobs). */
export async function startApp(ctx: AppContext, options: { logger?: boolean } = {}): Promise<FastifyInstance> {
  // Jobs start before the routes are built so features can register their workers while they load.
  const jobs = await startJobs(ctx);
  ctx.services.jobs = jobs;
  const app = await buildApp(ctx, options).catch(async (err: unknown) => {
    await jobs.stop();
    throw err;
  });
  jobs.logger = app.log;
  // Stops before the caller closes the database: running handlers finish (or are failed for a retry).
  app.addHook('onClose', () => jobs.stop());
  const realtime = await startRealtime(app).catch(async (err: unknown) => {
    await app.close();
    throw err;
  });
  ctx.services.realtime = realtime;
  // preClose: open websockets would otherwise keep the HTTP server from closing.
  app.addHook('preClose', () => realtime.close());
  app.addHook('onClose', async () => {
    await stopServices(ctx);
  });
  // PAYMENTS_DEMO: once the server listens, the emulators deliver their webhooks to it (demo/payments.ts).
  attachPaymentsDemo(app, ctx.env);
  await app.ready();
  return app;
}

async function stopServices(ctx: AppContext) {
  await ctx.services.authCache?.close();
  if (ctx.services.redis) ctx.services.redis.disconnect();
  // The offline demo model's in-process emulator, when it was started.
  await ctx.services.ai?.close?.();
}
