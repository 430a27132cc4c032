// Issue 32: in browser mode an editor's `curl …/better-bibtex/cayw` blocked with no sign in the app.
// Now the app shows the waiting request in a banner, with a picker to answer it and a Cancel that
// answers the editor with nothing (as Better BibTeX's closed picker); the banner goes when the
// request ends, also when the editor hangs up.
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../electron/core';
import { silentLogger } from '../../electron/core/log';
import { freePort } from '../helpers/free-port';
import { tempDir } from '../helpers/tmp';
import { send } from '../integration/api/helpers';
import { shootThemes } from './axe';
import { launchApp, launchBrowser, newPage, type PageProblems, type RunningApp } from './harness';
import { cli } from './seed';
import { shownText } from './text';

// As Better BibTeX's own bug-report libraries write them.
const BIB = `@article{adams2001,
  author = {Adams, Douglas and Brown, Ann},
  title = {The Long Way Round},
  journaltitle = {Journal of Tests},
  date = {2001},
}
@book{brigge2002,
  author = {Brigge, Malte Laurids},
  title = {Books Are Long},
  publisher = {Insel},
  location = {Leipzig},
  year = {2002},
}
`;

const CURL = { 'User-Agent': 'curl/8.5.0', Accept: '*/*' };

describe('a program waiting for a citation (browser mode)', () => {
  let dir: ReturnType<typeof tempDir>;
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let port: number;

  beforeAll(async () => {
    dir = tempDir('citewise-cayw-');
    const dataDir = join(dir.path, 'data');
    port = await freePort();
    const core = await createCore({ dataDir, mode: 'test', logger: silentLogger });
    await core.invoke('settings.update', { editorApiPort: port });
    await core.close();
    const bib = join(dir.path, 'refs.bib');
    writeFileSync(bib, BIB);
    await cli(dataDir, 'http://127.0.0.1:9', 'import', bib);
    app = await launchApp({ dataDir, env: { CITEWISE_EDITOR_API: '1' } });
    browser = await launchBrowser();
    ({ page, problems } = await newPage(await browser.newContext({ viewport: { width: 1360, height: 860 } })));
    await page.goto(app.url);
    await page.getByRole('navigation', { name: 'Panes' }).waitFor();
    for (let i = 0; !app.output().includes(`Editor API (Better BibTeX-compatible) on`); i++) {
      if (i > 200) throw new Error(`the editor API did not start:\n${app.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    dir?.remove();
  });

  const banner = () => page.getByTestId('citation-request');

  it('shows the request; the user picks and the program gets the formatted citation', async () => {
    expect(await banner().count()).toBe(0);
    const reply = send(port, 'GET', '/better-bibtex/cayw?format=pandoc&brackets=1', CURL);
    await banner().waitFor();
    expect(await shownText(banner())).toContain('A program is waiting for a citation (cayw)');
    await shootThemes(page, 'cayw-banner');

    await banner().getByRole('button', { name: 'Choose citations…' }).click();
    const picker = page.getByTestId('citation-picker');
    const box = picker.getByRole('searchbox', { name: 'Search the library' });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await box.fill('long way');
    await expect.poll(() => picker.getByRole('button', { name: /The Long Way Round/ }).count()).toBe(1);
    await box.press('Enter');
    await box.fill('brigge');
    await picker.getByRole('button', { name: /Books Are Long/ }).click();
    expect(await shownText(picker.getByTestId('citation-picker-chosen'))).toContain('adams2001; brigge2002');
    await shootThemes(page, 'cayw-picker');
    await picker.getByRole('button', { name: 'Insert citation' }).click();

    const answer = await reply;
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('[@adams2001; @brigge2002]');
    await expect.poll(() => banner().count()).toBe(0);
    expect(await picker.count()).toBe(0);
  });

  it('Cancel answers the program with an empty result, as a closed picker does', async () => {
    const reply = send(port, 'GET', '/better-bibtex/cayw?format=pandoc&brackets=1', CURL);
    await banner().waitFor();
    await banner().getByRole('button', { name: 'Cancel' }).click();
    const answer = await reply;
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('');
    await expect.poll(() => banner().count()).toBe(0);
  });

  it('the banner (and an open picker) goes when the program hangs up', async () => {
    const req = request({ host: '127.0.0.1', port, path: '/better-bibtex/cayw?format=pandoc', headers: CURL });
    req.on('error', () => {});
    req.end();
    await banner().waitFor();
    await banner().getByRole('button', { name: 'Choose citations…' }).click();
    await page.getByTestId('citation-picker').waitFor();
    req.destroy();
    await expect.poll(() => banner().count()).toBe(0);
    await expect.poll(() => page.getByTestId('citation-picker').count()).toBe(0);
    expect(problems.errors).toEqual([]);
  });
});
