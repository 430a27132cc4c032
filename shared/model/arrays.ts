// Array helpers that hold for any length. `target.push(...items)` and `Math.max(...values)` pass every
// element as an argument on the stack: a few hundred thousand of them (an entry with 90,000 authors,
// a file's errors, a page's text runs) overflow it with "Maximum call stack size exceeded".

/** Appends `items` to `target` in order (push(...items) for any length); returns `target`. */
export function appendAll<T>(target: T[], items: readonly T[]): T[] {
  for (let i = 0; i < items.length; i++) target.push(items[i]!);
  return target;
}

/** The largest of `values`, or `empty` when there are none (Math.max(...values) for any length). */
export function maxOf(values: readonly number[], empty = -Infinity): number {
  if (values.length === 0) return empty;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) max = Math.max(max, values[i]!);
  return max;
}

/** The smallest of `values`, or `empty` when there are none (Math.min(...values) for any length). */
export function minOf(values: readonly number[], empty = Infinity): number {
  if (values.length === 0) return empty;
  let min = Infinity;
  for (let i = 0; i < values.length; i++) min = Math.min(min, values[i]!);
  return min;
}
