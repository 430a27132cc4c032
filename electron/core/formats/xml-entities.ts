// XML's character references and its five named entities, decoded: what a .docx field's instruction
// or a PDF's XMP packet says once read as text. A reference to no character (beyond U+10FFFF, a lone
// surrogate, NUL) becomes U+FFFD instead of throwing. Pure.

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function character(code: number): string {
  return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
}

export function decodeXmlEntities(text: string): string {
  return text.replace(
    /&(?:#x([0-9a-fA-F]{1,8})|#(\d{1,10})|(amp|lt|gt|quot|apos));/g,
    (_, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
      if (hex !== undefined) return character(parseInt(hex, 16));
      if (dec !== undefined) return character(parseInt(dec, 10));
      return NAMED[name!]!;
    },
  );
}
