// The filter string of the evidence searches: space-separated field:"value" pairs, values always in
// double quotes (a backslash escapes a quote or a backslash inside them). Built from the pairs the
// filter builder holds, and read back so a typed or pasted string shows as the same pairs.

export interface FilterPair {
  field: string;
  value: string;
}

/** Field names as the schema endpoints list them: letters, digits, _ . - and [] (e.g. trialState.status). */
const FIELD = /^[A-Za-z0-9_.\-[\]]+$/;
export const MAX_FILTER_VALUE = 500;

/** Why a pair cannot go into the filter string, or null when it can. */
export function pairProblem(pair: FilterPair, known?: readonly string[]): string | null {
  if (pair.field === '') return 'Choose a field to filter on.';
  if (!FIELD.test(pair.field)) return `"${pair.field}" is not a field name (letters, digits, _ . - and [] only).`;
  if (known && !known.includes(pair.field)) return `"${pair.field}" is not one of this dataset's filterable fields.`;
  if (pair.value.trim() === '') return `Give a value for ${pair.field}.`;
  if (pair.value.length > MAX_FILTER_VALUE)
    return `The value for ${pair.field} is longer than ${MAX_FILTER_VALUE} characters.`;
  return null;
}

/** A value in double quotes, with backslashes and quotes escaped. */
export function quoteValue(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The filter string of the pairs; throws on a pair that cannot be written (see pairProblem). */
export function buildFilter(pairs: readonly FilterPair[]): string {
  return pairs
    .map((p) => {
      const problem = pairProblem(p);
      if (problem) throw new Error(problem);
      return `${p.field}:${quoteValue(p.value.trim())}`;
    })
    .join(' ');
}

/** Reads a filter string back into pairs; the problem names the position of the first part it cannot read. */
export function parseFilter(text: string): { pairs: FilterPair[]; problem: string | null } {
  const pairs: FilterPair[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && /\s/.test(text[i]!)) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && text[i] !== ':' && !/\s/.test(text[i]!)) i++;
    const field = text.slice(start, i);
    if (text[i] !== ':' || !FIELD.test(field))
      return { pairs, problem: `Expected field:"value" at character ${start + 1}.` };
    i++;
    let value = '';
    if (text[i] === '"') {
      i++;
      let closed = false;
      while (i < n) {
        const c = text[i]!;
        if (c === '\\' && i + 1 < n) {
          value += text[i + 1];
          i += 2;
        } else if (c === '"') {
          closed = true;
          i++;
          break;
        } else {
          value += c;
          i++;
        }
      }
      if (!closed) return { pairs, problem: `The value of ${field} (character ${start + 1}) has no closing quote.` };
    } else {
      const vs = i;
      while (i < n && !/\s/.test(text[i]!)) i++;
      value = text.slice(vs, i);
    }
    if (value.trim() === '') return { pairs, problem: `${field} (character ${start + 1}) has an empty value.` };
    pairs.push({ field, value });
  }
  return { pairs, problem: null };
}
