// PDFs written with pdf-lib for the capture tests and benchmarks: a title in large print at the top,
// a byline under it, body lines, and identifiers where a test wants them (XMP, document info, text).
import {
  concatTransformationMatrix,
  drawObject,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from 'pdf-lib';

export interface PdfSpec {
  title?: string;
  byline?: string;
  /** Lines of text per page; page 1 gets them under the title and byline. */
  pages?: string[][];
  /** Pages with no text at all, added after `pages` (a scan has none). */
  blankPages?: number;
  /** A DOI in the XMP packet (prism:doi). */
  xmpDoi?: string;
  /** A value for the document info dictionary's Subject (e.g. "doi:10.1000/x"). */
  infoSubject?: string;
  /** Extra document info entries (custom keys). */
  info?: Record<string, string>;
  /** Mark the file as encrypted with a password that is not empty. */
  encrypted?: boolean;
  /**
   * Bytes of image data on every page (a grey-scale figure of noise, which does not compress), so a
   * file weighs what a paper with figures does; 0 or absent: text only (a few kilobytes a page).
   */
  figureBytes?: number;
}

function xmpPacket(doi: string): string {
  return (
    '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>' +
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    `<rdf:Description rdf:about="" xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"><prism:doi>${doi}</prism:doi><dc:identifier>doi:${doi}</dc:identifier></rdf:Description>` +
    '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
  );
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

export async function makePdf(spec: PdfSpec): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  // A fixed date keeps equal specs byte-identical (the duplicate tests rely on it).
  doc.setCreationDate(new Date(Date.UTC(2024, 0, 1)));
  doc.setModificationDate(new Date(Date.UTC(2024, 0, 1)));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const pages = spec.pages && spec.pages.length > 0 ? spec.pages : [[]];
  pages.forEach((lines, index) => {
    const page = doc.addPage([595, 842]);
    let y = 780;
    if (index === 0) {
      if (spec.title) {
        page.drawText('Journal of Tests 12 (2024) 1-10', { x: 50, y: 815, size: 8, font });
        // Wrapped as a journal would: a long title takes two or three lines.
        for (const line of wrap(spec.title, 44)) {
          page.drawText(line, { x: 50, y, size: 18, font: bold });
          y -= 24;
        }
        y -= 4;
      }
      if (spec.byline) {
        page.drawText(spec.byline, { x: 50, y, size: 11, font });
        y -= 30;
      }
    }
    for (const line of lines) {
      page.drawText(line, { x: 50, y, size: 10, font });
      y -= 14;
    }
  });
  for (let i = 0; i < (spec.blankPages ?? 0); i++) doc.addPage([595, 842]);
  if (spec.figureBytes) {
    const side = Math.ceil(Math.sqrt(spec.figureBytes));
    doc.getPages().forEach((page, i) => {
      const pixels = new Uint8Array(side * side);
      let x = (i + 1) * 2654435761;
      for (let p = 0; p < pixels.length; p++) {
        x = (x ^ (x << 13)) >>> 0;
        x = (x ^ (x >>> 17)) >>> 0;
        x = (x ^ (x << 5)) >>> 0;
        pixels[p] = x & 0xff;
      }
      const image = doc.context.register(
        doc.context.stream(pixels, {
          Type: 'XObject',
          Subtype: 'Image',
          Width: side,
          Height: side,
          ColorSpace: 'DeviceGray',
          BitsPerComponent: 8,
        }),
      );
      const name = page.node.newXObject('Figure', image);
      page.pushOperators(
        pushGraphicsState(),
        concatTransformationMatrix(250, 0, 0, 250, 300, 300),
        drawObject(name),
        popGraphicsState(),
      );
    });
  }
  if (spec.infoSubject) doc.setSubject(spec.infoSubject);
  const info = doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);
  for (const [k, v] of Object.entries(spec.info ?? {})) info.set(PDFName.of(k), PDFHexString.fromText(v));
  if (spec.xmpDoi) {
    const stream = doc.context.stream(xmpPacket(spec.xmpDoi), { Type: 'Metadata', Subtype: 'XML' });
    doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
  }
  if (spec.encrypted) {
    // pdf-lib cannot encrypt; a Standard security handler whose check values fit no empty password
    // is what a reader sees of a password-protected file: it asks for the password.
    const filler = PDFHexString.of('11'.repeat(32));
    const encrypt = doc.context.obj({
      Filter: 'Standard',
      V: 1,
      R: 2,
      Length: 40,
      O: filler,
      U: PDFHexString.of('22'.repeat(32)),
      P: PDFNumber.of(-4),
    });
    doc.context.trailerInfo.Encrypt = doc.context.register(encrypt);
    doc.context.trailerInfo.ID = doc.context.obj([PDFHexString.of('ab'.repeat(16)), PDFHexString.of('ab'.repeat(16))]);
  }
  return doc.save({ useObjectStreams: false });
}

/** Filler lines for a body page: enough words for full-text tests and benchmarks. */
export function bodyLines(seed: number, n = 40): string[] {
  const vocab = [
    'protein',
    'folding',
    'kinetics',
    'lattice',
    'entropy',
    'model',
    'neural',
    'cortex',
    'signal',
    'sample',
    'variance',
    'enzyme',
    'catalysis',
    'membrane',
    'transport',
    'quantum',
    'spin',
    'decay',
    'climate',
    'ocean',
  ];
  const out: string[] = [];
  let x = seed * 7919 + 1;
  for (let i = 0; i < n; i++) {
    const words: string[] = [];
    for (let w = 0; w < 12; w++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      words.push(vocab[x % vocab.length]!);
    }
    out.push(words.join(' '));
  }
  return out;
}
