// Builds .docx packages in the shape Zotero's Word plugin writes: each citation a complex field
// (fldChar begin, the instruction " ADDIN ZOTERO_ITEM CSL_CITATION {json} " in w:instrText runs,
// fldChar separate, the rendered citation, fldChar end), the JSON with citationID, properties,
// citationItems [{id, uris, itemData}] and schema. Word splits long instructions over several runs.
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZoteroCite {
  itemData: Record<string, unknown>;
  locator?: string;
}

const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One citation field, its instruction split into runs of at most `runChars` characters. */
export function zoteroField(cites: ZoteroCite[], rendered: string, runChars = 255, id = 'a1b2c3d4'): string {
  const json = JSON.stringify({
    citationID: id,
    properties: { formattedCitation: rendered, plainCitation: rendered, noteIndex: 0 },
    citationItems: cites.map((c, i) => ({
      id: 1000 + i,
      uris: [`http://zotero.org/users/9287589/items/ITEM${1000 + i}`],
      itemData: { id: 1000 + i, ...c.itemData },
      ...(c.locator ? { locator: c.locator, label: 'page' } : {}),
    })),
    schema: 'https://github.com/citation-style-language/schema/raw/master/csl-citation.json',
  });
  const instruction = ` ADDIN ZOTERO_ITEM CSL_CITATION ${json} `;
  const runs: string[] = [];
  for (let i = 0; i < instruction.length; i += runChars) {
    runs.push(
      `<w:r><w:rPr><w:rFonts w:ascii="Calibri"/></w:rPr><w:instrText xml:space="preserve">${escapeXml(instruction.slice(i, i + runChars))}</w:instrText></w:r>`,
    );
  }
  return `<w:r><w:fldChar w:fldCharType="begin"/></w:r>${runs.join('')}<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:rPr><w:noProof/></w:rPr><w:t>${escapeXml(rendered)}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;
}

export const paragraph = (...parts: string[]): string =>
  `<w:p><w:pPr><w:pStyle w:val="Normal"/></w:pPr>${parts.map((p) => (p.startsWith('<') ? p : `<w:r><w:t xml:space="preserve">${escapeXml(p)}</w:t></w:r>`)).join('')}</w:p>`;

export function documentXml(paragraphs: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs.join('')}<w:sectPr/></w:body></w:document>`;
}

/** A zip package (deflated entries, as Word writes them). */
export function zip(entries: Record<string, string | Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A Word document with these body paragraphs (and footnotes, when given). */
export function docx(body: string[], footnotes?: string[]): Buffer {
  const entries: Record<string, string> = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>',
    'word/document.xml': documentXml(body),
  };
  if (footnotes)
    entries['word/footnotes.xml'] =
      `<?xml version="1.0" encoding="UTF-8"?><w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${footnotes.map((f, i) => `<w:footnote w:id="${i + 1}">${f}</w:footnote>`).join('')}</w:footnotes>`;
  return zip(entries);
}
