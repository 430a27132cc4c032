// Files the user chose, by path, behind an opaque selection id: the desktop app's open dialog and its
// drops (the preload read the paths), and browser mode's uploads (the host server wrote each to a
// temporary file). The renderer names a file by selection and index and never sees, nor makes up, a
// path. An upload's temporary file is the core's own: it is deleted when its selection is released,
// pushed out by newer selections, or when the core closes.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { PdfSelection } from '../../shared/ipc';

/** Selections kept at once; an older one is forgotten (and its uploads deleted). */
export const MAX_SELECTIONS = 8;

interface Selection {
  paths: readonly string[];
  /** Names to show: the upload's own name (its temporary file has another), else the path's. */
  names: readonly string[];
  /** Uploads: their temporary files, deleted with the selection. */
  temporary: boolean;
}

export class ChosenFiles {
  readonly #selections = new Map<string, Selection>();
  #uploads: string | null = null;

  /** Keeps the paths the user chose (a dialog, a drop): a selection to name them by. */
  select(chosen: readonly string[]): PdfSelection {
    const paths = [...new Set(chosen)];
    return this.#keep({ paths, names: paths.map((p) => basename(p)), temporary: false });
  }

  /** A new temporary file for an upload named `name` (the host server writes it, then calls adoptUpload). */
  uploadPath(): string {
    if (this.#uploads === null) this.#uploads = mkdtempSync(join(tmpdir(), 'citewise-uploads-'));
    mkdirSync(this.#uploads, { recursive: true });
    return join(this.#uploads, randomUUID());
  }

  /** An upload written to `path` (from uploadPath), under the name the browser gave it. */
  adoptUpload(path: string, name: string): PdfSelection {
    return this.#keep({ paths: [path], names: [name], temporary: true });
  }

  /** The `index`th file of a selection, with its name; undefined once forgotten. */
  get(selection: string, index: number): { path: string; name: string; upload: boolean } | undefined {
    const s = this.#selections.get(selection);
    const path = s?.paths[index];
    return s && path !== undefined ? { path, name: s.names[index]!, upload: s.temporary } : undefined;
  }

  /** Forgets a selection; an upload's temporary file is deleted. */
  release(selection: string): void {
    const s = this.#selections.get(selection);
    if (!s) return;
    this.#selections.delete(selection);
    if (s.temporary) for (const p of s.paths) rmSync(p, { force: true });
  }

  /** Forgets everything and deletes the uploads' folder (the core's close). */
  close(): void {
    for (const id of [...this.#selections.keys()]) this.release(id);
    if (this.#uploads !== null) rmSync(this.#uploads, { recursive: true, force: true });
    this.#uploads = null;
  }

  #keep(s: Selection): PdfSelection {
    const selection = randomUUID();
    this.#selections.set(selection, s);
    // A Map keeps insertion order: the first keys are the oldest.
    for (const old of [...this.#selections.keys()]) {
      if (this.#selections.size <= MAX_SELECTIONS) break;
      this.release(old);
    }
    return { selection, names: [...s.names] };
  }
}
