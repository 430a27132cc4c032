// What a note row holds: its HTML through the note allowlist (never what the renderer, an import, the
// Connector or a sync peer sent as it was), and the text search, titles and plain formats read.
import { noteCitations, noteText, toNoteHtml, type SanitizeNoteOptions } from '../../../shared/model/note-html';
import { CoreError } from '../errors';

export interface NoteColumns {
  body: string;
  text: string;
}

/** A note's columns, or null when nothing is left of it (no text, no citation). */
export function noteColumnsOrNull(input: string, options: SanitizeNoteOptions = {}): NoteColumns | null {
  const body = toNoteHtml(input, options);
  const text = noteText(body);
  if (text === '' && noteCitations(body).length === 0) return null;
  return { body, text };
}

/** A note's columns; an empty note is refused, saying so. */
export function noteColumns(input: string, options: SanitizeNoteOptions = {}): NoteColumns {
  const columns = noteColumnsOrNull(input, options);
  if (!columns) throw new CoreError('INVALID_INPUT', 'The note is empty: write some text or cite an item.');
  return columns;
}
