// The Styles browser's state (renderer/src/panes/settings/styles-browser.svelte.ts) in Node against a
// real in-process core over the collection npm run build writes: the preview formats at most 20 of the
// selected items (the request's own limit; below, at and above it), the list holds the first 100
// matches with the count of all (below, at and above), the highlight stays on its style across an
// install, and a stale search answer is dropped.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CitewiseApi } from '../../../shared/ipc';
import {
  PREVIEW_ITEMS,
  RESULTS_LIMIT,
  StylesBrowserState,
} from '../../../renderer/src/panes/settings/styles-browser.svelte';
import { coreForTests, offlineCore, seed } from './helpers';

const COLLECTION = join(__dirname, '../../../out/csl-collection');
const have = existsSync(join(COLLECTION, 'index.json'));

const BIB = Array.from(
  { length: 22 },
  (_, i) => `@article{a${i}, title = {Paper ${i}}, author = {Doe${i}, Jane}, journal = {J}, year = ${2000 + i}}`,
).join('\n');

let api: CitewiseApi;
const env = coreForTests(() => offlineCore('styles-browser', { styleCollectionDir: COLLECTION }));

/** The api, recording the preview requests' ids. */
function recording(): { api: CitewiseApi; previews: number[][] } {
  const previews: number[][] = [];
  const wrapped: CitewiseApi = {
    ...api,
    invoke: ((channel: string, input: unknown) => {
      if (channel === 'styles.collection.preview') previews.push((input as { ids: number[] }).ids);
      return (api.invoke as (c: string, i: unknown) => unknown)(channel, input);
    }) as CitewiseApi['invoke'],
  };
  return { api: wrapped, previews };
}

describe.skipIf(!have)('StylesBrowserState against the core', () => {
  let ids: number[] = [];
  beforeAll(async () => {
    api = env.t.api;
    ids = Object.values(await seed(api, BIB)).map((r) => r.id);
    expect(ids.length).toBe(22);
  }, 60_000);

  it('previews at most 20 selected items: 19, 20 and 21 selected', async () => {
    expect(PREVIEW_ITEMS).toBe(20);
    for (const [selected, sent] of [
      [19, 19],
      [20, 20],
      [21, 20],
    ] as const) {
      const r = recording();
      const browser = new StylesBrowserState(r.api, () => ids.slice(0, selected));
      browser.text = 'nature';
      await browser.search();
      await browser.loadPreview();
      expect(r.previews.at(-1)!.length).toBe(sent);
      expect(browser.previewError).toBe('');
      expect(browser.preview?.sample).toBe(false);
    }
    // Nothing selected: the sample items.
    const none = new StylesBrowserState(api, () => []);
    await none.search();
    await none.loadPreview();
    expect(none.preview?.sample).toBe(true);
  }, 60_000);

  it('lists the first 100 matches and counts them all', async () => {
    expect(RESULTS_LIMIT).toBe(100);
    const browser = new StylesBrowserState(api, () => []);
    await browser.search();
    expect(browser.results.length).toBe(RESULTS_LIMIT);
    expect(browser.page!.matched).toBeGreaterThan(RESULTS_LIMIT);
    browser.text = 'nature';
    await browser.search();
    expect(browser.page!.matched).toBeLessThan(RESULTS_LIMIT);
    expect(browser.results.length).toBe(browser.page!.matched);
    // The highlight is clamped to the list at both ends.
    browser.move(-1);
    expect(browser.active).toBe(0);
    browser.move(10_000);
    expect(browser.active).toBe(browser.results.length - 1);
  });

  it('keeps the highlight on the style installed, and drops a search answer overtaken by a newer one', async () => {
    const browser = new StylesBrowserState(api, () => []);
    browser.text = 'nature';
    await browser.search();
    browser.move(2);
    const style = browser.current!;
    expect(await browser.install(style)).toBe(style.name);
    expect(browser.current?.name).toBe(style.name);
    expect(browser.current?.installed).toBe(true);
    expect(browser.chosen).toBe(style.name);
    expect(await browser.remove(browser.current!)).toBe(true);
    expect(browser.current?.installed).toBe(false);

    browser.text = 'a';
    const older = browser.search();
    browser.text = 'physical review';
    const newer = browser.search();
    await Promise.all([older, newer]);
    const direct = await api.invoke('styles.collection.search', { text: 'physical review', limit: 100 });
    if (!direct.ok) throw new Error(direct.error.message);
    expect(browser.results.map((s) => s.name)).toEqual(direct.value.styles.map((s) => s.name));
    expect(browser.page!.matched).not.toBe(browser.page!.total);
  });
});
