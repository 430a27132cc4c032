// The Journals & Authors pane's state (renderer/src/panes/journals/journals.svelte.ts) in Node against
// a real in-process core and the local test service: an ISSN refused before anything is asked, the
// journal asked last is the one shown, an author by slug or by name, paging and adding papers.
import { describe, expect, it } from 'vitest';
import { JournalsState } from '../../../renderer/src/panes/journals/journals.svelte';
import { coreForTests, enrichmentSettled, onlineCore } from './helpers';

const env = coreForTests(() => onlineCore('journals'));

function busiestAuthor(): { slug: string; given: string; family: string; papers: number } {
  return env.t.svc.corpus.db
    .prepare(
      'SELECT a.slug, a.given, a.family, count(*) AS papers FROM authors a JOIN paper_authors pa ON pa.author_id = a.id GROUP BY a.id ORDER BY papers DESC, a.id LIMIT 1',
    )
    .get() as { slug: string; given: string; family: string; papers: number };
}

describe('JournalsState: journals', () => {
  it('refuses what is not an ISSN, saying what was typed, without asking', async () => {
    const state = new JournalsState(env.t.api);
    await state.openJournal(' 1234-567 ');
    expect(state.journalError?.code).toBe('INVALID_INPUT');
    expect(state.journalError?.message).toMatch(/^“1234-567” is not an ISSN\./);
    expect(state.journalLoading).toBe(false);
    expect(state.journal).toBeNull();
  });

  it('shows the journal asked for last when an earlier answer comes after it', async () => {
    const [a, b] = (
      env.t.svc.corpus.db.prepare('SELECT issn_print FROM journals ORDER BY id LIMIT 2').all() as {
        issn_print: string;
      }[]
    ).map((j) => j.issn_print);
    const state = new JournalsState(env.net.api);
    const release = env.net.hold('journals.get');
    const first = state.openJournal(a!);
    await state.openJournal(b!);
    expect(state.journal?.issn).toBe(b);
    release();
    await first;
    expect(state.issnInput).toBe(b);
    expect(state.journal?.issn).toBe(b);
    expect(state.journalLoading).toBe(false);
  });
});

describe('JournalsState: authors', () => {
  it('opens an author by slug and pages through their papers', async () => {
    const author = busiestAuthor();
    expect(author.papers).toBeGreaterThan(25);
    const state = new JournalsState(env.t.api);
    await state.findAuthor(author.slug);
    expect(state.authorError).toBeNull();
    expect(state.tab).toBe('author');
    expect(state.papers).toHaveLength(25);
    expect(state.hasMorePapers).toBe(true);
    await state.morePapers();
    expect(state.papers.length).toBe(Math.min(author.papers, 50));
    expect(new Set(state.papers.map((p) => p.doi)).size).toBe(state.papers.length);
    expect(state.authorLoading).toBe(false);
  });

  it('shows the author opened last when an earlier answer comes after it', async () => {
    const [a, b] = (
      env.t.svc.corpus.db.prepare('SELECT slug FROM authors ORDER BY id LIMIT 2').all() as { slug: string }[]
    ).map((x) => x.slug);
    const state = new JournalsState(env.net.api);
    const release = env.net.hold('authors.page');
    const first = state.openAuthor(a!);
    expect(await state.openAuthor(b!)).toBe(true);
    release();
    await first;
    expect(state.author?.author.nameSlug).toBe(b);
    expect(state.authorLoading).toBe(false);
  });

  it('finds an author by name through the search, and says when no author has that name', async () => {
    const author = busiestAuthor();
    const state = new JournalsState(env.t.api);
    await state.findAuthor(`${author.given} ${author.family}`);
    expect(state.authorError).toBeNull();
    // One author of that name is opened at once; several are listed to choose from.
    if (state.candidates === null) expect(state.author?.author.nameSlug).toBe(author.slug);
    else expect(state.candidates.map((c) => c.slug)).toContain(author.slug);

    // Looks like a slug, is none, and no paper has an author of that name either.
    await state.findAuthor('Zyxw-Qqqv');
    expect(state.authorError).toEqual({
      code: 'NOT_FOUND',
      message: 'No author named “Zyxw-Qqqv” on the service’s papers.',
    });
    expect(state.authorLoading).toBe(false);
  });

  it("adds an author's papers once, and says how many", async () => {
    const state = new JournalsState(env.t.api);
    await state.openAuthor(busiestAuthor().slug);
    const dois = state.papers.slice(0, 3).map((p) => p.doi!);
    await state.addPapers(dois);
    expect(state.authorError).toBeNull();
    expect(state.addMessage).toBe('Added 3 papers to your library.');
    expect(dois.every((d) => state.inLibrary.has(d.toLowerCase()))).toBe(true);
    expect(state.adding.size).toBe(0);
    // Already there: nothing is asked, the message stays.
    await state.addPapers(dois);
    expect(state.addMessage).toBe('Added 3 papers to your library.');
    await enrichmentSettled(env.t.api);
  });
});
