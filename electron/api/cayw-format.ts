// Cite-as-you-write: the text a pick becomes, per output format, as Better BibTeX's CAYW endpoint
// writes it (editors paste the answer as it is, so every byte counts). Pure: no library, no I/O.
// The formats that need the library (formatted citations, translate, json with item data) are
// assembled in cayw.ts from these picks.

/** One picked item with what the picker lets the user add to it. */
export interface Pick {
  citationKey: string;
  /** "12-14"; empty or absent: none. */
  locator?: string | undefined;
  /** A CSL locator label (page, chapter, section…); "page" when a locator is given without one. */
  label?: string | undefined;
  prefix?: string | undefined;
  suffix?: string | undefined;
  suppressAuthor?: boolean | undefined;
}

export interface FormatOptions {
  /** latex/natbib/biblatex: the command without the backslash. */
  command?: string | undefined;
  /** pandoc: wrap the citation in [ ]. */
  brackets?: boolean | undefined;
  /** asciidoctor-bibtex: the macro (default cite). */
  cite?: string | undefined;
  /** Per-label abbreviations from the query (?page=&Section=sec.), overriding the defaults. */
  labels?: Readonly<Record<string, string>> | undefined;
}

/** The formats this module writes (the others need the library). */
export const TEXT_FORMATS = [
  'pandoc',
  'latex',
  'cite',
  'citep',
  'citet',
  'natbib',
  'biblatex',
  'mmd',
  'asciidoctor-bibtex',
  'typst',
] as const;
export type TextFormat = (typeof TEXT_FORMATS)[number];

export function isTextFormat(format: string): format is TextFormat {
  return (TEXT_FORMATS as readonly string[]).includes(format);
}

/** Better BibTeX's abbreviations of CSL locator labels. */
export const LOCATOR_ABBREVIATIONS: Readonly<Record<string, string>> = {
  article: 'art.',
  chapter: 'ch.',
  subchapter: 'subch.',
  column: 'col.',
  figure: 'fig.',
  line: 'l.',
  note: 'n.',
  issue: 'no.',
  opus: 'op.',
  page: 'p.',
  paragraph: 'para.',
  subparagraph: 'subpara.',
  part: 'pt.',
  rule: 'r.',
  section: 'sec.',
  subsection: 'subsec.',
  Section: 'Sec.',
  'sub verbo': 'sv.',
  schedule: 'sch.',
  title: 'tit.',
  verse: 'vrs.',
  volume: 'vol.',
};

const labelOf = (p: Pick): string => (p.label && p.label.length > 0 ? p.label : 'page');
const has = (s: string | undefined): s is string => s !== undefined && s.length > 0;

function abbreviation(label: string, overrides: Readonly<Record<string, string>> | undefined): string {
  const own = overrides?.[label];
  if (own !== undefined) return own;
  return LOCATOR_ABBREVIATIONS[label] ?? label;
}

/** "p. 12" / "ch. 3"; in LaTeX-like formats a page needs no label ("12"), unless the query gives one. */
function locatorText(p: Pick, options: FormatOptions, pageUnlabelled: boolean): string {
  const label = labelOf(p);
  const overrides = pageUnlabelled ? { page: '', ...options.labels } : options.labels;
  const abbr = abbreviation(label, overrides);
  return `${abbr} ${p.locator ?? ''}`.trim();
}

/** The optional arguments and key of one LaTeX citation: [prefix][locator, suffix]{key}. */
function latexArgs(p: Pick, options: FormatOptions): string {
  let out = '';
  if (has(p.prefix)) out += `[${p.prefix}]`;
  const locator = has(p.locator) ? locatorText(p, options, true) : '';
  if (locator && has(p.suffix)) out += `[${locator}, ${p.suffix}]`;
  else if (locator) out += `[${locator}]`;
  else if (has(p.suffix)) out += `[${p.suffix}]`;
  else if (has(p.prefix)) out += '[]';
  return `${out}{${p.citationKey}}`;
}

function natbib(picks: readonly Pick[], options: FormatOptions): string {
  if (picks.length === 0) return '';
  const command = options.command || 'cite';
  const plain = picks.every((p) => !has(p.prefix) && !has(p.suffix) && !has(p.locator));
  const suppressed = picks.filter((p) => p.suppressAuthor).length;
  // One command for all keys when nothing sets one citation apart (natbib has no per-key notes).
  if (picks.length > 1 && plain && (suppressed === 0 || suppressed === picks.length)) {
    return `\\${suppressed > 0 ? 'citeyear' : command}{${picks.map((p) => p.citationKey).join(',')}}`;
  }
  return picks.map((p) => `\\${p.suppressAuthor ? 'citeyear' : command}${latexArgs(p, options)}`).join('');
}

