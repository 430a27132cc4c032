// The reference-file formats Citewise writes, in one table that every surface reads: the app's Export
// dialog, `citewise export`, auto-export, and the handlers that answer them. Each format has the id the
// code uses, the name a user types or an IPC payload carries, a label, a MIME type and an extension.

export const REFERENCE_FORMATS = ['bibtex', 'biblatex', 'ris', 'csljson'] as const;
export type ReferenceFormat = (typeof REFERENCE_FORMATS)[number];

/** The names users type (`--format`, the export request); `csljson` is also accepted as a name. */
export const REFERENCE_FORMAT_NAMES = ['bibtex', 'biblatex', 'ris', 'csl-json'] as const;
export type ReferenceFormatName = (typeof REFERENCE_FORMAT_NAMES)[number];

export interface ReferenceFormatInfo {
  name: ReferenceFormatName;
  label: string;
  mime: string;
  extension: string;
  /** Where the format carries the items' notes when asked to (docs/formats.md, "Notes in exports"); none: it has no place for them. */
  notes?: string;
}

export const REFERENCE_FORMAT_INFO: Readonly<Record<ReferenceFormat, ReferenceFormatInfo>> = {
  bibtex: { name: 'bibtex', label: 'BibTeX', mime: 'application/x-bibtex', extension: 'bib', notes: 'annote field' },
  biblatex: {
    name: 'biblatex',
    label: 'BibLaTeX',
    mime: 'application/x-bibtex',
    extension: 'bib',
    notes: 'annote field',
  },
  ris: { name: 'ris', label: 'RIS', mime: 'application/x-research-info-systems', extension: 'ris', notes: 'N1 lines' },
  csljson: { name: 'csl-json', label: 'CSL-JSON', mime: 'application/vnd.citationstyles.csl+json', extension: 'json' },
};

/** The format a name stands for (`csl-json` and `csljson` alike, any case); undefined for any other name. */
export function referenceFormatNamed(name: string): ReferenceFormat | undefined {
  const wanted = name.trim().toLowerCase();
  return REFERENCE_FORMATS.find((f) => f === wanted || REFERENCE_FORMAT_INFO[f].name === wanted);
}

const byFormat = <K extends keyof ReferenceFormatInfo>(
  key: K,
): Readonly<Record<ReferenceFormat, ReferenceFormatInfo[K]>> =>
  Object.fromEntries(REFERENCE_FORMATS.map((f) => [f, REFERENCE_FORMAT_INFO[f][key]])) as Record<
    ReferenceFormat,
    ReferenceFormatInfo[K]
  >;
export const REFERENCE_FORMAT_LABELS = byFormat('label');
export const REFERENCE_FORMAT_EXTENSIONS = byFormat('extension');
