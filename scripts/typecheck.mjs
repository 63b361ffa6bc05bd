// Type-checks every workspace that has sources (tsc -p per workspace; they share tsconfig.base.json).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const workspaces = ['common', 'server', 'emulators', 'web', 'e2e', 'bench'];
let failed = false;
for (const ws of workspaces) {
  if (!existsSync(`${ws}/tsconfig.json`) || !existsSync(`${ws}/src`)) continue;
  const r = spawnSync('npx', ['tsc', '-p', ws], { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
