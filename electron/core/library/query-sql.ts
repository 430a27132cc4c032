// Compiles the search language's AST to SQL over `items AS i`. Top-level conjuncts made only of text
// become one FTS5 MATCH expression, which also ranks the results with bm25; text nested under OR/NOT
// next to other predicates becomes an `i.id IN (… MATCH …)` subquery.
import type { QueryNode, Range } from '../../../shared/model/query';
import { joinSql, sql, SqlFragment } from './sql';

const FTS_COLUMN: Record<string, string | null> = {
  any: null,
  title: 'title',
  author: 'creators',
  abstract: 'abstract',
  container: 'container',
  note: 'notes',
};

export interface CompiledQuery {
  /** An FTS5 expression every result matches, driving the query and its ranking; null when none. */
  match: string | null;
  /** Other conditions on `i`. */
  where: SqlFragment;
}

const TOKEN = /[\p{L}\p{N}\p{M}_]+/gu;

/** Words (each a prefix) or a quoted phrase as FTS5 syntax; null if it holds no searchable token. */
export function ftsTerms(value: string, phrase: boolean): string | null {
  if (phrase) {
    const prefix = value.endsWith('*');
    const tokens = (prefix ? value.slice(0, -1) : value).match(TOKEN);
    if (!tokens) return null;
    return `"${tokens.join(' ')}"${prefix ? '*' : ''}`;
  }
  const tokens = value.match(TOKEN);
  if (!tokens) return null;
  // Every bare word is a prefix, so results appear as the user types.
  const expr = tokens.map((t) => `"${t}"*`).join(' AND ');
  return tokens.length > 1 ? `(${expr})` : expr;
}

/** One text leaf as FTS5 syntax; null if it holds no searchable token (e.g. only punctuation). */
function ftsLeaf(node: Extract<QueryNode, { kind: 'text' }>): string | null {
  const col = FTS_COLUMN[node.field] ?? null;
  const expr = ftsTerms(node.value, node.phrase);
  if (expr === null) return null;
  return col ? `{${col}} : (${expr})` : expr;
}

/** FTS5 text for a subtree made only of text leaves; undefined if it has other leaves or a lone NOT. */
function ftsTree(node: QueryNode): string | null | undefined {
  switch (node.kind) {
    case 'text':
      return ftsLeaf(node);
    case 'or': {
      const parts = node.children.map(ftsTree);
      if (parts.some((p) => p === undefined)) return undefined;
      // A child without tokens matches everything, and so does the OR.
      if (parts.some((p) => p === null)) return null;
      return `(${parts.join(' OR ')})`;
    }
    case 'and': {
      const pos: string[] = [];
      const neg: string[] = [];
      for (const c of node.children) {
        if (c.kind === 'not') {
          const inner = ftsTree(c.child);
          if (inner === undefined) return undefined;
          if (inner !== null) neg.push(inner);
        } else {
          const p = ftsTree(c);
          if (p === undefined) return undefined;
          if (p !== null) pos.push(p);
        }
      }
      if (pos.length === 0) return neg.length ? undefined : null;
      let expr = pos.length === 1 ? pos[0]! : `(${pos.join(' AND ')})`;
      for (const n of neg) expr = `(${expr} NOT ${n})`;
      return expr;
    }
    default:
      return undefined;
  }
}

function range(column: SqlFragment, r: Range): SqlFragment {
  const parts: SqlFragment[] = [];
  if (r.min !== undefined) parts.push(sql`${column} >= ${r.min}`);
  if (r.max !== undefined) parts.push(sql`${column} <= ${r.max}`);
  return parts.length ? joinSql(parts, ' AND ') : sql`${column} IS NOT NULL`;
}

const col = (name: 'i.year' | 'i.supporting' | 'i.contrasting' | 'i.mentioning' | 'i.citing'): SqlFragment =>
  new SqlFragment(name, []);

const NOTICE_KIND_TEXT: Record<string, string> = {
  retracted: '%,retracted,%',
  correction: '%,has correction,%',
  erratum: '%,has erratum,%',
  concern: '%,has expression of concern,%',
  withdrawn: '%,withdrawn,%',
  comment: '%,comment,%',
};

/** `column` starts with `prefix`, as an index range (LIKE with ESCAPE would scan the whole table). */
const prefixRange = (column: SqlFragment, prefix: string): SqlFragment =>
  sql`(${column} >= ${prefix} AND ${column} < ${`${prefix}\u{10ffff}`})`;

/**
 * The condition "the item has a PDF page matching this FTS5 expression over pdf_text_fts"; the Library
 * gives one that evaluates the match once per search (fulltext-match.ts).
 */
export type FulltextCondition = (expr: string) => SqlFragment;

// The PDFs' own index (migrations 0017, 0018), keyed by checksum: items reach it through their attachments.
const fulltextSubquery: FulltextCondition = (expr) =>
  sql`i.id IN (SELECT a.item_id FROM attachments a WHERE a.sha256 IN (SELECT p.sha256 FROM pdf_text_fts f CROSS JOIN pdf_text_pages p ON p.id = f.rowid WHERE pdf_text_fts MATCH ${expr}))`;

