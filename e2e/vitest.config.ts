// Browser journeys (DESIGN.md §5): the built app on a fresh PGlite DATA_DIR, driven by Debian's Chromium.
// `npm test` builds first (scripts/test.mjs); run alone with:
//   npm run build && npx vitest run --config e2e/vitest.config.ts
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    exclude: ['**/node_modules/**', 'artifacts/**'],
    environment: 'node',
    globalSetup: ['./src/global-setup.ts'],
    // One server, one browser at a time: journeys share the server, so files run one after another.
    fileParallelism: false,
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
