// V8 makes a slice of 13 or more characters (String.prototype.slice, trim, a regex match) a view that
// keeps its whole parent string alive. A piece of a file's text kept for the whole import (a key in a
// map of seen keys, a cached folded name) would keep the window of the file it was read from, and
// with one per window, the file's whole text again.

/** A copy of `text` that does not keep the string it was cut from alive. */
export function detached(text: string): string {
  // The concatenation is flattened into a new string when sliced; the slice refers to that copy.
  return text.length < 13 ? text : ` ${text}`.slice(1);
}
