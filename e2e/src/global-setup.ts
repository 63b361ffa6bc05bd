// Journeys' global setup: checks Chromium; boots the built server once on an empty DATA_DIR to make the
// seeded data directory (database, migrations, seeds, the admin) that every journeys' server starts from
// as a copy; starts the shared server and hands its URL, the seeded directory and the admin's
// credentials to the tests (inject). Stops it at the end.
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_PATH } from './browser-options';
import { E2E_ADMIN, repoRoot, seedDataDir, startServer } from './server-process';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    seededDataDir: string;
    adminEmail: string;
    adminPassword: string;
  }
}

const artifactsDir = path.join(repoRoot, 'e2e', 'artifacts');

export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} not found: install Debian's chromium (apt-get install -y chromium; CI does it in .ci/run).`);
  }
  const seededDataDir = await seedDataDir(path.join(artifactsDir, 'server-seed.log'));
  const server = await startServer({ env: {}, seededDataDir, logFile: path.join(artifactsDir, 'server.log') });
  project.provide('baseUrl', server.baseUrl);
  project.provide('seededDataDir', seededDataDir);
  project.provide('adminEmail', E2E_ADMIN.email);
  project.provide('adminPassword', E2E_ADMIN.password);
  return async () => {
    await server.stop();
    rmSync(seededDataDir, { recursive: true, force: true });
  };
}
