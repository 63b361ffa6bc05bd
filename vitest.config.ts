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
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      './web/vitest.config.ts',
    ],
  },
});
