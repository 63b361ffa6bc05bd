// The boot after the database (main.ts): context → recovery → seeds → app → listen (DESIGN.md §3).
// Its own module, imported by main.ts while the database opens: importing it loads every feature and the npm
// packages they use (~2 s of CPU on a busy 2-core machine), which the build puts in chunks of their own.
import { createContext, startApp } from './boot';
import { bootStep, bootTimeline } from './boot-timing';
import type { Database } from './db/client';
import type { Env } from './env';
import { seedAppConfig, seedPaymentMethods } from './features/appconfig/seed';
import { seedFirstAdmin } from './features/users/first-admin';
import { publicUrlWarning } from './platform/http/public-url';
import { seedSampleCatalog } from './features/discounts';
import { seedTemplates } from './features/templates';
import { seedTutorials } from './features/tutorials';
import { seedWorkflows } from './features/workflows';
import { startPaymentsDemo } from './demo/payments';
import { markInterruptedMessages, STALE_MESSAGE_MS } from './features/messages/interrupted';
import { closeAbandonedOutputs } from './features/outputs';

bootStep('app modules loaded');

// main.ts starts the payments demo (when on) before serve(): its module loads with this one.
export { startPaymentsDemo };

/** Everything after the database is open and migrated, up to listening; returns once the server listens. */
export async function serve(env: Env, database: Database): Promise<void> {
  const ctx = await createContext(env, database);
  bootStep('context (auth cache, AI service)');
  // Answers a previous process left pending or streaming become interrupted (nothing stays pending).
  // With Redis (several nodes) only stale ones: another live node may be writing the fresh ones.
  await markInterruptedMessages(ctx, { staleAfterMs: env.REDIS_URL ? STALE_MESSAGE_MS : 0 });
  // Avatar outputs likewise (features/outputs/abandoned.ts): they are written one after another, so a
  // live node's queue may sit untouched a while — 15 minutes, the spec's longest avatar action.
  await closeAbandonedOutputs(ctx.db, { staleAfterMs: env.REDIS_URL ? 15 * 60_000 : 0 });
  bootStep('interrupted answers and outputs closed');
  await seedAppConfig(ctx);
  await seedPaymentMethods(ctx);
  await seedSampleCatalog(ctx);
  await seedFirstAdmin({ ctx });
  await seedTemplates(ctx);
  // Built from the seeded templates, so after them.
  await seedWorkflows(ctx);
  await seedTutorials(ctx);
  bootStep('seeds');
  const app = await startApp(ctx);
  bootStep('app built (routes, jobs, real-time)');
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: env.PORT, host: env.HOST });
  bootStep('listening');
  if (process.env.BOOT_TIMING === '1') console.log(`Boot timeline (ms since the process started):\n${bootTimeline()}`);
  // Once, at boot: mailed links cannot follow the request's Host (platform/http/public-url.ts).
  const missingPublicUrl = publicUrlWarning(env);
  if (missingPublicUrl) app.log.warn(missingPublicUrl);
  app.log.info(`Pluma is running at ${env.PUBLIC_URL ?? `http://localhost:${env.PORT}`} (database: ${database.kind})`);
}
