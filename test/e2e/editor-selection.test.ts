// selected=1 in the real app (browser mode): what the user selects in the Library table is what an
// editor gets for "cite the selection": a click, a Ctrl+click, and Select all (sent as the view).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../electron/core';
import { silentLogger } from '../../electron/core/log';
import { tempDir } from '../helpers/tmp';
import { BIB, send } from '../integration/api/helpers';
import { run } from '../integration/cli-library/helpers';
import { launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';
import { freePort } from '../helpers/free-port';

describe('cite the Library selection (selected=1)', () => {
  let dir: ReturnType<typeof tempDir>;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let port: number;

  const selected = async (): Promise<string[]> => {
    const r = await send(port, 'GET', '/better-bibtex/cayw?format=pandoc&selected=1', { 'User-Agent': 'curl/8' });
    return r.body === '' ? [] : r.body.split('; ').sort();
  };
  const rowAt = (i: number) => page.locator(`[role="row"][data-index="${i}"]`);

  beforeAll(async () => {
    dir = tempDir('citewise-editor-selection-');
    const dataDir = join(dir.path, 'data');
    port = await freePort();
    // The items as a user imports them (the CLI, which starts no enrichment), then the port.
    const bib = join(dir.path, 'refs.bib');
    writeFileSync(bib, BIB);
    expect((await run(dataDir, 'import', bib)).code).toBe(0);
    const core = await createCore({ dataDir, mode: 'test', logger: silentLogger });
    await core.invoke('settings.update', { editorApiPort: port });
    await core.close();
    app = await launchApp({ dataDir, env: { CITEWISE_EDITOR_API: '1' } });
    browser = await launchBrowser();
    ({ page, problems } = await newPage(await browser.newContext()));
    await page.goto(app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    dir?.remove();
  });

  it('answers with what the table has selected, as the selection changes', async () => {
    await expect.poll(() => rowAt(2).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await selected()).toEqual([]);

    await rowAt(0).click();
    await expect.poll(selected).toHaveLength(1);
    const [one] = await selected();
    expect(['@adams2001', '@brigge2002', '@Author:2026-test']).toContain(one);

    await rowAt(1).click({ modifiers: ['Control'] });
    await expect.poll(selected).toHaveLength(2);
    await screenshot(page, 'editor-selection-two');

    await page.keyboard.press('Control+a');
    await expect.poll(selected).toEqual(['@Author:2026-test', '@adams2001', '@brigge2002']);

    await page.keyboard.press('Escape');
    await expect.poll(selected).toEqual([]);
    expect(problems.errors).toEqual([]);
  });
});
