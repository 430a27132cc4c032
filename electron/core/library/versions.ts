// An item's preprints and published versions, from the links the service cache holds (putPapers keeps
// them in service_paper_links). A link counts from either side: the preprint's publicationLinks or
// the published paper's preprintLinks, so one fetched record is enough. Each linked DOI is named with
// what the library's item says, else what the cached service record says; offline, all of it is local.
import type { ItemId } from '../../../shared/model/library';
import type { PaperVersion, PaperVersions } from '../../../shared/model/paper-versions';
import { notFound } from './library-base';
import { sql, type ReadDb } from './sql';

interface VersionRow {
  doi: string;
  item_id: number | null;
  trashed_id: number | null;
  citation_key: string | null;
  item_title: string | null;
  item_journal: string | null;
  item_year: number | null;
  paper_title: unknown;
  paper_journal: unknown;
  paper_year: unknown;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const year = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v < 10_000 ? v : null;

function linked(r: ReadDb, doi: string, kind: 'published' | 'preprints'): PaperVersion[] {
  // published: this item's own publicationLinks, and papers that list it among their preprintLinks.
  const [own, reverse] =
    kind === 'published' ? (['publication', 'preprint'] as const) : (['preprint', 'publication'] as const);
  const rows = r.all<VersionRow>(sql`
    SELECT v.doi,
      (SELECT id FROM items WHERE doi = v.doi AND trashed_at IS NULL ORDER BY id LIMIT 1) AS item_id,
      (SELECT id FROM items WHERE doi = v.doi ORDER BY id LIMIT 1) AS trashed_id,
      i.citation_key, i.title AS item_title, i.container AS item_journal, i.year AS item_year,
      CASE WHEN json_valid(p.data) THEN CASE WHEN json_type(p.data, '$.title') = 'text' THEN json_extract(p.data, '$.title') END END AS paper_title,
      CASE WHEN json_valid(p.data) THEN CASE WHEN json_type(p.data, '$.journal') = 'text' THEN json_extract(p.data, '$.journal') END END AS paper_journal,
      CASE WHEN json_valid(p.data) THEN CASE WHEN json_type(p.data, '$.year') = 'integer' THEN json_extract(p.data, '$.year') END END AS paper_year
    FROM (SELECT linked_doi AS doi FROM service_paper_links WHERE doi = ${doi} AND kind = ${own}
          UNION SELECT doi FROM service_paper_links WHERE linked_doi = ${doi} AND kind = ${reverse}) v
    LEFT JOIN items i ON i.id = (SELECT id FROM items WHERE doi = v.doi AND trashed_at IS NULL ORDER BY id LIMIT 1)
    LEFT JOIN service_papers p ON p.doi = v.doi AND p.found = 1
    WHERE v.doi != ${doi}
    ORDER BY v.doi`);
  return rows.map((row) => ({
    doi: row.doi,
    itemId: row.item_id,
    citationKey: row.citation_key,
    title: text(row.item_title) ?? text(row.paper_title),
    journal: text(row.item_journal) ?? text(row.paper_journal),
    year: row.item_year ?? year(row.paper_year),
    trashed: row.item_id === null && row.trashed_id !== null,
  }));
}

/** The item's published versions and preprints, as the service cache links them; NOT_FOUND for no such item. */
export function paperVersions(r: ReadDb, id: ItemId): PaperVersions {
  const row = r.get<{ doi: string | null }>(sql`SELECT doi FROM items WHERE id = ${id}`);
  if (!row) throw notFound('The item');
  if (!row.doi) return { doi: null, published: [], preprints: [] };
  return { doi: row.doi, published: linked(r, row.doi, 'published'), preprints: linked(r, row.doi, 'preprints') };
}
