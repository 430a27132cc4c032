// Auto-export through IPC: files kept in sync with the library or a collection ("keep this file in
// sync"), their status, a run on demand, and the native save dialog where there is one. The core
// checks every target path (absolute, folder exists and is writable, extension fits the format, not
// inside Citewise's own data folder) before it stores a definition.
import { z } from 'zod';
import { AUTO_EXPORT_FORMATS, type AutoExport, type AutoExportRun } from '../model/auto-export';
import { event, feature, request } from './define';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const autoExportScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('library') }).strict(),
  z.object({ kind: z.literal('collection'), collectionId: id, subcollections: z.boolean().default(true) }).strict(),
]);

export const autoExportOptions = z
  .object({ abstracts: z.boolean(), notes: z.boolean(), ascii: z.boolean() })
  .partial()
  .strict();

/** An auto-export with what the UI shows beside it: its collection's name (null: library-wide or deleted). */
export interface AutoExportInfo extends AutoExport {
  collectionName: string | null;
}

/** After every run (a change in the library, Run now, a new definition), successful or not. */
export interface AutoExportStatusEvent {
  definition: AutoExport;
  /** What the run did; null when it failed unexpectedly (the definition's error says why). */
  run: AutoExportRun | null;
}

export interface ChosenFile {
  /** null: the user cancelled, or this host has no native dialog (see `available`). */
  path: string | null;
  /** False in browser mode: there the user types the path. */
  available: boolean;
}

export const autoExportFeature = feature({
  requests: {
    'autoExport.list': request(z.object({}).strict()).returns<AutoExportInfo[]>(),
    /** Stores a definition and writes the file at once (the result arrives as autoExport.status). */
    'autoExport.add': request(
      z
        .object({
          path: z.string().trim().min(1, 'the path of the file to keep in sync is empty').max(4096),
          format: z.enum(AUTO_EXPORT_FORMATS),
          scope: autoExportScope.default({ kind: 'library' }),
          options: autoExportOptions.optional(),
        })
        .strict(),
    ).returns<AutoExportInfo>(),
    /** Forgets the definition; the file stays where it is. */
    'autoExport.remove': request(z.object({ id }).strict()).returns<null>(),
    /** Writes the file now (after any run already going); `force` rewrites it even when nothing changed. */
    'autoExport.run': request(z.object({ id, force: z.boolean().default(true) }).strict()).returns<AutoExportRun>(),
    /** The native save dialog (Electron); in browser mode answers `available: false`. */
    'autoExport.chooseFile': request(
      z.object({ format: z.enum(AUTO_EXPORT_FORMATS), suggestedName: z.string().trim().max(255).optional() }).strict(),
    ).returns<ChosenFile>(),
  },
  events: {
    'autoExport.status': event<AutoExportStatusEvent>(),
  },
});
