import { describe, expect, it } from 'vitest';
import { parseMarkup, renderTreeText, toRenderTree } from '../../../renderer/src/components/safe-markup';
import { fromFulltext, hasFulltext, snippetMarkup, toFulltext } from '../../../renderer/src/lib/library/fulltext-mode';

describe('full-text search mode', () => {
  it('turns bare words and phrases into fulltext: terms, leaving fields and operators', () => {
    expect(toFulltext('ribosome')).toBe('fulltext:ribosome');
    expect(toFulltext('"gene expression" stress*')).toBe('fulltext:"gene expression" fulltext:stress*');
    expect(toFulltext('yeast year:>2015 OR (heat -mouse)')).toBe(
      'fulltext:yeast year:>2015 OR (fulltext:heat -fulltext:mouse)',
    );
    expect(toFulltext('title:"a: b" -"x y"')).toBe('title:"a: b" -fulltext:"x y"');
  });

  it('and back', () => {
    for (const q of ['ribosome', '"gene expression" stress*', 'yeast year:>2015 OR (heat -mouse)'])
      expect(fromFulltext(toFulltext(q))).toBe(q);
  });

  it('knows a query that searches the PDFs, and one that does not', () => {
    expect(hasFulltext('fulltext:yeast')).toBe(true);
    expect(hasFulltext('title:x (-fulltext:"a b")')).toBe(true);
    expect(hasFulltext('title:fulltext')).toBe(false);
    expect(hasFulltext('notfulltext:x')).toBe(false);
  });

  it("marks only the matched words of a snippet; the PDF's own text stays text", () => {
    const markup = snippetMarkup('We report «gene expression» <script>alert(1)</script> & <mark>x</mark> «heat');
    expect(markup).toBe(
      'We report <em class="highlight">gene expression</em> &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;mark&gt;x&lt;/mark&gt; heat',
    );
    const tree = toRenderTree(parseMarkup(markup), { inline: true });
    expect(tree.filter((n) => n.kind === 'element').map((n) => n.kind === 'element' && n.tag)).toEqual(['mark']);
    expect(renderTreeText(tree)).toBe('We report gene expression <script>alert(1)</script> & <mark>x</mark> heat');
  });
});
