// Standalone notes: notes that belong to no item, as Zotero's top-level notes. Each is an item row of
// the dedicated type `note` (so the Library table, collections, tags, the Trash, undo, search and sync
// treat it as any other row) holding exactly one note; its title is the note's first line. A note item
// is no reference: bibliographies, reference exports, duplicate checks and the citation service leave
// it out (isNoteItem).
import type { CslItem } from './csl';
import { noteTitle } from './note-html';

/** The item type of a standalone note (not a CSL type: no style formats it). */
export const NOTE_ITEM_TYPE = 'note';

/** The longest title a standalone note's row shows (its first line, shortened). */
export const NOTE_TITLE_MAX = 200;

export function isNoteItem(item: { type?: unknown } | null | undefined): boolean {
  return item?.type === NOTE_ITEM_TYPE;
}

/** The title of a standalone note of this body (HTML): its first line, or "Untitled note". */
export function standaloneNoteTitle(body: string): string {
  return noteTitle(body, NOTE_TITLE_MAX) || 'Untitled note';
}

/** The record of a standalone note's item: its type, title and the citation key it asks for. */
export function standaloneNoteCsl(body: string, citationKey: string): CslItem {
  return {
    id: citationKey,
    type: NOTE_ITEM_TYPE,
    title: standaloneNoteTitle(body),
    'citation-key': citationKey,
  } as unknown as CslItem;
}
