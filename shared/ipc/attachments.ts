// Attachments through IPC: a local file linked to an item (its path and a SHA-256 of its content, so
// a moved, deleted or changed file shows), checked on demand, and opened with the OS application in
// the desktop app. Browser mode cannot open files: the core answers with the path for the user to copy.
// Only local files are ever opened, never URLs.
import { z } from 'zod';
import type { Attachment } from '../model/library';
import { feature, request } from './define';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * ok: the file is there with the content it had when attached · missing: no file at the path ·
 * changed: the content differs (size or hash) · unreadable: there, but Citewise may not read it ·
 * unverified: attached without a hash (an older import); present, content not compared.
 */
export type AttachmentState = 'ok' | 'missing' | 'changed' | 'unreadable' | 'unverified';

export interface AttachmentCheck {
  id: number;
  state: AttachmentState;
  /** What the state means for this file, said for the user. */
  message: string;
}

export interface OpenedAttachment {
  path: string;
  /** True when the OS was asked to open it; false in browser mode, where the user copies the path. */
  opened: boolean;
}

export const attachmentsFeature = feature({
  requests: {
    /** Links a local file (an absolute path, typed or dropped) to an item; the file must exist and be readable. */
    'library.attachments.add': request(
      z
        .object({ itemId: id, path: z.string().trim().min(1, 'the path of the file to attach is empty').max(4096) })
        .strict(),
    ).returns<Attachment>(),
    /** Whether each of the item's attached files is still there and unchanged. */
    'library.attachments.check': request(z.object({ itemId: id }).strict()).returns<AttachmentCheck[]>(),
    'library.attachments.open': request(z.object({ itemId: id, id }).strict()).returns<OpenedAttachment>(),
  },
  events: {},
});
