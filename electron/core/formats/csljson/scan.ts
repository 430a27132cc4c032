// A structural pass over JSON text before JSON.parse: it finds the line each top-level item starts on
// (JSON.parse keeps no positions, and every reported problem needs a line) and refuses nesting deeper
// than the limit before the native parser recurses into it.

export interface JsonScan {
  /** Root is an array: the line of each element. */
  elementLines: number[];
  /** Root is an object with an "items" array: the line of each element of it. */
  itemsLines: number[];
  rootLine: number;
  error?: { line: number; reason: string };
}

export function scanJson(text: string, maxDepth: number): JsonScan {
  const elementLines: number[] = [];
  const itemsLines: number[] = [];
  let rootLine = 0;
  let line = 1;
  let depth = 0;
  // Per depth: '[' or '{'; whether the next non-blank token starts an element/value.
  const kinds: number[] = [];
  let expectElement = false;
  let lastKey = '';
  let itemsDepth = -1;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 0xfeff) continue;
    if (rootLine === 0) rootLine = line;
    if (expectElement) {
      expectElement = false;
      if (c !== 93) {
        if (depth === 1 && kinds[0] === 91) elementLines.push(line);
        else if (depth === itemsDepth) itemsLines.push(line);
      }
    }
    if (c === 34) {
      // a string: skip it, noting keys of the root object
      const start = i + 1;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
        else if (d === 10)
          return {
            elementLines,
            itemsLines,
            rootLine,
            error: { line, reason: 'a string is not closed before the end of the line.' },
          };
      }
      if (i >= n)
        return { elementLines, itemsLines, rootLine, error: { line, reason: 'the file ends inside a string.' } };
      if (depth === 1 && kinds[0] === 123) lastKey = text.slice(start, i);
      continue;
    }
    if (c === 91 || c === 123) {
      if (++depth > maxDepth)
        return {
          elementLines,
          itemsLines,
          rootLine,
          error: { line, reason: `arrays and objects are nested more than ${maxDepth} levels deep.` },
        };
      kinds.push(c);
      if (c === 91) {
        expectElement = true;
        if (depth === 2 && kinds[0] === 123 && lastKey === 'items' && itemsDepth === -1) itemsDepth = 2;
      }
      continue;
    }
    if (c === 93 || c === 125) {
      const open = kinds.pop();
      if (open === undefined || (c === 93) !== (open === 91))
        return {
          elementLines,
          itemsLines,
          rootLine,
          error: { line, reason: `"${String.fromCharCode(c)}" does not match any opening bracket.` },
        };
      if (depth === itemsDepth && c === 93) itemsDepth = -2; // the items array is done
      depth--;
      continue;
    }
    if (c === 44 && kinds[kinds.length - 1] === 91) expectElement = true;
  }
  if (depth > 0)
    return {
      elementLines,
      itemsLines,
      rootLine,
      error: {
        line,
        reason: `the file ends before ${depth} bracket${depth > 1 ? 's are' : ' is'} closed (it may be cut off).`,
      },
    };
  return { elementLines, itemsLines, rootLine };
}
