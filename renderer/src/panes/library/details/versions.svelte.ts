// The details column's preprint and published versions of the item: what the library's service cache
// links (shown at once, offline too), then, when a linked paper is known by its DOI only, named from
// the service in the background. Adding a published version goes through add-by-DOI (metadata from
// the service, enriched like any added item); merging is the Library's merge, one undo step.
import type { AddDoisReport, CitewiseApi, IpcError } from '../../../../../shared/ipc';
import type { PaperVersions } from '../../../../../shared/model/paper-versions';

/** One sentence for what add-by-DOI did with the published version's DOI. */
export function addOutcome(report: AddDoisReport, doi: string): string {
  if (report.added.some((a) => a.doi === doi)) return `Added the published version (${doi}) to the library.`;
  if (report.queued.some((q) => q.doi === doi))
    return `The citation service could not be reached: ${doi} was added as a placeholder, completed when the service is back.`;
  if (report.duplicates.some((d) => d.doi === doi))
    return `${doi} is already in the library (look in the Trash if it is not listed).`;
  const refused = report.notAdded.find((n) => n.doi === doi);
  return refused ? `Could not add ${doi}: ${refused.reason}.` : `Could not add ${doi}.`;
}

export class VersionsState {
  readonly #api: CitewiseApi;
  #versions = $state.raw<PaperVersions | null>(null);
  /** The DOI an add or merge is running for. */
  #busy = $state<string | null>(null);
  #message = $state('');
  #error = $state<IpcError | null>(null);
  #id: number | null = null;
  #generation = 0;
  /** Items whose unnamed versions were already asked of the service (once per item while shown). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, not shown
  #asked = new Set<number>();

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get versions() {
    return this.#versions;
  }
  get busy() {
    return this.#busy;
  }
  get message() {
    return this.#message;
  }
  get error() {
    return this.#error;
  }

  /** Loads the item's versions from the library (null: none shown); names unnamed ones from the service once. */
  async load(id: number | null): Promise<void> {
    if (id !== this.#id) {
      this.#id = id;
      this.#versions = null;
      this.#message = '';
      this.#error = null;
    }
    const gen = ++this.#generation;
    if (id === null) return;
    const stored = await this.#api.invoke('library.item.versions', { id });
    if (gen !== this.#generation) return;
    if (!stored.ok) {
      // The item went away (merged, deleted): there is nothing to say about its versions.
      this.#versions = null;
      if (stored.error.code !== 'NOT_FOUND') this.#error = stored.error;
      return;
    }
    this.#versions = stored.value;
    const unnamed = [...stored.value.published, ...stored.value.preprints].some(
      (v) => v.itemId === null && v.title === null,
    );
    if (!unnamed || this.#asked.has(id)) return;
    this.#asked.add(id);
    const named = await this.#api.invoke('library.item.versions', { id, fetch: true });
    // Offline or refused: what is stored stays shown, without a word (the DOI is still named).
    if (!named.ok || id !== this.#id) return;
    if (gen === this.#generation) this.#versions = named.value;
    // A newer load (the item was saved meanwhile) showed the links before the names came: read them again.
    else await this.load(id);
  }

  /** Adds a published version by its DOI, then shows the item's versions again (now with the added item). */
  async add(doi: string): Promise<void> {
    const id = this.#id;
    if (id === null || this.#busy) return;
    this.#busy = doi;
    this.#error = null;
    try {
      const result = await this.#api.invoke('library.addDois', { dois: [doi] });
      if (!result.ok) this.#error = result.error;
      else this.#message = addOutcome(result.value, doi);
      if (id === this.#id) await this.load(id);
    } finally {
      this.#busy = null;
    }
  }

  /** Runs a merge the caller makes (the Library's, with its Undo), showing it as busy meanwhile. */
  async merge(doi: string, run: () => Promise<unknown>): Promise<void> {
    if (this.#busy) return;
    this.#busy = doi;
    try {
      await run();
    } finally {
      this.#busy = null;
    }
  }
}
