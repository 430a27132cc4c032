// The table's selection (renderer/src/lib/state/library-selection.svelte.ts), which holds no data of
// the core: click, Shift and Ctrl as desktop file lists do them, "select all" as a flag, keyboard
// moves, a range completed after its rows loaded only if it is still the selection, and retain.
import { describe, expect, it } from 'vitest';
import { Selection } from '../../../renderer/src/lib/state/library-selection.svelte';

const IDS = [10, 11, 12, 13, 14, 15];
const between = (a: number, b: number): number[] => IDS.slice(Math.min(a, b), Math.max(a, b) + 1);
const plain = { range: false, toggle: false };

describe('Selection', () => {
  it('clicks, extends with Shift from the anchor, toggles with Ctrl, and Shift+Ctrl adds a range', () => {
    const s = new Selection();
    s.pick(1, 11, plain, between);
    expect([...s.ids]).toEqual([11]);
    expect(s.single()).toBe(11);
    s.pick(3, 13, { range: true, toggle: false }, between);
    expect([...s.ids]).toEqual([11, 12, 13]);
    expect(s.anchor).toBe(1);
    s.pick(2, 12, { range: false, toggle: true }, between);
    expect([...s.ids].sort()).toEqual([11, 13]);
    expect(s.anchor).toBe(2);
    s.pick(5, 15, { range: true, toggle: true }, between);
    expect([...s.ids].sort()).toEqual([11, 12, 13, 14, 15]);
    expect(s.single()).toBeNull();
  });

  it('treats Shift without an anchor as a click', () => {
    const s = new Selection();
    s.pick(4, 14, { range: true, toggle: false }, between);
    expect([...s.ids]).toEqual([14]);
    expect(s.anchor).toBe(4);
  });

  it('selects all as a flag sized by the view, and a click leaves it', () => {
    const s = new Selection();
    s.selectAll();
    expect(s.size(100_000)).toBe(100_000);
    expect(s.has(999)).toBe(true);
    expect(s.single()).toBeNull();
    s.retain(() => false); // nothing to drop from "all"
    expect(s.all).toBe(true);
    s.pick(0, 10, plain, between);
    expect(s.all).toBe(false);
    expect(s.size(100_000)).toBe(1);
  });

  it('follows the keyboard, extending from the anchor with Shift', () => {
    const s = new Selection();
    s.moveTo(2, 12, false, between);
    s.moveTo(4, 14, true, between);
    expect([...s.ids]).toEqual([12, 13, 14]);
    s.moveTo(0, undefined, false, between); // a row not loaded yet: the focus moves, the selection stays
    expect(s.focus).toBe(0);
    expect([...s.ids]).toEqual([12, 13, 14]);
  });

  it('completes a Shift range only while it is still the selection', () => {
    const s = new Selection();
    s.pick(0, 10, plain, between);
    s.pick(3, 13, { range: true, toggle: false }, () => [10, 13]); // rows 1–2 not loaded yet
    s.completeRange(0, 3, [10, 11, 12, 13]);
    expect([...s.ids]).toEqual([10, 11, 12, 13]);
    s.pick(5, 15, plain, between);
    s.completeRange(0, 3, [10, 11, 12, 13]); // too late: another click came
    expect([...s.ids]).toEqual([15]);
  });

  it('drops ids no longer in the view, and clears', () => {
    const s = new Selection();
    s.pick(0, 10, plain, between);
    s.pick(2, 12, { range: true, toggle: false }, between);
    s.retain((id) => id !== 11);
    expect([...s.ids]).toEqual([10, 12]);
    s.reset();
    expect(s.ids.size).toBe(0);
    expect(s.anchor).toBeNull();
    expect(s.focus).toBe(0);
  });
});
