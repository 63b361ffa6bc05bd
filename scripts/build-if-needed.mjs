// Builds the app (`npm run build`) only when a source is newer than the build, so `npm start` on a built
// clone starts in seconds and a changed source is still picked up by the next start (issue 26 item 6).
// Usage: node scripts/build-if-needed.mjs [--build]   (--build: always build)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
/** What the build reads: the workspaces it bundles, their configs and the installed dependencies. */
const SOURCES = ['common', 'server', 'web', 'emulators', 'package.json', 'package-lock.json'];
const SKIPPED = new Set(['node_modules', 'dist', 'dist-ssr', '.vite']);
/** The build's outputs; the oldest of them must be newer than every source. */
export const BUILD_OUTPUTS = [path.join(root, 'server', 'dist', 'main.js'), path.join(root, 'web', 'dist', 'index.html')];

/** The newest file's mtime (directories' own mtimes change when the build replaces dist/, so they don't count). */
function newestMtime(file) {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(file)) {
    if (!SKIPPED.has(entry)) newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}

/** Whether the build is missing or older than a source. */
export function buildIsStale() {
  const built = Math.min(...BUILD_OUTPUTS.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  return built <= Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source))));
}

export function buildIfNeeded({ force = false } = {}) {
  if (!force && !buildIsStale()) {
    console.log('The build is up to date (node scripts/build-if-needed.mjs --build to rebuild).');
    return;
  }
  console.log('Building (npm run build)...');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    buildIfNeeded({ force: process.argv.includes('--build') });
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
