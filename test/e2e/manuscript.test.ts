/// <reference lib="dom" />
// The manuscript check in the Assistant pane, end to end in Chromium: a library with a retracted
// paper, a disputed one and a preprint with its published version (stored as enrichment stores them),
// a Quarto file picked in the Manuscript tab, and the report shown as text (a key holding markup
// stays text). Then pasted LaTeX.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../electron/cli/command';
import { command as importCommand } from '../../electron/cli/commands/import';
import { withLibrary } from '../../electron/cli/library-session';
import { tempDir } from '../helpers/tmp';
import { themedViolations } from './dialog-a11y';
import { launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';

const BIB = String.raw`
@article{fine2019, title = {A Fine Paper on Sleep}, author = {Fine, Ada}, year = {2019}, journal = {J Sleep}, doi = {10.1000/fine}}
@article{retracted2015, title = {A Retracted Paper on Memory}, author = {Wrong, Bo}, year = {2015}, journal = {J Mem}, doi = {10.1000/retracted}}
@article{disputed2018, title = {A Disputed Paper}, author = {Argue, Di}, year = {2018}, journal = {J}, doi = {10.1000/disputed}}
@article{preprint2020, title = {A Preprint on Dreams}, author = {Early, Fi}, year = {2020}, journal = {bioRxiv}, doi = {10.1101/2020.01.01.000001}}
@article{published2021, title = {Dreams, Published}, author = {Early, Fi}, year = {2021}, journal = {Nature}, doi = {10.1038/published}}
`;

describe('The manuscript check in the Assistant pane', () => {
  let data: ReturnType<typeof tempDir>;
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    data = tempDir('citewise-e2e-ms-');
    const bib = join(data.path, 'seed.bib');
    writeFileSync(bib, BIB);
    const sink = { write: () => true } as unknown as NodeJS.WritableStream;
    expect(
      await runCommand(importCommand, ['import', bib], {
        dataDir: data.path,
        stdout: sink as never,
        stderr: sink as never,
      }),
    ).toBe(0);
    await withLibrary(data.path, async (client) => {
      await client.serviceCache.putNotices(
        '10.1000/retracted',
        [{ doi: '10.1000/retracted', status: 'Retracted', date: '2020-01-01' }],
        true,
      );
      await client.serviceCache.putTallies({
        found: {
          '10.1000/disputed': { total: 50, supporting: 3, contrasting: 9, mentioning: 38, unclassified: 0 },
          '10.1000/fine': { total: 12, supporting: 4, contrasting: 0, mentioning: 8, unclassified: 0 },
        },
      });
      await client.serviceCache.putPapers({
        found: { '10.1101/2020.01.01.000001': { publicationLinks: [{ publishedDoi: '10.1038/published' }] } },
      });
    });
    app = await launchApp({ dataDir: data.path });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1360, height: 900 }, colorScheme: 'light' });
    ({ page, problems } = await newPage(context));
    await page.goto(`${app.url}#/assistant`);
    await page.getByTestId('tab-ask').waitFor();
  }, 120_000);

  // Issue 32: the Assistant's tabs had no tab panel and ignored the arrow keys.
  it('has tabs with a tab panel, one tab stop, and ← → Home End', async () => {
    const tab = (id: string) => page.getByTestId(`tab-${id}`);
    await tab('ask').focus();
    expect(await tab('ask').getAttribute('tabindex')).toBe('0');
    expect(await tab('check').getAttribute('tabindex')).toBe('-1');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tab('check').getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('assistant-tab-check');
    const panel = page.getByRole('tabpanel');
    expect(await panel.getAttribute('aria-labelledby')).toBe('assistant-tab-check');
    await page.keyboard.press('End');
    await expect.poll(() => tab('manuscript').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tab('ask').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => tab('manuscript').getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('assistant-tab-manuscript');
    expect(await tab('manuscript').getAttribute('aria-controls')).toBe('assistant-panel');
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    data?.remove();
  });

  it('checks a picked Quarto file and shows each flag, as text', async () => {
    const qmd = [
      '---',
      'title: Sleep',
      'author: ada@example.org',
      '---',
      'Sleep helps [@fine2019; @retracted2015, p. 3] and @disputed2018 argued otherwise.',
      'Dreams were studied by -@preprint2020, see @fig-dreams.',
      'Unknown: [@ghost2000] and [@{<b>bold</b>}].',
    ].join('\n');
    await page
      .getByTestId('manuscript-file')
      .setInputFiles({ name: 'draft.qmd', mimeType: 'text/markdown', buffer: Buffer.from(qmd) });
    await page.getByTestId('manuscript-start').click();
    const entries = page.getByTestId('manuscript-entry');
    await expect.poll(() => entries.count(), { timeout: 20_000 }).toBe(6);
    const texts = await entries.allInnerTexts();
    expect(texts[0]).toMatch(/fine2019[\s\S]*line 5[\s\S]*Fine, 2019, A fine paper on sleep · doi:10\.1000\/fine/i);
    expect(texts[1]).toMatch(/retracted2015[\s\S]*retracted/);
    expect(texts[2]).toMatch(/disputed2018[\s\S]*many contrasting statements \(9\)/);
    expect(texts[3]).toMatch(/preprint2020[\s\S]*preprint with a published version → published2021/);
    expect(texts[4]).toMatch(/ghost2000[\s\S]*not in the library/);
    // The braced key is shown as the text it is, not as markup.
    expect(texts[5]).toContain('<b>bold</b>');
    expect(await page.locator('[data-testid="manuscript-entries"] b').count()).toBe(0);
    await expect
      .poll(() => page.getByTestId('manuscript-summary').innerText())
      .toMatch(/draft\.qmd: 6 citations of 6 references; 2 not in the library\.\s*Some need a second look\./);
    await screenshot(page, 'assistant-manuscript-check');
    expect(problems.errors).toEqual([]);
  });

  it('draws the flags in the theme’s colours, light and dark, as the Reference check does (axe clean)', async () => {
    // Issue 32: the pills had fixed light backgrounds and dark text, light patches on the dark theme.
    const flags = page.getByTestId('manuscript-flag');
    expect(await flags.count()).toBeGreaterThanOrEqual(3);
    /** Each flag's background and text lightness (relative luminance, 0 black to 1 white). */
    const lightness = () =>
      flags.evaluateAll((els) => {
        const luminance = (css: string): number => {
          const [r, g, b] = (css.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => {
            const c = Number(v) / 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
        };
        return els.map((el) => {
          const style = getComputedStyle(el);
          return { text: el.textContent, bg: luminance(style.backgroundColor), fg: luminance(style.color) };
        });
      });
    expect(await themedViolations(page, 'manuscript-flags')).toEqual([]);
    for (const f of await lightness()) expect(f.bg, `light: ${f.text}`).toBeGreaterThan(0.8);
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      await screenshot(page, 'assistant-manuscript-check-dark');
      for (const f of await lightness()) {
        expect(f.bg, `dark: ${f.text} on a dark background`).toBeLessThan(0.05);
        expect(f.fg, `dark: ${f.text} in a light colour`).toBeGreaterThan(0.25);
      }
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  it('checks pasted LaTeX, and says what is wrong with a file it cannot read', async () => {
    await page.getByTestId('manuscript-mode-paste').check();
    await page.getByTestId('manuscript-paste-format').selectOption('pasted.tex');
    await page.getByTestId('manuscript-paste').fill('As \\citet[p.~2]{fine2019} showed % \\cite{retracted2015}\n');
    await page.getByTestId('manuscript-start').click();
    await expect
      .poll(() => page.getByTestId('manuscript-summary').innerText(), { timeout: 20_000 })
      .toMatch(/pasted\.tex: 1 citation of 1 reference; 0 not in the library\.\s*Nothing to look at\./);
    // Issue 32: the same LaTeX under the default "Markdown" is read as LaTeX, and said so; text with
    // no citations at all is no all-clear.
    await page.getByTestId('manuscript-paste-format').selectOption('pasted.md');
    await page.getByTestId('manuscript-start').click();
    await expect
      .poll(() => page.getByTestId('manuscript-summary').innerText(), { timeout: 20_000 })
      .toMatch(/pasted\.md: 1 citation of 1 reference; 0 not in the library\.\s*Nothing to look at\./);
    expect(await page.locator('.manuscript .note').first().innerText()).toMatch(/^Read as LaTeX: it has no Markdown/);
    await page.getByTestId('manuscript-paste').fill('A draft without any citation yet.\n');
    await page.getByTestId('manuscript-start').click();
    await expect
      .poll(() => page.getByTestId('manuscript-summary').innerText(), { timeout: 20_000 })
      .toMatch(/No citations were found, so nothing was checked\./);
    await screenshot(page, 'assistant-manuscript-no-citations');
    await page.getByTestId('manuscript-mode-file').check();
    await page.getByTestId('manuscript-file').setInputFiles({
      name: 'broken.docx',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('PK\u0003\u0004 not really a zip, only text that starts like one'),
    });
    await page.getByTestId('manuscript-start').click();
    await expect
      .poll(() => page.getByTestId('manuscript-error').innerText(), { timeout: 20_000 })
      .toMatch(/broken\.docx: it is not a Word \.docx file: it is not a zip package/);
    await screenshot(page, 'assistant-manuscript-error');
  });
});
