// The choices of the export dialog and of "copy citation": formats with their labels (the styles'
// and locales' labels are shared/model's). The contract's lists are values of shared/ipc, which the renderer may not import, so they
// are restated here and checked against the contract's types.
import type { ExportCiteFormat, ExportFileFormat } from '../../../../../shared/ipc';
import {
  REFERENCE_FORMAT_INFO,
  REFERENCE_FORMATS,
  referenceFormatNamed,
} from '../../../../../shared/model/reference-formats';

export type ExportFormat = ExportFileFormat | ExportCiteFormat;

export interface FormatChoice {
  id: ExportFormat;
  label: string;
  /** A bibliography in the chosen style (style and locale apply) rather than a data file. */
  bibliography: boolean;
}

export const FORMATS: readonly FormatChoice[] = [
  ...REFERENCE_FORMATS.map((f): FormatChoice => {
    const { name, label, extension } = REFERENCE_FORMAT_INFO[f];
    return { id: name, label: `${label} (.${extension})`, bibliography: false };
  }),
  { id: 'text', label: 'Bibliography as plain text (.txt)', bibliography: true },
  { id: 'html', label: 'Bibliography as HTML (.html)', bibliography: true },
  { id: 'rtf', label: 'Bibliography as RTF, for Word (.rtf)', bibliography: true },
];

export function isBibliography(format: ExportFormat): boolean {
  return FORMATS.find((f) => f.id === format)?.bibliography ?? false;
}

/** Where a format puts the items' notes (RIS "N1 lines", BibTeX "annote"); undefined: it has no place for them. */
export function notesPlace(format: ExportFormat): string | undefined {
  const file = referenceFormatNamed(format);
  return file ? REFERENCE_FORMAT_INFO[file].notes : undefined;
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what a file name must not hold
const CONTROL_CHARACTERS = /[\u0000-\u001f]+/g;

/** A file name for a download: the scope in words, made safe for every file system. */
export function fileName(label: string, extension: string): string {
  const base =
    label
      .replace(CONTROL_CHARACTERS, ' ')
      .replace(/[\\/:*?"<>|]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 80) || 'bibliography';
  return `${base}.${extension.replace(/^\./, '')}`;
}
