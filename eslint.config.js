// Lint rules, including the package boundaries of DESIGN.md §3:
// common imports neither app; web never imports server.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const noImport = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }],
});
// The same, matching import paths by regular expression.
const noImportMatching = (regexes, message) => ({
  'no-restricted-imports': ['error', { patterns: [...regexes.map((regex) => ({ regex, message })), noEmulators] }],
});

// The emulators stand in for Stripe, PayPal and the AI providers in tests and in the offline demo, whose
// wiring (server/src/demo, started by boot.ts and main.ts) is the only other code that may import them.
const noEmulators = { group: ['@pluma/emulators', '@pluma/emulators/**'], message: 'emulators only in tests and server/src/demo (the offline demo wiring)' };

// Server boundaries (docs/architecture.md, "Boundaries"). Tests may reach in anywhere.
const serverTests = ['server/src/**/*.test.ts', 'server/src/test/**'];
const deepFeatureImport =
  "another feature only through its index.ts: import from '../<feature>' (add the symbol to its index.ts), not '../<feature>/<file>'";

// Web boundaries (docs/architecture.md, "Boundaries"). Tests may reach in anywhere.
const webNeverServer = { group: ['@pluma/server*', '**/server/src/**'], message: 'web/ must never import server/' };
const webTests = ['web/src/**/*.test.{ts,tsx}', 'web/src/test/**'];
const webFeatureImport = "A web feature file imports another feature only through its index.ts: import from '../<feature>' (add the symbol to its index.ts), not '../<feature>/<file>'";
const webFeatureApp = 'A web feature does not import web/src/app (the shell, which imports the features): what features share with it lives in web/src/platform or web/src/ui';
// A web feature's boundaries, for a file `depth` folders below web/src/features/<feature>/: no other
// feature's files, nothing of app/, and (as for all of web/) nothing of server/. One rule with all of them,
// since a later config's options for the same rule replace the earlier ones for a file.
const webFeatureBoundaries = (depth) => {
  const up = '\\.\\./'.repeat(depth);
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          webNeverServer,
          { regex: `^${up}[^./][^/]*/`, message: webFeatureImport },
          { regex: '(^|/)features/[^/]+/.', message: webFeatureImport },
          { regex: `^${up}\\.\\./app(/|$)`, message: webFeatureApp },
        ],
      },
    ],
  };
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'e2e/artifacts/**', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Plain Node scripts (bench, build and test runners).
  { files: ['**/*.mjs'], languageOptions: { globals: { ...globals.node } } },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    files: ['common/**/*.ts'],
    rules: noImport(['@pluma/server*', '@pluma/web*', '**/server/src/**', '**/web/src/**'], 'common/ must not import from server/ or web/'),
  },
  {
    // The login route reads configuration keys from here; zod would add ~20 KB brotli to its budget.
    files: ['common/src/config-keys.ts'],
    rules: noImport(['zod', '**/server/src/**', '**/web/src/**', './appconfig'], 'config-keys.ts stays free of zod (login bundle budget)'),
  },
  // Type-aware rules, only where they pay for the type checker (server and common).
  {
    files: ['server/src/**/*.ts', 'common/src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its answer and its error. Await it, or `void` it with a comment where
      // it runs in the background on purpose and handles its own errors.
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    // Every server file (the blocks below add their boundaries to this one's ban).
    files: ['server/src/**/*.ts'],
    ignores: [...serverTests, 'server/src/demo/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noEmulators] }] },
  },
  {
    // Platform services are shared by features and never depend on one.
    files: ['server/src/platform/**/*.ts'],
    ignores: serverTests,
    rules: noImportMatching(['(^|/)features(/|$)'], 'server/src/platform must not import from server/src/features'),
  },
  {
    // A feature file imports another feature only as '../<feature>' (its index.ts). The depth of the file
    // decides what a cross-feature path looks like, hence one entry per depth.
    files: ['server/src/features/*/*.ts'],
    ignores: serverTests,
    rules: noImportMatching(['^\\.\\./[^./][^/]*/', '(^|/)features/[^/]+/.'], `A feature file imports ${deepFeatureImport}`),
  },
  {
    files: ['server/src/features/*/*/*.ts'],
    ignores: serverTests,
    rules: noImportMatching(['^\\.\\./\\.\\./[^./][^/]*/', '(^|/)features/[^/]+/.'], `A feature file imports ${deepFeatureImport}`),
  },
  {
    // Services, policies, presenters and everything else know nothing of HTTP: requests and replies stay in routes.
    // A separate rule name so that it adds to the no-restricted-imports boundaries above instead of
    // replacing them (for one file, a later config's options for the same rule win).
    // Only the HTTP layer imports Fastify. In a feature that is its routes (routes.ts, *-routes.ts), route gates
    // (*-gate.ts), request helpers (*-http.ts) and index.ts (which registers route plugins); in platform, the
    // http, auth (request authentication) and realtime folders and log.ts (the logger type services receive).
    files: ['server/src/features/**/*.ts', 'server/src/platform/**/*.ts'],
    ignores: [
      ...serverTests,
      'server/src/features/**/{routes,*-routes,*-gate,*-http,index}.ts',
      'server/src/platform/{http,auth,realtime}/**',
      'server/src/platform/**/*-routes.ts',
      'server/src/platform/log.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify', 'fastify/**', 'fastify-*', '@fastify/*'],
              message: 'only the HTTP layer imports fastify (routes.ts, *-routes.ts, *-gate.ts, *-http.ts, index.ts; see eslint.config.js)',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [webNeverServer] }],
    },
  },
  // Web features meet only through their index.ts, and do not import the shell (app/), which imports them.
  { files: ['web/src/features/*/*.{ts,tsx}'], ignores: webTests, rules: webFeatureBoundaries(1) },
  { files: ['web/src/features/*/*/*.{ts,tsx}'], ignores: webTests, rules: webFeatureBoundaries(2) },
);
