// generated — do not edit, run npm run gen:service
// Source: shared/service/openapi.yaml (openapi-typescript, then the operation table at the end).

export interface paths {
    "/issn-sji": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Journal index records for one ISSN */
        get: operations["getJournalIndex"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/issn-sji-bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Journal index records for up to 500 ISSNs */
        post: operations["getJournalIndexBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/issn-editorial-notices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Editorial-notice totals for up to 500 ISSNs */
        get: operations["getIssnEditorialNotices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/papers/{doi}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Metadata of one paper */
        get: operations["getPaper"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/papers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Metadata of up to 500 papers */
        post: operations["getPapers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tallies/{doi}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Smart citation tally of one DOI
         * @description 404 means the service has no data for the DOI, which is not the same as a tally of zeros.
         */
        get: operations["getTally"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tallies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Tallies of up to 500 DOIs, as a GET with a body
         * @description The same as `getTallies`; the service prefers the POST form, and Citewise uses POST.
         */
        get: operations["getTalliesViaGet"];
        put?: never;
        /** Tallies of up to 500 DOIs (preferred form) */
        post: operations["getTallies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tallies/aggregate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The sum of the tallies of up to 100 DOIs */
        post: operations["getAggregateTally"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/authors/{author_slug}/papers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An author record and a page of their papers */
        get: operations["getAuthorPapers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/citations/citing/{doi}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Citations made toward a DOI
         * @description Pages with `limit`/`offset` when the total exceeds 3,000.
         */
        get: operations["getCitingCitations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/citations/cited_by/{doi}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Citations made from a DOI (without citation statements)
         * @description No paging.
         */
        get: operations["getCitedByCitations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/references/references_to/{doi}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Distinct references to a DOI */
        get: operations["getReferencesTo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/references/references_from/{doi}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Distinct references made by a DOI (its reference list) */
        get: operations["getReferencesFrom"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/collections/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a collection from a DOI list or a search query
         * @description When both `dois` and `query` are given, `query` is used.
         */
        post: operations["createCollection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/collections/{collection_slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One collection by its slug */
        get: operations["getCollection"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/assistant/poll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start or continue an assistant request
         * @description Returns a task; poll `getAssistantTask` until a terminal status.
         */
        post: operations["pollAssistant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/assistant/tasks/{task_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Poll an assistant task
         * @description An unknown id may answer PENDING indefinitely; clients keep their own deadline.
         */
        get: operations["getAssistantTask"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/assistant/tasks/{task_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Cancel an assistant task
         * @description Modelled on the reference-check cancel; afterwards the task's status is CANCELLED.
         */
        get: operations["cancelAssistantTask"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reference_check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Schedule a document for a reference check
         * @description Either upload a PDF or DOCX as multipart `file`, or give `file_url`.
         */
        post: operations["submitReferenceCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reference_check/tasks/{task_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Poll a reference-check job
         * @description PENDING or STARTED while running; SUCCESS carries `result`.
         */
        get: operations["getReferenceCheckTask"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reference_check/tasks/{task_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Cancel a scheduled or running reference-check job
         * @description Afterwards the job's status is CANCELLED.
         */
        get: operations["cancelReferenceCheckTask"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reference_check/tasks/{task_id}/result_url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Link to the report page of a job
         * @description The link embeds an authorization token; treat it as a secret.
         */
        get: operations["getReferenceCheckResultUrl"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search publications and citation statements
         * @description Hits carry `<strong class="highlight">` markup in text fields.
         */
        get: operations["search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/patents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search patent families */
        get: operations["searchPatents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/patents/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Filterable and sortable fields of the patents dataset */
        get: operations["getPatentsSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/clinical-trials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search clinical trials */
        get: operations["searchClinicalTrials"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/clinical-trials/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Filterable and sortable fields of the clinical-trials dataset */
        get: operations["getClinicalTrialsSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search grants */
        get: operations["searchGrants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/grants/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Filterable and sortable fields of the grants dataset */
        get: operations["getGrantsSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/grants/{grant_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One grant record */
        get: operations["getGrant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/device510k-summaries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search 510(k) clearance summary documents */
        get: operations["searchDevice510kSummaries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/device510k-summaries/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Filterable and sortable fields of the 510(k) summaries dataset */
        get: operations["getDevice510kSummariesSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/device510k/{device_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One 510(k) device clearance record */
        get: operations["getDevice510k"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/faers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search FAERS drug adverse-event reports */
        get: operations["searchFaers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/faers/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Filterable and sortable fields of the FAERS dataset */
        get: operations["getFaersSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/faers/{report_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One FAERS report */
        get: operations["getFaersReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/maude": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search MAUDE device adverse-event reports */
        get: operations["searchMaude"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/maude/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Filterable and sortable fields of the MAUDE dataset */
        get: operations["getMaudeSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_partner/evidence/maude/facets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Facet counts of MAUDE reports, without the records */
        post: operations["getMaudeFacets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description A DOI; the service keys bulk answers by the lowercased DOI.
         * @example 10.1000/example.one
         */
        Doi: string;
        DoiList: components["schemas"]["Doi"][];
        /**
         * @description dddd-dddC, C a digit or X.
         * @example 0006-3223
         */
        Issn: string;
        IssnList: components["schemas"]["Issn"][];
        /** @enum {string} */
        SortDirection: "asc" | "desc";
        /**
         * @description The API's word; the UI says "contrasting" for `contradicting`.
         * @enum {string}
         */
        CitationType: "supporting" | "contradicting" | "mentioning";
        /** @enum {string} */
        CitationStyle: "apa" | "ieee" | "mla" | "ama" | "chicago" | "harvard" | "vancouver" | "bibtex";
        /** @enum {string} */
        TaskStatus: "PENDING" | "STARTED" | "SUCCESS" | "FAILURE" | "REVOKED" | "CANCELLED";
        /**
         * @description Values seen in real responses (`Comment` appears in a real search hit).
         * @enum {string}
         */
        EditorialNoticeStatus: "Retracted" | "Has erratum" | "Has correction" | "Has expression of concern" | "Withdrawn" | "Comment";
        HttpError: {
            detail: string;
        };
        ValidationErrorDetail: {
            loc: (string | number)[];
            msg: string;
            type: string;
        };
        ValidationError: {
            detail: components["schemas"]["ValidationErrorDetail"][];
        };
        PaperAuthor: {
            authorName: string;
            family: string;
            given: string;
            authorID: string;
            authorSlug: string;
            /** @description 1-based position. */
            authorSequenceNumber: number;
            orcid?: string;
            affiliation?: string;
            affiliationID?: string;
            affiliationSlug?: string;
            authorLastKnownAffiliationId?: number;
        };
        /** @description The same notice can appear twice. */
        EditorialNotice: {
            doi: string;
            status?: components["schemas"]["EditorialNoticeStatus"];
            /** @description As sent, e.g. 2021-2-1 (not zero-padded). */
            date?: string;
            noticeDoi?: string;
            urls?: string[];
        };
        PreprintLink: {
            preprintDoi: string;
        };
        PublicationLink: {
            publishedDoi: string;
        };
        /**
         * @example {
         *       "doi": "10.1000/example.one",
         *       "id": 1001,
         *       "title": "A worked example of a paper record",
         *       "slug": "a-worked-example-of-a-paper-record-AbC12",
         *       "authors": [
         *         {
         *           "authorName": "Ada Example",
         *           "family": "Example",
         *           "given": "Ada",
         *           "authorID": "424242",
         *           "authorSlug": "ada-example-Zz9",
         *           "authorSequenceNumber": 1,
         *           "orcid": "0000-0002-1825-0097"
         *         }
         *       ],
         *       "journal": "Journal of Examples",
         *       "journalSlug": "jex01",
         *       "publisher": "Example Press",
         *       "memberId": 9999,
         *       "issns": [
         *         "1234-5679"
         *       ],
         *       "volume": "12",
         *       "issue": "3",
         *       "page": "101-110",
         *       "year": 2020,
         *       "type": "journal-article",
         *       "normalizedTypes": [
         *         "article"
         *       ],
         *       "editorialNotices": [],
         *       "preprintLinks": [
         *         {
         *           "preprintDoi": "10.1101/2019.01.01.000001"
         *         }
         *       ],
         *       "publicationLinks": [],
         *       "retracted": false,
         *       "tally": {
         *         "doi": "10.1000/example.one",
         *         "total": 12,
         *         "supporting": 2,
         *         "contradicting": 1,
         *         "mentioning": 9,
         *         "unclassified": 0,
         *         "citingPublications": 10
         *       }
         *     }
         */
        Paper: {
            doi: string;
            id: number;
            title: string;
            slug: string;
            /** @description Present only for some papers; may contain JATS markup. */
            abstract?: string;
            authors: components["schemas"]["PaperAuthor"][];
            journal: string;
            /** @description Present only for some papers. */
            shortJournal?: string;
            journalSlug: string;
            publisher: string;
            memberId: number;
            issns: string[];
            volume: string;
            /** @description May be absent. */
            issue?: string;
            /** @description May be absent (seen absent in real responses). */
            page?: string;
            year: number;
            /** @example journal-article */
            type: string;
            /**
             * @example [
             *       "article"
             *     ]
             */
            normalizedTypes: string[];
            /** @description Present only for some papers. */
            keywords?: string[];
            pmPublicationType?: string;
            editorialNotices: components["schemas"]["EditorialNotice"][];
            preprintLinks: components["schemas"]["PreprintLink"][];
            publicationLinks: components["schemas"]["PublicationLink"][];
            /** @description Seen absent in some real responses; absent means unknown. */
            retracted?: boolean;
            tally?: components["schemas"]["Tally"];
            citingTally?: components["schemas"]["CitingTally"];
        };
        PapersResponse: {
            /** @description Keyed by lowercased DOI. */
            papers: {
                [key: string]: components["schemas"]["Paper"];
            };
        };
        /** @description Counts of citation statements; `citingPublications` counts distinct citing publications. */
        TallyCounts: {
            total: number;
            supporting: number;
            contradicting: number;
            mentioning: number;
            unclassified: number;
            citingPublications?: number;
            doi?: string;
        };
        /**
         * @example {
         *       "doi": "10.1000/example.one",
         *       "total": 12,
         *       "supporting": 2,
         *       "contradicting": 1,
         *       "mentioning": 9,
         *       "unclassified": 0,
         *       "citingPublications": 10
         *     }
         */
        Tally: {
            doi: string;
            total: number;
            supporting: number;
            contradicting: number;
            mentioning: number;
            unclassified: number;
            citingPublications?: number;
        };
        /** @description Counts of the citation statements a paper makes (it as the source). */
        CitingTally: {
            sourceDoi: string;
            numCitedPublications?: number;
            total: number;
            supporting: number;
            contradicting: number;
            mentioning: number;
            unclassified: number;
        };
        TalliesResponse: {
            /** @description Keyed by lowercased DOI. */
            tallies: {
                [key: string]: components["schemas"]["Tally"];
            };
        };
        /** @description The scite journal index of a journal relative to one year. */
        JournalIndexRecord: {
            issns: string[];
            journal: string;
            journalSlug: string;
            /** @example 2021 */
            relativeYear?: string;
            sjiAllYears?: number;
            sjiFiveYears?: number;
            sjiTwoYears?: number;
        };
        /** @description Keyed by requested ISSN. */
        JournalIndexBulkResponse: {
            [key: string]: components["schemas"]["JournalIndexRecord"][];
        };
        EditorialNoticeCounts: {
            totalCorrections?: number;
            totalErrata?: number;
            totalExpressionOfConcerns?: number;
            totalRetractions?: number;
            totalWithdrawals?: number;
        };
        /**
         * @example {
         *       "issn": "1234-5679",
         *       "notices": {
         *         "totalCorrections": 1,
         *         "totalErrata": 4,
         *         "totalExpressionOfConcerns": 0,
         *         "totalRetractions": 2,
         *         "totalWithdrawals": 0
         *       }
         *     }
         * @example {
         *       "issn": "2049-3630"
         *     }
         */
        IssnEditorialNotices: {
            issn: string;
            notices?: components["schemas"]["EditorialNoticeCounts"];
        };
        AuthorAffiliation: {
            affiliation?: string;
            affiliationSlug?: string;
            affiliationId?: number;
            count?: number;
        };
        AuthorRecord: {
            id: number;
            normalizedName?: string;
            displayName: string;
            nameSlug: string;
            sourceId?: string;
            source?: string;
            lastKnownAffiliationId?: number;
            createdAt?: string;
            lastUpdated?: string;
            affiliations?: components["schemas"]["AuthorAffiliation"][];
        };
        AuthorPapersResponse: {
            author: components["schemas"]["AuthorRecord"];
            papers: components["schemas"]["Paper"][];
            totalPapers: number;
            /** @description URL of the next page when more papers exist. */
            nextPage?: string | null;
        };
        SelfCite: {
            family?: string;
            given?: string;
            /** @example SHAREDAUTHOR */
            type?: string;
        };
        /**
         * @description One classified citation statement, without its text.
         * @example {
         *       "id": 5550001,
         *       "memberId": 9999,
         *       "source": "10.1000/citing.paper",
         *       "target": "10.1000/example.one",
         *       "type": "contradicting",
         *       "typeConfidence": 0.91,
         *       "positive": 0.04,
         *       "negative": 0.91,
         *       "neutral": 0.12,
         *       "section": "discussion",
         *       "selfCites": [
         *         {
         *           "family": "Example",
         *           "given": "Ada",
         *           "type": "SHAREDAUTHOR"
         *         }
         *       ]
         *     }
         */
        Citation: {
            id: number;
            memberId?: number;
            /** @description DOI of the citing paper. */
            source: string;
            /** @description DOI of the cited paper. */
            target: string;
            type?: components["schemas"]["CitationType"];
            typeConfidence?: number;
            positive?: number;
            negative?: number;
            neutral?: number;
            /**
             * @example introduction
             * @example methods
             * @example results
             * @example discussion
             * @example other
             */
            section?: string;
            expertClassification?: string;
            selfCites?: components["schemas"]["SelfCite"][];
        };
        CitingCounts: {
            authors?: {
                [key: string]: number;
            };
            /** @description Keyed by year. */
            dateHistogram?: {
                [key: string]: {
                    contradicting?: number;
                    mentioning?: number;
                    supporting?: number;
                    total?: number;
                };
            };
            journals?: {
                [key: string]: number;
            };
            pubTypes?: {
                [key: string]: number;
            };
            relationships?: {
                independent?: number;
                selfCite?: number;
            };
            sections?: {
                discussion?: number;
                introduction?: number;
                methods?: number;
                other?: number;
                results?: number;
            };
            total?: number;
        };
        CitingMetadata: {
            totalCitationCount: number;
            restrictedCitationCount?: number;
            citingCounts?: components["schemas"]["CitingCounts"];
        };
        CitingResponse: {
            citations: components["schemas"]["Citation"][];
            metadata: components["schemas"]["CitingMetadata"];
            papers?: {
                [key: string]: components["schemas"]["Paper"];
            };
            tallies?: {
                [key: string]: components["schemas"]["Tally"];
            };
        };
        /** @description A citation made by the DOI (no statement text; `id` is often absent). */
        CitedByCitation: {
            id?: number;
            source: string;
            target: string;
            type?: components["schemas"]["CitationType"];
            typeConfidence?: number;
            section?: string;
            expertClassification?: string;
            refLocation?: string;
            selfCites?: components["schemas"]["SelfCite"][];
        };
        CitedByResponse: {
            citations: components["schemas"]["CitedByCitation"][];
            metadata?: components["schemas"]["CitingMetadata"];
            papers?: {
                [key: string]: components["schemas"]["Paper"];
            };
            tallies?: {
                [key: string]: components["schemas"]["Tally"];
            };
        };
        Reference: {
            source: string;
            target: string;
            /** @example CR */
            dataSource?: string;
            createdAt?: string;
            lastUpdated?: string;
            selfCites?: components["schemas"]["SelfCite"][];
        };
        ReferencesMetadata: {
            totalReferenceCount: number;
            distinctSourceCount?: number;
            restrictedReferenceCount?: number;
        };
        ReferencesResponse: {
            metadata: components["schemas"]["ReferencesMetadata"];
            references: components["schemas"]["Reference"][];
            papers?: {
                [key: string]: components["schemas"]["Paper"];
            };
            tallies?: {
                [key: string]: components["schemas"]["Tally"];
            };
        };
        /** @description The camelCase forms of the search filters. */
        CollectionQuery: {
            term?: string;
            mode?: components["schemas"]["SearchMode"];
            limit?: number;
            offset?: number;
            /** @example total_supported */
            sort?: string;
            title?: string;
            abstract?: string;
            doi?: string;
            dois?: string[];
            dateFrom?: string;
            dateTo?: string;
            indexedFrom?: string;
            citationTypes?: string[];
            hasRetraction?: boolean;
            hasConcern?: boolean;
            hasCorrection?: boolean;
            hasErratum?: boolean;
            hasWithdrawn?: boolean;
            hasTally?: boolean;
            supportingFrom?: number;
            supportingTo?: number;
            mentioningFrom?: number;
            mentioningTo?: number;
            contrastingFrom?: number;
            contrastingTo?: number;
            citingPublicationsFrom?: number;
            citingPublicationsTo?: number;
            author?: string;
            journal?: string;
            publisher?: string;
            section?: string;
            paperType?: string;
            affiliation?: string;
            topic?: string;
            authors?: string[];
            journals?: string[];
            sections?: string[];
            paperTypes?: string[];
            affiliations?: string[];
            topics?: string[];
            substances?: string[];
            meshType?: string[];
            dashboardSlug?: string;
            computeAggregations?: boolean;
            aggregations?: string[];
            aggregationsOptions?: string;
        };
        CollectionCreateRequest: {
            name: string;
            email?: string;
            description?: string;
            isPublic?: boolean;
            isHidden?: boolean;
            isSharedWithOrg?: boolean;
            dois?: components["schemas"]["DoiList"];
            query?: components["schemas"]["CollectionQuery"];
            enableDashboardCitationAlerts?: boolean;
        };
        CollectionLayoutComponent: {
            _id?: number;
            name?: string;
            width?: number;
        };
        CollectionLayoutRow: {
            _id?: number;
            components?: components["schemas"]["CollectionLayoutComponent"][];
        };
        Collection: {
            id: number;
            name: string;
            description?: string;
            slug: string;
            dashboardType?: string;
            organizationSlug?: string;
            componentLayout?: components["schemas"]["CollectionLayoutRow"][];
            doiQuery?: {
                query?: {
                    dois?: string[];
                };
                /** @example list */
                queryType?: string;
            };
            isPublic?: boolean;
            lastUpdated?: string;
            /** @description ISO 8601. */
            doisUpdatedTS?: string;
            /** @description ISO 8601. */
            doisRefreshedTS?: string;
            refreshStatus?: string;
            /** @example VIEWER */
            accessType?: string;
            totalDoiCount?: number;
            matchedDoiCount?: number;
            unmatchedDoiCount?: number;
            unmatchedDois?: string[];
            warning?: string;
        };
        /** @enum {string} */
        AssistantRankBy: "all" | "relevance" | "date" | "citations" | "supporting-citations" | "contrasting-citations" | "journal-rank";
        /** @enum {string} */
        AssistantAnswerLength: "short" | "medium" | "long";
        /** @enum {string} */
        AssistantEffort: "minimal" | "low" | "medium" | "high";
        /**
         * @description In this order while STARTED; RETRIEVING_UPLOADED_DOCUMENTS only with uploaded documents.
         * @enum {string}
         */
        AssistantStep: "SCHEDULING_ASSISTANT" | "GENERATING_SEARCH_STRATEGY" | "EXECUTING_SEARCHES" | "RETRIEVING_UPLOADED_DOCUMENTS" | "RETRIEVING_PRIMARY_SOURCES" | "COMPOSING_RESPONSE" | "GENERATING_RESPONSE";
        AssistantPollRequest: {
            turns?: components["schemas"]["AssistantTurn"][];
            userInput: string;
            alwaysUseReferences?: boolean;
            neverUseReferences?: boolean;
            abstractsOnly?: boolean;
            fullTextsOnly?: boolean;
            numReferences?: number;
            rankBy?: components["schemas"]["AssistantRankBy"];
            answerLength?: components["schemas"]["AssistantAnswerLength"];
            effort?: components["schemas"]["AssistantEffort"];
            model?: string;
            citationStyle?: components["schemas"]["CitationStyle"];
            yearFrom?: string;
            yearTo?: string;
            topics?: string[];
            journals?: string[];
            citationSections?: string[];
            publicationTypes?: string[];
            referenceChecks?: string[];
            dois?: string[];
            searches?: string[];
            dashboards?: number[];
            useStructuredResponse?: boolean;
            usePatentMode?: boolean;
            useMixedPatentMode?: boolean;
            openAccessOnly?: boolean;
            saveSession?: boolean;
            sessionId?: number;
            reprocessTurnIdx?: number;
            columnSlug?: string;
            anonId?: string;
            recaptchaToken?: string;
            country?: string;
        };
        AssistantFactChecks: {
            used?: unknown[];
            rejected?: unknown[];
        };
        AssistantProgressInfo: {
            step?: components["schemas"]["AssistantStep"];
            stepNumber?: number;
            /** @description Partial answer text. */
            response?: string;
            structuredResponse?: unknown[];
            searches?: string[];
            publicationsUsed?: string[];
            publicationsConsulting?: string[];
            currentSearch?: string;
            dois?: string[];
            factChecks?: components["schemas"]["AssistantFactChecks"];
        };
        AssistantUsage: {
            used: number;
            max: number;
        };
        /**
         * @example {
         *       "id": "4f1c2a9e-0000-4000-8000-000000000001",
         *       "status": "STARTED",
         *       "info": {
         *         "step": "EXECUTING_SEARCHES",
         *         "stepNumber": 3,
         *         "searches": [
         *           "sleep deprivation working memory"
         *         ]
         *       },
         *       "usage": {
         *         "used": 3,
         *         "max": 100
         *       }
         *     }
         */
        AssistantTask: {
            id: string;
            status: components["schemas"]["TaskStatus"];
            info?: components["schemas"]["AssistantProgressInfo"];
            result?: components["schemas"]["AssistantSession"];
            error?: string;
            usage?: components["schemas"]["AssistantUsage"];
        };
        AssistantSession: {
            slug?: string;
            title?: string;
            sessionId?: number;
            turns: components["schemas"]["AssistantTurn"][];
            turnsTotal?: number;
            turnsOffset?: number;
            lastUpdated?: string;
            createdAt?: string;
            shareToken?: string;
            hasUploadedReferences?: boolean;
            tooManySessions?: boolean;
        };
        AssistantFeedback: {
            /** @example positive */
            feedbackType?: string;
            reason?: string;
        };
        AssistantColumn: {
            name?: string;
            slug?: string;
            instructions?: string;
            /** @example response */
            type?: string;
            order?: number;
            /** @enum {string} */
            json_response_type?: "concise" | "boolean";
        };
        AssistantTurn: {
            /** @enum {string} */
            role: "user" | "assistant";
            /** @description Answer text with numbered markers such as [1]. */
            content: string;
            sections?: string[];
            structuredResponse?: unknown[] | null;
            references?: components["schemas"]["AssistantReference"][];
            feedback?: components["schemas"]["AssistantFeedback"];
            searchStrategy?: string[] | null;
            warning?: string | null;
            model?: string | null;
            /** @description For example the suggested rankBy, yearFrom, yearTo. */
            settings?: Record<string, never> | null;
            publicationsConsulted?: Record<string, never>[] | null;
            columns?: components["schemas"]["AssistantColumn"][];
        };
        AssistantReference: {
            /** @description The passage used. */
            answer?: string;
            texts?: string[];
            context?: string;
            title?: string;
            doi?: string;
            /** @description A report page. */
            link?: string;
            /** @enum {string} */
            type?: "abstract" | "citation_statement" | "academic_paper";
            paper?: components["schemas"]["AssistantPaper"];
            textSources?: string[];
            patent?: Record<string, never> | null;
            refCheckId?: string | null;
            included?: boolean;
            reason?: string;
        };
        HitAuthor: {
            authorName?: string;
            authorSlug?: string;
            /** @description Search hits send it as a string. */
            authorSequenceNumber?: number | string;
            affiliation?: string;
            affiliationSlug?: string;
        };
        MeshType: {
            descriptorId: string;
            descriptorName: string;
            qualifierId?: string;
            qualifierName?: string;
        };
        /** @description A citation with its statement text (search hits, assistant papers). */
        CitationStatement: {
            id?: number;
            source: string;
            target: string;
            type?: components["schemas"]["CitationType"];
            typeConfidence?: number;
            positive?: number;
            negative?: number;
            neutral?: number;
            section?: string;
            /** @description Markup: <cite data-doi>, <strong class="highlight">. */
            snippet?: string;
            snippetHidden?: boolean;
            expertClassification?: string;
            lang?: string;
            langConfidence?: string | number;
            refLocation?: string;
            memberId?: number;
            selfCites?: components["schemas"]["SelfCite"][];
        };
        AssistantPaper: {
            id?: number | string;
            doi?: string;
            title?: string;
            slug?: string;
            authors?: components["schemas"]["HitAuthor"][];
            journal?: string;
            shortJournal?: string;
            publisher?: string;
            memberId?: number;
            abstract?: string;
            year?: number;
            date?: string;
            lastUpdate?: number | string;
            volume?: string;
            issue?: string;
            page?: string;
            tally?: components["schemas"]["TallyCounts"];
            issns?: string[];
            editorialNotices?: components["schemas"]["EditorialNotice"][];
            normalizedTypes?: string[];
            isOa?: boolean;
            /** @example closed */
            oaStatus?: string;
            meshTypes?: components["schemas"]["MeshType"][];
            relevancyScore?: number;
            citations?: components["schemas"]["CitationStatement"][];
            fulltextExcerpts?: string[];
            highlightedFields?: string[];
        };
        /** @description The cancel operations' body is unspecified (any JSON); the task's status tells the outcome. */
        CancelResponse: unknown;
        ReferenceCheckUpload: {
            /**
             * Format: binary
             * @description A PDF or DOCX file.
             */
            file?: string;
        };
        ReferenceCheckScheduled: {
            /** @example 9a0b5f8e-1111-4222-8333-444455556666 */
            id: string;
        };
        ReferenceCheckProgress: {
            description: string;
            step: number;
            totalSteps: number;
        };
        ReferenceCheckSourceMetadata: {
            title?: string;
            abstract?: string;
            authors?: {
                family?: string;
                given?: string;
            }[];
            journal?: string;
            volume?: string;
            date?: string;
            page?: string;
            keywords?: string[];
        };
        /** @description One in-text citation found in the document. */
        ReferenceCheckCitation: {
            source?: string;
            /** @description DOI of the cited reference. */
            target: string;
            /** @description Markup: <cite data-doi>. */
            snippet: string;
            refLocation?: string;
            section?: string;
        };
        ReferenceCheckResult: {
            /** @description DOI of the checked document when known. */
            source?: string;
            metadata: components["schemas"]["ReferenceCheckSourceMetadata"];
            /** @example pdf */
            filetype: string;
            citations: components["schemas"]["ReferenceCheckCitation"][];
        };
        /**
         * @example {
         *       "status": "STARTED",
         *       "info": {
         *         "description": "Extracting references",
         *         "step": 2,
         *         "totalSteps": 5
         *       }
         *     }
         * @example {
         *       "status": "SUCCESS",
         *       "overallTally": {
         *         "total": 40,
         *         "supporting": 5,
         *         "contradicting": 1,
         *         "mentioning": 33,
         *         "unclassified": 1
         *       },
         *       "result": {
         *         "metadata": {
         *           "title": "A manuscript under check",
         *           "authors": [
         *             {
         *               "family": "Example",
         *               "given": "Ada"
         *             }
         *           ]
         *         },
         *         "filetype": "pdf",
         *         "citations": [
         *           {
         *             "target": "10.1000/example.one",
         *             "snippet": "As shown before <cite data-doi=\"10.1000/example.one\">[3]</cite>.",
         *             "refLocation": "b3/1",
         *             "section": "introduction"
         *           }
         *         ]
         *       }
         *     }
         */
        ReferenceCheckTask: {
            status: components["schemas"]["TaskStatus"];
            info?: components["schemas"]["ReferenceCheckProgress"];
            result?: components["schemas"]["ReferenceCheckResult"];
            error?: string;
            overallTally?: components["schemas"]["TallyCounts"];
            papers?: {
                [key: string]: components["schemas"]["Paper"];
            };
            tallies?: {
                [key: string]: components["schemas"]["Tally"];
            };
        };
        ReferenceCheckResultUrl: {
            /** Format: uri */
            reportUrl: string;
        };
        /** @enum {string} */
        SearchMode: "all" | "citations" | "papers" | "question-answering";
        /** @enum {string} */
        SearchSort: "date" | "total_cited" | "total_supported" | "total_contrasted" | "total_mentioned" | "total_citing_publications";
        /**
         * @description The search word set, which says contrasting.
         * @enum {string}
         */
        SearchCitationType: "supporting" | "contrasting" | "mentioning";
        AggregationBucket: {
            key: string | string[];
            docCount: number;
            metadata?: Record<string, never>;
        };
        DateBucket: {
            date: string;
            docCount: number;
            total?: number;
            supporting?: number;
            contradicting?: number;
            mentioning?: number;
            unclassified?: number;
        };
        SearchAggregations: {
            paperTypes?: components["schemas"]["AggregationBucket"][];
            journals?: components["schemas"]["AggregationBucket"][];
            topics?: components["schemas"]["AggregationBucket"][];
            substances?: components["schemas"]["AggregationBucket"][];
            meshDescriptors?: components["schemas"]["AggregationBucket"][];
            editorialNotices?: components["schemas"]["AggregationBucket"][];
            authors?: components["schemas"]["AggregationBucket"][];
            affiliations?: components["schemas"]["AggregationBucket"][];
            dateHistogram?: components["schemas"]["DateBucket"][];
            citationTypeDateHistogram?: components["schemas"]["DateBucket"][];
            maxDate?: string;
            minDate?: string;
        };
        /** @description Text fields may carry `<strong class="highlight">` markup. */
        SearchHit: {
            id?: string;
            doi?: string;
            title?: string;
            slug?: string;
            authors?: components["schemas"]["HitAuthor"][];
            journal?: string;
            shortJournal?: string;
            publisher?: string;
            memberId?: number;
            abstract?: string;
            year?: number;
            date?: string;
            lastUpdate?: number;
            volume?: string;
            issue?: string;
            page?: string;
            tally?: components["schemas"]["TallyCounts"];
            issns?: string[];
            editorialNotices?: components["schemas"]["EditorialNotice"][];
            normalizedTypes?: string[];
            isOa?: boolean;
            oaStatus?: string;
            meshTypes?: components["schemas"]["MeshType"][];
            citations?: components["schemas"]["CitationStatement"][];
            highlightedFields?: string[];
        };
        SearchResponse: {
            count: number;
            countIsApproximate?: boolean;
            aggregations?: components["schemas"]["SearchAggregations"];
            hits: components["schemas"]["SearchHit"][];
            suggestedTerm?: string;
            restrictedCites?: boolean;
        };
        /** @description A text value with its highlighted form (`highlighted` may carry markup). */
        HighlightedValue: {
            id?: string;
            name?: string;
            highlighted?: string;
        };
        /**
         * @default _relevance
         * @enum {string}
         */
        PatentSort: "_relevance" | "forwardCitationCount" | "familySize" | "patents.publications.pubRef.date" | "patents.appRef.filingDate";
        /**
         * @default _relevance
         * @enum {string}
         */
        ClinicalTrialSort: "_relevance" | "dates.startDate" | "dates.completedDate" | "dates.lastUpdatedDate";
        /**
         * @default _relevance
         * @enum {string}
         */
        GrantSort: "_relevance" | "awardStartDate" | "awardCloseDate" | "awardNoticeDate" | "awardAmount" | "employeeCount";
        /**
         * @description `_relevance` or a sortable field listed by the dataset's schema endpoint.
         * @default _relevance
         * @example _relevance
         */
        OpenEvidenceSort: string;
        EvidenceSchemaField: {
            /** @description Field path as used in `field:"value"` filters and in `s`. */
            name: string;
            /**
             * @example keyword
             * @example text
             * @example date
             * @example integer
             */
            type?: string;
            description?: string;
            /** @description Known values, when the field is an enumeration. */
            values?: string[];
        };
        /**
         * @example {
         *       "dataset": "grants",
         *       "filterable": [
         *         {
         *           "name": "country",
         *           "type": "keyword"
         *         },
         *         {
         *           "name": "agency",
         *           "type": "keyword"
         *         }
         *       ],
         *       "sortable": [
         *         "_relevance",
         *         "awardAmount"
         *       ]
         *     }
         */
        EvidenceSchemaResponse: {
            dataset?: string;
            filterable: components["schemas"]["EvidenceSchemaField"][];
            sortable: string[];
        };
        PatentParty: {
            name?: string;
            normalizedName?: string;
            country?: string;
            orgType?: string[];
        };
        PatentDocRef: {
            docNumber?: string;
            kind?: string;
        };
        PatentAppRef: {
            docId?: string;
            patentOffice?: string;
            docNumber?: string;
            kind?: string;
            /** @description Timestamp. */
            filingDate?: string | number;
            epodoc?: components["schemas"]["PatentDocRef"];
            original?: components["schemas"]["PatentDocRef"];
            name?: string;
        };
        PatentPubRef: {
            country?: string;
            docNumber?: string;
            kind?: string;
            year?: string | number;
            date?: string | number;
            epodoc?: components["schemas"]["PatentDocRef"];
            original?: components["schemas"]["PatentDocRef"];
            name?: string;
        };
        PatentClassification: {
            cpcSymbol?: string;
            position?: string | number;
        };
        PatentInventor: {
            name?: string;
            normalizedName?: string;
        };
        PatentPublication: {
            ids?: string[];
            docId?: string;
            familyId?: string | number;
            filingStatus?: components["schemas"]["HighlightedValue"];
            pubRef?: components["schemas"]["PatentPubRef"];
            appRef?: components["schemas"]["PatentAppRef"];
            inventors?: components["schemas"]["PatentInventor"][];
            assignees?: components["schemas"]["PatentParty"][];
            applicants?: components["schemas"]["PatentParty"][];
            classifications?: components["schemas"]["PatentClassification"][];
            priorityClaims?: {
                country?: string;
                docNumber?: string;
                year?: string | number;
            }[];
            id?: string | number;
            usptoPath?: string;
            externalLink?: string;
            backwardCitationCount?: number;
            compounds?: {
                compoundComplexity?: number;
                exactMatch?: boolean;
                logPXlogp3Aa?: number;
                massExact?: number;
                molecularWeight?: number;
            }[];
        };
        Patent: {
            slug?: string;
            familyId?: string | number;
            title?: components["schemas"]["HighlightedValue"];
            abstract?: components["schemas"]["HighlightedValue"];
            filingStatus?: components["schemas"]["HighlightedValue"];
            tags?: components["schemas"]["HighlightedValue"][];
            classifications?: components["schemas"]["PatentClassification"][];
            inventors?: components["schemas"]["PatentInventor"][];
            assignees?: components["schemas"]["PatentParty"][];
            applicants?: components["schemas"]["PatentParty"][];
            appRef?: components["schemas"]["PatentAppRef"];
            publications?: components["schemas"]["PatentPublication"][];
            languages?: string[];
            id?: string | number;
            legalEvents?: Record<string, never>;
        };
        /** @description One search result of the patents dataset. */
        PatentFamily: {
            patents?: components["schemas"]["Patent"][];
            patentsTotal?: number;
            slug?: string;
            dataset?: string;
            uid?: components["schemas"]["HighlightedValue"];
            forwardCitationCount?: components["schemas"]["HighlightedValue"];
            familySize?: components["schemas"]["HighlightedValue"];
            familyId?: string | number;
            id?: string | number;
        };
        PatentSearchResponse: {
            totalResults: number;
            delay: number;
            resultsPerPage: number;
            from: number;
            results: components["schemas"]["PatentFamily"][];
        };
        ClinicalTrialEventCount: {
            groupId?: string;
            events?: number;
            subjectsAffected?: number;
            subjectsAtRisk?: number;
        };
        ClinicalTrialEvent: {
            eventType?: string;
            category?: string;
            subtitleDisplay?: string;
            subtitle?: string;
            subtitleTotal?: string | number;
            assessmentMethod?: string;
            description?: string;
            counts?: components["schemas"]["ClinicalTrialEventCount"][];
        };
        ClinicalTrialReportedEvents: {
            timeFrame?: string;
            eventsDescription?: string;
            groupList?: {
                groupId?: string;
                title?: string;
                description?: string;
            }[];
            seriousVocab?: string[];
            seriousDefaultAssessment?: string;
            otherVocab?: string[];
            otherDefaultAssessment?: string;
            events?: components["schemas"]["ClinicalTrialEvent"][];
        };
        /** @description One search result of the clinical-trials dataset. */
        ClinicalTrial: {
            id?: components["schemas"]["HighlightedValue"];
            title?: components["schemas"]["HighlightedValue"];
            uid?: components["schemas"]["HighlightedValue"];
            dataSource?: components["schemas"]["HighlightedValue"];
            registry?: components["schemas"]["HighlightedValue"];
            hasResults?: components["schemas"]["HighlightedValue"];
            esId?: string;
            slug?: string;
            dataset?: string;
            externalLink?: string;
            briefDescription?: components["schemas"]["HighlightedValue"] | string | null;
            description?: components["schemas"]["HighlightedValue"] | string | null;
            sponsors?: components["schemas"]["HighlightedValue"][];
            conditions?: components["schemas"]["HighlightedValue"][];
            interventions?: components["schemas"]["HighlightedValue"][];
            tags?: components["schemas"]["HighlightedValue"][];
            pi?: Record<string, never> | null;
            trialState?: Record<string, never> | null;
            eligibility?: Record<string, never> | null;
            enrollment?: Record<string, never> | null;
            dates?: Record<string, never> | null;
            publicationsMetadata?: Record<string, never> | null;
            citations?: Record<string, never>[];
            reportedEvents?: components["schemas"]["ClinicalTrialReportedEvents"];
        };
        ClinicalTrialSearchResponse: {
            totalResults: number;
            delay: number;
            resultsPerPage: number;
            from: number;
            results: components["schemas"]["ClinicalTrial"][];
        };
        /** @description One grant inside a grant search result; text values are highlighted values. */
        GrantAward: {
            id?: components["schemas"]["HighlightedValue"];
            slug?: components["schemas"]["HighlightedValue"];
            title?: components["schemas"]["HighlightedValue"];
            abstract?: components["schemas"]["HighlightedValue"] | null;
            organization?: components["schemas"]["HighlightedValue"];
            country?: components["schemas"]["HighlightedValue"];
            state?: components["schemas"]["HighlightedValue"];
            piName?: components["schemas"]["HighlightedValue"];
            awardAmount?: components["schemas"]["HighlightedValue"];
            agency?: components["schemas"]["HighlightedValue"];
            branch?: components["schemas"]["HighlightedValue"];
            researchKeywords?: components["schemas"]["HighlightedValue"][];
            dataSource?: components["schemas"]["HighlightedValue"];
            phase?: components["schemas"]["HighlightedValue"];
            program?: components["schemas"]["HighlightedValue"];
            tags?: components["schemas"]["HighlightedValue"][];
            awardStartDate?: string;
            awardCloseDate?: string;
            awardNoticeDate?: string;
            externalLink?: string;
        };
        GrantSearchResult: {
            slug?: string;
            dataset?: string;
            uid?: string | Record<string, never>;
            grantsTotal?: number;
            grants?: components["schemas"]["GrantAward"][];
        };
        GrantSearchResponse: {
            totalResults: number;
            delay: number;
            resultsPerPage: number;
            from: number;
            results: components["schemas"]["GrantSearchResult"][];
        };
        /** @description One grant by id, a flat object; its fields are not shown by the sources. */
        Grant: {
            id?: string | number;
            slug?: string;
            title?: string;
            abstract?: string | null;
            organization?: string;
            country?: string;
            piName?: string;
            awardAmount?: number | string;
            agency?: string;
            awardStartDate?: string;
            awardCloseDate?: string;
            externalLink?: string;
        };
        Device510kPage: {
            slug?: string;
            id?: string | number;
            pageIndex?: number;
            attachment?: string | Record<string, never> | null;
        };
        Device510kAttachment: {
            slug?: string;
            id?: string | number;
            path?: string;
            origin?: string;
            pagesTotal?: number;
            pageCount?: number;
            pages?: components["schemas"]["Device510kPage"][];
            ontology?: {
                tags?: unknown[];
                categories?: unknown[];
            };
            file?: {
                filename?: components["schemas"]["HighlightedValue"];
                fileSize?: components["schemas"]["HighlightedValue"];
                mimeType?: components["schemas"]["HighlightedValue"];
                isDuplicate?: components["schemas"]["HighlightedValue"];
                createdAt?: string | number;
                modifiedAt?: string | number;
            };
            attachment?: {
                content?: string | null;
                contentType?: string;
            };
        };
        /** @description One search result of the 510(k) summaries dataset. */
        Device510kSummary: {
            id?: string | number;
            slug?: string;
            dataset?: string;
            uid?: string | Record<string, never>;
            type?: string;
            filename?: string;
            attachmentsTotal?: number;
            attachments?: components["schemas"]["Device510kAttachment"][];
        };
        Device510kSearchResponse: {
            totalResults: number;
            delay: number;
            resultsPerPage: number;
            from: number;
            results: components["schemas"]["Device510kSummary"][];
        };
        /** @description One 510(k) device clearance by id, a flat object; its fields are not shown by the sources. */
        Device510k: {
            id?: string | number;
        };
        /** @description One FAERS report, a flat object; its fields are not shown by the sources. */
        FaersReport: {
            id?: string | number;
        };
        FaersSearchResponse: {
            totalResults: number;
            delay: number;
            resultsPerPage: number;
            from: number;
            results: components["schemas"]["FaersReport"][];
        };
        /** @description One MAUDE report; its fields are not shown by the sources. */
        MaudeReport: {
            id?: string | number;
        };
        MaudeSearchResponse: {
            totalResults: number;
            delay: number;
            resultsPerPage: number;
            from: number;
            results: components["schemas"]["MaudeReport"][];
        };
        MaudeFacetsRequest: {
            /** @description Query string, as `q` of the searches. */
            qs: string;
            /** @description Filter string of `field:"value"` pairs. */
            fs?: string;
            /** @description Fields to count. */
            whitelist?: string[];
        };
        MaudeFacetsResponse: {
            exact: boolean;
            /** @description Counts per field; inner shape not shown by the sources. */
            facets: Record<string, never>;
            totalResults: number;
        };
    };
    responses: {
        /** @description Missing or invalid credentials. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Invalid token"
                 *     }
                 */
                "application/json": components["schemas"]["HttpError"];
            };
        };
        /** @description The credential lacks access to this operation. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "This token has no access to this resource"
                 *     }
                 */
                "application/json": components["schemas"]["HttpError"];
            };
        };
        /** @description Nothing known under this identifier. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Not found"
                 *     }
                 */
                "application/json": components["schemas"]["HttpError"];
            };
        };
        /** @description The request did not validate (FastAPI style). */
        ValidationFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": [
                 *         {
                 *           "loc": [
                 *             "query",
                 *             "limit"
                 *           ],
                 *           "msg": "ensure this value is less than or equal to 50",
                 *           "type": "value_error.number.not_le"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ValidationError"];
            };
        };
        /** @description Rate limited; wait for Retry-After. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Rate limit exceeded"
                 *     }
                 */
                "application/json": components["schemas"]["HttpError"];
            };
        };
        /** @description The service failed. */
        InternalServerError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["HttpError"];
            };
        };
    };
    parameters: {
        /** @description The DOI, its slashes sent as is (for example `/papers/10.1000/xyz.1`). */
        DoiPath: components["schemas"]["Doi"];
        TaskIdPath: string;
        /** @description Also return paper metadata of the other end of each edge. */
        IncludePapers: boolean;
        /** @description Also return tallies of the other end of each edge. */
        IncludeTallies: boolean;
        /** @description With `offset`, pages through results when the total exceeds 3,000. */
        GraphLimit: number;
        /** @description With `limit`, pages through results when the total exceeds 3,000. */
        GraphOffset: number;
        /** @description Free text; supports AND, OR, NOT and "phrase" matching. */
        EvidenceQuery: string;
        /** @description Space-delimited `field:"value"` pairs, values double-quoted. */
        EvidenceFilter: string;
        /** @description Page number, starting at 1. */
        EvidencePage: number;
        /** @description Sort direction; ignored when `s` is `_relevance`. */
        EvidenceSortDirection: components["schemas"]["SortDirection"];
    };
    requestBodies: never;
    headers: {
        /** @description Seconds to wait before retrying (or an HTTP date). */
        RetryAfter: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getJournalIndex: {
        parameters: {
            query: {
                /** @description One ISSN (dddd-dddC). */
                issn: components["schemas"]["Issn"];
                /** @description One year or comma-separated years; leave out (or blank) for all years. */
                year?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One record per year (newest first in practice). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JournalIndexRecord"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getJournalIndexBulk: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example [
                 *       "0028-0836",
                 *       "1476-4687"
                 *     ]
                 */
                "application/json": components["schemas"]["IssnList"];
            };
        };
        responses: {
            /** @description Records keyed by requested ISSN. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JournalIndexBulkResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getIssnEditorialNotices: {
        parameters: {
            query: {
                /** @description Comma-separated ISSNs, up to 500 (`x-citewise-max-items`). */
                issn: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One aggregate per ISSN; an ISSN without data has no `notices`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssnEditorialNotices"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getPaper: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The DOI, its slashes sent as is (for example `/papers/10.1000/xyz.1`). */
                doi: components["parameters"]["DoiPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The paper. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Paper"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getPapers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example [
                 *       "10.1000/example.one",
                 *       "10.1000/example.two"
                 *     ]
                 */
                "application/json": components["schemas"]["DoiList"];
            };
        };
        responses: {
            /** @description Papers keyed by lowercased DOI; unknown DOIs are absent. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PapersResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getTally: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The DOI, its slashes sent as is (for example `/papers/10.1000/xyz.1`). */
                doi: components["parameters"]["DoiPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tally. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tally"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getTalliesViaGet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DoiList"];
            };
        };
        responses: {
            /** @description Tallies keyed by lowercased DOI. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TalliesResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getTallies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example [
                 *       "10.1000/example.one",
                 *       "10.1000/example.two"
                 *     ]
                 */
                "application/json": components["schemas"]["DoiList"];
            };
        };
        responses: {
            /** @description Tallies keyed by lowercased DOI; unknown DOIs are absent. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TalliesResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getAggregateTally: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example [
                 *       "10.1000/example.one",
                 *       "10.1000/example.two"
                 *     ]
                 */
                "application/json": components["schemas"]["Doi"][];
            };
        };
        responses: {
            /** @description One summed tally (no `doi`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TallyCounts"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getAuthorPapers: {
        parameters: {
            query?: {
                /** @description Papers to skip. */
                offset?: number;
                /** @description Maximum papers returned. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Slug of the form name-parts-suffix. */
                author_slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The author and papers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthorPapersResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getCitingCitations: {
        parameters: {
            query?: {
                /** @description Also return paper metadata of the other end of each edge. */
                papers?: components["parameters"]["IncludePapers"];
                /** @description Also return tallies of the other end of each edge. */
                tallies?: components["parameters"]["IncludeTallies"];
                /** @description With `offset`, pages through results when the total exceeds 3,000. */
                limit?: components["parameters"]["GraphLimit"];
                /** @description With `limit`, pages through results when the total exceeds 3,000. */
                offset?: components["parameters"]["GraphOffset"];
                /** @description Only return citations from these source DOIs (repeat the parameter). */
                "source_doi[]"?: components["schemas"]["Doi"][];
            };
            header?: never;
            path: {
                /** @description The DOI, its slashes sent as is (for example `/papers/10.1000/xyz.1`). */
                doi: components["parameters"]["DoiPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Citations, metadata, and optionally source papers and tallies. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CitingResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getCitedByCitations: {
        parameters: {
            query?: {
                /** @description Also return paper metadata of the other end of each edge. */
                papers?: components["parameters"]["IncludePapers"];
                /** @description Also return tallies of the other end of each edge. */
                tallies?: components["parameters"]["IncludeTallies"];
            };
            header?: never;
            path: {
                /** @description The DOI, its slashes sent as is (for example `/papers/10.1000/xyz.1`). */
                doi: components["parameters"]["DoiPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Citations, and optionally papers and tallies. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CitedByResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getReferencesTo: {
        parameters: {
            query?: {
                /** @description Also return paper metadata of the other end of each edge. */
                papers?: components["parameters"]["IncludePapers"];
                /** @description Also return tallies of the other end of each edge. */
                tallies?: components["parameters"]["IncludeTallies"];
                /** @description Only return references from these source DOIs (repeat the parameter). */
                "source_doi[]"?: components["schemas"]["Doi"][];
                /** @description With `offset`, pages through results when the total exceeds 3,000. */
                limit?: components["parameters"]["GraphLimit"];
                /** @description With `limit`, pages through results when the total exceeds 3,000. */
                offset?: components["parameters"]["GraphOffset"];
            };
            header?: never;
            path: {
                /** @description The DOI, its slashes sent as is (for example `/papers/10.1000/xyz.1`). */
                doi: components["parameters"]["DoiPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description References and their count. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferencesResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getReferencesFrom: {
        parameters: {
            query?: {
                /** @description Also return paper metadata of the other end of each edge. */
                papers?: components["parameters"]["IncludePapers"];
                /** @description Also return tallies of the other end of each edge. */
                tallies?: components["parameters"]["IncludeTallies"];
            };
            header?: never;
            path: {
                /** @description The DOI, its slashes sent as is (for example `/papers/10.1000/xyz.1`). */
                doi: components["parameters"]["DoiPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description References and their count. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferencesResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    createCollection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Amygdala reading list",
                 *       "description": "Papers for the methods chapter",
                 *       "isPublic": false,
                 *       "dois": [
                 *         "10.1000/example.one",
                 *         "10.1000/example.two"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CollectionCreateRequest"];
            };
        };
        responses: {
            /** @description The new collection. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Collection"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getCollection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The slug generated at creation. */
                collection_slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The collection. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Collection"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    pollAssistant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "userInput": "Does sleep deprivation impair working memory in adults?",
                 *       "numReferences": 10,
                 *       "rankBy": "relevance",
                 *       "answerLength": "medium",
                 *       "effort": "low",
                 *       "citationStyle": "apa"
                 *     }
                 */
                "application/json": components["schemas"]["AssistantPollRequest"];
            };
        };
        responses: {
            /** @description The task (usually PENDING or STARTED). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantTask"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getAssistantTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                task_id: components["parameters"]["TaskIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantTask"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    cancelAssistantTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                task_id: components["parameters"]["TaskIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancellation accepted; the body is not specified. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CancelResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    submitReferenceCheck: {
        parameters: {
            query?: {
                /** @description URL of a PDF or DOCX file to process. */
                file_url?: string;
                /**
                 * @deprecated
                 * @description Older name of `file_url`.
                 */
                pdf_url?: string;
                /** @description Whether the upload is for a reference check or for the assistant. */
                upload_for?: "reference-check" | "assistant";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "multipart/form-data": components["schemas"]["ReferenceCheckUpload"];
            };
        };
        responses: {
            /** @description Scheduled. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferenceCheckScheduled"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getReferenceCheckTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                task_id: components["parameters"]["TaskIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferenceCheckTask"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    cancelReferenceCheckTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                task_id: components["parameters"]["TaskIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancellation accepted; the body is not specified. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CancelResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getReferenceCheckResultUrl: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                task_id: components["parameters"]["TaskIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report link. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferenceCheckResultUrl"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    search: {
        parameters: {
            query?: {
                /** @description Cross-field search term; may be blank. */
                term?: string;
                mode?: components["schemas"]["SearchMode"];
                limit?: number;
                offset?: number;
                /** @description Leave out for relevance. */
                sort?: components["schemas"]["SearchSort"];
                sort_order?: components["schemas"]["SortDirection"];
                title?: string;
                abstract?: string;
                /** @description YYYY-MM-DD or YYYY. */
                date_from?: string;
                /** @description YYYY-MM-DD or YYYY. */
                date_to?: string;
                /** @description Only match smart citations of these types (repeat the parameter). */
                citation_types?: components["schemas"]["SearchCitationType"][];
                has_retraction?: boolean;
                has_concern?: boolean;
                has_correction?: boolean;
                has_erratum?: boolean;
                has_withdrawn?: boolean;
                has_tally?: boolean;
                supporting_from?: number;
                supporting_to?: number;
                mentioning_from?: number;
                mentioning_to?: number;
                contrasting_from?: number;
                contrasting_to?: number;
                citing_publications_from?: number;
                citing_publications_to?: number;
                author?: string;
                journal?: string;
                publisher?: string;
                section?: string;
                paper_type?: string;
                affiliation?: string;
                topic?: string;
                substances?: string[];
                mesh_type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Hits and aggregations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    searchPatents: {
        parameters: {
            query?: {
                /** @description Free text; supports AND, OR, NOT and "phrase" matching. */
                q?: components["parameters"]["EvidenceQuery"];
                /** @description Space-delimited `field:"value"` pairs, values double-quoted. */
                f?: components["parameters"]["EvidenceFilter"];
                /** @description Page number, starting at 1. */
                p?: components["parameters"]["EvidencePage"];
                /** @description Sort field. */
                s?: components["schemas"]["PatentSort"];
                /** @description Sort direction; ignored when `s` is `_relevance`. */
                o?: components["parameters"]["EvidenceSortDirection"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of patent families. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PatentSearchResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getPatentsSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dataset's fields. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvidenceSchemaResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    searchClinicalTrials: {
        parameters: {
            query?: {
                /** @description Free text; supports AND, OR, NOT and "phrase" matching. */
                q?: components["parameters"]["EvidenceQuery"];
                /** @description Space-delimited `field:"value"` pairs, values double-quoted. */
                f?: components["parameters"]["EvidenceFilter"];
                /** @description Page number, starting at 1. */
                p?: components["parameters"]["EvidencePage"];
                /** @description Sort field. */
                s?: components["schemas"]["ClinicalTrialSort"];
                /** @description Sort direction; ignored when `s` is `_relevance`. */
                o?: components["parameters"]["EvidenceSortDirection"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of trials. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClinicalTrialSearchResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getClinicalTrialsSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dataset's fields. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvidenceSchemaResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    searchGrants: {
        parameters: {
            query?: {
                /** @description Free text; supports AND, OR, NOT and "phrase" matching. */
                q?: components["parameters"]["EvidenceQuery"];
                /** @description Space-delimited `field:"value"` pairs, values double-quoted. */
                f?: components["parameters"]["EvidenceFilter"];
                /** @description Page number, starting at 1. */
                p?: components["parameters"]["EvidencePage"];
                /** @description Sort field. */
                s?: components["schemas"]["GrantSort"];
                /** @description Sort direction; ignored when `s` is `_relevance`. */
                o?: components["parameters"]["EvidenceSortDirection"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of grant groups. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GrantSearchResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getGrantsSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dataset's fields. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvidenceSchemaResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getGrant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                grant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The grant, as a flat object. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Grant"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    searchDevice510kSummaries: {
        parameters: {
            query?: {
                /** @description Free text; supports AND, OR, NOT and "phrase" matching. */
                q?: components["parameters"]["EvidenceQuery"];
                /** @description Space-delimited `field:"value"` pairs, values double-quoted. */
                f?: components["parameters"]["EvidenceFilter"];
                /** @description Page number, starting at 1. */
                p?: components["parameters"]["EvidencePage"];
                /** @description Sort field; only `_relevance` is known, the schema endpoint lists the rest. */
                s?: components["schemas"]["OpenEvidenceSort"];
                /** @description Sort direction; ignored when `s` is `_relevance`. */
                o?: components["parameters"]["EvidenceSortDirection"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of summary documents. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Device510kSearchResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getDevice510kSummariesSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dataset's fields. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvidenceSchemaResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getDevice510k: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                device_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The device clearance, as a flat object. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Device510k"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    searchFaers: {
        parameters: {
            query?: {
                /** @description Free text; supports AND, OR, NOT and "phrase" matching. */
                q?: components["parameters"]["EvidenceQuery"];
                /** @description Space-delimited `field:"value"` pairs, values double-quoted. */
                f?: components["parameters"]["EvidenceFilter"];
                /** @description Page number, starting at 1. */
                p?: components["parameters"]["EvidencePage"];
                /** @description Sort field; only `_relevance` is known, the schema endpoint lists the rest. */
                s?: components["schemas"]["OpenEvidenceSort"];
                /** @description Sort direction; ignored when `s` is `_relevance`. */
                o?: components["parameters"]["EvidenceSortDirection"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of reports. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FaersSearchResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getFaersSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dataset's fields. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvidenceSchemaResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getFaersReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report, as a flat object. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FaersReport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    searchMaude: {
        parameters: {
            query?: {
                /** @description Free text; supports AND, OR, NOT and "phrase" matching. */
                q?: components["parameters"]["EvidenceQuery"];
                /** @description Space-delimited `field:"value"` pairs, values double-quoted. */
                f?: components["parameters"]["EvidenceFilter"];
                /** @description Page number, starting at 1. */
                p?: components["parameters"]["EvidencePage"];
                /** @description Sort field; only `_relevance` is known, the schema endpoint lists the rest. */
                s?: components["schemas"]["OpenEvidenceSort"];
                /** @description Sort direction; ignored when `s` is `_relevance`. */
                o?: components["parameters"]["EvidenceSortDirection"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of reports. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaudeSearchResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getMaudeSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dataset's fields. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvidenceSchemaResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getMaudeFacets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "qs": "infusion pump",
                 *       "fs": "event_type:\"Malfunction\"",
                 *       "whitelist": [
                 *         "event_type",
                 *         "manufacturer_name"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["MaudeFacetsRequest"];
            };
        };
        responses: {
            /** @description Facet counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaudeFacetsResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
}

/** Every operation of the contract: HTTP method, path template, x-citewise-scope, whether a token is required, rate limit. */
export const serviceOperations = {
  getJournalIndex: { method: 'get', path: '/issn-sji', scope: 'public', auth: 'optional', rateLimit: 'capped', tag: 'Journal' },
  getJournalIndexBulk: { method: 'post', path: '/issn-sji-bulk', scope: 'public', auth: 'optional', rateLimit: 'capped', tag: 'Journal' },
  getIssnEditorialNotices: { method: 'get', path: '/issn-editorial-notices', scope: 'public', auth: 'optional', rateLimit: 'capped', tag: 'Journal' },
  getPaper: { method: 'get', path: '/papers/{doi}', scope: 'public', auth: 'optional', rateLimit: 'uncapped', tag: 'Papers' },
  getPapers: { method: 'post', path: '/papers', scope: 'public', auth: 'optional', rateLimit: 'capped', tag: 'Papers' },
  getTally: { method: 'get', path: '/tallies/{doi}', scope: 'public', auth: 'optional', rateLimit: 'uncapped', tag: 'Tallies' },
  getTalliesViaGet: { method: 'get', path: '/tallies', scope: 'public', auth: 'optional', rateLimit: 'capped', tag: 'Tallies' },
  getTallies: { method: 'post', path: '/tallies', scope: 'public', auth: 'optional', rateLimit: 'capped', tag: 'Tallies' },
  getAggregateTally: { method: 'post', path: '/tallies/aggregate', scope: 'public', auth: 'optional', rateLimit: 'uncapped', tag: 'Tallies' },
  getAuthorPapers: { method: 'get', path: '/authors/{author_slug}/papers', scope: 'public', auth: 'required', rateLimit: 'capped', tag: 'Authors' },
  getCitingCitations: { method: 'get', path: '/api_partner/citations/citing/{doi}', scope: 'citations', auth: 'required', rateLimit: 'capped', tag: 'Citation graph' },
  getCitedByCitations: { method: 'get', path: '/api_partner/citations/cited_by/{doi}', scope: 'citations', auth: 'required', rateLimit: 'capped', tag: 'Citation graph' },
  getReferencesTo: { method: 'get', path: '/api_partner/references/references_to/{doi}', scope: 'citations', auth: 'required', rateLimit: 'capped', tag: 'Citation graph' },
  getReferencesFrom: { method: 'get', path: '/api_partner/references/references_from/{doi}', scope: 'citations', auth: 'required', rateLimit: 'capped', tag: 'Citation graph' },
  createCollection: { method: 'post', path: '/api_partner/collections/create', scope: 'collections', auth: 'required', rateLimit: 'capped', tag: 'Collections' },
  getCollection: { method: 'get', path: '/api_partner/collections/{collection_slug}', scope: 'collections', auth: 'required', rateLimit: 'capped', tag: 'Collections' },
  pollAssistant: { method: 'post', path: '/api_partner/assistant/poll', scope: 'assistant', auth: 'required', rateLimit: 'capped', tag: 'Assistant' },
  getAssistantTask: { method: 'get', path: '/api_partner/assistant/tasks/{task_id}', scope: 'assistant', auth: 'required', rateLimit: 'capped', tag: 'Assistant' },
  cancelAssistantTask: { method: 'get', path: '/api_partner/assistant/tasks/{task_id}/cancel', scope: 'assistant', auth: 'required', rateLimit: 'capped', tag: 'Assistant' },
  submitReferenceCheck: { method: 'post', path: '/reference_check', scope: 'reference-check', auth: 'required', rateLimit: 'capped', tag: 'Reference check' },
  getReferenceCheckTask: { method: 'get', path: '/reference_check/tasks/{task_id}', scope: 'reference-check', auth: 'required', rateLimit: 'capped', tag: 'Reference check' },
  cancelReferenceCheckTask: { method: 'get', path: '/reference_check/tasks/{task_id}/cancel', scope: 'reference-check', auth: 'required', rateLimit: 'capped', tag: 'Reference check' },
  getReferenceCheckResultUrl: { method: 'get', path: '/reference_check/tasks/{task_id}/result_url', scope: 'reference-check', auth: 'required', rateLimit: 'capped', tag: 'Reference check' },
  search: { method: 'get', path: '/search', scope: 'public', auth: 'optional', rateLimit: 'capped', tag: 'Search' },
  searchPatents: { method: 'get', path: '/api_partner/evidence/patents', scope: 'evidence-patents', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  getPatentsSchema: { method: 'get', path: '/api_partner/evidence/patents/schema', scope: 'evidence-patents', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  searchClinicalTrials: { method: 'get', path: '/api_partner/evidence/clinical-trials', scope: 'evidence-clinical-trials', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  getClinicalTrialsSchema: { method: 'get', path: '/api_partner/evidence/clinical-trials/schema', scope: 'evidence-clinical-trials', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  searchGrants: { method: 'get', path: '/api_partner/evidence/grants', scope: 'evidence-grants', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  getGrantsSchema: { method: 'get', path: '/api_partner/evidence/grants/schema', scope: 'evidence-grants', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  getGrant: { method: 'get', path: '/api_partner/evidence/grants/{grant_id}', scope: 'evidence-grants', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  searchDevice510kSummaries: { method: 'get', path: '/api_partner/evidence/device510k-summaries', scope: 'evidence-device510k', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  getDevice510kSummariesSchema: { method: 'get', path: '/api_partner/evidence/device510k-summaries/schema', scope: 'evidence-device510k', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  getDevice510k: { method: 'get', path: '/api_partner/evidence/device510k/{device_id}', scope: 'evidence-device510k', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  searchFaers: { method: 'get', path: '/api_partner/evidence/faers', scope: 'evidence-faers', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  getFaersSchema: { method: 'get', path: '/api_partner/evidence/faers/schema', scope: 'evidence-faers', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  getFaersReport: { method: 'get', path: '/api_partner/evidence/faers/{report_id}', scope: 'evidence-faers', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  searchMaude: { method: 'get', path: '/api_partner/evidence/maude', scope: 'evidence-maude', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  getMaudeSchema: { method: 'get', path: '/api_partner/evidence/maude/schema', scope: 'evidence-maude', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
  getMaudeFacets: { method: 'post', path: '/api_partner/evidence/maude/facets', scope: 'evidence-maude', auth: 'required', rateLimit: 'capped', tag: 'Evidence' },
} as const;
