// Ctrl+Z in a form field is the field's own undo. Chromium keeps one undo history per page, not per
// field: in a field with nothing of its own left to undo (just focused, or undone back to where it
// started), Ctrl+Z reaches into another field's typing, e.g. the search box's, and reruns an old
// search. The field's keydown stops it there; the library's undo (the toast, Ctrl+Z in the table) is
// not a field's business either.
import { isMac } from '../panes';

/** The values fields had when they got the focus. */
const atFocus = new WeakMap<EventTarget, string>();

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** Whether a keydown is the platform's undo or redo. */
export function isHistoryKey(e: KeyLike, mac = isMac): boolean {
  const mod = (mac ? e.metaKey : e.ctrlKey) && !e.altKey;
  const key = e.key.toLowerCase();
  return mod && (key === 'z' || (!mac && !e.shiftKey && key === 'y'));
}

/**
 * Whether the browser's undo or redo must be stopped in a field: it has nothing of its own to undo
 * when its value is still the one it had when focused.
 */
export function leavesField(e: KeyLike, value: string, valueAtFocus: string | undefined, mac = isMac): boolean {
  return isHistoryKey(e, mac) && (valueAtFocus === undefined || value === valueAtFocus);
}

function fieldOf(target: EventTarget | null): HTMLInputElement | HTMLTextAreaElement | null {
  const el = target as HTMLElement | null;
  return el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') ? (el as HTMLInputElement) : null;
}

/** focusin on a container of fields: remembers the focused field's value. */
export function rememberField(event: FocusEvent): void {
  const field = fieldOf(event.target);
  if (field) atFocus.set(field, field.value);
}

/** keydown on a container of fields: keeps Ctrl+Z (and redo) within the field it was pressed in. */
export function keepUndoInField(event: KeyboardEvent): void {
  const field = fieldOf(event.target);
  if (!field || !leavesField(event, field.value, atFocus.get(field))) return;
  event.preventDefault();
  event.stopPropagation();
}
