import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTemplate, copyTemplateInto, templateDir } from './pglite-template';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A migrations folder (journal and one SQL file) and a template made from it, in a temporary directory. */
async function fixture() {
  const root = mkdtempSync(path.join(tmpdir(), 'pglite-template-'));
  roots.push(root);
  const migrations = path.join(root, 'dist', 'migrations');
  mkdirSync(path.join(migrations, 'meta'), { recursive: true });
  writeFileSync(path.join(migrations, 'meta', '_journal.json'), '{"entries":[]}');
  writeFileSync(path.join(migrations, '0000_init.sql'), 'create table a (id int);');
  // Stands in for openPglite + migrate: a data directory with its PG_VERSION and a file.
  await buildTemplate(templateDir(migrations), migrations, async (parent) => {
    mkdirSync(path.join(parent, 'pglite', 'base'), { recursive: true });
    writeFileSync(path.join(parent, 'pglite', 'PG_VERSION'), '17');
    writeFileSync(path.join(parent, 'pglite', 'base', 'rows'), 'migrated');
  });
  return { root, migrations };
}

describe('the PGlite template', () => {
  it('is copied into a new data directory', async () => {
    const { root, migrations } = await fixture();
    const target = path.join(root, 'data', 'pglite');
    expect(copyTemplateInto(target, migrations)).toBe(true);
    expect(readFileSync(path.join(target, 'base', 'rows'), 'utf8')).toBe('migrated');
  });

  it('never replaces an existing database', async () => {
    const { root, migrations } = await fixture();
    const target = path.join(root, 'data', 'pglite');
    mkdirSync(target, { recursive: true });
    writeFileSync(path.join(target, 'PG_VERSION'), '17');
    expect(copyTemplateInto(target, migrations)).toBe(false);
    expect(existsSync(path.join(target, 'base'))).toBe(false);
  });

  it('is not used once the migrations changed', async () => {
    const { root, migrations } = await fixture();
    writeFileSync(path.join(migrations, '0001_more.sql'), 'create table b (id int);');
    expect(copyTemplateInto(path.join(root, 'data', 'pglite'), migrations)).toBe(false);
  });
});
