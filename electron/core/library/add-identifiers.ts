// Add by identifier: a mixed list of DOIs, arXiv ids, PMIDs, PMCIDs and ISBNs, each resolved where
// something can resolve it, each refused with its reason where nothing can.
// - A DOI, and an arXiv id through the DOI arXiv registers for it (10.48550/arXiv.ID, derived offline),
//   go through addDois: the service's metadata, one import transaction, placeholders when it cannot be
//   reached. An arXiv paper keeps its arXiv number, link and version besides.
// - The citation service finds papers by DOI only, and Citewise has no other source: a PMID, a PMCID or
//   an ISBN (its check digit verified offline) is matched against the library, so nothing is added
//   twice, and otherwise refused with what to do instead.
import { type AddIdentifiersReport, type IdentifierOutcome } from '../../../shared/model/add-by-identifier';
import type { CslItem } from '../../../shared/model/csl';
import {
  arxivFields,
  identifierLabel,
  identityOf,
  parseIdentifier,
  type Identifier,
} from '../../../shared/model/identifiers';
import { addDois, type PaperSource } from './add-dois';
import type { LibraryClient } from './client';

export const NO_SOURCE_PUBMED =
  'the citation service finds papers by DOI only, and Citewise has no other source to look up a PubMed id. PubMed shows the paper’s DOI under its title: add that';
export const NO_SOURCE_ISBN =
  'the citation service finds papers by DOI only, and there is no source of book metadata here to look up an ISBN; create the book by hand (its ISBN filled in)';

export interface AddIdentifiersOptions {
  signal?: AbortSignal | undefined;
  /** Kept on each item as where it came from. */
  source?: string;
}

export interface AddIdentifiersResult extends AddIdentifiersReport {
  /** Every item added (fetched or kept as a placeholder). */
  ids: number[];
}

type ArxivId = Extract<Identifier, { kind: 'arxiv' }>;

/** An arXiv paper's own fields, over what the service says (or a placeholder's bare DOI). */
function withArxiv(item: CslItem, id: ArxivId, found: boolean): CslItem {
  const fields = arxivFields(id);
  const out: CslItem = { ...item, number: item.number ?? fields.number, URL: item.URL ?? fields.URL };
  if (fields.version && out.version === undefined) out.version = fields.version;
  // A placeholder is a preprint on arXiv until the service says what it is.
  if (!found) return { ...out, type: 'article', publisher: 'arXiv' };
  return out;
}

export async function addIdentifiers(
  library: LibraryClient,
  service: PaperSource,
  inputs: readonly string[],
  options: AddIdentifiersOptions = {},
): Promise<AddIdentifiersResult> {
  const parsed: Identifier[] = [];
  const seen = new Set<string>();
  for (const input of inputs) {
    const id = parseIdentifier(input);
    const identity = identityOf(id);
    if (identity !== null) {
      if (seen.has(identity)) continue;
      seen.add(identity);
    }
    parsed.push(id);
  }
  const outcome = new Map<Identifier, IdentifierOutcome>();
  const base = (id: Identifier): Pick<IdentifierOutcome, 'input' | 'kind' | 'label'> => ({
    input: id.input,
    kind: id.kind,
    label: identifierLabel(id),
  });
  const ids: number[] = [];

  // DOIs and arXiv ids: the service, through the one path DOIs are added by.
  const byDoi = new Map<string, Identifier & { kind: 'doi' | 'arxiv' }>();
  for (const id of parsed) if (id.kind === 'doi' || id.kind === 'arxiv') byDoi.set(id.doi, id);
  if (byDoi.size > 0) {
    const report = await addDois(library, service, [...byDoi.keys()], {
      signal: options.signal,
      source: options.source ?? 'identifier',
      decorate: (doi, item, found) => {
        const id = byDoi.get(doi);
        return id?.kind === 'arxiv' ? withArxiv(item, id, found) : item;
      },
    });
    ids.push(...report.ids);
    const of = (doi: string) => byDoi.get(doi.toLowerCase());
    for (const a of report.added) {
      const id = of(a.doi);
      if (id) outcome.set(id, { ...base(id), status: 'added', itemId: a.id, citationKey: a.citationKey, doi: id.doi });
    }
    for (const q of report.queued) {
      const id = of(q.doi);
      if (id) outcome.set(id, { ...base(id), status: 'queued', itemId: q.id, doi: id.doi });
    }
    for (const d of report.duplicates) {
      const id = of(d.doi);
      if (id) outcome.set(id, { ...base(id), status: 'duplicate', itemId: d.existingId, doi: id.doi });
    }
    for (const n of report.notAdded) {
      const id = of(n.doi);
      if (!id) continue;
      const reason =
        id.kind === 'arxiv' && n.code === 'NOT_FOUND'
          ? `the citation service does not know this arXiv paper (its DOI ${id.written}); New item → Preprint adds it by hand`
          : n.reason;
      outcome.set(id, { ...base(id), status: 'not-added', doi: id.doi, reason, ...(n.code ? { code: n.code } : {}) });
    }
  }

  // PMIDs, PMCIDs and ISBNs: nothing can look them up, but the library may have them already.
  for (const kind of ['pmid', 'pmcid', 'isbn'] as const) {
    const these = parsed.filter((id) => id.kind === kind) as Extract<Identifier, { kind: typeof kind }>[];
    if (these.length === 0) continue;
    const valueOf = (id: (typeof these)[number]): string =>
      id.kind === 'pmid' ? id.pmid : id.kind === 'pmcid' ? id.pmcid : id.isbn13;
    const held = new Map(
      (await library.lib.itemsWithIdentifier(kind, these.map(valueOf))).map((h) => [h.value, h.itemId]),
    );
    for (const id of these) {
      const itemId = held.get(valueOf(id));
      if (itemId !== undefined) outcome.set(id, { ...base(id), status: 'duplicate', itemId });
      else
        outcome.set(id, {
          ...base(id),
          status: 'not-added',
          code: 'NO_SOURCE',
          reason: id.kind === 'isbn' ? NO_SOURCE_ISBN : NO_SOURCE_PUBMED,
          ...(id.kind === 'isbn' ? { isbn: id.isbn13 } : {}),
        });
    }
  }

  for (const id of parsed)
    if (id.kind === 'invalid')
      outcome.set(id, { ...base(id), status: 'not-added', code: 'INVALID_INPUT', reason: id.reason });

  // In the order given; an input addDois said nothing of (it cannot happen) is reported, not dropped.
  const outcomes = parsed.map(
    (id) =>
      outcome.get(id) ?? {
        ...base(id),
        status: 'not-added' as const,
        code: 'INTERNAL',
        reason: 'nothing was reported for it; add it again',
      },
  );
  return { outcomes, ids };
}
