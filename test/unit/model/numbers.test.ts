import { describe, expect, it } from 'vitest';
import { grouped } from '../../../shared/model/numbers';

describe('grouped', () => {
  it('groups integers by thousands exactly as toLocaleString("en") does, on both sides of each group', () => {
    const cases = [
      0,
      1,
      9,
      10,
      99,
      100,
      999,
      1000,
      1001,
      9999,
      10_000,
      99_999,
      100_000,
      999_999,
      1_000_000,
      1_234_567,
      40_000_000,
      Number.MAX_SAFE_INTEGER,
    ];
    for (const n of [...cases, ...cases.filter((c) => c !== 0).map((c) => -c)])
      expect(grouped(n), String(n)).toBe(n.toLocaleString('en'));
  });

  it('writes what is not a safe integer as String() does, rather than rounding it', () => {
    expect(grouped(1.5)).toBe('1.5');
    expect(grouped(Number.NaN)).toBe('NaN');
    expect(grouped(Infinity)).toBe('Infinity');
    expect(grouped(2 ** 60)).toBe(String(2 ** 60));
  });
});
