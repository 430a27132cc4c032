// The details column's pure logic: which CSL fields an item type shows, how each reads and writes as
// text, creators as editable rows, and the words for evidence and editorial notices. No DOM, no IPC,
// so it is tested in plain Node.
import {
  CSL_NAME_FIELDS,
  type CslDate,
  type CslItem,
  type CslItemType,
  type CslName,
  type CslNameField,
} from '../../../../../shared/model/csl';
import type { TallyState } from '../../../../../shared/model/library';
import { looksLikeMarkup } from '../../../components/safe-markup';
import { dateText, isDateField, parseDate } from '../../../../../shared/model/item-form';
import {
  CREATOR_ROLE_LABELS,
  typeCreators,
  typeFields,
  type FieldKind,
  type FieldSpec,
} from '../../../../../shared/model/item-types';

export type { FieldKind, FieldSpec } from '../../../../../shared/model/item-types';
export { dateText, parseDate } from '../../../../../shared/model/item-form';

const F = (key: string, label: string, kind: FieldKind = 'text'): FieldSpec => ({ key, label, kind });

/** The fields of an item type, in the order a researcher fills them; any other field the item has follows. */
export function fieldsFor(type: CslItemType, csl?: CslItem): FieldSpec[] {
  const base = [...typeFields(type)];
  if (!csl) return base;
  const shown = new Set(base.map((f) => f.key));
  const extra = Object.keys(csl)
    .filter((k) => !shown.has(k) && !HIDDEN.has(k) && isScalar(csl[k]))
    .sort()
    .map((k) => F(k, k, 'text'));
  return [...base, ...extra];
}

/** Fields with their own editor (creators, abstract, key, type) or none (ids, custom data). */
const HIDDEN = new Set(['id', 'type', 'citation-key', 'abstract', 'custom', 'keyword']);

function isScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number';
}

/** The fields that may carry CSL's rich text (<i>, <b>, <sup>, <span class="nocase">…). */
const MARKUP_FIELDS = new Set(['title', 'title-short', 'container-title', 'collection-title']);

/**
 * Whether a field shows its value rendered (through SafeMarkup's allowlist) until it is edited as
 * raw text: a rich-text field whose value has markup in it. Other values are edited in place.
 */
export function showsMarkup(key: string, value: string): boolean {
  return MARKUP_FIELDS.has(key) && looksLikeMarkup(value);
}

