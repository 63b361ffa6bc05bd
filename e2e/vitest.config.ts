// Browser journeys (DESIGN.md §5): the built app on PGlite DATA_DIRs copied from one seeded at global
// setup, driven by Debian's Chromium.
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
    // Two lanes (src/lanes.ts): each worker has its own server and Chromium, and runs its files one after
    // another, so journeys that change the server's settings never race each other.
    pool: 'forks',
    maxWorkers: 2,
    // expect.poll waits for a condition like the page's own timeouts do (browser contexts: 15 s), not
    // Vitest's 1 s default, which a loaded 2-core machine misses (debounced searches, streamed answers).
    expect: { poll: { timeout: 15_000 } },
    // A journey takes ~90 s alone on a quiet machine (avatars); two lanes share 2 cores, and a loaded
    // machine made avatars' tests 113–143 s, so each test gets 4 minutes.
    testTimeout: 240_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
