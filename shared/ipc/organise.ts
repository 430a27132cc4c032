// Organising the library as a Zotero user does: tags renamed, merged, deleted and coloured (keys 1–9
// toggle a coloured tag on the selection), and items related to one another, both ways. Every change
// to items is one undo step in the core; colours are a setting of the library, not an item change.
import { z } from 'zod';
import type { Collection, RelatedRow, TagColor } from '../model/library';

/** A collection in the Trash (trashed itself, not with a parent), with how much comes back with it. */
export interface TrashedCollection extends Collection {
  trashedAt: number;
  /** Subcollections trashed with it. */
  subcollections: number;
}
import { event, feature, request } from './define';
import { MAX_IDS } from './library';

const itemId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const ids = z.array(itemId).min(1).max(MAX_IDS);
const tagName = z.string().trim().min(1, 'a tag needs a name').max(500);

export const organiseFeature = feature({
  requests: {
    /** Renames a tag on every item (renaming onto an existing tag merges them); how many items changed. */
    'library.tags.rename': request(z.object({ from: tagName, to: tagName }).strict()).returns<{ items: number }>(),
    /** Every item with any of `names` gets `into` instead. */
    'library.tags.merge': request(
      z.object({ names: z.array(tagName).min(1).max(1000), into: tagName }).strict(),
    ).returns<{ items: number }>(),
    /** Removes tags from every item (a coloured tag keeps its colour). */
    'library.tags.delete': request(z.object({ names: z.array(tagName).min(1).max(1000) }).strict()).returns<{
      items: number;
    }>(),
    /** Adds the tag to all of `ids` when any lacks it, else removes it from all (keys 1–9). */
    'library.tags.toggle': request(z.object({ ids, name: tagName }).strict()).returns<{ added: boolean }>(),
    'library.tags.colors': request(z.object({}).strict()).returns<TagColor[]>(),
    /** A colour (#rrggbb) and place 1–9 for a tag, or null to take them away; answers every coloured tag. */
    'library.tags.setColor': request(
      z
        .object({
          name: tagName,
          color: z
            .string()
            .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #ff6666')
            .nullable(),
          position: z.number().int().min(1).max(9).optional(),
        })
        .strict(),
    ).returns<TagColor[]>(),

    /** Collections in the Trash (library.collections.delete moves one there, with its subcollections). */
    'library.collections.trashed': request(z.object({}).strict()).returns<TrashedCollection[]>(),
    /** Brings a collection back from the Trash with its subcollections and its items' membership. */
    'library.collections.restore': request(z.object({ id: itemId }).strict()).returns<null>(),
    /** Deletes a collection in the Trash for good (its items stay in the library). */
    'library.collections.deleteForGood': request(z.object({ id: itemId }).strict()).returns<null>(),

    'library.related.list': request(z.object({ id: itemId }).strict()).returns<RelatedRow[]>(),
    'library.related.add': request(z.object({ id: itemId, ids }).strict()).returns<null>(),
    'library.related.remove': request(z.object({ id: itemId, relatedId: itemId }).strict()).returns<null>(),
  },
  events: {
    /** The coloured tags changed (another window, the CLI): the sidebar and the keys 1–9 follow. */
    'library.tagColorsChanged': event<TagColor[]>(),
  },
});
