// An item in Zotero's own JSON shape, as Better BibTeX's "BetterBibTeX JSON" export and
// item.pandoc_filter (asCSL false) hand it out. The Obsidian plugin renders its note templates from
// these fields (title, creators, date, citationKey, itemKey, notes, attachments, tags, relations).
// The fields are Zotero's CSL mapping (core/formats/zotero), the one the Connector and the local API use.
import { pathToFileURL } from 'node:url';
import type { CslItem } from '../../shared/model/csl';
import type { ItemDetail } from '../../shared/model/library';
import { cslToZotero } from '../core/formats/zotero/item';
import { toNoteHtml } from '../../shared/model/note-html';

/** Citewise has one library; Better BibTeX's clients call the personal library 1, "My Library". */
export const LIBRARY_ID = 1;
export const LIBRARY_NAME = 'My Library';

/** The item's key in Zotero's sense: Citewise's item id, so item.citationkey can take it back. */
export const itemKey = (id: number): string => String(id);
export const itemUri = (id: number): string => `http://zotero.org/users/local/citewise/items/${itemKey(id)}`;

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * A Citewise note as the HTML of a Zotero note: its stored HTML (already kept to the note allowlist),
 * with each citation to an item written as Zotero's note editor writes one (a span.citation whose
 * data-citation names the item by the URI this API gives it), so Zotero's clients read it as theirs.
 */
export function noteHtml(body: string): string {
  return toNoteHtml(body).replace(/<cite data-item="(\d+)">([\s\S]*?)<\/cite>/g, (_all, id: string, label: string) => {
    const citation = encodeURIComponent(
      JSON.stringify({ citationItems: [{ uris: [itemUri(Number(id))] }], properties: {} }),
    );
    return `<span class="citation" data-citation="${citation}">${label}</span>`;
  });
}

export function toZoteroItem(detail: ItemDetail): Record<string, unknown> {
  const csl: CslItem = detail.csl;
  const id = detail.id;
  const out: Record<string, unknown> = {
    itemType: 'document',
    citationKey: detail.citationKey,
    itemID: id,
    itemKey: itemKey(id),
    key: itemKey(id),
    libraryID: LIBRARY_ID,
    uri: itemUri(id),
    // No `select` link: Better BibTeX's is zotero://select/…, which opens Zotero, and Citewise
    // registers no scheme of its own, so any link here would lead nowhere.
  };
  const zotero = cslToZotero(csl);
  out.itemType = zotero.itemType;
  Object.assign(out, zotero.fields);
  // Better BibTeX's JSON carries the key it assigned, whatever the item's own field says.
  out.citationKey = detail.citationKey;
  out.creators = zotero.creators;
  out.tags = detail.tags.map((tag) => ({ tag }));
  out.notes = detail.notes.map((n) => ({
    note: noteHtml(n.body),
    key: `N${n.id}`,
    dateAdded: iso(n.createdAt),
    dateModified: iso(n.modifiedAt),
  }));
  out.attachments = detail.attachments.map((a) => ({
    itemType: 'attachment',
    title: a.path.split(/[\\/]/).pop() ?? a.path,
    path: a.path,
    url: pathToFileURL(a.path).href,
    contentType: a.mime ?? '',
    key: `A${a.id}`,
    dateAdded: iso(a.addedAt),
  }));
  out.collections = detail.collections.map(String);
  out.relations = [];
  out.dateAdded = iso(detail.dateAdded);
  out.dateModified = iso(detail.dateModified);
  return out;
}