function biblatex(picks: readonly Pick[], options: FormatOptions): string {
  if (picks.length === 0) return '';
  let command = options.command || 'autocite';
  if (picks.length === 1) {
    const p = picks[0]!;
    // The starred form hides the author, and only these commands have one that does.
    const star = p.suppressAuthor && /^(auto|paren|)cite$/.test(command) ? '*' : '';
    return `\\${command}${star}${latexArgs(p, options)}`;
  }
  const parts = picks.map((p) => latexArgs(p, options));
  if (parts.some((part) => part.startsWith('['))) {
    // Notes on some keys: the multicite form (\autocites[..]{a}[..]{b}).
    if (!command.endsWith('s')) command += 's';
    return `\\${command}${parts.join('')}`;
  }
  return `\\${command}{${picks.map((p) => p.citationKey).join(',')}}`;
}

function pandoc(picks: readonly Pick[], options: FormatOptions): string {
  const cites = picks.map((p) => {
    let cite = '';
    if (has(p.prefix)) cite += `${p.prefix} `;
    if (p.suppressAuthor) cite += '-';
    cite += `@${p.citationKey}`;
    if (has(p.locator)) cite += `, ${locatorText(p, options, false)}`;
    if (has(p.suffix)) cite += ` ${p.suffix}`;
    return cite;
  });
  const body = cites.join('; ');
  return options.brackets ? `[${body}]` : body;
}

function mmd(picks: readonly Pick[]): string {
  return picks.map((p) => (has(p.prefix) ? `[${p.prefix}][#${p.citationKey}]` : `[#${p.citationKey}][]`)).join('');
}

function asciidoctor(picks: readonly Pick[], options: FormatOptions): string {
  const cites = picks.map((p) =>
    has(p.locator) ? `${p.citationKey}(${locatorText(p, options, true)})` : p.citationKey,
  );
  return `${options.cite || 'cite'}:[${cites.join(', ')}]`;
}

/** Typst's <label> syntax takes only these characters; any other key goes through label("…"). */
const TYPST_LABEL = /^[\p{L}\p{N}_\-:.]+$/u;

function typstString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Content in [ ] is Typst markup: its special characters are escaped so a note stays text. */
function typstContent(s: string): string {
  return s.replace(/[\\\][#*_`$<>@=\-+/~]/g, (c) => `\\${c}`);
}

function typst(picks: readonly Pick[], options: FormatOptions): string {
  return picks
    .map((p) => {
      const label = TYPST_LABEL.test(p.citationKey) ? `<${p.citationKey}>` : `label(${typstString(p.citationKey)})`;
      const args = [label];
      // Typst citations have no prefix; the locator and the suffix make the supplement.
      const supplement = [has(p.locator) ? locatorText(p, options, false) : '', has(p.suffix) ? p.suffix : '']
        .filter(Boolean)
        .join(', ');
      if (supplement) args.push(`supplement: [${typstContent(supplement)}]`);
      if (p.suppressAuthor) args.push('form: "year"');
      return `#cite(${args.join(', ')})`;
    })
    .join(' ');
}

/** The citation text for a pick; '' when nothing was picked. */
export function formatPicks(format: TextFormat, picks: readonly Pick[], options: FormatOptions = {}): string {
  if (picks.length === 0) return '';
  switch (format) {
    case 'pandoc':
      return pandoc(picks, options);
    case 'latex':
    case 'cite':
    case 'natbib':
      return natbib(picks, options);
    case 'citep':
      return natbib(picks, { ...options, command: options.command || 'citep' });
    case 'citet':
      return natbib(picks, { ...options, command: options.command || 'citet' });
    case 'biblatex':
      return biblatex(picks, options);
    case 'mmd':
      return mmd(picks);
    case 'asciidoctor-bibtex':
      return asciidoctor(picks, options);
    case 'typst':
      return typst(picks, options);
  }
}

/**
 * One scannable cite per pick ({ prefix | -Author, Year | p. 12 | suffix | id }) for the RTF/ODF
 * scanner; `labels` holds each pick's "Author, Year" and `ids` its item URI part.
 */
export function scannableCite(
  picks: readonly Pick[],
  labels: readonly string[],
  ids: readonly string[],
  options: FormatOptions = {},
): string {
  return picks
    .map((p, i) => {
      const fields = [
        p.prefix ?? '',
        `${p.suppressAuthor ? '-' : ''}${(labels[i] ?? '').replace(/[|{}]/g, '')}`,
        has(p.locator) ? locatorText(p, options, false) : '',
        p.suffix ?? '',
        ids[i] ?? '',
      ];
      return `{ ${fields.join(' | ').replace(/ +/g, ' ').trim()} }`;
    })
    .join('');
}
