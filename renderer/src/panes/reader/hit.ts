// What the reader finds on a `fulltext:` hit's page: the words the index matched, as the snippet marks
// them (« and », electron/core/library/fulltext-store.ts), so the reader highlights the same words.

/** The first marked match of a snippet, its marked runs joined (a phrase is marked word by word); null if none. */
export function snippetMatch(snippet: string): string | null {
  const runs: string[] = [];
  const re = /«([^»]*)»/g;
  let first: RegExpExecArray | null = null;
  let lastEnd = -1;
  for (let m = re.exec(snippet); m !== null; m = re.exec(snippet)) {
    // Runs that follow one another with only spaces between are one phrase; the first phrase is enough.
    if (first && snippet.slice(lastEnd, m.index).trim() !== '') break;
    first ??= m;
    runs.push(m[1]!.trim());
    lastEnd = m.index + m[0].length;
  }
  const text = runs.filter((r) => r !== '').join(' ');
  return text === '' ? null : text;
}
