// What became of the files a .bib's `file` fields name when it was imported (electron/core/pdf/
// attach-files.ts attaches them): one line per file, for the import dialog and `citewise import`.

export type AttachedFileStatus = 'attached' | 'duplicate' | 'missing' | 'failed' | 'online';

export interface AttachedFile {
  itemId: number;
  /** The entry: its citation key and title. */
  key: string;
  title: string | null;
  /** The path as the field writes it. */
  written: string;
  /** Where the file was found (null: not found, or an online link). */
  path: string | null;
  status: AttachedFileStatus;
  pdf: boolean;
  /** Why it was not attached (missing: where it was looked for). */
  reason?: string;
  /** Attached, and another item has the same file too. */
  alsoOn?: number;
}

export interface AttachFilesReport {
  attached: number;
  /** The item had the file already (the same .bib imported again). */
  duplicates: number;
  missing: number;
  failed: number;
  /** Links to web pages, not files: left in the entry's field, not attached. */
  online: number;
  /** PDFs attached, whose text is indexed next. */
  pdfs: number;
  files: AttachedFile[];
}

/** What an import preview finds of linked files, to ask where relative paths start before importing. */
export interface LinkedFilesPreview {
  /** Files named in `file` fields. */
  links: number;
  /** Of them, paths relative to a folder (the .bib's, which an upload does not say). */
  relative: number;
  /** JabRef's fileDirectory folders the file names (@Comment{jabref-meta: fileDirectory:…}). */
  folders: string[];
}

/** "3 files attached, 1 not found." */
export function attachSummary(r: AttachFilesReport): string {
  const n = (k: number, one: string, many = `${one}s`): string => `${k} ${k === 1 ? one : many}`;
  const parts: string[] = [];
  if (r.attached > 0) parts.push(`${n(r.attached, 'file')} attached`);
  if (r.duplicates > 0) parts.push(`${r.duplicates} already attached`);
  if (r.missing > 0) parts.push(`${r.missing} not found`);
  if (r.failed > 0) parts.push(`${r.failed} not attached`);
  if (r.online > 0) parts.push(`${n(r.online, 'web link')} left in the entries`);
  if (parts.length === 0) return 'No files were named.';
  const text = parts.join(', ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}
