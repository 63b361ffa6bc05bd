// Journeys' global setup: checks Chromium; boots the built server once on an empty DATA_DIR to make the
// seeded data directory (database, migrations, seeds, the admin) that every journeys' server starts from
// as a copy; then starts one server and one Chromium per lane (lanes.ts) and hands their addresses, the
// seeded directory and the admin's credentials to the tests (inject). Stops everything at the end.
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_PATH, launchOptions } from './browser-options';
import type { Lane } from './lanes';
import { E2E_ADMIN, repoRoot, requireBuild, seedDataDir, startServer, type RunningServer } from './server-process';

declare module 'vitest' {
  export interface ProvidedContext {
    lanes: Lane[];
    seededDataDir: string;
    adminEmail: string;
    adminPassword: string;
    /** Remembers the admin's passed second factor (server-process.ts enrollAdminSecondFactor). */
    adminDeviceToken: string;
  }
}

const artifactsDir = path.join(repoRoot, 'e2e', 'artifacts');

export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} not found: install Debian's chromium (apt-get install -y chromium; CI does it in .ci/run).`);
  }
  requireBuild();
  const { dataDir: seededDataDir, adminDeviceToken } = await seedDataDir(path.join(artifactsDir, 'server-seed.log'));
  const laneCount = project.config.maxWorkers;
  const servers: RunningServer[] = [];
  const browsers: BrowserServer[] = [];
  const teardown = async () => {
    await Promise.all([...browsers.map((browser) => browser.close()), ...servers.map((server) => server.stop())]);
    rmSync(seededDataDir, { recursive: true, force: true });
  };
  // Each lane's server and Chromium start side by side; whatever started is stopped if anything failed.
  const started = await Promise.allSettled(
    Array.from({ length: laneCount }, (_, index) => [
      startServer({
        // The web-search journey's engine and pages listen on 127.0.0.1 (chat.e2e.test.ts), as an operator
        // lists a private SearXNG: the guard still refuses every other private address.
        env: { OUTBOUND_ALLOW_HOSTS: '127.0.0.1' },
        seededDataDir, logFile: path.join(artifactsDir, `server-lane-${index + 1}.log`) }).then((server) => void (servers[index] = server)),
      chromium.launchServer(launchOptions).then((browser) => void (browsers[index] = browser)),
    ]).flat(),
  );
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    await teardown();
    throw failure.reason;
  }
  project.provide(
    'lanes',
    servers.map((server, index) => ({ baseUrl: server.baseUrl, browserWsEndpoint: browsers[index].wsEndpoint() })),
  );
  project.provide('seededDataDir', seededDataDir);
  project.provide('adminEmail', E2E_ADMIN.email);
  project.provide('adminPassword', E2E_ADMIN.password);
  project.provide('adminDeviceToken', adminDeviceToken);
  return teardown;
}
