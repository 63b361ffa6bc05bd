// The real app over a real database, for API tests through `app.inject`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createContext, startApp } from '../boot';
import type { AppContext } from '../context';
import type { Database } from '../db/client';
import { loadEnv } from '../env';
import { createTestDatabase } from './test-db';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Reuse this (already migrated) database instead of a fresh one, e.g. two app instances on one database; the caller closes it. */
  database?: Database;
}

export async function createTestApp(envOverrides: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pluma-test-'));
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: 'silent',
    DEMO_AI: 'true',
    ...envOverrides,
  });
  const database = options.database ?? (await createTestDatabase());
  const ctx = await createContext(env, database);
  const app = await startApp(ctx, { logger: false });
  return {
    app,
    ctx,
    async close() {
      await app.close();
      if (!options.database) await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
