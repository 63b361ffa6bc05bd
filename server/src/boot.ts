// Boot steps shared by main.ts and the test app: context → app → services.
import { Redis } from 'ioredis';
import { buildApp } from './app';
import type { AppContext } from './context';
import type { Database } from './db/client';
import type { Env } from './env';
import type { FastifyInstance } from 'fastify';

export async function createContext(env: Env, database: Database): Promise<AppContext> {
  const ctx: AppContext = { env, database, db: database.db, services: {} };
  if (env.REDIS_URL) ctx.services.redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 3, lazyConnect: false });
  return ctx;
}

/** Builds the app and starts the platform services that need it (real-time, jobs). */
export async function startApp(ctx: AppContext, options: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = await buildApp(ctx, options);
  app.addHook('onClose', async () => {
    await stopServices(ctx);
  });
  await app.ready();
  return app;
}

async function stopServices(ctx: AppContext) {
  if (ctx.services.redis) ctx.services.redis.disconnect();
}
