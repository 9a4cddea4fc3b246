// ESLint over the whole repository (`npm run lint`, and the lint phase of `npm test`):
// JavaScript's and typescript-eslint's recommended rules (without type information: fast on
// two cores; `npm run typecheck` is the type check), Svelte's, and the line length.
// Formatting itself is Prettier's (.prettierrc); ESLint checks no layout but `max-len`.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';

import svelteConfig from './renderer/svelte.config.js';

export default defineConfig(
  {
    ignores: [
      '**/node_modules/',
      'out/',
      'dist/',
      'coverage/',
      '.stepscope/',
      '.stryker/',
      'bench-results/',
      'e2e/screenshots/',
      '**/test-results/',
      'playwright-report/',
      // Test data: Electron shells written to show (or explain) what the Electronegativity scan finds.
      'test/main/fixtures/',
      // electron-vite bundles its config to a temporary file beside it while it builds (the e2e
      // build runs while this lint runs): a file that vanishes mid-lint failed CI once.
      '*.config.ts.*.mjs',
    ],
  },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Prettier wraps code at 120 and leaves comments, strings and template literals as they
      // are. Comments count: they are wrapped by hand. A line that holds a string, a template
      // literal (SQL, messages; a multi-line one counts whole), a URL or a regular expression
      // may be longer: cutting those changes what they say or how they are found with grep.
      // Core's max-len is deprecated for @stylistic's but kept until ESLint 11.
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true },
      ],
      // `a && b()` and `a ? b() : c()` as statements are habits here; a comma sequence is not
      // (write a block), and a bare read needs `void` to say it is meant.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Everything runs in Node but the UI.
    ignores: ['renderer/**'],
    languageOptions: { globals: globals.node },
  },
  {
    // The UI runs in the browser; its tests (happy-dom), the Electron preload and the e2e
    // specs and benchmarks (code run in the page) see its globals too.
    files: ['renderer/**', 'test/renderer/**', 'main/preload.ts', 'e2e/**', 'bench/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { projectService: false, extraFileExtensions: ['.svelte'], parser: ts.parser, svelteConfig },
    },
    rules: {
      // The state classes hold Sets and Maps in `$state.raw` and replace them whole (or keep
      // them as plain caches on purpose): SvelteSet/SvelteMap would make every cache reactive.
      'svelte/prefer-svelte-reactivity': 'off',
    },
  },
  {
    // Tests may use `any` for deliberately malformed input, and non-null assertions on what
    // the test has just made.
    files: ['test/**', 'e2e/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
