// Copies the migrated template into a new data directory (pglite-template.ts decides when and which). Plain
// JavaScript so the database thread (pglite-worker.mjs) runs it: there the ~1,400 files are copied while the
// server's thread loads its modules, instead of waiting for turns of that busy event loop (issue 31 item 4).
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

/** Copies `template` to `pgliteDir` unless a database appeared there meanwhile; returns whether it did. */
export function copyDataDir(template, pgliteDir) {
  // Copied beside the target and renamed, so a boot killed mid-copy leaves no half database to open.
  const partial = `${pgliteDir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(path.dirname(pgliteDir), { recursive: true });
  cpSync(template, partial, { recursive: true });
  // An empty directory left by an earlier attempt (created, then killed before initdb) is replaced.
  if (existsSync(pgliteDir) && readdirSync(pgliteDir).length === 0) rmSync(pgliteDir, { recursive: true });
  if (existsSync(pgliteDir)) {
    rmSync(partial, { recursive: true, force: true });
    return false;
  }
  renameSync(partial, pgliteDir);
  return true;
}
