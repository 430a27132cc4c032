import { z } from 'zod';
import { event, feature, request } from './define';

/**
 * A cite-as-you-write request (GET /better-bibtex/cayw) that waits for the user: the editor that
 * sent it blocks until it is answered, cancelled, or the editor hangs up.
 */
export interface PendingPick {
  id: string;
  /** When it arrived (ISO 8601). */
  since: string;
}

const pickId = z.string().min(1).max(100);

export const editorsFeature = feature({
  requests: {
    'editors.picks.list': request(z.object({}).strict()).returns<PendingPick[]>(),
    /** Answers a waiting request with these citation keys, in order (what the picker page sends). */
    'editors.picks.answer': request(
      z
        .object({
          id: pickId,
          citationKeys: z.array(z.string().trim().min(1).max(1000)).min(1).max(500),
        })
        .strict(),
    ).returns<null>(),
    /** Closes a waiting request unanswered: the editor gets an empty result, as from Better BibTeX's closed picker. */
    'editors.picks.cancel': request(z.object({ id: pickId }).strict()).returns<null>(),
  },
  events: {
    /** The requests waiting now, oldest first; sent whenever one arrives or ends. */
    'editors.picksChanged': event<PendingPick[]>(),
  },
});
