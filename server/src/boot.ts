// Boot steps shared by main.ts and the test app: context → app → services.
import { Redis } from 'ioredis';
import { buildApp } from './app';
import { startRealtime } from './platform/realtime/socket-server';
import { createMailer } from './platform/mail/mailer';
import { startJobs } from './platform/jobs';
import { createStorage } from './platform/storage';
import { createAiService } from './platform/ai/service';
import type { AppContext } from './context';
import type { Database } from './db/client';
import type { Env } from './env';
import type { FastifyInstance } from 'fastify';

export async function createContext(env: Env, database: Database): Promise<AppContext> {
  const ctx: AppContext = { env, database, db: database.db, services: {} };
  if (env.REDIS_URL) ctx.services.redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 3, lazyConnect: false });
  ctx.services.mail = createMailer(ctx);
  ctx.services.storage = createStorage(env);
  ctx.services.ai = await createAiService(ctx);
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
  await app.ready();
  return app;
}

async function stopServices(ctx: AppContext) {
  if (ctx.services.redis) ctx.services.redis.disconnect();
  // The offline demo model's in-process emulator, when it was started.
  await ctx.services.ai?.close?.();
}
