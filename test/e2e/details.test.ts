/// <reference lib="dom" />
// The details column against the real core and the local service: a library seeded with the CLI
// (a hostile CSL-JSON import, and papers added by DOI), the column mounted by the component harness.
// Markup stays inert, edits save with undo, the key's conflicts show inline, tags and notes work,
// evidence and notices come from the service, and a service outage is a calm line.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../service/server';
import { tempDir } from '../helpers/tmp';
import { axeViolations, openHarness, routeHarness } from './components';
import { launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';
import { cli, pickDois, writeHostile } from './seed';
import { shownText } from './text';

interface HarnessWindow {
  __harness: {
    api: {
      invoke(
        channel: string,
        input: unknown,
      ): Promise<{ ok: true; value: unknown } | { ok: false; error: { code: string; message: string } }>;
      listenerCount(): number;
    };
    clear(): void;
    calls: [string, unknown][];
    theme(t: 'light' | 'dark'): void;
    details(props: Record<string, unknown>): void;
  };
  __pwned?: unknown;
}

describe('Item details', () => {
  let service: RunningService;
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;
  let dataDir: ReturnType<typeof tempDir>;
  let dois: { retracted: string; concern: string };
  const ids: Record<string, number> = {};
  let serviceClosed = false;

  async function invoke<T>(channel: string, input: unknown): Promise<T> {
    return page.evaluate(
      async ([c, i]) => {
        const r = await (window as unknown as HarnessWindow).__harness.api.invoke(c as string, i);
        if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
        return r.value;
      },
      [channel, input] as const,
    ) as Promise<T>;
  }

  async function show(id: number, props: Record<string, unknown> = {}): Promise<void> {
    await page.evaluate(([i, p]) => (window as unknown as HarnessWindow).__harness.details({ id: i, ...p }), [
      id,
      props,
    ] as const);
    await page.getByTestId('details-title').waitFor();
  }

  beforeAll(async () => {
    service = await startService({ port: 0, papers: 400, log: () => {} });
    const fullKey = service.keys.find((k) => k.scopes.has('*'))!.token;
    dois = pickDois(service);
    dataDir = tempDir('citewise-details-');
    await cli(dataDir.path, service.url, 'import', writeHostile(dataDir.path));
    await cli(dataDir.path, service.url, 'add', dois.retracted, dois.concern);
    app = await launchApp({
      dataDir: dataDir.path,
      env: {
        CITEWISE_SERVICE_URL: service.url,
        CITEWISE_API_KEY: fullKey,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
      },
    });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
    await routeHarness(context, app.origin, ['clipboard-read', 'clipboard-write']);
    ({ page, problems } = await newPage(context));
    await page.goto(app.url);
    await openHarness(page, app.origin);
    const list = await invoke<{ rows: { id: number; title: string | null; doi: string | null }[] }>('library.list', {
      limit: 10,
    });
    for (const row of list.rows) {
      if (row.doi === dois.retracted) ids.retracted = row.id;
      else if (row.doi === dois.concern) ids.concern = row.id;
      else if (row.title?.startsWith('Payload')) ids.hostile = row.id;
      else if (row.title === 'A Plain Book') ids.plain = row.id;
    }
    expect(Object.keys(ids).sort()).toEqual(['concern', 'hostile', 'plain', 'retracted']);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (!serviceClosed) await service?.close();
    dataDir?.remove();
  });

  it('shows hostile markup in the title, creators and abstract as text and safe tags only', async () => {
    await show(ids.hostile!);
    const title = page.getByTestId('details-title');
    expect(await shownText(title)).toBe('Payload in a title');
    expect(await shownText(title.locator('i'))).toBe('title');
    const abstract = page.getByTestId('abstract');
    expect(await shownText(abstract.locator('sub'))).toBe('2');
    expect(await shownText(abstract.locator('sup'))).toBe('5');
    expect(await shownText(abstract.locator('.small-caps'))).toBe('small caps');
    expect(await shownText(abstract)).toContain('link text');
    const details = page.getByTestId('item-details');
    expect(await details.locator('img, script, svg:not([aria-hidden]), a[href^="javascript"], iframe').count()).toBe(0);
    // The creator's name, markup and all, is an input's value: plain text.
    expect(await page.getByLabel('Family name').first().inputValue()).toContain('<svg');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as HarnessWindow).__pwned)).toBeUndefined();
    await screenshot(page, 'details-hostile-light');
    await page.getByTestId('creators').scrollIntoViewIfNeeded();
    await screenshot(page, 'details-hostile-abstract-light');
  });

  it('edits a field as one undo step, and undoes it', async () => {
    await show(ids.plain!);
    const publisher = page.getByLabel('Publisher', { exact: true });
    await publisher.fill('New Press');
    await publisher.press('Tab');
    await expect.poll(() => shownText(page.getByTestId('undo-hint'))).toContain('Edit publisher');
    expect((await invoke<{ csl: { publisher?: string } }>('library.item.get', { id: ids.plain })).csl.publisher).toBe(
      'New Press',
    );
    await page.getByTestId('undo').click();
    await expect
      .poll(
        async () =>
          (await invoke<{ csl: { publisher?: string } }>('library.item.get', { id: ids.plain })).csl.publisher,
      )
      .toBe('Press');
    await expect.poll(() => page.getByLabel('Publisher', { exact: true }).inputValue()).toBe('Press');
  });

  it('writes a date as date parts', async () => {
    const date = page.getByLabel('Date', { exact: true });
    await date.fill('2003-07');
    await date.press('Tab');
    await expect
      .poll(async () => (await invoke<{ csl: { issued?: unknown } }>('library.item.get', { id: ids.plain })).csl.issued)
      .toEqual({ 'date-parts': [[2003, 7]] });
  });

  it('adds, reorders and removes creators, as author or editor', async () => {
    await page.getByRole('button', { name: 'Add creator' }).click();
    await page.getByLabel('Family name').nth(1).fill('Carver');
    await page.getByLabel('Given name').nth(1).fill('Cy');
    // Names are saved when focus leaves the creators.
    await page.getByLabel('New tag').focus();
    await expect
      .poll(async () =>
        (
          await invoke<{ csl: { author?: { family: string }[] } }>('library.item.get', { id: ids.plain })
        ).csl.author?.map((a) => a.family),
      )
      .toEqual(['Baker', 'Carver']);
    await page.getByRole('button', { name: 'Move Cy Carver up' }).click();
    await expect
      .poll(async () =>
        (
          await invoke<{ csl: { author?: { family: string }[] } }>('library.item.get', { id: ids.plain })
        ).csl.author?.map((a) => a.family),
      )
      .toEqual(['Carver', 'Baker']);
    await page.getByLabel('Role of Bo Baker').selectOption('editor');
    await expect
      .poll(async () =>
        (
          await invoke<{ csl: { editor?: { family: string }[] } }>('library.item.get', { id: ids.plain })
        ).csl.editor?.map((a) => a.family),
      )
      .toEqual(['Baker']);
    await page.getByRole('button', { name: 'Remove Cy Carver' }).click();
    await expect
      .poll(
        async () => (await invoke<{ csl: { author?: unknown[] } }>('library.item.get', { id: ids.plain })).csl.author,
      )
      .toBeUndefined();
  });

  it('shows a key conflict inline, then regenerates the key', async () => {
    const other = await invoke<{ citationKey: string }>('library.item.get', { id: ids.hostile });
    const key = page.getByRole('textbox', { name: 'Citation key' });
    await key.fill(other.citationKey);
    await key.press('Enter');
    await expect.poll(() => shownText(page.getByTestId('key-error'))).toContain('already the key of another item');
    expect(await key.getAttribute('aria-invalid')).toBe('true');
    await key.fill('baker-new');
    await key.press('Enter');
    await expect
      .poll(async () => (await invoke<{ citationKey: string }>('library.item.get', { id: ids.plain })).citationKey)
      .toBe('baker-new');
    expect(await page.getByTestId('key-error').count()).toBe(0);
    await page.getByRole('button', { name: 'Regenerate' }).click();
    await expect
      .poll(async () => (await invoke<{ citationKey: string }>('library.item.get', { id: ids.plain })).citationKey)
      .not.toBe('baker-new');
  });

  it('adds and removes tags, and adds, edits and deletes notes', async () => {
    await page.getByLabel('New tag').fill('to-read');
    await page.getByLabel('New tag').press('Enter');
    await expect.poll(() => shownText(page.getByTestId('tags'))).toContain('to-read');
    await page.getByLabel('New note').fill('First thought <b>not bold</b>');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect.poll(() => page.getByTestId('notes').textContent()).toContain('First thought <b>not bold</b>');
    await page.getByTestId('notes').getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Edit note').fill('Second thought');
    await page.getByTestId('notes').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('notes').textContent()).toContain('Second thought');
    await screenshot(page, 'details-edit-light');
    await page.getByTestId('notes').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('notes').count()).toBe(0);
    await page.getByRole('button', { name: 'Remove tag to-read' }).click();
    await expect.poll(() => page.getByTestId('tags').count()).toBe(0);
  });

  it('writes a rich note with the keyboard, cites an item that opens on click, finds it and undoes an edit', async () => {
    await show(ids.plain!);
    const box = page.getByRole('textbox', { name: 'New note' });
    await box.click();
    await page.keyboard.type('Reading ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('ribosome');
    await page.keyboard.press('Control+b');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+Shift+8');
    await page.keyboard.type('first point');
    await page.getByRole('button', { name: 'Add note' }).click();
    const noteOf = async () =>
      (await invoke<{ notes: { id: number; body: string }[] }>('library.item.get', { id: ids.plain })).notes;
    await expect.poll(async () => (await noteOf())[0]?.body ?? '').toContain('<strong>ribosome</strong>');
    const [note] = await noteOf();
    expect(note!.body).toContain('<ul><li>first point</li></ul>');
    const notes = page.getByTestId('notes');
    expect(await shownText(notes.locator('strong'))).toBe('ribosome');
    // Found by its words, not its markup.
    const found = async (query: string) =>
      (await invoke<{ rows: { id: number }[] }>('library.list', { query, limit: 10 })).rows.map((r) => r.id);
    expect(await found('note:ribosome')).toEqual([ids.plain]);
    expect(await found('note:strong')).toEqual([]);

    // Cite another item from the editor's picker; the edit saves when the editor is left.
    await notes.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Edit note' }).click();
    await page.keyboard.press('End');
    await notes.getByRole('button', { name: 'Cite…' }).click();
    await page.getByRole('combobox', { name: 'Cite an item: title, author or key' }).fill('Payload');
    await page.getByRole('listbox', { name: 'Items to cite' }).getByRole('option').first().waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('notes').getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await noteOf())[0]?.body ?? '').toContain(`<cite data-item="${ids.hostile}">`);
    await screenshot(page, 'details-rich-note-light');
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => (window as unknown as HarnessWindow).__harness.theme('dark'));
    await screenshot(page, 'details-rich-note-dark');
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => (window as unknown as HarnessWindow).__harness.theme('light'));
    // The citation opens the item it cites.
    await notes.getByTitle('Show the cited item').click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as HarnessWindow).__harness.calls))
      .toContainEqual(['open', ids.hostile]);
    // The harness's record of calls is shared with the tests after this one.
    await page.evaluate(() => (window as unknown as HarnessWindow).__harness.calls.splice(0));
    // The edit is one step of the library's undo log: undone, the note is as it was written.
    await invoke('library.undo', {});
    await expect.poll(async () => (await noteOf())[0]?.body).toBe(note!.body);
    await invoke('library.notes.delete', { id: note!.id });
  });

  it('follows library.changed for the item shown (an edit from elsewhere)', async () => {
    const item = await invoke<{ csl: Record<string, unknown> }>('library.item.get', { id: ids.plain });
    await invoke('library.item.update', { id: ids.plain, csl: { ...item.csl, title: 'Renamed Elsewhere' } });
    await expect.poll(() => shownText(page.getByTestId('details-title'))).toBe('Renamed Elsewhere');
  });

  it('copies the citation as rich and plain text, and the key', async () => {
    await page.getByTestId('copy-citation').click();
    await expect.poll(() => shownText(page.getByTestId('details-notice'))).toContain('Citation copied');
    const copied = await page.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      return { types: item!.types, text: await (await item!.getType('text/plain')).text() };
    });
    expect(copied.types).toEqual(expect.arrayContaining(['text/html', 'text/plain']));
    expect(copied.text).toContain('Renamed Elsewhere');
    await page.getByRole('button', { name: 'Copy key' }).click();
    const key = (await invoke<{ citationKey: string }>('library.item.get', { id: ids.plain })).citationKey;
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  });

  it('shows a retraction banner, the notices, the tally with its age and the citation statements, paged', async () => {
    await show(ids.retracted!);
    await expect.poll(() => shownText(page.getByTestId('notice-banner'))).toContain('retracted');
    await page.getByTestId('notices').waitFor();
    expect(await shownText(page.getByTestId('notices'))).toContain('Retracted');
    const tally = page.getByTestId('tally');
    expect(await tally.getAttribute('data-state')).toBe('found');
    expect(await shownText(page.getByTestId('tally-age'))).toMatch(/Updated (just now|\d+ \w+ ago)/);
    await expect.poll(() => page.getByTestId('statement').count()).toBe(10);
    expect(await shownText(page.getByTestId('statements-range'))).toMatch(/^1–10 of \d+$/);
    const link = page.getByTestId('doi-link');
    expect(await link.getAttribute('href')).toBe(`https://doi.org/${dois.retracted}`);
    expect(await link.getAttribute('rel')).toContain('noopener');
    await screenshot(page, 'details-retracted-light');
    await page.getByTestId('statements').scrollIntoViewIfNeeded();
    await screenshot(page, 'details-statements-light');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => shownText(page.getByTestId('statements-range'))).toMatch(/^11–/);
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => (window as unknown as HarnessWindow).__harness.theme('dark'));
    await page.getByTestId('item-details').evaluate((el) => (el.parentElement!.scrollTop = 0));
    await screenshot(page, 'details-retracted-dark');
    await page.getByTestId('statements').scrollIntoViewIfNeeded();
    await screenshot(page, 'details-statements-dark');
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => (window as unknown as HarnessWindow).__harness.theme('light'));
  });

  it('shows an expression of concern as its own banner, and hands the item to the graph and the assistant', async () => {
    await show(ids.concern!);
    await expect.poll(() => shownText(page.getByTestId('notice-banner'))).toContain('Expression of concern');
    await page.getByRole('button', { name: 'Citation graph' }).click();
    await page.getByRole('button', { name: 'Ask the assistant' }).click();
    expect(await page.evaluate(() => (window as unknown as HarnessWindow).__harness.calls)).toEqual([
      ['graph', ids.concern],
      ['ask', ids.concern],
    ]);
  });

  it('says calmly when the service is unreachable, and keeps showing the library data', async () => {
    await service.close();
    serviceClosed = true;
    await page.getByTestId('refresh').click();
    await expect
      .poll(() => shownText(page.getByTestId('service-message')), { timeout: 30_000 })
      .toMatch(/Offline|Could not load/);
    expect(await shownText(page.getByTestId('details-title'))).not.toBe('');
    expect(await page.getByLabel('Volume', { exact: true }).inputValue()).not.toBe('');
    await screenshot(page, 'details-offline-light');
  });

  it('leaves no event listener behind when the column goes away', async () => {
    expect(
      await page.evaluate(() => (window as unknown as HarnessWindow).__harness.api.listenerCount()),
    ).toBeGreaterThan(0);
    await page.evaluate(() => (window as unknown as HarnessWindow).__harness.clear());
    expect(await page.evaluate(() => (window as unknown as HarnessWindow).__harness.api.listenerCount())).toBe(0);
  });

  it('ran no injected script and logged no console errors', async () => {
    expect(await page.evaluate(() => (window as unknown as HarnessWindow).__pwned)).toBeUndefined();
    // The offline step makes the browser log failed requests of its own; nothing else may appear.
    expect(problems.errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(e))).toEqual([]);
  });
});
