// Which importer a file or paste needs: the extension when it is telling, the content otherwise.
import { FormatError } from './limits';
import type { ImportFormat } from './result';

const BY_EXTENSION: Readonly<Record<string, ImportFormat>> = {
  bib: 'bibtex',
  bibtex: 'bibtex',
  biblatex: 'bibtex',
  ris: 'ris',
  json: 'csljson',
  csljson: 'csljson',
};

export function detectFormat(text: string, fileName?: string): ImportFormat {
  const ext = fileName ? /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() : undefined;
  if (ext !== undefined && BY_EXTENSION[ext] !== undefined) return BY_EXTENSION[ext];
  const head = text.slice(0, 64 * 1024).replace(/^\uFEFF/, '');
  const first = /\S/.exec(head)?.[0];
  // {{10.1016/…}} (a DOI as Web of Science braces it) starts a DOI list, not JSON.
  if ((first === '[' || first === '{') && !/^\s*\{+\s*(?:doi:?\s*)?10\.\d{4,9}\//i.test(head)) return 'csljson';
  if (/^\s*TY {1,2}-/m.test(head)) return 'ris';
  if (/@[a-zA-Z]+\s*[{(]/.test(head)) return 'bibtex';
  if (/\b10\.\d{4,9}\//.test(head)) return 'doi-list';
  throw new FormatError(
    'The format was not recognised: Citewise imports BibTeX/BibLaTeX (.bib), RIS (.ris), CSL-JSON (.json) and lists of DOIs.',
  );
}
