import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'electron-vite';
import { workerBundles, workerInputs } from './scripts/worker-bundles';

// The Electron app: main (ESM), a sandboxed preload (CommonJS, everything bundled) and the renderer.
// The core, host mode and the CLI for plain Node are built by vite.node.config.ts.
export default defineConfig({
  main: {
    plugins: [workerBundles()],
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: resolve('electron/main/index.ts'),
          // Formatting, parsing and the library run in worker threads; each worker is its own entry,
          // found by locateWorker (electron/core/worker-entry.ts).
          ...workerInputs(),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('renderer'),
    plugins: [svelte()],
    build: {
      outDir: resolve('out/renderer'),
      emptyOutDir: true,
      rollupOptions: { input: resolve('renderer/index.html') },
    },
  },
});
