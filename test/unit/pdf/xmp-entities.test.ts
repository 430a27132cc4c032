// Issue 40: a PDF's XMP packet is XML, and its DOIs were read from the raw markup, entity references
// and all: `10.1234/abc&#x1b;[31m` was stored as the item's DOI at confidence 0.98. XMP text is now
// read with its references decoded, so an escape character ends in no DOI, and an escaped one reads.
import { describe, expect, it } from 'vitest';
import type { PdfFacts } from '../../../electron/core/pdf/extract';
import { identifyById } from '../../../electron/core/pdf/identify';
import { decodeXmlEntities } from '../../../electron/core/formats/xml-entities';

const facts = (xmp: string): PdfFacts => ({ pageCount: 1, info: {}, xmp, pages: [], title: null, byline: null });

/** An XMP packet as Acrobat and LaTeX's hyperxmp write it, with the DOI in prism:doi and dc:identifier. */
const packet = (doi: string) => `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<prism:doi>${doi}</prism:doi><dc:identifier>doi:${doi}</dc:identifier>
</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

describe('DOIs in XMP', () => {
  it('stores no DOI holding an escape sequence written as a character reference', () => {
    const step = identifyById(facts(packet('10.1234/abc&#x1b;[31m')));
    expect(step.kind === 'doi' ? step.doi : '').not.toMatch(/&#/);
    expect(step).toEqual({ kind: 'none' });
  });

  it('reads a DOI whose characters are escaped, at XMP confidence', () => {
    expect(identifyById(facts(packet('10.1234&#x2F;nature&#46;2020&#x2e;01')))).toMatchObject({
      kind: 'doi',
      method: 'xmp',
      doi: '10.1234/nature.2020.01',
      confidence: 0.98,
    });
    expect(identifyById(facts(packet('10.1000/a&amp;b')))).toMatchObject({ doi: '10.1000/a&b' });
  });

  it('decodes references to no character as U+FFFD instead of throwing', () => {
    expect(decodeXmlEntities('a&#x110000;b&#xD800;c&#0;d&lt;&gt;&amp;&quot;&apos;')).toBe(
      'a\ufffdb\ufffdc\ufffdd<>&"\'',
    );
  });
});
