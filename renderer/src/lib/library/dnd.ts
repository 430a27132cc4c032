// Drag-and-drop payloads inside the Library pane: items from the table, collections in the tree.
export const ITEMS_MIME = 'application/x-citewise-items';
export const COLLECTION_MIME = 'application/x-citewise-collection';
export const COLUMN_MIME = 'application/x-citewise-column';
export const ROW_HEIGHT = 30;

/** The dragged items: their ids, or 'all' for "everything selected in the view". */
export function readItems(data: DataTransfer): number[] | 'all' | null {
  const raw = data.getData(ITEMS_MIME);
  if (!raw) return null;
  if (raw === 'all') return 'all';
  try {
    const ids: unknown = JSON.parse(raw);
    return Array.isArray(ids) ? ids.filter((n): n is number => Number.isInteger(n) && n > 0) : null;
  } catch {
    return null;
  }
}

export function hasType(event: DragEvent, mime: string): boolean {
  return !!event.dataTransfer && [...event.dataTransfer.types].includes(mime);
}
