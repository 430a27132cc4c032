// The import port: what the formats worker (the parser) posts to the library worker (the store) on a
// MessagePort, so a large import never passes through the thread that answers the UI. Both sides
// import this one module: the messages, the item they carry, how a chunk of items is packed, and the
// flow-control slots.
import { appendAll } from '../../../shared/model/arrays';
import { prepareItem, type PreparedItem } from '../library/derive';
import type { ImportedItem } from './result';

/** An entry as the parser hands it to the store: prepared (derived columns, CSL-JSON text), with the line its entry starts on and the file's key for it. */
export interface PortItem {
  prepared: PreparedItem;
  line: number;
  sourceKey?: string;
  /** The entry's fingerprint as the file wrote it (formats/origin.ts), when the format has entries. */
  origin?: string;
}

/** A parsed entry as the parser posts it: prepared in the parser's thread, with its line, key and origin. */
export function portItemOf(it: ImportedItem): PortItem {
  const out: PortItem = { prepared: prepareItem(it.item, it.replacedId), line: it.line };
  if (it.sourceKey !== undefined) out.sourceKey = it.sourceKey;
  if (it.origin !== undefined) out.origin = it.origin;
  return out;
}

/**
 * A chunk of items as it crosses the port (encodePortItems / decodePortItems): every item's fields
 * one after another in `values`, and every item's CSL-JSON as UTF-8 in `text`, an ArrayBuffer the
 * parser transfers rather than clones.
 */
export interface PortChunk {
  type: 'items';
  values: PortValue[];
  text: ArrayBuffer;
}
export type PortValue = string | number | boolean | null;

/**
 * What the parser posts on the port: first the flow counters, then the items in order, then `end`
 * once the parse succeeded; nothing more after a failure, which the caller learns from the parser's
 * own 'failed' message (the store then sees the port close without `end`).
 */
export type PortMessage = { type: 'flow'; counters: SharedArrayBuffer } | PortChunk | { type: 'end'; count: number };

/**
 * Flow control on a port: the parser is faster than the store, and chunks waiting in the port hold
 * memory. The first message hands the reader a SharedArrayBuffer of these Int32 slots; the reader
 * counts the chunks it has written (and notifies), and the parser waits while too many are unread.
 * `closed` is non-zero once the reader stopped reading; `reading` once it started (a parse may start
 * before the library worker has opened the library and taken the port: see startParse).
 */
export const FLOW = { written: 0, closed: 1, reading: 2 } as const;

// Why a packed chunk and not the items as objects: structured clone writes every property name of
// every object and builds each object again on the other side, and a CSL-JSON record with one
// accented name is cloned as two bytes a character. A 100,000-entry import posted 350 MB that way,
// and reading it back cost the store's thread 0.24 s per 10,000 items against 0.06 s packed (best of
// 10 on the loaded 2-core machine). The CSL-JSON bytes are written into the library as they are
// (item_csl's insert casts them to TEXT), so the store neither decodes nor re-encodes them.

const encoder = new TextEncoder();
/** Reused between chunks: each chunk's text is copied out of it at its exact length. */
let scratch = new Uint8Array(1 << 20);

/** Packs prepared items for the port; post it with `[chunk.text]` as the transfer list. */
export function encodePortItems(items: readonly PortItem[]): PortChunk {
  let bound = 0;
  for (const it of items)
    bound += typeof it.prepared.csl === 'string' ? it.prepared.csl.length * 3 : it.prepared.csl.byteLength;
  if (scratch.length < bound) scratch = new Uint8Array(Math.max(bound, scratch.length * 2));
  const values: PortValue[] = [];
  let at = 0;
  for (const { prepared: p, line, sourceKey, origin } of items) {
    if (typeof p.csl === 'string') at += encoder.encodeInto(p.csl, scratch.subarray(at)).written;
    else {
      scratch.set(p.csl, at);
      at += p.csl.byteLength;
    }
    const d = p.derived;
    // appendAll, not a spread: an entry may have 90,000 authors (six values each).
    values.push(at, p.type, p.hasKey, p.givenKey, p.requestedKey, p.keyProblem, p.keyBase, p.tags.length);
    appendAll(values, p.tags);
    values.push(
      d.title,
      d.titleSort,
      d.creatorsText,
      d.creatorsSort,
      d.year,
      d.container,
      d.containerSort,
      d.doi,
      d.doiProblem,
      d.abstract,
      d.creatorsFts,
      d.publisherSort,
      d.pagesSort,
      d.extraSort,
    );
    values.push(p.creators.length);
    appendAll(values, p.creators);
    values.push(line, sourceKey ?? null, origin ?? null, p.replacedId ? p.replacedId.id : null);
    if (p.replacedId) values.push(p.replacedId.reason);
  }
  return { type: 'items', values, text: scratch.buffer.slice(0, at) };
}

/**
 * What a chunk holds in memory, near enough: its CSL-JSON bytes and its other values (an import
 * preview keeps chunks up to a bound).
 */
export const chunkBytes = (chunk: PortChunk): number => chunk.text.byteLength + chunk.values.length * 16;

/** The items of a packed chunk, their CSL-JSON as UTF-8 bytes (views of the chunk's text). */
export function decodePortItems(chunk: PortChunk): PortItem[] {
  const v = chunk.values;
  const items: PortItem[] = [];
  let start = 0;
  let i = 0;
  const str = (): string | null => v[i++] as string | null;
  while (i < v.length) {
    const end = v[i++] as number;
    const csl = new Uint8Array(chunk.text, start, end - start);
    start = end;
    const type = str();
    const hasKey = v[i++] as boolean;
    const givenKey = str();
    const requestedKey = v[i++] as string;
    const keyProblem = str();
    const keyBase = str();
    const tagCount = v[i++] as number;
    const tags = v.slice(i, (i += tagCount)) as string[];
    const derived: PreparedItem['derived'] = {
      title: str(),
      titleSort: str(),
      creatorsText: str(),
      creatorsSort: str(),
      year: v[i++] as number | null,
      container: str(),
      containerSort: str(),
      doi: str(),
      doiProblem: str(),
      abstract: v[i++] as string,
      creatorsFts: v[i++] as string,
      publisherSort: str(),
      pagesSort: v[i++] as number | null,
      extraSort: str(),
    };
    const creatorCount = v[i++] as number;
    const creators = v.slice(i, (i += creatorCount)) as PreparedItem['creators'];
    const line = v[i++] as number;
    const sourceKey = str();
    const origin = str();
    const replaced = str();
    const prepared: PreparedItem = {
      type,
      csl,
      hasKey,
      givenKey,
      requestedKey,
      keyProblem,
      keyBase,
      tags,
      derived,
      creators,
    };
    if (replaced !== null) prepared.replacedId = { id: replaced, reason: v[i++] as string };
    const item: PortItem = { prepared, line };
    if (sourceKey !== null) item.sourceKey = sourceKey;
    if (origin !== null) item.origin = origin;
    items.push(item);
  }
  return items;
}
