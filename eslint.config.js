// Lint rules, including the package boundaries of DESIGN.md §3:
// common imports neither app; web never imports server.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const noImport = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }],
});

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
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...noImport(['@pluma/server*', '**/server/src/**'], 'web/ must never import server/'),
    },
  },
);
