// The allowlist of SafeMarkup, in plain Node: untrusted markup in, a render tree of safe tags out.
// Strings go through SafeMarkup's own tokenizer; hand-built trees cover the mapping on its own. The
// e2e tests repeat the canary in Chromium under the app's CSP.
import { describe, expect, it } from 'vitest';
import {
  decodeEntities,
  MAX_DEPTH,
  parseMarkup,
  renderTreeText,
  SAFE_CLASSES,
  toRenderTree,
  type MarkupNode,
  type RenderNode,
} from '../../../renderer/src/components/safe-markup';

function parse(markup: string, inline = false): RenderNode[] {
  return toRenderTree(parseMarkup(markup), { inline });
}

function el(name: string, attrs: Record<string, string>, ...children: (MarkupNode | string)[]): MarkupNode {
  return {
    nodeType: 1,
    nodeName: name.toUpperCase(),
    nodeValue: null,
    childNodes: children.map((c) =>
      typeof c === 'string' ? { nodeType: 3, nodeName: '#text', nodeValue: c, childNodes: [] } : c,
    ),
    getAttribute: (n) => attrs[n] ?? null,
  };
}

/** Every element of a render tree, flattened. */
function elements(nodes: RenderNode[]): Extract<RenderNode, { kind: 'element' }>[] {
  return nodes.flatMap((n) => (n.kind === 'element' ? [n, ...elements(n.children)] : []));
}

const ALLOWED_TAGS = new Set(['p', 'div', 'i', 'b', 'em', 'strong', 'sup', 'sub', 'br', 'span', 'mark']);

function expectSafe(tree: RenderNode[]): void {
  for (const e of elements(tree)) {
    expect(ALLOWED_TAGS.has(e.tag)).toBe(true);
    expect(Object.keys(e).sort()).toEqual(
      e.className ? ['children', 'className', 'kind', 'tag'] : ['children', 'kind', 'tag'],
    );
    if (e.className) expect(SAFE_CLASSES).toContain(e.className);
  }
}

