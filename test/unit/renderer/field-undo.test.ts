// Issue 32: Ctrl+Z in a details field fell through to the browser's page-wide undo and reran an old
// search. The field keeps its own undo; with nothing of its own to undo, the key is stopped.
import { describe, expect, it } from 'vitest';
import { isHistoryKey, leavesField } from '../../../renderer/src/lib/keyboard/field-undo';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }>) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('Ctrl+Z in a details field', () => {
  it('is undo or redo by the platform’s keys', () => {
    expect(isHistoryKey(key('z', { ctrlKey: true }), false)).toBe(true);
    expect(isHistoryKey(key('Z', { ctrlKey: true, shiftKey: true }), false)).toBe(true);
    expect(isHistoryKey(key('y', { ctrlKey: true }), false)).toBe(true);
    expect(isHistoryKey(key('z', { metaKey: true }), true)).toBe(true);
    expect(isHistoryKey(key('z', { ctrlKey: true }), true)).toBe(false);
    expect(isHistoryKey(key('z', { ctrlKey: true, altKey: true }), false)).toBe(false);
    expect(isHistoryKey(key('z', {}), false)).toBe(false);
  });

  it('is stopped while the field holds the value it had when focused, left to the field once typed in', () => {
    const undo = key('z', { ctrlKey: true });
    expect(leavesField(undo, 'Deep learning', 'Deep learning', false)).toBe(true);
    expect(leavesField(undo, '', '', false)).toBe(true);
    expect(leavesField(undo, 'Deep learning for', 'Deep learning', false)).toBe(false);
    // A field never seen focused: nothing of its own to undo.
    expect(leavesField(undo, 'x', undefined, false)).toBe(true);
    // Other keys pass.
    expect(leavesField(key('a', { ctrlKey: true }), 'x', 'x', false)).toBe(false);
  });
});
