// Tags renamed, merged, deleted, coloured and toggled, and items related to one another (shared/ipc/organise.ts).
// The library worker does the work, each change to items one undo step; this says what changed.
import type { LibraryChange, organiseFeature } from '../../../shared/ipc';
import type { EventBus } from '../events';
import { CoreError } from '../errors';
import type { LibraryClient } from '../library/client';
import type { FeatureHandlers } from '../registry';

export interface OrganiseHandlerDeps {
  library: LibraryClient;
  events: EventBus;
  /** Told after items changed (the Library refreshes, auto-exports run). */
  changed: (kind: LibraryChange['kind'], ids?: readonly number[]) => void;
}

export function organiseHandlers(deps: OrganiseHandlerDeps) {
  const lib = deps.library.lib;
  const colorsChanged = async (): Promise<void> => deps.events.emit('library.tagColorsChanged', await lib.tagColors());
  return {
    'library.tags.rename': async ({ from, to }) => {
      const items = await lib.renameTag(from, to);
      await colorsChanged();
      deps.changed('tags');
      return { items };
    },
    'library.tags.merge': async ({ names, into }) => {
      const items = await lib.mergeTags(names, into);
      deps.changed('tags');
      return { items };
    },
    'library.tags.delete': async ({ names }) => {
      const items = await lib.deleteTags(names);
      await colorsChanged();
      deps.changed('tags');
      return { items };
    },
    'library.tags.toggle': async ({ ids, name }) => {
      const added = await lib.toggleTag(ids, name);
      deps.changed('tags', ids);
      return { added };
    },
    'library.tags.colors': () => lib.tagColors(),
    'library.tags.setColor': async ({ name, color, position }) => {
      const colors = await lib.setTagColor(name, color, position);
      deps.events.emit('library.tagColorsChanged', colors);
      return colors;
    },
    'library.collections.trashed': () => lib.trashedCollections(),
    'library.collections.restore': async ({ id }) => {
      await lib.restoreCollection(id);
      deps.changed('collections');
      return null;
    },
    'library.collections.deleteForGood': async ({ id }) => {
      const trashed = (await lib.trashedCollections()).some((c) => c.id === id);
      if (!trashed) throw new CoreError('CONFLICT', 'Only a collection in the Trash can be deleted for good.');
      await lib.deleteCollection(id);
      deps.changed('collections');
      return null;
    },
    'library.related.list': ({ id }) => lib.relatedTo(id),
    'library.related.add': async ({ id, ids }) => {
      await lib.relateItems(id, ids);
      deps.changed('items', [id, ...ids]);
      return null;
    },
    'library.related.remove': async ({ id, relatedId }) => {
      await lib.unrelateItems(id, relatedId);
      deps.changed('items', [id, relatedId]);
      return null;
    },
  } satisfies FeatureHandlers<typeof organiseFeature>;
}
