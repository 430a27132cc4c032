// The formatted-bibliography cache in the library (cite-cache.ts): what goes in comes out, and it stays
// within its bounds of rows and bytes, oldest out first (both sides of each bound).
import { afterEach, describe, expect, it } from 'vitest';
import { CiteCacheStore } from '../../../electron/core/library/cite-cache';
import { readHandle, writeHandle } from '../../../electron/core/library/sql';
import { clock, testLibrary, type TestLibrary } from './helpers/lib';

let lib: TestLibrary;
afterEach(() => lib.dispose());

const key = (n: number): string => `key-${String(n).padStart(20, '0')}`;
const entries = (n: number, size = 10): Array<{ id: string; value: string }> =>
  Array.from({ length: n }, (_, i) => ({ id: `e${i}`, value: 'x'.repeat(size) }));

function store(limits: { rows?: number; bytes?: number }): CiteCacheStore {
  lib = testLibrary();
  return new CiteCacheStore({ write: writeHandle(lib.db), read: readHandle(lib.db), now: clock(), limits });
}

describe('cite cache store', () => {
  it('returns what was kept, in order, and null for a key it never saw', () => {
    const s = store({});
    s.put(key(1), { style: 'apa', format: 'text' }, [
      { id: 'b', value: 'B entry' },
      { id: 'a', value: 'A “entry”' },
    ]);
    expect(s.get(key(1))).toEqual([
      { id: 'b', value: 'B entry' },
      { id: 'a', value: 'A “entry”' },
    ]);
    expect(s.get(key(2))).toBeNull();
  });

  it('keeps at most `rows` bibliographies: the oldest goes when one more arrives', () => {
    const s = store({ rows: 3 });
    for (let i = 1; i <= 3; i++) s.put(key(i), { style: 'apa', format: 'text' }, entries(2));
    expect(s.stats().rows).toBe(3);
    expect(s.get(key(1))).not.toBeNull();
    s.put(key(4), { style: 'apa', format: 'text' }, entries(2));
    expect(s.stats().rows).toBe(3);
    expect(s.get(key(1))).toBeNull();
    expect(s.get(key(2))).not.toBeNull();
    expect(s.get(key(4))).not.toBeNull();
  });

  it('keeps at most `bytes` of entries: at the bound all stay, past it the oldest go; one bigger than the bound is not kept', () => {
    const one = Buffer.byteLength(JSON.stringify(entries(1, 100).map((e) => [e.id, e.value])));
    const s = store({ bytes: one * 2 });
    s.put(key(1), { style: 'apa', format: 'text' }, entries(1, 100));
    s.put(key(2), { style: 'apa', format: 'text' }, entries(1, 100));
    expect(s.stats()).toEqual({ rows: 2, bytes: one * 2 });
    s.put(key(3), { style: 'apa', format: 'text' }, entries(1, 100));
    expect(s.stats()).toEqual({ rows: 2, bytes: one * 2 });
    expect(s.get(key(1))).toBeNull();
    expect(s.put(key(5), { style: 'apa', format: 'text' }, entries(1, 100 + one * 2))).toBe(false);
    expect(s.get(key(5))).toBeNull();
    expect(s.stats().rows).toBe(2);
  });

  it('says whether a bibliography in a style and format is kept: none at first, one after a put, not for another format or style, none after the last goes', () => {
    const s = store({ rows: 1 });
    expect(s.holdsStyle('apa', 'text')).toBe(false);
    s.put(key(1), { style: 'apa', format: 'text' }, entries(1));
    expect(s.holdsStyle('apa', 'text')).toBe(true);
    expect(s.holdsStyle('apa', 'html')).toBe(false);
    expect(s.holdsStyle('ieee', 'text')).toBe(false);
    s.put(key(2), { style: 'ieee', format: 'text' }, entries(1));
    expect(s.holdsStyle('apa', 'text')).toBe(false);
    expect(s.holdsStyle('ieee', 'text')).toBe(true);
  });

  it('refuses a key that is not a hash, saying what a key is', () => {
    const s = store({});
    expect(() => s.get('short')).toThrow(/16 to 128 letters/);
    expect(() => s.put("x'; DROP TABLE items; --", { style: 'apa', format: 'text' }, [])).toThrow(/16 to 128 letters/);
  });
});
