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
          // Generous: a test that opens its own PGlite compiles its WASM, which takes tens of seconds on a
          // busy 2-core machine. Only a hanging test waits this long; speed goals live in bench/.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      './web/vitest.config.ts',
    ],
  },
});
