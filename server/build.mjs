// Bundles the server (with @pluma/common inlined) to dist/main.js; npm packages stay external.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist', { recursive: true, force: true });
await build({
  // The export and ingestion workers (export-pool.ts and ingestion/pool.ts load dist/<name>.js by path).
  entryPoints: {
    main: 'src/main.ts',
    'export-worker': 'src/features/messages/export/export-worker.ts',
    'ingestion-worker': 'src/features/ingestion/worker.ts',
    // Makes the migrated template a new embedded database is copied from (src/db/pglite-template.ts).
    'pglite-template': 'src/db/pglite-template-cli.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  // Code splitting: main.ts imports serve.ts (every feature and its npm packages) dynamically, so the database
  // opens while those load (issue 31 item 4); shared code goes to dist/chunk-*.js beside the entries.
  splitting: true,
  chunkNames: 'chunk-[hash]',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'externals-except-workspace',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@pluma/') ? undefined : { path: args.path, external: true }));
      },
    },
  ],
});
cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
// The embedded database's thread (plain JavaScript, loaded by path at run time).
cpSync('src/db/pglite-worker.mjs', 'dist/pglite-worker.mjs');
cpSync('src/db/pglite-copy.mjs', 'dist/pglite-copy.mjs');
// The offline payments demo's Stripe.js stand-in (emulators/src/stripe/control.ts reads it next to the bundle).
cpSync('../emulators/src/stripe/stripe-js.browser.js', 'dist/stripe-js.browser.js');
// Its PayPal twin: the stand-in of PayPal's JS SDK v6 core script (emulators/src/paypal/control.ts reads it next to the bundle).
cpSync('../emulators/src/paypal/web-sdk-v6.browser.js', 'dist/web-sdk-v6.browser.js');
// A new DATA_DIR starts as a copy of this migrated database instead of running initdb and every migration
// (src/db/pglite-template.ts). Without it (PLUMA_SKIP_PGLITE_TEMPLATE=1, or if making it fails) the server
// still creates a new database the long way.
if (process.env.PLUMA_SKIP_PGLITE_TEMPLATE !== '1') {
  const made = spawnSync(process.execPath, ['dist/pglite-template.js'], { stdio: 'inherit' });
  if (made.status !== 0) console.warn('build: the PGlite template could not be made; a new DATA_DIR will be created the long way');
}
