// The manuscript check from the Assistant pane: a Markdown/Quarto, LaTeX (with its .aux), Typst or
// Word file the user picks (its bytes, base64) or text they paste (named so its format is known),
// checked offline against the library (see shared/model/manuscript.ts).
import { z } from 'zod';
import {
  manuscriptFormatOf,
  MANUSCRIPT_EXTENSIONS,
  MANY_CONTRASTING,
  MAX_MANUSCRIPT_BYTES,
  type ManuscriptReport,
} from '../model/manuscript';
import { feature, request } from './define';

const EXTENSIONS = Object.keys(MANUSCRIPT_EXTENSIONS)
  .map((e) => `.${e}`)
  .join(', ');
const MB = MAX_MANUSCRIPT_BYTES / 1024 / 1024;

const name = z
  .string()
  .min(1)
  .max(500)
  .refine((n) => manuscriptFormatOf(n) !== null, { message: `The file must be ${EXTENSIONS}` });
const base64 = z
  .string()
  .min(1, 'The file is empty')
  .max(Math.ceil(MAX_MANUSCRIPT_BYTES / 3) * 4, `The file is larger than ${MB} MB`)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64');

export const manuscriptFeature = feature({
  requests: {
    /** Checks a manuscript: the keys it cites, the items they are, and which need a second look. */
    'manuscript.check': request(
      z
        .object({
          source: z.discriminatedUnion('kind', [
            z
              .object({
                kind: z.literal('file'),
                name,
                base64,
                aux: z
                  .object({
                    name: z
                      .string()
                      .min(1)
                      .max(500)
                      .regex(/\.aux$/i, 'The .aux file must end in .aux'),
                    base64,
                  })
                  .strict()
                  .optional(),
              })
              .strict(),
            z
              .object({
                kind: z.literal('text'),
                name,
                text: z
                  .string()
                  .min(1, 'The text is empty')
                  .max(MAX_MANUSCRIPT_BYTES, `The text is longer than ${MB} MB`),
              })
              .strict(),
          ]),
          contrasting: z.number().int().min(1).max(1_000_000).default(MANY_CONTRASTING),
        })
        .strict(),
    ).returns<ManuscriptReport>(),
  },
  events: {},
});
