// Lint: typescript-eslint and eslint-plugin-svelte, plus the import boundaries of docs/architecture.md.
// A file's folder says which runtime it runs in; these rules keep each folder to what that runtime allows.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import { boundaries } from './scripts/lint-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'out/',
      'dist/',
      'build/',
      'test-results/',
      'bench-results/',
      'test/fixtures/',
      'shared/service/schema.gen.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['renderer/**/*.svelte', 'renderer/**/*.svelte.ts'],
    languageOptions: {
      parserOptions: {
        parser: tseslint.parser,
        extraFileExtensions: ['.svelte'],
        svelteFeatures: { experimentalGenerics: true },
      },
    },
  },
  {
    files: ['renderer/**/*'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'svelte/no-at-html-tags': 'error' },
  },
  ...boundaries,
);
