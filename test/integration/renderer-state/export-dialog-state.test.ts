// The Export dialog's state (renderer/src/panes/library/export/export-dialog.svelte.ts) in Node against
// a real in-process core: the preview follows format and style, and Save and Copy stay usable while a
// new preview loads. CI once clicked Save in the 120 ms between a format change and the next preview,
// when the buttons went disabled for the reload, and no file came.
import { beforeAll, describe, expect, it } from 'vitest';
import type { CitewiseApi } from '../../../shared/ipc';
import { ExportDialogState } from '../../../renderer/src/panes/library/export/export-dialog.svelte';
import { coreForTests, offlineCore, seed } from './helpers';

const BIB = `@article{doe2020, title = {Alpha paper}, author = {Doe, Jane}, journal = {Journal of Tests}, year = 2020}
@article{roe2021, title = {Beta paper}, author = {Roe, Rick}, journal = {Journal of Tests}, year = 2021}
@book{poe2019, title = {Gamma book}, author = {Poe, Paula}, publisher = {Press}, year = 2019}
`;

let api: CitewiseApi;

const env = coreForTests(() => offlineCore('export-state'));

beforeAll(async () => {
  api = env.t.api;
  await seed(api, BIB);
});

describe('ExportDialogState against the core', () => {
  it("keeps the scope's count while the preview of another format loads, so Save and Copy stay usable", async () => {
    const dialog = new ExportDialogState(api, { kind: 'library' });
    expect(dialog.total).toBeNull();
    await dialog.refresh();
    expect(dialog.format).toBe('bibtex');
    expect(dialog.total).toBe(3);
    expect(dialog.previewText).toContain('@article{doe2020,');

    // A data file to a bibliography: the old text must not be shown as the new kind while it loads…
    dialog.format = 'text';
    const loading = dialog.refresh();
    expect(dialog.preview).toBeNull();
    expect(dialog.loading).toBe(true);
    // …but the count the buttons rest on is the scope's, which the format does not change.
    expect(dialog.total).toBe(3);
    const out = await dialog.output();
    expect(out?.items).toBe(3);
    expect(out?.extension).toBe('txt');
    expect(out?.content).toContain('Alpha paper');
    await loading;
    expect(dialog.bibliography).toBe(true);
    expect(dialog.total).toBe(3);
  });

  it('says 0 for an empty scope, and the buttons have nothing to export', async () => {
    const dialog = new ExportDialogState(api, { kind: 'query', query: 'author:nobodyatall' });
    await dialog.refresh();
    expect(dialog.error).toBeNull();
    expect(dialog.total).toBe(0);
  });
});
