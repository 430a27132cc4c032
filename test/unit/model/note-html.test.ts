import { describe, expect, it } from 'vitest';
import {
  looksLikeNoteHtml,
  noteCitations,
  noteText,
  noteTitle,
  safeHref,
  sanitizeNoteHtml,
  textToNoteHtml,
  toNoteHtml,
} from '../../../shared/model/note-html';

// A note as Zotero 7's note editor writes it (itemNotes.note), citation and all.
const ZOTERO_NOTE =
  '<div data-schema-version="9"><h1>Reading notes</h1>\n<p>The <strong>main</strong> claim is <em>weak</em>; see ' +
  '<a href="https://example.org/x" rel="noopener noreferrer nofollow">the data</a>.</p>\n' +
  '<ul><li><p>first point</p></li><li><p>second</p></li></ul>\n' +
  '<blockquote><p>quoted text</p></blockquote>\n' +
  '<p><span class="citation" data-citation="%7B%22citationItems%22%3A%5B%7B%22uris%22%3A%5B%22http%3A%2F%2Fzotero.org%2Fusers%2Flocal%2FabcD1234%2Fitems%2FKEYAAAAA%22%5D%7D%5D%2C%22properties%22%3A%7B%7D%7D">(<span class="citation-item">Smith, 2020</span>)</span></p>\n' +
  '<p><span style="text-decoration: underline">under</span> and <span style="color: #ff2020">red</span></p></div>';

describe('sanitizeNoteHtml', () => {
  it('keeps what a note has: headings, emphasis, lists, links, quotes', () => {
    const html = sanitizeNoteHtml(ZOTERO_NOTE);
    expect(html).toContain('<h1>Reading notes</h1>');
    expect(html).toContain('<strong>main</strong>');
    expect(html).toContain('<em>weak</em>');
    expect(html).toContain('<a href="https://example.org/x">the data</a>');
    expect(html).toContain('<ul><li><p>first point</p></li><li><p>second</p></li></ul>');
    expect(html).toContain('<blockquote><p>quoted text</p></blockquote>');
    expect(html).toContain('<u>under</u> and red');
    // The outer div is gone, its blocks kept; rel, style, class and data-schema-version are dropped.
    expect(html.startsWith('<h1>')).toBe(true);
    expect(html).not.toMatch(/rel=|style=|class=|data-schema/);
  });

  it('keeps a Zotero citation as a link to the item it maps to, else as its text', () => {
    const mapped = sanitizeNoteHtml(ZOTERO_NOTE, {
      citationItem: (uris) => (uris[0]?.endsWith('/items/KEYAAAAA') ? 42 : undefined),
    });
    expect(mapped).toContain('<p><cite data-item="42">(Smith, 2020)</cite></p>');
    expect(noteCitations(mapped)).toEqual([42]);
    const unmapped = sanitizeNoteHtml(ZOTERO_NOTE);
    expect(unmapped).toContain('<p>(Smith, 2020)</p>');
    expect(noteCitations(unmapped)).toEqual([]);
  });

  it('keeps its own citations and refuses forged ones', () => {
    expect(sanitizeNoteHtml('<p>see <cite data-item="7">Doe 2019</cite></p>')).toBe(
      '<p>see <cite data-item="7">Doe 2019</cite></p>',
    );
    for (const bad of ['x', '-1', '0', '7 onclick=alert(1)', '1e3', ''])
      expect(sanitizeNoteHtml(`<p><cite data-item="${bad}">Doe</cite></p>`)).toBe('<p>Doe</p>');
  });

  it('drops scripts, handlers and dangerous links but keeps their text', () => {
    const html = sanitizeNoteHtml(
      '<p onclick="alert(1)">a<script>alert(2)</script><img src=x onerror=alert(3)>' +
        '<a href="javascript:alert(4)">b</a><a href="java\tscript:alert(5)">c</a>' +
        '<a href="data:text/html,x">d</a><a href=" HTTPS://ok.example/">e</a><style>p{}</style>' +
        '<iframe src="https://evil"></iframe><a href="mailto:x@y.org">x@y.org</a></p>',
    );
    expect(html).toBe('<p>abcd<a href="HTTPS://ok.example/">e</a><a href="mailto:x@y.org">x@y.org</a></p>');
  });

  it('escapes text and attributes so stored HTML cannot be broken out of', () => {
    expect(sanitizeNoteHtml('<p>1 &lt; 2 &amp; "q"</p>')).toBe('<p>1 &lt; 2 &amp; "q"</p>');
    expect(sanitizeNoteHtml('<a href="https://x.org/?a=1&b=&quot;2&quot;">l</a>')).toBe(
      '<a href="https://x.org/?a=1&amp;b=&quot;2&quot;">l</a>',
    );
  });

  it('is idempotent', () => {
    const once = sanitizeNoteHtml(ZOTERO_NOTE);
    expect(sanitizeNoteHtml(once)).toBe(once);
  });

  it('flattens nesting deeper than the limit to text', () => {
    const deep = '<blockquote>'.repeat(200) + 'core' + '</blockquote>'.repeat(200);
    const html = sanitizeNoteHtml(deep);
    expect(noteText(html)).toBe('core');
    expect((html.match(/<blockquote>/g) ?? []).length).toBeLessThanOrEqual(48);
  });
});

describe('safeHref', () => {
  it('keeps the web and mail only', () => {
    expect(safeHref('https://a.org')).toBe('https://a.org');
    expect(safeHref('http://a.org')).toBe('http://a.org');
    expect(safeHref('mailto:a@b.org')).toBe('mailto:a@b.org');
    expect(safeHref('ftp://a.org')).toBeNull();
    expect(safeHref('/relative')).toBeNull();
    expect(safeHref('vbscript:x')).toBeNull();
    expect(safeHref(`https://a.org/${'x'.repeat(4096 - 16)}`)).not.toBeNull();
    expect(safeHref(`https://a.org/${'x'.repeat(4096 - 13)}`)).toBeNull();
  });
});

describe('plain notes', () => {
  it('become paragraphs with line breaks, escaped', () => {
    expect(textToNoteHtml('First line\nsecond <b>\n\n  Para two  \n\n\n')).toBe(
      '<p>First line<br>second &lt;b&gt;</p><p>Para two</p>',
    );
    expect(toNoteHtml('a < b and c > d')).toBe('<p>a &lt; b and c &gt; d</p>');
    expect(looksLikeNoteHtml('a < b')).toBe(false);
    expect(looksLikeNoteHtml('<p>x</p>')).toBe(true);
  });
});

describe('noteText and noteTitle', () => {
  it('gives lines, list items and link addresses', () => {
    const text = noteText(sanitizeNoteHtml(ZOTERO_NOTE));
    expect(text).toContain('Reading notes\n\nThe main claim is weak; see the data (https://example.org/x).');
    expect(text).toContain('- first point\n- second');
    expect(noteTitle(sanitizeNoteHtml(ZOTERO_NOTE))).toBe('Reading notes');
  });

  it('shortens a long first line at the limit, not below it', () => {
    expect(noteTitle(`<p>${'a'.repeat(120)}</p>`)).toBe('a'.repeat(120));
    expect(noteTitle(`<p>${'a'.repeat(121)}</p>`)).toBe(`${'a'.repeat(119)}…`);
  });
});
