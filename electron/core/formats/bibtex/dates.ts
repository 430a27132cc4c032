// Dates: biblatex's ISO 8601/EDTF subset (2020, 2020-05, 2020-05-17, ranges with "/", "~" or "?" for
// circa) and BibTeX's year + month (+ day). Anything else is kept as a literal date, never dropped.
import type { CslDate, CslDateParts } from '../../../../shared/model/csl';

const PART = /^(-?\d{1,4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?([~?%]?)$/;

function parsePart(text: string): { parts: CslDateParts; circa: boolean } | undefined {
  const m = PART.exec(text.trim());
  if (!m) return undefined;
  // EDTF and ISO 8601 number years astronomically (0000 is 1 BCE, -0043 is 44 BCE); CSL counts BCE
  // years as negative numbers with no year 0 (-44 is 44 BC). pandoc reads biblatex dates the same way.
  const written = Number(m[1]);
  const year = written <= 0 ? written - 1 : written;
  const month = m[2] === undefined ? undefined : Number(m[2]);
  const day = m[3] === undefined ? undefined : Number(m[3]);
  if (month !== undefined && (month < 1 || month > 12)) {
    // EDTF seasons 21–24 → CSL season
    return undefined;
  }
  if (day !== undefined && (day < 1 || day > 31)) return undefined;
  const parts: CslDateParts = day !== undefined ? [year, month, day] : month !== undefined ? [year, month] : [year];
  return { parts, circa: m[4] !== '' };
}

/** A CSL date for an EDTF-like value, or a literal date. */
export function parseDate(value: string): CslDate {
  const text = value.trim();
  if (text.includes('/')) {
    const [a = '', b = ''] = text.split('/', 2);
    const from = a === '' || a === '..' ? undefined : parsePart(a);
    const to = b === '' || b === '..' ? undefined : parsePart(b);
    if ((from || a === '' || a === '..') && (to || b === '' || b === '..') && (from || to)) {
      const date: CslDate = { 'date-parts': from && to ? [from.parts, to.parts] : [(from ?? to)!.parts] };
      if (from?.circa || to?.circa) date.circa = true;
      if (!from || !to) return { literal: text };
      return date;
    }
    return { literal: text };
  }
  const one = parsePart(text);
  if (!one) return { literal: text };
  const date: CslDate = { 'date-parts': [one.parts] };
  if (one.circa) date.circa = true;
  return date;
}

/** The EDTF text for a CSL date (biblatex `date`, `urldate`…). */
export function formatDate(date: CslDate): string | undefined {
  const parts = date['date-parts'];
  if (Array.isArray(parts) && parts.length > 0 && Array.isArray(parts[0]) && parts[0].length > 0) {
    const text = parts
      .slice(0, 2)
      .map((p) => formatParts(p))
      .join('/');
    return date.circa ? `${text}~` : text;
  }
  if (typeof date.literal === 'string' && date.literal !== '') return date.literal;
  if (typeof date.raw === 'string' && date.raw !== '') return date.raw;
  return undefined;
}

function formatParts(p: CslDateParts): string {
  const [y, m, d] = p;
  const csl = Number(y);
  // Back to the astronomical year (CSL -44, 44 BC → -0043).
  const year = csl < 0 ? csl + 1 : csl;
  let out =
    year >= 0 && year < 10000
      ? String(year).padStart(4, '0')
      : year < 0 && year > -10000
        ? `-${String(-year).padStart(4, '0')}`
        : String(year);
  if (m !== undefined && m !== null) out += `-${String(m).padStart(2, '0')}`;
  if (m !== undefined && m !== null && d !== undefined && d !== null) out += `-${String(d).padStart(2, '0')}`;
  return out;
}
