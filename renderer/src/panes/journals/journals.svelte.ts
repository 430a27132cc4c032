// The Journals & Authors pane: a journal by ISSN, an author by slug (or found by name through the
// search), and the journals the library cites. The Library's item details open a journal or an author
// here (openJournal / openAuthor), which is why this state lives beyond the pane.
import type { AuthorPage, CitewiseApi, IpcError, JournalView, LibraryJournals } from '../../../../shared/ipc';
import { parseIssn } from '../../../../shared/model/doi';
import type { UiPaper } from '../../../../shared/model/service';
import { setOf, uniqueBy, without } from '../collections/paper-row';

export type JournalsTab = 'journal' | 'author' | 'library';
const AUTHOR_PAGE = 25;
/** A slug as the service makes them: lower-case words joined by hyphens, ending in a short suffix. */
const SLUG = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+$/;

export interface AuthorCandidate {
  name: string;
  slug: string;
  affiliation: string | undefined;
}

export class JournalsState {
  readonly api: CitewiseApi;
  tab = $state<JournalsTab>('journal');
  issnInput = $state('');
  authorInput = $state('');
  #journal = $state.raw<JournalView | null>(null);
  #journalLoading = $state(false);
  #journalError = $state.raw<IpcError | null>(null);
  #library = $state.raw<LibraryJournals | null>(null);
  #libraryLoading = $state(false);
  #libraryError = $state.raw<IpcError | null>(null);
  #author = $state.raw<AuthorPage | null>(null);
  #papers = $state.raw<UiPaper[]>([]);
  #inLibrary = $state.raw<ReadonlySet<string>>(setOf());
  #adding = $state.raw<ReadonlySet<string>>(setOf());
  #authorLoading = $state(false);
  #authorError = $state.raw<IpcError | null>(null);
  #candidates = $state.raw<AuthorCandidate[] | null>(null);
  #addMessage = $state<string | null>(null);
  /** Bumped by every journal asked for, so a slower earlier answer does not replace the one asked last. */
  #journalSeq = 0;
  /** The same for the author page (opening one, or its next page). */
  #authorSeq = 0;

  constructor(api: CitewiseApi) {
    this.api = api;
  }

  get journal() {
    return this.#journal;
  }
  get journalLoading() {
    return this.#journalLoading;
  }
  get journalError() {
    return this.#journalError;
  }
  get library() {
    return this.#library;
  }
  get libraryLoading() {
    return this.#libraryLoading;
  }
  get libraryError() {
    return this.#libraryError;
  }
  get author() {
    return this.#author;
  }
  get papers() {
    return this.#papers;
  }
  get inLibrary() {
    return this.#inLibrary;
  }
  get adding() {
    return this.#adding;
  }
  get authorLoading() {
    return this.#authorLoading;
  }
  get authorError() {
    return this.#authorError;
  }
  get candidates() {
    return this.#candidates;
  }
  get addMessage() {
    return this.#addMessage;
  }
  get hasMorePapers() {
    return !!this.#author?.next;
  }

