// A paper's metadata from the service (fetched for an imported DOI) → a CSL item, so DOI-list imports
// end up as the same items as file imports. The service's types are Crossref's.
import type { CslItem, CslItemType, CslName } from '../../../../shared/model/csl';
import { parseDoi } from '../../../../shared/model/doi';
import { serviceAuthorName } from '../../../../shared/model/person-name';
import type { Paper } from '../../../../shared/service';

const CROSSREF_TYPES: Readonly<Record<string, CslItemType>> = {
  'journal-article': 'article-journal',
  'proceedings-article': 'paper-conference',
  'book-chapter': 'chapter',
  'book-section': 'chapter',
  'book-part': 'chapter',
  'reference-entry': 'entry-encyclopedia',
  book: 'book',
  monograph: 'book',
  'edited-book': 'book',
  'reference-book': 'book',
  'posted-content': 'article',
  dissertation: 'thesis',
  report: 'report',
  'report-component': 'report',
  dataset: 'dataset',
  standard: 'standard',
  'peer-review': 'review',
  component: 'document',
  other: 'document',
};

export function paperToCsl(paper: Paper): CslItem {
  const doi = parseDoi(paper.doi);
  const item: CslItem = {
    id: doi.ok ? doi.doi : `paper-${paper.id}`,
    type: CROSSREF_TYPES[paper.type] ?? 'article-journal',
    title: paper.title,
  };
  const authors = [...paper.authors]
    .sort((a, b) => a.authorSequenceNumber - b.authorSequenceNumber)
    .map(serviceAuthorName)
    .filter((n): n is CslName => n !== null);
  if (authors.length > 0) item.author = authors;
  if (paper.journal) item['container-title'] = paper.journal;
  if (paper.shortJournal) item['container-title-short'] = paper.shortJournal;
  if (paper.publisher) item.publisher = paper.publisher;
  if (paper.issns[0]) item.ISSN = paper.issns[0];
  if (paper.volume) item.volume = paper.volume;
  if (paper.issue) item.issue = paper.issue;
  if (paper.page) item.page = paper.page;
  if (Number.isInteger(paper.year) && paper.year > 0) item.issued = { 'date-parts': [[paper.year]] };
  item.DOI = doi.ok ? doi.doi : paper.doi;
  if (paper.abstract) item.abstract = paper.abstract;
  if (paper.keywords && paper.keywords.length > 0) item.keyword = paper.keywords.join(', ');
  return item;
}
