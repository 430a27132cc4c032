// Mendeley's document types, as its API, its CSL-JSON and its exports spell them ("book_section",
// "Book Section", "BookSection", "web page"), → the CSL type. Without this they import as documents.
import type { CslItemType } from '../../../shared/model/csl';

const MENDELEY: Readonly<Record<string, CslItemType>> = {
  journal: 'article-journal',
  journalarticle: 'article-journal',
  book: 'book',
  booksection: 'chapter',
  conferenceproceedings: 'paper-conference',
  workingpaper: 'report',
  report: 'report',
  webpage: 'webpage',
  thesis: 'thesis',
  magazinearticle: 'article-magazine',
  newspaperarticle: 'article-newspaper',
  statute: 'legislation',
  patent: 'patent',
  computerprogram: 'software',
  hearing: 'hearing',
  televisionbroadcast: 'broadcast',
  encyclopediaarticle: 'entry-encyclopedia',
  case: 'legal_case',
  film: 'motion_picture',
  bill: 'bill',
  generic: 'document',
};

/** The CSL type of a Mendeley type name, in any of its spellings; undefined for anything else. */
export function mendeleyType(name: string): CslItemType | undefined {
  return MENDELEY[name.toLowerCase().replace(/[\s_-]+/g, '')];
}
