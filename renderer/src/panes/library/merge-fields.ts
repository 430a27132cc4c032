// The side-by-side field chooser of a duplicate merge: which fields the items of a group disagree on,
// how each side reads, and the kept item's metadata built from the user's choice. No DOM, no IPC.
import type { CslItem } from '../../../../shared/model/csl';
import { CREATOR_ROLES, creatorsFromCsl, fieldsFor, readField } from './details/fields';

export interface MergeField {
  key: string;
  label: string;
  /** How the field reads on each item of the group, in the group's order ('' when the item lacks it). */
  values: string[];
}

/** The pseudo-field for every creator role at once: a list of names is chosen whole, never mixed. */
export const CREATORS_FIELD = 'creators';
const ABSTRACT_FIELD = 'abstract';

function creatorsText(csl: CslItem): string {
  return creatorsFromCsl(csl)
    .map(
      (c) =>
        (c.single ? c.literal : [c.family, c.given].filter(Boolean).join(', ')) +
        (c.role === 'author' ? '' : ` (${c.role})`),
    )
    .join('; ');
}

/** An abstract's text without its markup, shortened: enough to tell two versions apart. */
function abstractText(csl: CslItem): string {
  const raw = typeof csl.abstract === 'string' ? csl.abstract : '';
  // Paragraphs and headings end with a space; inline markup (italics, sub- and superscripts) leaves none.
  const text = raw
    .replace(/<\/(?:jats:)?(?:p|title|sec)>/g, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 220 ? `${text.slice(0, 219)}…` : text;
}

function fieldText(csl: CslItem, key: string): string {
  if (key === CREATORS_FIELD) return creatorsText(csl);
  if (key === ABSTRACT_FIELD) return abstractText(csl);
  return readField(csl, key);
}

/** The fields on which the items differ, in the order the details column shows them. */
export function differingFields(items: readonly CslItem[]): MergeField[] {
  const specs = [{ key: CREATORS_FIELD, label: 'Creators' }];
  const seen = new Set<string>([CREATORS_FIELD]);
  for (const csl of items) {
    for (const f of fieldsFor(csl.type, csl)) {
      if (seen.has(f.key)) continue;
      seen.add(f.key);
      specs.push({ key: f.key, label: f.label });
      if (f.key === 'title') {
        // The abstract reads best next to the title; fieldsFor leaves it to its own editor.
        specs.push({ key: ABSTRACT_FIELD, label: 'Abstract' });
        seen.add(ABSTRACT_FIELD);
      }
    }
  }
  const out: MergeField[] = [];
  for (const spec of specs) {
    const values = items.map((csl) => fieldText(csl, spec.key));
    if (values.every((v) => v === values[0])) continue;
    out.push({ ...spec, values });
  }
  return out;
}

/** Which item's value a field starts with: the kept item's, or the first item that has one. */
export function defaultChoice(field: MergeField, keepIndex: number): number {
  if (field.values[keepIndex] !== '') return keepIndex;
  const other = field.values.findIndex((v) => v !== '');
  return other < 0 ? keepIndex : other;
}

/**
 * The kept item's metadata after the merge: its own fields, with each differing field taken from
 * the item the user chose (its stored value, not the text shown, so dates and names lose nothing).
 */
export function mergedCsl(
  items: readonly CslItem[],
  keepIndex: number,
  fields: readonly MergeField[],
  choice: Readonly<Record<string, number>>,
): CslItem {
  const next: Record<string, unknown> = { ...items[keepIndex]! };
  for (const field of fields) {
    const from = items[choice[field.key] ?? defaultChoice(field, keepIndex)] ?? items[keepIndex]!;
    const keys = field.key === CREATORS_FIELD ? CREATOR_ROLES : [field.key];
    for (const key of keys) {
      if (from[key] === undefined) delete next[key];
      else next[key] = from[key];
    }
  }
  return next as CslItem;
}
