// Boot: env → database → migrations → app → listen (DESIGN.md §3).
import { createContext, startApp } from './boot';
import { openDatabase } from './db/client';
import { loadEnv, type Env } from './env';

async function main() {
  let env: Env;
  try {
    env = loadEnv();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  await database.migrate();
  const ctx = await createContext(env, database);
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
  app.log.info(`Pluma is running at ${env.PUBLIC_URL ?? `http://localhost:${env.PORT}`} (database: ${database.kind})`);
}

main().catch((err) => {
  console.error('Pluma failed to start:', err);
  process.exit(1);
});
