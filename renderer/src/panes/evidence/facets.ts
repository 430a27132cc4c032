// MAUDE facet counts as the service sends them. The spec leaves their inner shape unshown; the
// local service sends [{key, docCount}], and Elasticsearch-style doc_count or a plain map of
// value → count are read the same way.

export interface FacetBucket {
  key: string;
  count: number;
}

/** Facet counts as the service sends them: a list of {key, docCount|count|doc_count}, or a map of key → count. */
export function facetBuckets(raw: unknown): FacetBucket[] {
  let out: FacetBucket[] = [];
  if (Array.isArray(raw)) {
    for (const b of raw) {
      if (typeof b !== 'object' || b === null) continue;
      const o = b as Record<string, unknown>;
      const key = o.key ?? o.value ?? o.name;
      const count = o.docCount ?? o.doc_count ?? o.count;
      if ((typeof key === 'string' || typeof key === 'number') && typeof count === 'number' && Number.isFinite(count))
        out.push({ key: String(key), count });
    }
  } else if (typeof raw === 'object' && raw !== null) {
    for (const [key, count] of Object.entries(raw))
      if (typeof count === 'number' && Number.isFinite(count)) out.push({ key, count });
  }
  out = out.filter((b) => b.count >= 0).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  return out;
}
