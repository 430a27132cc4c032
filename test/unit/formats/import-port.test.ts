import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import {
  decodePortItems,
  encodePortItems,
  type PortChunk,
  type PortItem,
} from '../../../electron/core/formats/import-port';
import { cslText, prepareItem, withKey } from '../../../electron/core/library/derive';
import type { CslItem } from '../../../shared/model/csl';
import { article } from '../library/helpers/lib';

const items: PortItem[] = [
  {
    prepared: prepareItem(
      article('Protein 𝛼-helices', 'Müller', 2020, {
        'citation-key': 'muller2020',
        keyword: 'a; b',
        abstract: 'Ünïcödé and 😀 and\u0000nul',
      }),
    ),
    line: 3,
    sourceKey: 'muller2020',
  },
  {
    prepared: prepareItem(article('Plain', 'Smith', 1999, { editor: [{ literal: 'Org' }], DOI: 'not a doi' })),
    line: 9,
  },
  {
    prepared: prepareItem({ id: 'x y', type: 'book', title: 'A  book' } as CslItem, {
      id: 'x y',
      reason: 'it has spaces',
    }),
    line: 12,
    sourceKey: 'x y',
  },
  { prepared: prepareItem({} as CslItem), line: 20 },
];

/** One chunk through a real MessagePort, as the parser posts it (text transferred). */
function posted(chunk: PortChunk): PortChunk {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(chunk, [chunk.text]);
  const received = receiveMessageOnPort(port2)!.message as PortChunk;
  port1.close();
  return received;
}

describe('the import port packs a chunk of prepared items', () => {
  it('gives the store every field back, the CSL-JSON as its UTF-8 bytes', () => {
    const back = decodePortItems(posted(encodePortItems(items)));
    expect(back).toHaveLength(items.length);
    back.forEach((it, n) => {
      const { csl, ...rest } = it.prepared;
      const { csl: sent, ...expected } = items[n]!.prepared;
      expect(csl).toBeInstanceOf(Uint8Array);
      expect(cslText(csl)).toBe(sent);
      expect(Buffer.from(csl as Uint8Array).equals(Buffer.from(sent as string, 'utf8'))).toBe(true);
      expect(rest).toEqual(expected);
      expect({ line: it.line, sourceKey: it.sourceKey }).toEqual({
        line: items[n]!.line,
        sourceKey: items[n]!.sourceKey,
      });
      // The key the store gives: the bytes as they are when the entry keeps its own, else text.
      expect(cslText(withKey(it.prepared, 'k2'))).toBe(cslText(withKey(items[n]!.prepared, 'k2')));
    });
    expect(withKey(back[0]!.prepared, 'muller2020')).toBe(back[0]!.prepared.csl);
  });

  it('transfers the text instead of cloning it, and packs items already decoded again', () => {
    const chunk = encodePortItems(items);
    const size = chunk.text.byteLength;
    expect(size).toBe(items.reduce((n, it) => n + Buffer.byteLength(it.prepared.csl as string), 0));
    const received = posted(chunk);
    expect(chunk.text.byteLength).toBe(0);
    expect(received.text.byteLength).toBe(size);
    // Names and records are not written once per item as property names: the values are plain.
    expect(received.values.every((v) => v === null || typeof v !== 'object')).toBe(true);
    const twice = decodePortItems(posted(encodePortItems(decodePortItems(received))));
    expect(twice.map((it) => cslText(it.prepared.csl))).toEqual(items.map((it) => it.prepared.csl));
  });
});
