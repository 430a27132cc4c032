// Every wire name or shape of the service that the sources leave unshown, in one place.
// The contract marks each use with `x-citewise-guess: <id>` (shared/service/openapi.yaml) and
// shared/service/GUESSES.md explains each one. The client and the local service read these values
// instead of spelling the names themselves, so correcting a guess is one edit here plus the YAML.
// test/unit/service-contract/guesses.test.ts keeps the three in agreement.

export const GUESSES = {
  /** Body field of POST /api_partner/assistant/poll that carries minimal | low | medium | high. */
  assistantEffortField: 'effort',
  /** Path of the assistant task cancel operation. */
  assistantCancelPath: '/api_partner/assistant/tasks/{task_id}/cancel',
  /** HTTP method of the assistant task cancel operation. */
  assistantCancelMethod: 'get',
  /** Required fields of the assistant poll body. */
  assistantPollRequired: ['userInput'],
  /** Query parameter of the citing endpoint that filters by source DOI (repeated). */
  citingSourceDoiParam: 'source_doi[]',
  /** Required fields of the collection create body. */
  collectionCreateRequired: ['name'],
  /** Known values of `s` on the 510(k) summaries search (the rest come from its schema endpoint). */
  device510kSortValues: ['_relevance'],
  /** How a DOI goes into a path: its slashes literal, other reserved characters percent-encoded. */
  doiPathSlashes: 'literal',
  /** Evidence searches: query parameter carrying the `field:"value"` filter string. */
  evidenceFilterParam: 'f',
  /** Evidence searches: query parameter carrying the page number. */
  evidencePageParam: 'p',
  /** Evidence searches: number of the first page. */
  evidencePageBase: 1,
  /** Evidence searches: query parameter carrying the sort direction (asc | desc). */
  evidenceSortDirectionParam: 'o',
  /** Path template of the evidence schema (field discovery) endpoints; {dataset} is the search path's last segment. */
  evidenceSchemaPath: '/api_partner/evidence/{dataset}/schema',
  /** Shape of an evidence schema answer, described. */
  evidenceSchemaShape: '{ dataset?, filterable: { name, type?, description?, values? }[], sortable: string[] }',
  /** Property of the evidence schema answer listing filterable fields. */
  evidenceSchemaFilterableField: 'filterable',
  /** Property of the evidence schema answer listing sortable fields. */
  evidenceSchemaSortableField: 'sortable',
  /** Shape of the grant, 510(k), FAERS and MAUDE records whose fields are not shown: an open object with an id. */
  evidenceDetailShape: 'open object with id',
  /** Path of the FAERS search. */
  faersSearchPath: '/api_partner/evidence/faers',
  /** Path of the MAUDE search. */
  maudeSearchPath: '/api_partner/evidence/maude',
  /** FAERS and MAUDE searches answer the common evidence envelope with records as results. */
  faersMaudeResultShape: 'evidence envelope of records',
  /** Required fields of the MAUDE facets body. */
  maudeFacetsRequired: ['qs'],
  /** Name of the search's citation-type filter (the real document and SERVICE-FACTS differ). */
  searchCitationTypesParam: 'citation_types',
} as const;

export type GuessId = keyof typeof GUESSES;