describe('SafeMarkup allowlist', () => {
  it('maps JATS abstracts to paragraphs and inline formatting', () => {
    const tree = parse(
      '<jats:sec><jats:title>Background</jats:title><jats:p>H<jats:sub>2</jats:sub>O at 10<jats:sup>3</jats:sup> K is <jats:italic>not</jats:italic> <jats:bold>hot</jats:bold>.</jats:p></jats:sec>',
    );
    expectSafe(tree);
    expect(tree).toEqual([
      {
        kind: 'element',
        tag: 'div',
        children: [
          { kind: 'element', tag: 'div', className: 'title', children: [{ kind: 'text', text: 'Background' }] },
          {
            kind: 'element',
            tag: 'p',
            children: [
              { kind: 'text', text: 'H' },
              { kind: 'element', tag: 'sub', children: [{ kind: 'text', text: '2' }] },
              { kind: 'text', text: 'O at 10' },
              { kind: 'element', tag: 'sup', children: [{ kind: 'text', text: '3' }] },
              { kind: 'text', text: ' K is ' },
              { kind: 'element', tag: 'i', children: [{ kind: 'text', text: 'not' }] },
              { kind: 'text', text: ' ' },
              { kind: 'element', tag: 'b', children: [{ kind: 'text', text: 'hot' }] },
              { kind: 'text', text: '.' },
            ],
          },
        ],
      },
    ]);
  });

  it("keeps citeproc's entries, small caps and styled spans, as our own classes", () => {
    const tree = toRenderTree([
      el(
        'div',
        { class: 'csl-bib-body' },
        el(
          'div',
          { class: 'csl-entry' },
          'Doe, J. (2020). ',
          el('span', { style: 'font-style:italic;' }, 'Title'),
          '. ',
          el('span', { style: 'font-variant:small-caps;' }, 'Journal'),
        ),
      ),
    ]);
    expectSafe(tree);
    const entry = elements(tree).find((e) => e.className === 'csl-entry')!;
    expect(entry.children.map((c) => (c.kind === 'element' ? `${c.tag}.${c.className ?? ''}` : 'text'))).toEqual([
      'text',
      'i.',
      'text',
      'span.small-caps',
    ]);
  });

  it('turns service highlights into <mark> and a <cite> into its text', () => {
    const tree = parse(
      'As shown <cite data-doi="10.1/x">[3]</cite>, <strong class="highlight">aspirin</strong> works.',
    );
    expectSafe(tree);
    expect(elements(tree).map((e) => e.tag)).toEqual(['mark']);
    expect(renderTreeText(tree)).toBe('As shown [3], aspirin works.');
  });

  it('flattens blocks in an inline context', () => {
    const tree = parse('<jats:p>One</jats:p><jats:p>Two <i>it</i></jats:p>', true);
    expectSafe(tree);
    expect(elements(tree).map((e) => e.tag)).toEqual(['i']);
    expect(renderTreeText(tree).trim()).toBe('One Two it');
  });

  const payloads: [string, string][] = [
    ['<script>window.__pwned=1</script>Text', 'Text'],
    ['<img src=x onerror="window.__pwned=1">Text', 'Text'],
    ['<svg onload="window.__pwned=1"><circle/></svg>Text', 'Text'],
    ['<a href="javascript:window.__pwned=1">click</a>', 'click'],
    ['<iframe src="javascript:window.__pwned=1"></iframe>Text', 'Text'],
    ['<i onmouseover="window.__pwned=1" style="background:url(javascript:x)">hover</i>', 'hover'],
    ['<p style="position:fixed;inset:0" class="csl-entry evil">overlay</p>', 'overlay'],
    ['<span style="font-variant:small-caps;background:url(https://evil.example/t)">sc</span>', 'sc'],
    ['<style>*{display:none}</style>Text', 'Text'],
    ['<form action="https://evil.example"><input name=x value=y><button>go</button></form>', 'go'],
    ['<jats:p><object data="x.swf"></object>Text</jats:p>', 'Text'],
    ['<math><mi xlink:href="javascript:alert(1)">m</mi></math>Text', 'Text'],
    ['<IMG SRC=javascript:alert(1)>Text<SCRIPT SRC=//evil.example/x.js></SCRIPT>', 'Text'],
    ['<jats:p>ok<style>@import "https://evil.example"</style></jats:p>', 'ok'],
    ['<template><img src=x onerror=alert(1)></template>Text', 'Text'],
    ['&lt;script&gt;alert(1)&lt;/script&gt;', '<script>alert(1)</script>'],
  ];

  it.each(payloads)('renders %s as safe tags and text only', (payload, text) => {
    const tree = parse(payload);
    expectSafe(tree);
    expect(renderTreeText(tree)).toBe(text);
    // No attribute value reaches the tree in any form.
    expect(JSON.stringify(tree)).not.toMatch(/pwned|javascript|onerror|onload|evil|url\(/);
  });

  it('drops script and style content given as browser-parsed nodes, and unknown attributes', () => {
    const tree = toRenderTree([
      el(
        'p',
        { onclick: 'x()', id: 'p1', class: 'csl-entry' },
        el('script', {}, 'window.__pwned=1'),
        'ok',
        el('a', { href: 'javascript:1' }, ' link'),
      ),
      el('style', {}, 'body{}'),
    ]);
    expectSafe(tree);
    expect(tree).toEqual([{ kind: 'element', tag: 'p', children: [{ kind: 'text', text: 'ok link' }] }]);
  });

  it('tokenizes malformed markup into text and safe tags: unclosed, stray and mis-nested tags, "<" as text', () => {
    expect(renderTreeText(parse('a < b and <i>open'))).toBe('a < b and open');
    expect(parse('x</b>y')).toEqual([{ kind: 'text', text: 'xy' }]);
    const tree = parse('<b>bold <i>both</b> after');
    expectSafe(tree);
    expect(renderTreeText(tree)).toBe('bold both after');
    // A ">" inside a quoted value does not end the tag.
    expect(renderTreeText(parse('<img src="a>b" onerror=x>after'))).toBe('after');
    // Split tags leave harmless text, as in a browser.
    expect(elements(parse('<scr<script>ipt>alert(1)</script>'))).toEqual([]);
    expect(renderTreeText(parse('<![CDATA[<i>raw</i>]]>'))).toBe('<i>raw</i>');
    expect(renderTreeText(parse('<!-- <script>x</script> -->kept<?xml version="1.0"?>'))).toBe('kept');
    expect(renderTreeText(parse('<script>if (a < b) { x("</i>") }</script>after'))).toBe('after');
  });

  it('decodes entities as text, never as markup', () => {
    expect(decodeEntities('&lt;i&gt; &amp;amp; &#x3C;b&#62; &alpha;&nbsp;&unknown; &#0; &#xD800;')).toBe(
      '<i> &amp; <b> α\u00a0&unknown; \ufffd \ufffd',
    );
    const tree = parse('&lt;img src=x onerror=alert(1)&gt;');
    expect(tree).toEqual([{ kind: 'text', text: '<img src=x onerror=alert(1)>' }]);
  });

  it('keeps only class and style of a tag, whatever its quoting', () => {
    const [p] = parseMarkup(
      `<span onclick=x STYLE='font-variant: small-caps' class="a" class="b" data-x="1">t</span>`,
    ) as (MarkupNode & { attrs: Record<string, string> })[];
    expect(p!.attrs).toEqual({ style: 'font-variant: small-caps', class: 'a' });
  });

  it('flattens absurd nesting to text instead of recursing without end', () => {
    let node = el('i', {}, 'deep');
    for (let i = 0; i < 5000; i++) node = el(i % 2 ? 'b' : 'i', {}, node);
    const tree = toRenderTree([node]);
    expectSafe(tree);
    expect(renderTreeText(tree)).toBe('deep');
    let depth = 0;
    for (let n: RenderNode | undefined = tree[0]; n && n.kind === 'element'; n = n.children[0]) depth++;
    expect(depth).toBeLessThanOrEqual(MAX_DEPTH);
  });
});
