// The abstract syntax of the library's search language. The parser (here, shared, so the renderer can
// check a query as it is typed) produces it; the core compiles it to SQL.
import type { CslItemType } from '../csl';

/** Where in the query text a node or an error is: [start, end) in UTF-16 code units. */
export interface Span {
  start: number;
  end: number;
}

/** Text fields searched with the full-text index. `any` is a bare word: every indexed field. */
export type TextField = 'any' | 'title' | 'author' | 'abstract' | 'container' | 'note';
export type CountField = 'supporting' | 'contrasting' | 'mentioning' | 'citing';
export type NoticeKind = 'any' | 'none' | 'retracted' | 'correction' | 'erratum' | 'concern' | 'withdrawn' | 'comment';

/** An inclusive numeric range; a missing bound is open. */
export interface Range {
  min?: number;
  max?: number;
}

export type QueryNode =
  | { kind: 'and'; children: QueryNode[]; span: Span }
  | { kind: 'or'; children: QueryNode[]; span: Span }
  | { kind: 'not'; child: QueryNode; span: Span }
  /** Words (each a prefix unless quoted) or one quoted phrase. */
  | { kind: 'text'; field: TextField; value: string; phrase: boolean; span: Span }
  /** Words or a phrase in the text of the item's attached PDFs (their own index, pdf_text_fts). */
  | { kind: 'fulltext'; value: string; phrase: boolean; span: Span }
  | { kind: 'year'; range: Range; span: Span }
  | { kind: 'count'; field: CountField; range: Range; span: Span }
  | { kind: 'type'; value: CslItemType; span: Span }
  | { kind: 'doi'; value: string; prefix: boolean; span: Span }
  | { kind: 'key'; value: string; prefix: boolean; span: Span }
  | { kind: 'tag'; value: string; prefix: boolean; span: Span }
  | { kind: 'collection'; value: string; span: Span }
  | { kind: 'retracted'; value: boolean; span: Span }
  | { kind: 'notice'; value: NoticeKind; span: Span }
  /** Items the service cache links to a published version (`published`: preprints) or to a preprint (`preprint`). */
  | { kind: 'version'; value: 'published' | 'preprint'; span: Span };

export class QuerySyntaxError extends Error {
  readonly span: Span;
  constructor(message: string, span: Span) {
    super(message);
    this.name = 'QuerySyntaxError';
    this.span = span;
  }
}
