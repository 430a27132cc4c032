import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

// Two projects: `unit` (unit and integration tests in plain Node) and `e2e`
// (playwright-core driving Debian's Chromium against the built app in host mode).
// The keychain test runs on its own inside a D-Bus session (scripts/test-keychain.sh).
export default defineConfig({
  test: {
    projects: [
      {
        // The svelte plugin compiles the renderer's state classes (runes in *.svelte.ts) for Node.
        plugins: [svelte({ configFile: false })],
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
          exclude: ['test/integration/keychain/**'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'keychain',
          include: ['test/integration/keychain/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
