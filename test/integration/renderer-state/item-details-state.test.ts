// The details column's state (renderer/src/panes/library/details/item-details.svelte.ts) in Node
// against a real in-process core: what an unreachable service leaves (calm messages, no spinner
// left on), edits with their one Undo, a key that clashes, and answers for an item no longer shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryRow } from '../../../shared/model/library';
import { ItemDetailsState, serviceMessage } from '../../../renderer/src/panes/library/details/item-details.svelte';
import { coreForTests, offlineCore, onlineCore, seed, until } from './helpers';

const BIB = `@article{doe2020, title = {Alpha paper}, author = {Doe, Jane}, year = 2020, doi = {10.1234/alpha}}
@article{roe2021, title = {Beta paper}, author = {Roe, Rick}, year = 2021}
@book{poe2019, title = {Gamma book}, author = {Poe, Paula}, year = 2019}
`;

describe('ItemDetailsState, offline', () => {
  let rows: Record<string, LibraryRow>;
  let state: ItemDetailsState;
  let stop: () => void;

  const env = coreForTests(() => offlineCore('details'));

  beforeAll(async () => {
    rows = await seed(env.t.api, BIB);
    state = new ItemDetailsState(env.t.api);
    stop = state.start();
  });

  afterAll(async () => {
    stop?.();
  });

  it('shows the item from the library and says calmly that the service could not be reached', async () => {
    await state.show(rows.doe2020!.id);
    expect(state.item?.title).toBe('Alpha paper');
    expect(state.doi).toBe('10.1234/alpha');
    expect(state.loading).toBe(false);
    await until(() => !state.serviceLoading && state.serviceError !== null, 'the refresh to fail');
    expect(state.serviceError).toMatch(
      /^Offline: editorial notices and citation evidence will load when the citation service can be reached/,
    );
    await until(() => !state.statementsLoading && state.statementsError !== null, 'the statements to fail');
    expect(state.statementsError).toMatch(/^Offline: citation statements will load/);
    expect(state.error).toBeNull();
  });

  it('leaves no refresh spinner on when the item changes while the service is being asked', async () => {
    await state.show(null);
    await state.show(rows.doe2020!.id);
    // The refresh of the first item is under way (asked without waiting, in show)…
    expect(state.serviceLoading).toBe(true);
    // …and another item, without a DOI (nothing to refresh), is shown before it answers.
    await state.show(rows.roe2021!.id);
    expect(state.item?.title).toBe('Beta paper');
    await new Promise((r) => setTimeout(r, 300));
    await env.t.api.invoke('library.item.refresh', { id: rows.doe2020!.id }); // the first item's answer has surely come by now
    expect(state.serviceLoading).toBe(false);
    expect(state.statementsLoading).toBe(false);
    expect(state.serviceError).toBeNull();
  });

  it('shows the last item asked for when two are shown in quick succession', async () => {
    const first = state.show(rows.poe2019!.id);
    const second = state.show(rows.roe2021!.id);
    await Promise.all([first, second]);
    expect(state.id).toBe(rows.roe2021!.id);
    expect(state.item?.title).toBe('Beta paper');
  });

  it('saves a field as one undo step, offers that Undo, and undoes only it', async () => {
    await state.show(rows.poe2019!.id);
    await state.saveField('title', 'Gamma book, revised', 'Title');
    expect(state.error).toBeNull();
    expect(state.saving).toBe('');
    expect(state.item?.title).toBe('Gamma book, revised');
    expect(state.undoLabel).toMatch(/^Edit title/);

    // The same text again is no change: no step, the offer stays.
    await state.saveField('title', 'Gamma book, revised', 'Title');
    expect(state.undoLabel).toMatch(/^Edit title/);

    await state.undo();
    expect(state.notice).toMatch(/^Undone: Edit title/);
    expect(state.item?.title).toBe('Gamma book');
    expect(state.undoLabel).toBeNull();
  });

  it('withdraws the Undo once another change comes after it, and then undoes nothing', async () => {
    await state.addTag('to-read');
    await until(() => state.item?.tags.includes('to-read') === true, 'the tag');
    expect(state.undoLabel).not.toBeNull();
    // A change made elsewhere (another pane, the CLI) becomes the step undo would revert.
    const other = await env.t.api.invoke('library.tags.add', { ids: [rows.doe2020!.id], tags: ['elsewhere'] });
    expect(other.ok).toBe(true);
    await until(() => state.undoLabel === null, 'the offer to go stale');
    await state.undo();
    const item = await env.t.api.invoke('library.item.get', { id: rows.poe2019!.id });
    expect(item.ok && item.value.tags).toContain('to-read');
  });

  it('says which key clashes, and keeps the item as it was', async () => {
    expect(await state.setKey('doe2020')).toBe(false);
    expect(state.keyError).toBe('“doe2020” is already the key of another item.');
    expect(state.item?.citationKey).toBe('poe2019');
    expect(await state.setKey('poe2019')).toBe(true); // unchanged: nothing to do
    expect(await state.setKey('poe2019b')).toBe(true);
    expect(state.keyError).toBeNull();
    expect(state.item?.citationKey).toBe('poe2019b');
    expect(state.undoLabel).not.toBeNull();
  });

  it('keeps a refusal from the core as its error and clears the saving flag', async () => {
    expect(await state.addNote('   ')).toBe(false);
    expect(await state.updateNote(999_999, 'A note that is not there')).toBe(false);
    expect(state.error?.code).toBe('NOT_FOUND');
    expect(state.saving).toBe('');
    state.dismissError();
    expect(state.error).toBeNull();
    expect(await state.addNote('Read the methods.')).toBe(true);
    expect(state.item?.notes.map((n) => n.text)).toEqual(['Read the methods.']);
  });
});

