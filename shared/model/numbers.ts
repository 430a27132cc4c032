// Counts in messages, grouped by thousands as in English ("12,345"). Written out rather than
// `toLocaleString('en')`, whose first call loads ICU's number formatting: 25 to 70 ms of every CLI
// command's start, several of which format a count when a schema module is imported.

/** An integer with a comma between each group of three digits; anything else as String() writes it. */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n);
  const digits = String(Math.abs(n));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3)
    out = (end > 3 ? ',' : '') + digits.slice(Math.max(0, end - 3), end) + out;
  return n < 0 ? `-${out}` : out;
}
