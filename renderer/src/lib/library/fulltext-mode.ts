// The Library's full-text search mode: the search box's words as `fulltext:` terms (the PDFs' text,
// see docs/pdfs.md) and back, and a hit's snippet as markup for the allowlist renderer (SafeMarkup):
// the text escaped, only the matched words (between « and ») highlighted. Pure, tested in Node.

const TOKEN = /-?[^\s()"]*"(?:[^"\\]|\\.)*"\*?|\(|\)|[^\s()]+/g;
const OPERATORS = new Set(['OR', 'AND', 'NOT']);

/** Whether a query searches the PDFs' text (a `fulltext:` term, negated or not). */
export function hasFulltext(query: string): boolean {
  return /(^|[\s(-])fulltext:/i.test(query);
}

/**
 * The bare words and "phrases" of a query as `fulltext:` terms; fielded terms (title:…, year:…),
 * operators and parentheses stay as they are.
 */
export function toFulltext(query: string): string {
  return query.replace(TOKEN, (t) => {
    if (t === '(' || t === ')' || OPERATORS.has(t)) return t;
    const neg = t.startsWith('-') && t.length > 1 ? '-' : '';
    const body = neg ? t.slice(1) : t;
    if (!body.startsWith('"') && body.includes(':')) return t;
    return `${neg}fulltext:${body}`;
  });
}

/** The `fulltext:` terms of a query back as bare words and phrases. */
export function fromFulltext(query: string): string {
  return query.replace(/(^|[\s(-])fulltext:/gi, '$1');
}

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A snippet (plain text from a PDF, the match between « and ») as markup whose only element is a
 * highlight (the service's form, `<em class="highlight">`, which the allowlist renders as <mark>).
 */
export function snippetMarkup(snippet: string): string {
  return escape(snippet)
    .replace(/«([^«»]*)»/g, '<em class="highlight">$1</em>')
    .replace(/[«»]/g, '');
}
