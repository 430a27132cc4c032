// Settings → Editors in the real app (browser mode): the editor API is on by default and answers
// editors; turning it off stops it, and a new port moves it, without a restart.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../electron/core';
import { silentLogger } from '../../electron/core/log';
import { tempDir } from '../helpers/tmp';
import { send } from '../integration/api/helpers';
import { launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';
import { freePort } from '../helpers/free-port';
import { shownText } from './text';

const probe = (port: number) =>
  send(port, 'GET', '/better-bibtex/cayw?probe=1', { 'User-Agent': 'curl/8' }).then(
    (r) => r.body,
    (e: NodeJS.ErrnoException) => e.code,
  );

describe('Settings → Editors', () => {
  let dir: ReturnType<typeof tempDir>;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let first: number;

  beforeAll(async () => {
    dir = tempDir('citewise-editors-');
    const dataDir = join(dir.path, 'data');
    // Not 23119: this machine runs other tests (and perhaps Zotero) at the same time.
    first = await freePort();
    const core = await createCore({ dataDir, mode: 'test', logger: silentLogger });
    await core.invoke('settings.update', { editorApiPort: first });
    await core.close();
    app = await launchApp({ dataDir, env: { CITEWISE_EDITOR_API: '1' } });
    browser = await launchBrowser();
    ({ page, problems } = await newPage(await browser.newContext()));
    await page.goto(app.url);
    await page.locator('nav button[data-pane="settings"]').click();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    dir?.remove();
  });

  it('is on, and editors get answers on its port', async () => {
    await expect.poll(() => page.getByTestId('editor-api').isChecked()).toBe(true);
    expect(await page.getByTestId('editor-api-port').inputValue()).toBe(String(first));
    await expect.poll(() => probe(first)).toBe('ready');
    expect(app.output()).toContain(`Editor API (Better BibTeX-compatible) on http://127.0.0.1:${first}`);
    await screenshot(page, 'settings-editors');
  });

  it('turned off, it stops answering; a new port moves it', async () => {
    await page.getByTestId('editor-api').uncheck();
    await expect.poll(() => probe(first)).toBe('ECONNREFUSED');
    await page.getByTestId('editor-api').check();
    const second = await freePort();
    const port = page.getByTestId('editor-api-port');
    await port.fill('80');
    await port.press('Tab');
    expect(await shownText(page.getByRole('alert'))).toContain('from 1024 to 65535');
    await port.fill(String(second));
    await port.press('Tab');
    await expect.poll(() => probe(second)).toBe('ready');
    expect(await probe(first)).toBe('ECONNREFUSED');
    expect(problems.errors).toEqual([]);
  });
});
