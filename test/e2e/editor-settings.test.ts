// Settings → Editors in the real app (browser mode): the editor API is on by default and answers
// editors; turning it off stops it, and a new port moves it, without a restart. The folders editors
// may use are typed, checked by the core and listed; only in one of them may an editor's .aux be read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../electron/core';
import { silentLogger } from '../../electron/core/log';
import { tempDir } from '../helpers/tmp';
import { callRpc, send } from '../integration/api/helpers';
import { shootThemes } from './axe';
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
  /** The port the API answers on now. */
  let live: number;

  beforeAll(async () => {
    dir = tempDir('citewise-editors-');
    const dataDir = join(dir.path, 'data');
    // Not 23119: this machine runs other tests (and perhaps Zotero) at the same time.
    first = await freePort();
    live = first;
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
    live = second;
  });

  it('allows a folder for editors: refused until allowed, usable after, refused again once removed', async () => {
    const thesis = join(dir.path, 'thesis');
    mkdirSync(thesis);
    const aux = join(thesis, 'paper.aux');
    writeFileSync(aux, '\\relax\n\\citation{nobody2000}\n');
    const scan = () => callRpc<unknown>(live, 'collection.scanAUX', ['//cited', aux]);
    const empty = page.getByTestId('editor-folders-empty');
    await empty.scrollIntoViewIfNeeded();
    expect(await shownText(empty)).toContain('No folder is allowed');
    expect((await scan()).error?.message).toContain('until you allow a folder');

    const field = page.getByTestId('editor-folder-path');
    await field.fill(join(thesis, 'nope'));
    await field.press('Enter');
    await expect
      .poll(() => shownText(page.getByTestId('editor-folders-error')), { timeout: 15_000 })
      .toContain('does not exist');
    await field.fill(thesis);
    await page.getByTestId('editor-folder-allow').click();
    await expect.poll(() => shownText(page.getByTestId('editor-folders')), { timeout: 15_000 }).toContain(thesis);
    expect(await page.getByTestId('editor-folders-error').count()).toBe(0);
    expect(await field.inputValue()).toBe('');
    expect((await scan()).result).toMatchObject({ items: 0, missing: ['nobody2000'] });
    await shootThemes(page, 'settings-editors-folders');

    await page.getByRole('button', { name: `Remove ${thesis}` }).click();
    await expect.poll(() => page.getByTestId('editor-folders-empty').count(), { timeout: 15_000 }).toBe(1);
    expect((await scan()).error?.message).toContain('until you allow a folder');
    expect(problems.errors).toEqual([]);
  });
});
