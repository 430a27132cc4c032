// How a field in conflict reads in the Conflicts dialog: its label and each side's value as text.
// Field names are those of the shared documents (electron/core/sync/kinds.ts): an item's CSL-JSON
// fields as `csl.<name>`, and its key, Trash state, tags… No DOM, no IPC.
import type { CslDate, CslItemType, CslName } from '../../../../shared/model/csl';
import type { JsonValue } from '../../../../shared/model/sync';
import { CREATOR_ROLES, ROLE_LABELS, dateText, fieldsFor } from '../../panes/library/details/fields';

const TYPES: CslItemType[] = ['article-journal', 'book', 'chapter', 'paper-conference', 'thesis', 'report', 'webpage'];
const CSL_LABELS = new Map<string, string>();
for (const t of TYPES) for (const f of fieldsFor(t)) if (!CSL_LABELS.has(f.key)) CSL_LABELS.set(f.key, f.label);
for (const role of CREATOR_ROLES) CSL_LABELS.set(role, `${ROLE_LABELS[role]}s`);
CSL_LABELS.set('abstract', 'Abstract');
CSL_LABELS.set('type', 'Item type');

const OTHER_LABELS: Record<string, string> = {
  key: 'Citation key',
  trashed: 'In the Trash',
  tags: 'Tags',
  aliases: 'Former keys',
  dateAdded: 'Date added',
  source: 'Imported from',
  name: 'Name',
  parent: 'Inside',
  body: 'Note',
  query: 'Search',
};

export function fieldLabel(field: string): string {
  if (field.startsWith('csl.')) {
    const name = field.slice(4);
    return CSL_LABELS.get(name) ?? name.replace(/^./, (c) => c.toUpperCase()).replace(/-/g, ' ');
  }
  return OTHER_LABELS[field] ?? field;
}

const isName = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as the dialog shows it; null stands for a field the side does not have. */
export function valueText(field: string, value: JsonValue | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  const name = field.startsWith('csl.') ? field.slice(4) : field;
  if (field === 'trashed') return value === true ? 'Yes' : 'No';
  if ((CREATOR_ROLES as readonly string[]).includes(name) && Array.isArray(value))
    return (value.filter(isName) as unknown as CslName[])
      .map((n) => n.literal ?? [n.family, n.given].filter(Boolean).join(', '))
      .join('; ');
  if (
    typeof value === 'object' &&
    !Array.isArray(value) &&
    ('date-parts' in value || 'raw' in value || 'literal' in value)
  )
    return dateText(value as CslDate) || JSON.stringify(value);
  if (field === 'dateAdded' && typeof value === 'number') return new Date(value).toLocaleString();
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
