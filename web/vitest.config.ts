import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['src/**/*.test.{ts,tsx}', 'widget/**/*.test.ts'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    // Styles are irrelevant to behaviour tests; CSS modules still resolve to class names.
    css: { include: [], modules: { classNameStrategy: 'non-scoped' } },
    testTimeout: 15_000,
    passWithNoTests: true,
    // One module graph and one jsdom page per worker, not per file: importing React, Mantine and the app
    // cost most of each file's time. So nothing may leak between files: src/test/setup.ts puts the page and
    // every module-level state back after each test (docs/testing.md).
    isolate: false,
  },
});
