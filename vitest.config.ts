import { defineConfig } from 'vitest/config';

// Projects: common rules, server + emulators (API tests on a real database), web (jsdom).
// The browser journeys have their own config (e2e/vitest.config.ts).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'common', include: ['common/src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts', 'emulators/src/**/*.test.ts'],
          environment: 'node',
          // One migrated template database per run, copied by each file (server/src/test/test-db.ts).
          globalSetup: ['server/src/test/global-setup.ts'],
          // Generous: a test that opens its own PGlite compiles its WASM, which takes tens of seconds on a
          // busy 2-core machine. Only a hanging test waits this long; speed goals live in bench/.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // One module graph per worker, not per file: importing the app cost ~7 CPU-seconds a file (issue 26).
          // Module state must therefore not leak between files: caches hang off the app context, a file
          // that fakes timers or spies restores them (docs/testing.md).
          isolate: false,
        },
      },
      './web/vitest.config.ts',
    ],
  },
});
