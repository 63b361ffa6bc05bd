// Journeys' global setup: checks Chromium, starts the built server once, hands its URL and the admin's
// credentials to the tests (inject), and stops it at the end.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_PATH } from './browser-options';
import { repoRoot, startServer } from './server-process';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminEmail: string;
    adminPassword: string;
  }
}

export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} not found: install Debian's chromium (apt-get install -y chromium; CI does it in .ci/run).`);
  }
  const adminEmail = 'admin@e2e.pluma.test';
  const adminPassword = 'e2e-admin-Secret-123';
  const server = await startServer({
    env: { ADMIN_EMAIL: adminEmail, ADMIN_PASSWORD: adminPassword },
    logFile: path.join(repoRoot, 'e2e', 'artifacts', 'server.log'),
  });
  project.provide('baseUrl', server.baseUrl);
  project.provide('adminEmail', adminEmail);
  project.provide('adminPassword', adminPassword);
  return async () => {
    await server.stop();
  };
}
