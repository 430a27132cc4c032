// Text from a file (a cite key, a DOI or a title read from a manuscript) goes to a terminal, a JSON
// report or the window. Control characters in it could clear the screen, retitle the terminal window
// (ESC sequences, C1's CSI), or reorder what is shown (bidi overrides and isolates, as in "Trojan
// Source"): none belongs in a key, a DOI or a title, so they are removed where such text is read.
// Tabs and line breaks stay. Pure.

// C0 but tab and line feed, DEL, C1, the Arabic letter mark, LRM/RLM, the bidi embeddings and
// overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` without control characters (see above); tabs and line feeds kept. */
export function withoutControlCharacters(text: string): string {
  return text.replace(CONTROL, '');
}

/** Whether `text` holds a character withoutControlCharacters removes. */
export function hasControlCharacters(text: string): boolean {
  CONTROL.lastIndex = 0;
  const found = CONTROL.test(text);
  CONTROL.lastIndex = 0;
  return found;
}