describe('serviceMessage', () => {
  it('names what needs a key, and what the service does not have', () => {
    expect(serviceMessage({ code: 'FORBIDDEN', message: 'x' }, 'citation statements')).toBe(
      'Citation statements need an API key with access to them (Settings → Citation service).',
    );
    expect(serviceMessage({ code: 'NOT_FOUND', message: 'x' }, 'citation statements')).toBe(
      'The citation service has no citation statements for this DOI.',
    );
    expect(serviceMessage({ code: 'SERVICE_ERROR', message: 'HTTP 500' }, 'citation statements')).toBe(
      'Could not load citation statements from the citation service (HTTP 500).',
    );
  });
});

describe('ItemDetailsState, online', () => {
  it('fetches the paper into the library and pages its citation statements', async () => {
    const t = await onlineCore('details-online');
    try {
      const doi = (
        t.svc.corpus.db
          .prepare(
            'SELECT p.doi FROM papers p WHERE (SELECT count(*) FROM citations c WHERE c.target = p.id) > 12 ORDER BY p.id LIMIT 1',
          )
          .get() as { doi: string }
      ).doi;
      const added = await t.api.invoke('library.addDois', { dois: [doi] });
      if (!added.ok) throw new Error(added.error.message);
      const state = new ItemDetailsState(t.api);
      const stop = state.start();
      try {
        await state.show(added.value.added[0]!.id);
        await until(
          () => state.statements !== null && !state.serviceLoading && !state.statementsLoading,
          'the statements',
        );
        expect(state.serviceError).toBeNull();
        expect(state.paper?.doi).toBe(doi);
        expect(state.statements!.citations.length).toBeGreaterThan(0);
        expect(state.statements!.citations.length).toBeLessThanOrEqual(10);
        await state.loadStatements(10);
        expect(state.statements?.offset).toBe(10);
        expect(state.statementsError).toBeNull();
      } finally {
        stop();
      }
    } finally {
      await t.close();
    }
  });
});
