// Boot: env → database → migrations → app → listen (DESIGN.md §3).
import { createContext, startApp } from './boot';
import { openDatabase } from './db/client';
import { loadEnv, type Env } from './env';
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

async function main() {
  let env: Env;
  try {
    // PAYMENTS_DEMO=1: the Stripe emulator in this process, and the environment pointing at it.
    env = await startPaymentsDemo(loadEnv());
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  await database.migrate();
  const ctx = await createContext(env, database);
  // Answers a previous process left pending or streaming become interrupted (nothing stays pending).
  // With Redis (several nodes) only stale ones: another live node may be writing the fresh ones.
  await markInterruptedMessages(ctx, { staleAfterMs: env.REDIS_URL ? STALE_MESSAGE_MS : 0 });
  // Avatar outputs likewise (features/outputs/abandoned.ts): they are written one after another, so a
  // live node's queue may sit untouched a while — 15 minutes, the spec's longest avatar action.
  await closeAbandonedOutputs(ctx.db, { staleAfterMs: env.REDIS_URL ? 15 * 60_000 : 0 });
  await seedAppConfig(ctx);
  await seedPaymentMethods(ctx);
  await seedSampleCatalog(ctx);
  await seedFirstAdmin({ ctx });
  await seedTemplates(ctx);
  // Built from the seeded templates, so after them.
  await seedWorkflows(ctx);
  await seedTutorials(ctx);
  const app = await startApp(ctx);
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: env.PORT, host: env.HOST });
  // Once, at boot: mailed links cannot follow the request's Host (platform/http/public-url.ts).
  const missingPublicUrl = publicUrlWarning(env);
  if (missingPublicUrl) app.log.warn(missingPublicUrl);
  app.log.info(`Pluma is running at ${env.PUBLIC_URL ?? `http://localhost:${env.PORT}`} (database: ${database.kind})`);
}

main().catch((err) => {
  console.error('Pluma failed to start:', err);
  process.exit(1);
});
