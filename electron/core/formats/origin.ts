// An entry's origin: a fingerprint of the entry as the file wrote it, kept with the item it became, so
// that the same entry is the same item however often its file comes back: after its key was renamed
// on the first import (a key used twice, a key that could not be one), after the item's title or key
// was edited in the library, whatever the import settings (sentence case) made of it.
//
// Taken from the parser's raw view of the entry, before any mapping: what the file says, not what this
// version of Citewise reads into it, so a better reader in a later version still recognises the entry.
// Spacing and line breaks are not part of an entry (a tool that re-wraps lines writes the same entry);
// everything else is.
import { createHash } from 'node:crypto';

/** The fingerprint of an entry given as its parts in a fixed order (type, key, fields…). */
export function entryOrigin(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update(part.replace(/\s+/g, ' ').trim());
    // A separator no part can hold after the spacing is folded: ["ab", "c"] and ["a", "bc"] differ.
    hash.update('\n');
  }
  // 128 bits, as text: enough that two different entries never meet in one library.
  return hash.digest('base64url').slice(0, 22);
}

/** The fingerprint of a JSON value (a CSL-JSON item as the file has it): its keys' order is no difference. */
export function jsonOrigin(value: unknown): string {
  return entryOrigin([canonicalJson(value)]);
}

function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) =>
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
    ) ?? 'null'
  );
}
