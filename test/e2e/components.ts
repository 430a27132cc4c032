// Serves the component harness (component-harness/) on the app's own origin: built once per run with
// Vite and the Svelte plugin, then answered through page routes with the app's CSP, so the components
// run under the same policy, cookie and WebSocket as the real renderer.
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { buildCsp } from '../../electron/core/csp';
import { tempDir } from '../helpers/tmp';
import { ROOT } from './harness';

export const HARNESS_PATH = '/__harness/';
const MIME: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

let built: Promise<string> | null = null;

/** Builds the harness once; resolves to its output folder. */
export function buildHarness(): Promise<string> {
  built ??= (async () => {
    const out = tempDir('citewise-harness-');
    await build({
      configFile: false,
      root: join(ROOT, 'test/e2e/component-harness'),
      base: HARNESS_PATH,
      logLevel: 'warn',
      plugins: [svelte()],
      build: { outDir: out.path, emptyOutDir: true, sourcemap: false, minify: false },
    });
    return out.path;
  })();
  return built;
}

/** Routes the harness on the app's origin; the page must have visited the app's URL first (its cookie). */
export async function routeHarness(context: BrowserContext, origin: string, permissions: string[] = []): Promise<void> {
  const dir = await buildHarness();
  const { host } = new URL(origin);
  // The same policy the host sends with the renderer.
  const csp = buildCsp({ connectSrc: [`ws://${host}`] });
  // Chromium cannot tell a routed page's address space, so it treats it as public and blocks its
  // socket to loopback; the app's own pages come from loopback and need no such grant.
  await context.grantPermissions(['local-network-access', ...permissions], { origin });
  await context.route(`${origin}${HARNESS_PATH}**`, async (route) => {
    const path = new URL(route.request().url()).pathname.slice(HARNESS_PATH.length) || 'index.html';
    try {
      const body = readFileSync(join(dir, path));
      await route.fulfill({
        status: 200,
        body,
        headers: { 'content-type': MIME[extname(path)] ?? 'application/octet-stream', 'content-security-policy': csp },
      });
    } catch {
      await route.fulfill({ status: 404, body: 'not found' });
    }
  });
}

export async function openHarness(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}${HARNESS_PATH}index.html`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
}

/** Runs axe-core in the page; returns the serious and critical violations, in a short form. */
export async function axeViolations(
  page: Page,
  context?: string,
): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  const source = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  // A CSP without 'unsafe-eval' still allows a script added by the test harness through the DevTools protocol.
  await page.evaluate(source);
  const results = await page.evaluate(async (ctx) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            c: unknown,
            o: unknown,
          ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    return axe.run(ctx ?? document, { resultTypes: ['violations'] });
  }, context ?? null);
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}
