// Zotero notes are HTML (its note editor's: paragraphs, headings, lists, links, emphasis); a Citewise
// note is text. The structure becomes lines: a paragraph or heading a block, a list item a "- " line,
// a link its text with the address after it, so nothing the note said is lost.

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** A Zotero note's HTML as text; plain text (no tags) comes back as it was. */
export function noteText(html: string): string {
  if (!/<[a-z!/]/i.test(html)) return decodeEntities(html).trim();
  let text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(
      /<a\b[^>]*?href\s*=\s*("([^"]*)"|'([^']*)')[^>]*>([\s\S]*?)<\/a\s*>/gi,
      (_all, _q, d, s, inner: string) => {
        const href = decodeEntities((d ?? s ?? '') as string);
        const label = inner.replace(/<[^>]*>/g, '');
        return href && decodeEntities(label).trim() !== href ? `${inner} (${href})` : inner;
      },
    )
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/(p|div|h[1-6]|blockquote|pre|ul|ol|table|tr)\s*>/gi, '\n\n')
    .replace(/<(p|div|h[1-6]|blockquote|pre|ul|ol|table|tr)\b[^>]*>/gi, '\n\n')
    .replace(/<\/t[dh]\s*>/gi, '\t')
    .replace(/<[^>]*>/g, '');
  text = decodeEntities(text)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n');
  return text.trim();
}
