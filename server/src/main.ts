// Boot: env → database → migrations → app → listen (DESIGN.md §3). The database opens and migrates while
// the rest of the server's modules load (db/client.ts and serve.ts, chunks of their own in the build): PGlite
// starts PostgreSQL in its own thread, started first of all, and PostgreSQL's migrations check waits on the
// network, so on a cold start neither waits for the other (issue 31 item 4; BOOT_TIMING=1 prints the steps,
// docs/configuration.md).
import { bootStep } from './boot-timing';
import type { Database } from './db/client';
import { startPgliteThread } from './db/pglite-thread';
import { loadEnv, type Env } from './env';

async function openAndMigrate(env: Env): Promise<Database> {
  const pgliteThread = env.DATABASE_URL ? undefined : startPgliteThread(env.DATA_DIR);
  // Awaited by openDatabase; until then a failure must not count as unhandled.
  pgliteThread?.catch(() => undefined);
  const { openDatabase } = await import('./db/client');
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, pgliteThread });
  bootStep(`database open (${database.kind})`);
  try {
    await database.migrate();
  } catch (err) {
    await database.close().catch(() => undefined);
    throw err;
  }
  bootStep('migrations');
  return database;
}

async function main() {
  let env: Env;
  try {
    env = loadEnv();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  bootStep('environment');
  const opening = openAndMigrate(env);
  // Awaited below; until then a failure must not count as unhandled (the import is awaited first).
  opening.catch(() => undefined);
  const { serve, startPaymentsDemo } = await import('./serve');
  try {
    // PAYMENTS_DEMO=1: the Stripe emulator in this process, and the environment pointing at it.
    env = await startPaymentsDemo(env);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  await serve(env, await opening);
}

main().catch((err) => {
  console.error('Pluma failed to start:', err);
  process.exit(1);
});