/** A field as the text its input shows. */
export function readField(csl: CslItem, key: string): string {
  const value = csl[key];
  if (value === undefined || value === null) return '';
  if (isDateField(key)) return dateText(value as CslDate);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** The fields whose text may hold line breaks; Enter in any other field saves it instead. */
export const MULTILINE_FIELDS: ReadonlySet<string> = new Set(['abstract', 'note']);

/** The item with one field set from its input's text; an empty text removes the field. */
export function applyField(csl: CslItem, key: string, text: string): CslItem {
  const next: CslItem = { ...csl };
  // Only the abstract and Extra hold lines; elsewhere (a title pasted from a PDF, Enter) a line break
  // is a space, as BibTeX and CSL read it.
  const trimmed = MULTILINE_FIELDS.has(key) ? text : text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  if (trimmed.trim() === '') {
    delete next[key];
    return next;
  }
  if (isDateField(key)) next[key] = parseDate(trimmed);
  else next[key] = trimmed;
  return next;
}

// ── creators ──

/**
 * The roles the details column edits: every CSL name variable, so no creator an item has is hidden or
 * lost by an edit. The role picker offers the item type's roles (typeCreators) and the row's own.
 */
export const CREATOR_ROLES = CSL_NAME_FIELDS;
export type CreatorRole = CslNameField;

export const ROLE_LABELS = CREATOR_ROLE_LABELS;

/** The roles a row's picker offers for an item type, with the type's names for them, and the row's own. */
export function roleChoices(type: string, current?: CreatorRole): { role: CreatorRole; label: string }[] {
  const own = typeCreators(type).map((c) => ({ role: c.role, label: c.label }));
  if (current && !own.some((c) => c.role === current)) own.push({ role: current, label: ROLE_LABELS[current] });
  return own;
}

export interface EditableCreator {
  role: CreatorRole;
  /** One field (an institution, a name that must not be split) instead of family and given. */
  single: boolean;
  family: string;
  given: string;
  literal: string;
  /** The name's other CSL parts (particles, suffix), kept through an edit. */
  rest: Omit<CslName, 'family' | 'given' | 'literal'>;
}

export function creatorsFromCsl(csl: CslItem): EditableCreator[] {
  const out: EditableCreator[] = [];
  for (const role of CREATOR_ROLES) {
    const names = csl[role];
    if (!Array.isArray(names)) continue;
    for (const name of names as CslName[]) {
      const { family, given, literal, ...rest } = name;
      const single = !!literal && !family;
      out.push({ role, single, family: family ?? '', given: given ?? '', literal: literal ?? '', rest });
    }
  }
  return out;
}

/** The item with its creators replaced, in the given order; rows with no name are left out. */
export function applyCreators(csl: CslItem, creators: readonly EditableCreator[]): CslItem {
  const next: CslItem = { ...csl };
  for (const role of CREATOR_ROLES) delete next[role];
  for (const c of creators) {
    const name: CslName = { ...c.rest };
    if (c.single) {
      if (!c.literal.trim()) continue;
      name.literal = c.literal.trim();
    } else {
      if (!c.family.trim() && !c.given.trim()) continue;
      if (c.family.trim()) name.family = c.family.trim();
      if (c.given.trim()) name.given = c.given.trim();
    }
    const list = (next[c.role] as CslName[] | undefined) ?? [];
    next[c.role] = [...list, name];
  }
  return next;
}

export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return [...list];
  const next = [...list];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

// ── evidence and notices ──

/** "just now", "5 minutes ago", "3 days ago": the age of cached data. */
export function ageText(fetchedAt: number, now: number): string {
  const s = Math.max(0, Math.round((now - fetchedAt) / 1000));
  if (s < 60) return 'just now';
  const units: [number, string][] = [
    [365 * 86400, 'year'],
    [30 * 86400, 'month'],
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (s >= size) {
      const n = Math.floor(s / size);
      return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
    }
  }
  return 'just now';
}

export type TallyView =
  | { kind: 'no-doi'; message: string }
  | { kind: 'not-fetched'; message: string }
  | { kind: 'unknown'; message: string; age: string }
  | {
      kind: 'found';
      supporting: number;
      contrasting: number;
      mentioning: number;
      unclassified: number;
      total: number;
      citingPublications: number | null;
      age: string;
      message: string;
    };

/** The tally bar's three distinct empty states (no DOI, never fetched, unknown to the service) and its counts. */
export function tallyView(doi: string | null, tally: TallyState, now: number): TallyView {
  if (!doi) return { kind: 'no-doi', message: 'No DOI: citation evidence needs one.' };
  switch (tally.state) {
    case 'not-fetched':
      return { kind: 'not-fetched', message: 'Citation evidence not fetched yet.' };
    case 'unknown':
      return {
        kind: 'unknown',
        message: 'The citation service has no evidence for this DOI.',
        age: ageText(tally.fetchedAt, now),
      };
    case 'found': {
      const { supporting, contrasting, mentioning, unclassified, total, citingPublications } = tally;
      const message =
        total === 0
          ? 'No citation statements yet.'
          : `${supporting} supporting, ${contrasting} contrasting, ${mentioning} mentioning`;
      return {
        kind: 'found',
        supporting,
        contrasting,
        mentioning,
        unclassified,
        total,
        citingPublications,
        age: ageText(tally.fetchedAt, now),
        message,
      };
    }
  }
}

export interface NoticeLike {
  status?: string;
  date?: string;
  noticeDoi?: string;
  urls?: string[];
}

export interface NoticeBanner {
  severity: 'retracted' | 'withdrawn' | 'concern';
  title: string;
  text: string;
}

/** The banner for the gravest editorial notice, if any: retraction, withdrawal, then expression of concern. */
const NOTICE_DATE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A notice's date as the service sends it ("1986-9-8", "2001-04", "2003") in words; anything else as it came. */
export function noticeDate(text: string): string {
  const m = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/.exec(text.trim());
  if (!m) return text;
  const [year, month, day] = [Number(m[1]), m[2] ? Number(m[2]) : null, m[3] ? Number(m[3]) : null];
  if (month === null || month < 1 || month > 12) return String(year);
  if (day === null || day < 1 || day > 31)
    return new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      Date.UTC(year, month - 1, 1),
    );
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCDate() === day ? NOTICE_DATE.format(date) : text;
}

export function noticeBanner(
  notices: readonly NoticeLike[],
  retracted: boolean | null | undefined,
): NoticeBanner | null {
  const has = (status: string) => notices.find((n) => n.status === status);
  const r = has('Retracted');
  if (r || retracted === true) {
    return {
      severity: 'retracted',
      title: 'This paper has been retracted',
      text: `A retraction notice${r?.date ? ` of ${noticeDate(r.date)}` : ''} says its findings should not be relied on. Check the notice before citing it.`,
    };
  }
  const w = has('Withdrawn');
  if (w)
    return {
      severity: 'withdrawn',
      title: 'This paper has been withdrawn',
      text: `It was withdrawn${w.date ? ` on ${noticeDate(w.date)}` : ''}. Check the notice before citing it.`,
    };
  const c = has('Has expression of concern');
  if (c)
    return {
      severity: 'concern',
      title: 'Expression of concern',
      text: `The publisher raised a concern about this paper${c.date ? ` on ${noticeDate(c.date)}` : ''}. Read the notice before relying on it.`,
    };
  return null;
}

/** A DOI as a link: only well-formed DOIs, always to doi.org, every character URL-encoded where needed. */
export function doiUrl(doi: string | null | undefined): string | null {
  if (!doi || !/^10\.\d{4,9}\/\S+$/.test(doi)) return null;
  return `https://doi.org/${doi.split('/').map(encodeURIComponent).join('/')}`;
}

/** Only http(s) URLs become links. */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}
