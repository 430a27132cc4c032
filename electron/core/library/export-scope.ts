// What an export covers (ExportScope: chosen items, a collection, a search, a view, the library) as
// the ids and CSL-JSON items it names: one reading for the app's Export and `citewise export`.
import type { ExportScope } from '../../../shared/ipc';
import type { CslItem } from '../../../shared/model/csl';
import { isNoteItem } from '../../../shared/model/standalone-note';
import type { StyleInfo } from '../formats/cite/types';
import type { LibraryClient } from './client';

/** Items fetched from the library worker per message during an export. */
export const EXPORT_CHUNK = 5000;

/** The ids of the items `scope` covers, in the library's order. */
export function idsInScope(listing: Pick<LibraryClient['listing'], 'idsOf'>, scope: ExportScope): Promise<number[]> {
  switch (scope.kind) {
    case 'items':
      return Promise.resolve(scope.ids);
    case 'collection':
      return listing.idsOf({ collectionId: scope.collectionId });
    case 'query':
      return listing.idsOf({ query: scope.query });
    case 'library':
      return listing.idsOf({});
    case 'view':
      return listing.idsOf(scope.where);
  }
}

/** The items' CSL-JSON, fetched in chunks so that no message to the worker carries the whole library. */
// Each chunk comes as one JSON text (Library.cslJsonOf), not as structured-cloned objects.
export async function cslOfIds(
  lib: Pick<LibraryClient['lib'], 'cslJsonOf'>,
  ids: readonly number[],
): Promise<CslItem[]> {
  const out: CslItem[] = [];
  for (let i = 0; i < ids.length; i += EXPORT_CHUNK) {
    const chunk = JSON.parse(await lib.cslJsonOf(ids.slice(i, i + EXPORT_CHUNK))) as CslItem[];
    // Standalone notes are no references: no bibliography or reference file has them.
    for (const item of chunk) if (!isNoteItem(item)) out.push(item);
  }
  return out;
}

/**
 * The locale to hand the formatter for an export: none when the one asked for is what the style
 * would take anyway (its default-locale, else en-US), so that forcing it changes nothing. The app
 * always sends one (en-US by default) and `citewise export` none; the formatter's cache key records
 * whether a locale was forced, so the same bibliography was kept twice and the first export of an app
 * session missed what the command line had formatted (and the other way round).
 */
export function exportLocale(
  styles: readonly Pick<StyleInfo, 'id' | 'kind' | 'defaultLocale'>[],
  style: string,
  locale: string | undefined,
): string | undefined {
  const info = styles.find((s) => s.id === style);
  if (locale === undefined || !info || info.kind !== 'csl') return locale;
  return (info.defaultLocale ?? 'en-US') === locale ? undefined : locale;
}
