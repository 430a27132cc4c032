// The import boundaries of docs/architecture.md as ESLint `no-restricted-imports` blocks, one per runtime folder.
// Kept in its own module so that test/unit/lint-boundaries.test.ts can prove each rule catches a wrong import.

const electron = { name: 'electron', message: "Only electron/main and electron/preload may import 'electron'." };
const nodeBuiltins = {
  regex: '^node:',
  message: 'shared/ runs in every runtime, including the sandboxed renderer: no Node built-ins.',
};

/** @type {import('eslint').Linter.Config[]} */
export const boundaries = [
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electron],
          patterns: [
            nodeBuiltins,
            {
              group: ['**/electron/**', '**/renderer/**', '**/test/**'],
              message: 'shared/ depends on nothing but itself.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'require'],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.svelte'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electron],
          patterns: [
            { regex: '^node:', message: 'The renderer is sandboxed: no Node built-ins.' },
            {
              group: ['**/electron/**', '**/test/**'],
              message:
                'The renderer imports only shared/ and its own files; talk to the core through window.citewise (shared/ipc).',
            },
          ],
        },
      ],
    },
  },
  {
    // The contract's schemas (zod) are for the core; the renderer needs only its types, the wire
    // constants and the listener set, so it bundles no validator it never runs.
    files: ['renderer/**/*.ts', 'renderer/**/*.svelte'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/shared/ipc(/(?!(wire|listeners)$)[^/]+)?$',
              allowTypeImports: true,
              message:
                'The renderer imports only types from the IPC contract (values from shared/ipc/wire, shared/ipc/listeners or shared/model).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/core/**/*.ts', 'electron/host/**/*.ts', 'electron/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electron],
          patterns: [
            {
              group: ['**/renderer/**', '**/electron/main/**', '**/electron/preload/**'],
              message: 'The core runs in plain Node and never depends on the Electron shell or the renderer.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/service/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electron],
          patterns: [
            {
              group: ['**/electron/**', '**/renderer/**', '**/shared/ipc/**', '**/shared/model/**'],
              message: 'The local service is an independent implementation: it imports only shared/service.',
            },
          ],
        },
      ],
    },
  },
];
