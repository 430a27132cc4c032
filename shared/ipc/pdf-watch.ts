// Settings → Watch a folder: PDFs that appear in a folder the user chose are captured as Add → PDFs…
// captures them. The folder is the `watchFolder` setting (settings.update checks it in the core:
// it must exist, be a folder and be readable); this feature reports what the watcher is doing.
import { z } from 'zod';
import { event, feature, request } from './define';

export interface PdfWatchStatus {
  /** The folder watched; null: none chosen. */
  folder: string | null;
  /** off: no folder; watching; error: the folder cannot be read now (gone, unmounted, not allowed). */
  state: 'off' | 'watching' | 'error';
  /** PDFs from this folder captured as items (since it was first chosen). */
  captured: number;
  /** Files from this folder that could not be captured (each reported once). */
  failed: number;
  /** Files seen and not yet captured: still being written, or waiting their turn. */
  waiting: number;
  /** The last problem: a file that failed (file set) or the folder itself (file null). */
  lastError: { file: string | null; message: string; at: number } | null;
  /** The last PDF captured from the folder. */
  lastCaptured: { file: string; itemId: number; at: number } | null;
}

export const pdfWatchFeature = feature({
  requests: {
    'pdfWatch.status': request(z.object({}).strict()).returns<PdfWatchStatus>(),
  },
  events: {
    /** Sent whenever the watcher's status changes (a file captured or failed, the folder gone or back). */
    'pdfWatch.changed': event<PdfWatchStatus>(),
  },
});