function predicate(node: QueryNode, fulltext: FulltextCondition): SqlFragment {
  const fts = ftsTree(node);
  if (fts === null) return sql`1`;
  if (fts !== undefined) return sql`i.id IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ${fts})`;
  switch (node.kind) {
    case 'and':
      return sql`(${joinSql(
        node.children.map((c) => predicate(c, fulltext)),
        ' AND ',
      )})`;
    case 'or':
      return sql`(${joinSql(
        node.children.map((c) => predicate(c, fulltext)),
        ' OR ',
      )})`;
    case 'not':
      return sql`NOT (${predicate(node.child, fulltext)})`;
    case 'text':
      return sql`1`;
    case 'fulltext': {
      const expr = ftsTerms(node.value, node.phrase);
      return expr === null ? sql`1` : fulltext(expr);
    }
    case 'year':
      return range(col('i.year'), node.range);
    case 'count':
      return range(col(`i.${node.field}`), node.range);
    case 'type':
      return sql`i.type = ${node.value}`;
    case 'doi':
      return node.prefix ? prefixRange(new SqlFragment('i.doi', []), node.value) : sql`i.doi = ${node.value}`;
    case 'key':
      return node.prefix
        ? prefixRange(new SqlFragment('i.citation_key', []), node.value)
        : sql`(i.citation_key = ${node.value} OR i.id IN (SELECT item_id FROM key_aliases WHERE alias = ${node.value}))`;
    case 'tag':
      return node.prefix
        ? sql`i.id IN (SELECT it.item_id FROM item_tags it JOIN tags t ON t.id = it.tag_id WHERE ${prefixRange(new SqlFragment('t.name', []), node.value)})`
        : sql`i.id IN (SELECT it.item_id FROM item_tags it JOIN tags t ON t.id = it.tag_id WHERE t.name = ${node.value})`;
    case 'collection':
      return sql`i.id IN (SELECT ci.item_id FROM collection_items ci WHERE ci.collection_id IN (
        WITH RECURSIVE sub(id) AS (SELECT id FROM collections WHERE name = ${node.value} COLLATE NOCASE AND trashed_at IS NULL
                                   UNION SELECT c.id FROM collections c JOIN sub ON c.parent_id = sub.id AND c.trashed_at IS NULL)
        SELECT id FROM sub))`;
    // Evidence filters start from the (small) cache table and reach items by DOI; CROSS JOIN fixes
    // that order, which the planner otherwise reverses into a scan of every item's DOI.
    case 'retracted':
      return node.value
        ? sql`i.id IN (SELECT x.id FROM service_notices n CROSS JOIN items x ON x.doi = n.doi WHERE n.retracted = 1)`
        : sql`i.id NOT IN (SELECT x.id FROM service_notices n CROSS JOIN items x ON x.doi = n.doi WHERE n.retracted = 1)`;
    case 'notice':
      if (node.value === 'any')
        return sql`i.id IN (SELECT x.id FROM service_notices n CROSS JOIN items x ON x.doi = n.doi WHERE n.notice_count > 0)`;
      if (node.value === 'none')
        return sql`i.id NOT IN (SELECT x.id FROM service_notices n CROSS JOIN items x ON x.doi = n.doi WHERE n.notice_count > 0)`;
      return sql`i.id IN (SELECT x.id FROM service_notices n CROSS JOIN items x ON x.doi = n.doi WHERE n.kinds LIKE ${NOTICE_KIND_TEXT[node.value]!})`;
    // A link counts from either side (versions.ts): the preprint's publicationLinks or the published paper's preprintLinks.
    case 'version': {
      const [own, reverse] =
        node.value === 'published' ? (['publication', 'preprint'] as const) : (['preprint', 'publication'] as const);
      return sql`i.id IN (SELECT x.id FROM service_paper_links l CROSS JOIN items x ON x.doi = l.doi WHERE l.kind = ${own}
        UNION SELECT x.id FROM service_paper_links l CROSS JOIN items x ON x.doi = l.linked_doi WHERE l.kind = ${reverse})`;
    }
  }
}

export function compileQuery(ast: QueryNode | null, fulltext: FulltextCondition = fulltextSubquery): CompiledQuery {
  if (!ast) return { match: null, where: sql`1` };
  const whole = ftsTree(ast);
  if (whole === null) return { match: null, where: sql`1` };
  if (whole !== undefined) return { match: whole, where: sql`1` };
  const conjuncts = ast.kind === 'and' ? ast.children : [ast];
  const matches: string[] = [];
  const rest: QueryNode[] = [];
  for (const c of conjuncts) {
    const f = c.kind === 'not' ? undefined : ftsTree(c);
    if (f === null) continue;
    if (f !== undefined) matches.push(f);
    else rest.push(c);
  }
  return {
    match: matches.length ? matches.join(' AND ') : null,
    where: rest.length
      ? joinSql(
          rest.map((c) => predicate(c, fulltext)),
          ' AND ',
        )
      : sql`1`,
  };
}

/**
 * The `fulltext:` terms of a query as one FTS5 expression over pdf_text_fts (any of them), for the
 * pages and snippets shown with the results; null when the query has none (terms under NOT show nothing).
 */
export function fulltextMatchOf(ast: QueryNode | null): string | null {
  const found: string[] = [];
  const walk = (node: QueryNode): void => {
    if (node.kind === 'fulltext') {
      const expr = ftsTerms(node.value, node.phrase);
      if (expr !== null) found.push(expr);
    } else if (node.kind === 'and' || node.kind === 'or') node.children.forEach(walk);
  };
  if (ast) walk(ast);
  return found.length === 0 ? null : found.join(' OR ');
}
