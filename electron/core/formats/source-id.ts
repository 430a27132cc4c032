// The ids other tools give entries, and which of them are citation keys. pandoc, citeproc and Better
// BibTeX cite a CSL-JSON item by its id; RIS has an ID tag. Some tools put their database's record
// number or address there instead, which nobody cites.
import { citationKeyProblem } from '../../../shared/model/citekey';

/**
 * Why an id a file gives an entry (CSL-JSON id, RIS ID) is not a citation key, or null when it is
 * one. Numbers (Zotero's, Mendeley's and EndNote's record numbers), URLs and Zotero's "library/KEY"
 * ids identify a record in the tool that wrote the file, not a key anybody cites; other ids are
 * keys, as pandoc and Better BibTeX read them.
 */
export function idKeyProblem(id: string): string | null {
  if (/^\d+$/.test(id)) return 'it is a number, as Zotero, Mendeley and EndNote number their records';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(id) || /^urn:/i.test(id)) return 'it is a URL';
  if (/^\d+\/[A-Z0-9]{8}$/.test(id)) return 'it is a Zotero item id';
  const problem = citationKeyProblem(id);
  return problem === null ? null : problem.replace(/^A citation key /, 'a citation key ').replace(/\.$/, '');
}
