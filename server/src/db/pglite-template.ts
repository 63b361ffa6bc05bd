// A new embedded database starts as a copy of a template: an initialised, migrated PGlite data directory
// the build makes once (build.mjs runs dist/pglite-template.js), next to the bundle in dist/pglite-template.
// Creating one on a first boot ran initdb (a process of its own) and then every migration, ~9.5 s on a busy
// 2-core machine; copying the template takes a fraction of a second (bench/cold-start.mjs, issue 31 item 4).
// The template records which migrations it holds; one made from other migrations is not used (the boot then
// creates the database as before), and the migrator applies anything newer at every boot anyway.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyDataDir } from './pglite-copy.mjs';

const KEY_FILE = 'template.json';

/** The migrations drizzle applies (re-exported by client.ts); here so the database thread starts without drizzle. */
export function migrationsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // src/db/*.ts → src/db/migrations; dist/*.js → dist/migrations
  for (const candidate of [path.join(here, 'migrations'), path.join(here, 'db', 'migrations')]) {
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
  }
  throw new Error(`Migrations folder not found near ${here}`);
}
/** The data directory inside the template (as inside DATA_DIR: `pglite/`). */
const DATA_SUBDIR = 'pglite';

/** Where the template lives: beside the migrations folder's parent (dist/pglite-template when built). */
export function templateDir(migrationsFolder: string): string {
  return path.join(path.dirname(migrationsFolder), 'pglite-template');
}

/** A fingerprint of the migrations: the journal and every SQL file. */
export function migrationsKey(migrationsFolder: string): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json')));
  for (const file of readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql')).sort()) {
    hash.update(file).update(readFileSync(path.join(migrationsFolder, file)));
  }
  return hash.digest('hex');
}

/** The template's data directory when it holds exactly these migrations, else null. */
export function usableTemplate(migrationsFolder: string): string | null {
  const dir = templateDir(migrationsFolder);
  try {
    const { key } = JSON.parse(readFileSync(path.join(dir, KEY_FILE), 'utf8')) as { key?: string };
    if (key !== migrationsKey(migrationsFolder) || !existsSync(path.join(dir, DATA_SUBDIR, 'PG_VERSION'))) return null;
    return path.join(dir, DATA_SUBDIR);
  } catch {
    return null;
  }
}

/** The template to copy into `pgliteDir`: when that holds no database yet and a usable template exists, else null. */
export function templateFor(pgliteDir: string, migrationsFolder: string): string | null {
  if (existsSync(path.join(pgliteDir, 'PG_VERSION'))) return null;
  return usableTemplate(migrationsFolder);
}

/**
 * Copies the template into `pgliteDir` when that holds no database yet and a usable template exists.
 * Returns whether it did; on false the caller creates the database the long way. The server has its
 * database thread copy it instead (templateFor, pglite-thread.ts), off the busy event loop of a boot.
 */
export function copyTemplateInto(pgliteDir: string, migrationsFolder: string): boolean {
  const template = templateFor(pgliteDir, migrationsFolder);
  return template ? copyDataDir(template, pgliteDir) : false;
}

/**
 * Makes the template in `dir`: `create(dataDir)` opens (and so initialises) a database there and migrates it.
 * Built in a temporary directory and renamed into place, so a template either is complete or is not there.
 */
export async function buildTemplate(dir: string, migrationsFolder: string, create: (pgliteParent: string) => Promise<void>): Promise<void> {
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  await create(building);
  writeFileSync(path.join(building, KEY_FILE), `${JSON.stringify({ key: migrationsKey(migrationsFolder) })}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
}
