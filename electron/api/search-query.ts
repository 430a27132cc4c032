// Better BibTeX search terms as a query in the library's own search language, so they run on its
// indexed, ranked search. Pure.
import { RpcError, INVALID_PARAMS } from './json-rpc';

/** Quoted as a phrase of the search language (its quotes take \" and \\ escaped). */
const phrase = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * What an editor types ("smith 2020", "Adams:2001-x"): every word of two or more characters a prefix
 * over every field the index holds (citation key included), a one-character word that word only, a
 * four-digit number a year; "and" and "&" between words are
 * dropped as Better BibTeX drops them, each word once. '' when nothing searchable is left.
 */
export function freeTextQuery(terms: string): string {
  // A Set: a word asked twice narrows nothing more, and each word costs the search a pass.
  const out = new Set<string>();
  for (const token of terms.split(/\s+/)) {
    if (token === '' || token === '&' || token.toLowerCase() === 'and') continue;
    if (/^\d{4}$/.test(token)) {
      out.add(`year:${token}`);
      continue;
    }
    // Punctuation splits words in the index, so it does here too (and cannot be read as syntax);
    // lower case, so a word cannot be an operator (AND, OR, NOT). Bare words are prefixes already.
    // One letter is a whole word: as a prefix it matches nearly every item, and ranking 100,000 took
    // 0.7 s for a picker that asks again at the next keystroke.
    for (const word of token.split(/[^\p{L}\p{N}]+/u))
      if (word !== '') out.add(word.length === 1 ? phrase(word.toLowerCase()) : word.toLowerCase());
  }
  return [...out].join(' ');
}

const FIELDS: Readonly<Record<string, string>> = {
  title: 'title',
  creator: 'author',
  author: 'author',
  publicationTitle: 'container',
  abstractNote: 'abstract',
  note: 'note',
  tag: 'tag',
  citationKey: 'key',
  DOI: 'doi',
};

/**
 * Better BibTeX's advanced form, [[field, operator, value, required?], …] with ['joinMode', 'any']
 * and ['ignore_feeds'], as one query. Conditions Citewise cannot express are refused by name.
 */
export function conditionsQuery(terms: readonly unknown[]): string {
  let join: 'AND' | 'OR' = 'AND';
  const optional: string[] = [];
  const required: string[] = [];
  for (const term of terms) {
    if (!Array.isArray(term) || term.length === 0 || typeof term[0] !== 'string')
      throw new RpcError(
        INVALID_PARAMS,
        `item.search: each condition must be [field, operator, value]; got ${JSON.stringify(term)}`,
      );
    const [field, operator, value, isRequired] = term as [string, unknown, unknown, unknown];
    if (field === 'ignore_feeds') continue;
    if (field === 'joinMode') {
      join = operator === 'any' ? 'OR' : 'AND';
      continue;
    }
    if (field === 'libraryID' || field === 'library') continue;
    if (operator !== 'contains' && operator !== 'is')
      throw new RpcError(
        INVALID_PARAMS,
        `item.search: the operator "${String(operator)}" is not supported (contains, is)`,
      );
    const text = String(value ?? '');
    let condition: string;
    if (field.startsWith('quicksearch')) condition = `(${freeTextQuery(text) || phrase(text)})`;
    else if (field === 'year' || field === 'date') {
      if (!/^\d{1,4}$/.test(text))
        throw new RpcError(INVALID_PARAMS, `item.search: ${field} must be a year; got "${text}"`);
      condition = `year:${text}`;
    } else {
      const mapped = FIELDS[field];
      if (!mapped)
        throw new RpcError(
          INVALID_PARAMS,
          `item.search: the field "${field}" is not searchable (${[...Object.keys(FIELDS), 'year', 'quicksearch-*'].join(', ')})`,
        );
      const starred = operator === 'contains' && (mapped === 'key' || mapped === 'tag' || mapped === 'doi');
      condition = `${mapped}:${phrase(text)}${starred ? '*' : ''}`;
    }
    (isRequired === true ? required : optional).push(condition);
  }
  const parts = [...(optional.length > 0 ? [`(${optional.join(` ${join} `)})`] : []), ...required];
  return parts.join(' ');
}
