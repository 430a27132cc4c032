// An element's text as a reader sees it: each run of HTML whitespace folded to one space, the ends
// trimmed. The Svelte markup is formatted by Prettier, which re-wraps long text inside elements: a
// line break and indentation stand where a space stood. The browser shows both the same, but the raw
// textContent differs, so tests compare this instead. Text shown with white-space: pre, pre-wrap or
// pre-line (a note, a question, the export preview, a draft's Markdown) shows its whitespace: tests
// read that raw with textContent().
import type { Locator } from 'playwright-core';

/**
 * HTML's whitespace (space, tab, line feed, form feed, carriage return), not `\s`: a no-break space
 * is shown as a space of its own and is not folded, by the browser or here.
 */
const HTML_WHITESPACE = /[ \t\n\f\r]+/g;

export function foldWhitespace(text: string): string {
  return text.replace(HTML_WHITESPACE, ' ').replace(/^ | $/g, '');
}

export async function shownText(element: Locator): Promise<string> {
  const text = await element.textContent();
  // textContent() is null only for a document or doctype, never for an element a locator finds.
  if (text === null) throw new Error(`shownText: ${String(element)} has no text content`);
  return foldWhitespace(text);
}

export async function shownTexts(elements: Locator): Promise<string[]> {
  return (await elements.allTextContents()).map(foldWhitespace);
}
