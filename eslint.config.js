// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.test-dist/**',
      'node_modules/**',
      'coverage/**',
      '**/node_modules/**',
      '**/dist/**',
      '**/*.db*',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    // The pages' browser modules (src/console/browser, compiled by their own tsconfig): linted with their types,
    // so a promise nobody awaits or a value of unknown shape is caught as in the server's code; nothing of Node.js.
    files: ['src/console/browser/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: './src/console/browser/tsconfig.json', tsconfigRootDir: import.meta.dirname },
      globals: { document: 'readonly', window: 'readonly', location: 'readonly', history: 'readonly' },
    },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*'], message: 'Browser code: no Node.js modules.' }] },
      ],
      'no-restricted-globals': ['error', 'process', 'Buffer', 'require'],
    },
  },
  {
    // A starter's page script (`*.browser.js`: no build step), checked by the starter's tsc (checkJs) and linted here.
    files: ['templates/*/src/**/*.browser.js'],
    languageOptions: { globals: { document: 'readonly', window: 'readonly', location: 'readonly' } },
    rules: { 'no-restricted-globals': ['error', 'process', 'Buffer', 'require'] },
  },
  {
    // The rule of src/api/README.md ("Where schemas go"): endpoint files reference schemas, never define them.
    files: ['src/api/endpoints/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', message: 'Define the schema in src/api/schemas/ (src/api/README.md).' }] },
      ],
    },
  },
);
