// The assistant pane: questions asked with their options and kept in the library as conversations
// (readable offline, renamable, deletable), feedback on answers, adding an answer's references to the
// library, drafts built from an answer, and reference checks of a file or a collection. Tasks report
// through the service feature's service.task.* events; stored answers through assistant.changed.
import { z } from 'zod';
import {
  MAX_REFCHECK_BYTES,
  REFCHECK_EXTENSIONS,
  type AssistantSessionDetail,
  type AssistantSessionSummary,
  type AssistantTurnRecord,
} from '../model/assistant';
import { parseDoi } from '../model/doi';
import { DEFAULT_CITATION_STYLE } from '../model/settings';
import { CITATION_STYLES } from '../service';
import { event, feature, request } from './define';
import type { AddDoisReport } from './library';
import type { TaskStarted } from './service';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const short = z.string().trim().min(1).max(200);

export const MAX_QUESTION_CHARS = 20_000;

export const assistantOptions = z
  .object({
    answerLength: z.enum(['short', 'medium', 'long']).optional(),
    numReferences: z.number().int().min(0).max(1000).optional(),
    rankBy: z
      .enum(['all', 'relevance', 'date', 'citations', 'supporting-citations', 'contrasting-citations', 'journal-rank'])
      .optional(),
    yearFrom: z
      .string()
      .regex(/^\d{4}$/, 'a four-digit year')
      .optional(),
    yearTo: z
      .string()
      .regex(/^\d{4}$/, 'a four-digit year')
      .optional(),
    abstractsOnly: z.boolean().optional(),
    fullTextsOnly: z.boolean().optional(),
    openAccessOnly: z.boolean().optional(),
    topics: z.array(short).max(50).optional(),
    journals: z.array(short).max(50).optional(),
    citationStyle: z.enum(CITATION_STYLES).optional(),
    effort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
  })
  .strict()
  .refine((o) => !(o.abstractsOnly && o.fullTextsOnly), {
    message: 'Choose abstracts only or full texts only, not both',
    path: ['fullTextsOnly'],
  })
  .refine((o) => !o.yearFrom || !o.yearTo || o.yearFrom <= o.yearTo, {
    message: 'The year range ends before it starts',
    path: ['yearTo'],
  });

/** Which publications the answer may draw on: any, a library collection's DOIs, the library's DOIs, or a list. */
export const assistantScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('any') }).strict(),
  z.object({ kind: z.literal('collection'), collectionId: id }).strict(),
  z.object({ kind: z.literal('library') }).strict(),
  z
    .object({
      kind: z.literal('dois'),
      dois: z
        .array(
          z
            .string()
            .min(1)
            .max(1000)
            .refine((d) => parseDoi(d).ok, 'not a DOI'),
        )
        .min(1)
        .max(1000),
    })
    .strict(),
]);

export interface AssistantAsked {
  sessionId: number;
  turnId: number;
  task: TaskStarted;
}

export interface AssistantChange {
  sessionId: number;
  /** The turn that changed; absent when the conversation was renamed or deleted. */
  turnId?: number;
  kind: 'asked' | 'answered' | 'failed' | 'renamed' | 'deleted' | 'feedback';
}

export interface AddReferencesReport extends AddDoisReport {
  /** The collection the items were put in, when one was chosen. */
  collectionId: number | null;
}

export interface AssistantDraft {
  style: string;
  /** The answer with in-text citations, a blank line and the bibliography, as plain text. */
  text: string;
  /** The same as an HTML fragment (for rich-text paste into a word processor). */
  html: string;
  /** Markdown with Pandoc citations ([@key]); only for format 'markdown'. */
  markdown?: string;
  /** The BibTeX entries the Markdown cites; only for format 'markdown'. */
  bib?: string;
  /** References cited that are not (yet) in the library: their keys are provisional. */
  notInLibrary: number[];
  /**
   * Only for format 'docx' or 'odt': the draft as a Word or LibreOffice file whose citations and
   * bibliography are live Zotero fields (base64).
   */
  file?: { name: string; mime: string; base64: string };
}

