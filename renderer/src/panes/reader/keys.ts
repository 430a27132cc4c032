// The reader's keys, on top of the scrolling the page container does itself (arrows, Page Up/Down,
// Space). Single letters only when no field has focus, as elsewhere in the app.

export type ReaderAction = 'next' | 'previous' | 'first' | 'last' | 'zoom-in' | 'zoom-out' | 'find' | 'close';

export function readerKey(e: KeyboardEvent): ReaderAction | null {
  const mod = e.ctrlKey || e.metaKey;
  if (mod && !e.altKey && e.key.toLowerCase() === 'f') return 'find';
  if (mod && (e.key === '=' || e.key === '+')) return 'zoom-in';
  if (mod && e.key === '-') return 'zoom-out';
  const target = e.target as HTMLElement | null;
  const typing =
    target !== null &&
    (target.tagName === 'INPUT' ||
      target.tagName === 'SELECT' ||
      target.tagName === 'TEXTAREA' ||
      target.isContentEditable);
  if (typing || mod || e.altKey) return null;
  switch (e.key) {
    case 'n':
    case 'j':
      return 'next';
    case 'p':
    case 'k':
      return 'previous';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case '+':
    case '=':
      return 'zoom-in';
    case '-':
      return 'zoom-out';
    case 'Escape':
      return 'close';
    default:
      return null;
  }
}
