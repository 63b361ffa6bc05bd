// The server project's global setup: one migrated template database per run, copied by every test file
// (test-db.ts). The workers inherit the environment variable that names it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestTemplate, TEMPLATE_ENV, testDbKind, type TestTemplate } from './test-db';

export default async function setup() {
  const kinds = new Set([testDbKind()]);
  // Files that always use PostgreSQL when it is there (two nodes, Redis) need its template in a PGlite run too.
  if (process.env.TEST_DATABASE_URL) kinds.add('postgres');
  const dir = mkdtempSync(path.join(tmpdir(), 'pluma-test-template-'));
  const templates: TestTemplate[] = [];
  for (const kind of kinds) {
    const template = await createTestTemplate(kind, path.join(dir, 'pglite.tar'));
    process.env[TEMPLATE_ENV[kind]] = template.ref;
    templates.push(template);
  }
  return async () => {
    for (const template of templates) await template.drop();
    rmSync(dir, { recursive: true, force: true });
  };
}