export const assistantFeature = feature({
  requests: {
    'assistant.ask': request(
      z
        .object({
          /** null starts a new conversation. */
          sessionId: id.nullable(),
          question: z.string().trim().min(1, 'The question is empty').max(MAX_QUESTION_CHARS),
          options: assistantOptions.default({}),
          scope: assistantScope.default({ kind: 'any' }),
          deadlineMs: z.number().int().min(5000).max(3_600_000).optional(),
        })
        .strict(),
    ).returns<AssistantAsked>(),
    /** Asks a failed or cancelled question again, with its options. */
    'assistant.retry': request(
      z.object({ turnId: id, deadlineMs: z.number().int().min(5000).max(3_600_000).optional() }).strict(),
    ).returns<AssistantAsked>(),
    'assistant.sessions.list': request(z.object({}).strict()).returns<AssistantSessionSummary[]>(),
    'assistant.sessions.get': request(z.object({ id }).strict()).returns<AssistantSessionDetail>(),
    'assistant.sessions.rename': request(
      z.object({ id, title: z.string().trim().min(1, 'The title is empty').max(500) }).strict(),
    ).returns<AssistantSessionSummary>(),
    'assistant.sessions.delete': request(z.object({ id }).strict()).returns<null>(),
    /** null clears the feedback. Kept with the answer and sent back with the conversation's turns. */
    'assistant.feedback': request(
      z
        .object({
          turnId: id,
          value: z.enum(['positive', 'negative']).nullable(),
          reason: z.string().max(2000).default(''),
        })
        .strict(),
    ).returns<AssistantTurnRecord>(),
    /** Adds an answer's references (all, or the chosen numbers) to the library, enriched, optionally into a collection. */
    'assistant.references.add': request(
      z
        .object({
          turnId: id,
          numbers: z.array(z.number().int().min(1).max(1000)).min(1).max(1000).optional(),
          collectionId: id.nullable().default(null),
        })
        .strict(),
    ).returns<AddReferencesReport>(),
    /** The answer as a draft: in-text citations and a bibliography in `style`, or Markdown with Pandoc citations and its .bib. */
    'assistant.draft': request(
      z
        .object({
          turnId: id,
          style: z.enum(CITATION_STYLES).default(DEFAULT_CITATION_STYLE),
          format: z.enum(['document', 'markdown', 'docx', 'odt']).default('document'),
          numbers: z.array(z.number().int().min(1).max(1000)).min(1).max(1000).optional(),
        })
        .strict(),
    ).returns<AssistantDraft>(),
    /** Starts a reference check of a file (its bytes, base64) or of a library collection (sent as BibTeX). */
    'assistant.referenceCheck.start': request(
      z
        .object({
          source: z.discriminatedUnion('kind', [
            z
              .object({
                kind: z.literal('file'),
                name: z
                  .string()
                  .min(1)
                  .max(500)
                  .refine((n) => REFCHECK_EXTENSIONS.some((e) => n.toLowerCase().endsWith(`.${e}`)), {
                    message: `The file must be ${REFCHECK_EXTENSIONS.map((e) => `.${e}`).join(', ')}`,
                  }),
                base64: z
                  .string()
                  .min(1, 'The file is empty')
                  .max(
                    Math.ceil(MAX_REFCHECK_BYTES / 3) * 4,
                    `The file is larger than ${MAX_REFCHECK_BYTES / 1024 / 1024} MB`,
                  )
                  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64'),
              })
              .strict(),
            z.object({ kind: z.literal('collection'), collectionId: id }).strict(),
          ]),
          deadlineMs: z.number().int().min(5000).max(3_600_000).optional(),
        })
        .strict(),
    ).returns<TaskStarted>(),
  },
  events: {
    'assistant.changed': event<AssistantChange>(),
  },
});
