import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };
import { workerBundles, workerInputs } from './scripts/worker-bundles';

// The core with host mode and the CLI, for plain Node: `bin/citewise.mjs` loads out/cli/index.js.
// Dependencies stay external so native addons (better-sqlite3, keytar) load from node_modules.
const external = [...builtinModules, ...builtinModules.map((m) => `node:${m}`), ...Object.keys(pkg.dependencies ?? {})];

export default defineConfig({
  plugins: [workerBundles()],
  build: {
    ssr: true,
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    rollupOptions: {
      input: {
        index: resolve('electron/cli/index.ts'),
        // Workers are entries of their own, found by locateWorker (electron/core/worker-entry.ts).
        ...workerInputs(),
      },
      external: (id) => external.some((e) => id === e || id.startsWith(`${e}/`)),
      output: { format: 'esm', entryFileNames: '[name].js' },
    },
  },
});
