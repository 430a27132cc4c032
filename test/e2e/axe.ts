/// <reference lib="dom" />
// Runs axe-core in the page and returns the serious and critical violations, described for a test failure.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { ROOT, screenshot } from './harness';

interface AxeResult {
  violations: {
    id: string;
    impact: string | null;
    help: string;
    nodes: { target: unknown[]; failureSummary?: string }[];
  }[];
}

let source: string | null = null;
function axeSource(): string {
  return (source ??= readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8'));
}

export async function seriousViolations(page: Page): Promise<string[]> {
  return violations(page, ['serious', 'critical']);
}

/** Every violation axe reports, of any impact (minor and moderate too), described for a test failure. */
export async function allViolations(page: Page): Promise<string[]> {
  return violations(page, ['minor', 'moderate', 'serious', 'critical']);
}

async function violations(page: Page, impacts: string[]): Promise<string[]> {
  // Evaluated rather than added as a <script>: the app's CSP (script-src 'self') rightly refuses inline
  // scripts, and the test must not weaken it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<AxeResult> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations
    .filter((v) => impacts.includes(v.impact ?? ''))
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .slice(0, 4)
          .map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`)
          .join(' | ')}`,
    );
}

/**
 * A screenshot in the light theme and, unless `dark` is false, in the dark one (the OS preference
 * emulated), each checked with axe; the page is back in the light theme afterwards.
 */
export async function shootThemes(
  page: Page,
  name: string,
  options: { dark?: boolean; settleMs?: number } = {},
): Promise<void> {
  const { dark = true, settleMs = 150 } = options;
  await page.waitForTimeout(settleMs);
  await screenshot(page, `${name}-light`);
  expect(await seriousViolations(page), `axe in light, ${name}`).toEqual([]);
  if (!dark) return;
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.waitForTimeout(Math.min(settleMs, 400));
    await screenshot(page, `${name}-dark`);
    expect(await seriousViolations(page), `axe in dark, ${name}`).toEqual([]);
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
}
