import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'electron-vite';

// The Electron app: main (ESM), a sandboxed preload (CommonJS, everything bundled) and the renderer.
// The core, host mode and the CLI for plain Node are built by vite.node.config.ts.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: resolve('electron/main/index.ts'),
          // Formatting, parsing and the library run in worker threads; each worker is its own entry.
          'cite-worker': resolve('electron/core/formats/cite/worker.ts'),
          'formats-worker': resolve('electron/core/formats/worker.ts'),
          'library-worker': resolve('electron/core/library/worker.ts'),
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