  /** Shows a journal (from the cache unless stale); `refresh` asks the service again. */
  async openJournal(issn: string, refresh = false): Promise<void> {
    this.tab = 'journal';
    this.issnInput = issn;
    const seq = ++this.#journalSeq;
    const parsed = parseIssn(issn);
    if (!parsed.ok) {
      this.#journalError = { code: 'INVALID_INPUT', message: `“${issn.trim()}” is not an ISSN. ${parsed.reason}` };
      return;
    }
    this.#journalLoading = true;
    this.#journalError = null;
    try {
      const r = await this.api.invoke('journals.get', { issn: parsed.issn, refresh });
      if (seq !== this.#journalSeq) return;
      if (r.ok) this.#journal = r.value;
      else this.#journalError = r.error;
    } finally {
      if (seq === this.#journalSeq) this.#journalLoading = false;
    }
  }

  async loadLibrary(refresh = false): Promise<void> {
    this.#libraryLoading = true;
    this.#libraryError = null;
    try {
      const r = await this.api.invoke('journals.library', { refresh });
      if (r.ok) this.#library = r.value;
      else this.#libraryError = r.error;
    } finally {
      this.#libraryLoading = false;
    }
  }

  /** A slug opens the author; a name is looked up through the search's author filter. */
  async findAuthor(input: string): Promise<void> {
    const text = input.trim();
    this.authorInput = text;
    this.#authorError = null;
    this.#candidates = null;
    if (text === '') return;
    // A hyphenated name (Jean-Luc) looks like a slug too: when no author has it, search by name.
    if (SLUG.test(text) && (await this.openAuthor(text))) return;
    this.#authorError = null;
    this.#authorLoading = true;
    try {
      const r = await this.api.invoke('service.search', { author: text, limit: 50, mode: 'papers' });
      if (!r.ok) {
        this.#authorError = r.error;
        return;
      }
      const words = text.toLowerCase().split(/\s+/);
      const named = r.value.hits.flatMap((hit) =>
        (hit.authors ?? []).flatMap((a): AuthorCandidate[] => {
          const name = a.authorName ?? '';
          return a.authorSlug && words.every((w) => name.toLowerCase().includes(w))
            ? [{ name, slug: a.authorSlug, affiliation: a.affiliation }]
            : [];
        }),
      );
      this.#candidates = uniqueBy(named, (c) => c.slug);
      if (this.#candidates.length === 1) await this.openAuthor(this.#candidates[0]!.slug);
      else if (this.#candidates.length === 0)
        this.#authorError = { code: 'NOT_FOUND', message: `No author named “${text}” on the service’s papers.` };
    } finally {
      this.#authorLoading = false;
    }
  }

  /** Opens an author by slug; false when the service has none (true when another author was opened meanwhile). */
  async openAuthor(slug: string): Promise<boolean> {
    this.tab = 'author';
    this.#authorLoading = true;
    this.#authorError = null;
    this.#addMessage = null;
    const seq = ++this.#authorSeq;
    try {
      const r = await this.api.invoke('authors.page', { slug, offset: 0, limit: AUTHOR_PAGE });
      if (seq !== this.#authorSeq) return true;
      if (!r.ok) {
        this.#authorError =
          r.error.code === 'NOT_FOUND' ? { ...r.error, message: `The service has no author “${slug}”.` } : r.error;
        return false;
      }
      this.#author = r.value;
      this.#papers = r.value.papers;
      this.#inLibrary = setOf(r.value.inLibrary);
      this.#candidates = null;
      if (!this.authorInput) this.authorInput = slug;
      return true;
    } finally {
      if (seq === this.#authorSeq) this.#authorLoading = false;
    }
  }

  /** The next page, where the service's nextPage link points. */
  async morePapers(): Promise<void> {
    const a = this.#author;
    if (!a?.next) return;
    this.#authorLoading = true;
    const seq = ++this.#authorSeq;
    try {
      const r = await this.api.invoke('authors.page', {
        slug: a.author.nameSlug,
        offset: a.next.offset,
        limit: Math.min(a.next.limit ?? AUTHOR_PAGE, 50),
      });
      if (seq !== this.#authorSeq) return;
      if (!r.ok) {
        this.#authorError = r.error;
        return;
      }
      this.#author = r.value;
      this.#papers = [...this.#papers, ...r.value.papers];
      this.#inLibrary = setOf(this.#inLibrary, r.value.inLibrary);
    } finally {
      if (seq === this.#authorSeq) this.#authorLoading = false;
    }
  }

  async addPapers(dois: string[]): Promise<void> {
    const todo = dois.filter((d) => d && !this.#inLibrary.has(d.toLowerCase()));
    if (todo.length === 0) return;
    this.#adding = setOf(this.#adding, todo);
    try {
      for (let i = 0; i < todo.length; i += 5000) {
        const r = await this.api.invoke('library.addDois', { dois: todo.slice(i, i + 5000) });
        if (!r.ok) {
          this.#authorError = r.error;
          return;
        }
        const added = [...r.value.added, ...r.value.queued, ...r.value.duplicates.map((d) => ({ doi: d.doi }))];
        this.#inLibrary = setOf(
          this.#inLibrary,
          added.map((x) => x.doi.toLowerCase()),
        );
        const n = r.value.added.length + r.value.queued.length;
        this.#addMessage = `Added ${n} ${n === 1 ? 'paper' : 'papers'} to your library${r.value.duplicates.length ? `, ${r.value.duplicates.length} already there` : ''}${r.value.notAdded.length ? `, ${r.value.notAdded.length} not added` : ''}.`;
      }
    } finally {
      this.#adding = without(this.#adding, todo);
    }
  }
}

const byApi = new WeakMap<CitewiseApi, JournalsState>();

export function journalsStateFor(api: CitewiseApi): JournalsState {
  let state = byApi.get(api);
  if (!state) {
    $effect.root(() => {
      state = new JournalsState(api);
    });
    byApi.set(api, state!);
  }
  return state!;
}
