// Zotero's palette for coloured tags (its tag selector offers these nine), and the rules a rename
// follows: onto another existing tag it is a merge, said before it happens.

export const TAG_PALETTE: readonly { color: string; name: string }[] = [
  { color: '#ff6666', name: 'Red' },
  { color: '#ff8c19', name: 'Orange' },
  { color: '#999999', name: 'Grey' },
  { color: '#5fb236', name: 'Green' },
  { color: '#009980', name: 'Teal' },
  { color: '#2ea8e5', name: 'Blue' },
  { color: '#576dd9', name: 'Indigo' },
  { color: '#a28ae5', name: 'Purple' },
  { color: '#a6507b', name: 'Plum' },
];

/** What renaming `from` to `to` does, given the tags that exist: nothing, a rename, or a merge into an existing tag. */
export function renameOutcome(
  from: string,
  to: string,
  known: readonly { name: string }[],
): { kind: 'none' } | { kind: 'empty' } | { kind: 'rename' } | { kind: 'merge'; into: string } {
  const next = to.trim();
  if (next === '') return { kind: 'empty' };
  if (next === from) return { kind: 'none' };
  const existing = known.find((t) => t.name.toLowerCase() === next.toLowerCase());
  if (existing && existing.name.toLowerCase() !== from.toLowerCase()) return { kind: 'merge', into: existing.name };
  return { kind: 'rename' };
}
