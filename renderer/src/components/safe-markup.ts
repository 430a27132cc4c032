// The allowlist behind SafeMarkup: untrusted markup is tokenized into a DOM-shaped tree (no browser
// parser, see shared/model/markup-parse.ts), and mapped to a plain render tree of a few safe tags. Nothing of the
// input's attributes survives except what is read here and turned into one of our own class names.
// Pure and DOM-free, so all of it is tested in Node.

import {
  CDATA_NODE,
  ELEMENT_NODE,
  MAX_DEPTH,
  TEXT_NODE,
  decodeEntities,
  parseMarkup,
  type MarkupNode,
} from '../../../shared/model/markup-parse';

export { MAX_DEPTH, decodeEntities, parseMarkup, type MarkupNode };

/** The tags SafeMarkup may emit. */
export type SafeTag = 'p' | 'div' | 'i' | 'b' | 'em' | 'strong' | 'sup' | 'sub' | 'br' | 'span' | 'mark';

/** Class names SafeMarkup may emit; each is styled by SafeMarkup itself. */
export const SAFE_CLASSES = [
  'small-caps',
  'underline',
  'title',
  'csl-bib-body',
  'csl-entry',
  'csl-left-margin',
  'csl-right-inline',
  'csl-indent',
  'csl-block',
] as const;
export type SafeClass = (typeof SAFE_CLASSES)[number];

export type RenderNode =
  { kind: 'text'; text: string } | { kind: 'element'; tag: SafeTag; className?: SafeClass; children: RenderNode[] };

/** Elements beyond this many contribute only their text (bounds the work of a hostile input). */
export const MAX_ELEMENTS = 5000;

/** Elements whose content is code or metadata, not text: dropped whole. */
const DROPPED = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'head',
]);

const SIMPLE: Record<string, SafeTag> = {
  i: 'i',
  italic: 'i',
  b: 'b',
  bold: 'b',
  em: 'em',
  strong: 'strong',
  sup: 'sup',
  sub: 'sub',
  p: 'p',
  sec: 'div',
  abstract: 'div',
  br: 'br',
};

/** The classes citeproc-js puts on its divs: the allowlist's csl-* ones. */
const CSL_DIV_CLASSES = new Set<SafeClass>(SAFE_CLASSES.filter((c) => c.startsWith('csl-')));

/** `jats:italic` → `italic`, `P` → `p`: the local name, lower case. */
export function localName(nodeName: string): string {
  const lower = nodeName.toLowerCase();
  const colon = lower.lastIndexOf(':');
  return colon === -1 ? lower : lower.slice(colon + 1);
}

/** What a <span style> or <span class> of citeproc asks for, if it is something we render. */
function spanFromStyle(node: MarkupNode): { tag: SafeTag; className?: SafeClass } | null {
  const style = (node.getAttribute?.('style') ?? '').toLowerCase().replace(/\s+/g, '');
  if (/font-variant:small-caps/.test(style)) return { tag: 'span', className: 'small-caps' };
  if (/font-style:(italic|oblique)/.test(style)) return { tag: 'i' };
  if (/font-weight:(bold|[6-9]00)/.test(style)) return { tag: 'b' };
  if (/vertical-align:sup/.test(style)) return { tag: 'sup' };
  if (/vertical-align:sub/.test(style)) return { tag: 'sub' };
  if (/text-decoration:underline/.test(style)) return { tag: 'span', className: 'underline' };
  return null;
}

function mapElement(node: MarkupNode, name: string): { tag: SafeTag; className?: SafeClass } | null {
  const simple = SIMPLE[name];
  if (simple) return { tag: simple };
  switch (name) {
    case 'sc':
      return { tag: 'span', className: 'small-caps' };
    case 'underline':
    case 'u':
      return { tag: 'span', className: 'underline' };
    case 'title':
      return { tag: 'div', className: 'title' };
    case 'span':
      return spanFromStyle(node);
    case 'div': {
      const cls = (node.getAttribute?.('class') ?? '').trim() as SafeClass;
      return CSL_DIV_CLASSES.has(cls) ? { tag: 'div', className: cls } : { tag: 'div' };
    }
    default:
      return null;
  }
}

/** The class attribute of a service highlight (<strong class="highlight">, <em class="hlt">…) becomes <mark>. */
function isHighlight(node: MarkupNode): boolean {
  const cls = node.getAttribute?.('class') ?? '';
  return /(^|\s)(highlight|hlt|hl)(\s|$)/i.test(cls);
}

const BLOCK: ReadonlySet<SafeTag> = new Set(['p', 'div']);

export interface ToRenderTreeOptions {
  /** Inline context (a title, a table cell): blocks contribute their content only, separated by a space. */
  inline?: boolean;
}

/** Maps parsed nodes to the render tree: allowlisted elements become safe tags, all others only their text. */
export function toRenderTree(nodes: ArrayLike<MarkupNode>, options: ToRenderTreeOptions = {}): RenderNode[] {
  const budget = { elements: 0 };
  const out = walk(nodes, 0, budget, options.inline === true);
  return normalise(out);
}

function walk(
  nodes: ArrayLike<MarkupNode>,
  depth: number,
  budget: { elements: number },
  inline: boolean,
): RenderNode[] {
  const out: RenderNode[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_NODE) {
      if (node.nodeValue) out.push({ kind: 'text', text: node.nodeValue });
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE) {
      // A document, a fragment: their children; comments and processing instructions: nothing.
      if (node.nodeType === 9 || node.nodeType === 11) out.push(...walk(node.childNodes, depth, budget, inline));
      continue;
    }
    const name = localName(node.nodeName);
    if (DROPPED.has(name)) continue;
    budget.elements++;
    const children = () => walk(node.childNodes, depth + 1, budget, inline);
    if (depth >= MAX_DEPTH || budget.elements > MAX_ELEMENTS) {
      out.push({ kind: 'text', text: textOf(node) });
      continue;
    }
    const mapped = isHighlight(node) ? { tag: 'mark' as SafeTag } : mapElement(node, name);
    if (mapped?.tag === 'br' && inline) {
      out.push({ kind: 'text', text: ' ' });
      continue;
    }
    if (!mapped || (inline && BLOCK.has(mapped.tag))) {
      // Unknown elements give their text; in an inline context blocks give theirs, kept apart by spaces.
      const inner = children();
      if (mapped) out.push({ kind: 'text', text: ' ' }, ...inner, { kind: 'text', text: ' ' });
      else out.push(...inner);
      continue;
    }
    if (mapped.tag === 'br') {
      out.push({ kind: 'element', tag: 'br', children: [] });
      continue;
    }
    const element: RenderNode = { kind: 'element', tag: mapped.tag, children: children() };
    if (mapped.className) element.className = mapped.className;
    out.push(element);
  }
  return out;
}

/** The text of a subtree, iteratively (no recursion limit to hit), skipping dropped elements. */
function textOf(root: MarkupNode): string {
  let text = '';
  const stack: MarkupNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_NODE) text += node.nodeValue ?? '';
    else if (node.nodeType === ELEMENT_NODE && !DROPPED.has(localName(node.nodeName))) {
      for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
    }
  }
  return text;
}

/** Merges adjacent text nodes and collapses runs of the spaces added for flattened blocks. */
function normalise(nodes: RenderNode[]): RenderNode[] {
  const out: RenderNode[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (node.kind === 'text') {
      if (last?.kind === 'text') last.text = (last.text + node.text).replace(/ {2,}/g, ' ');
      else out.push({ kind: 'text', text: node.text });
    } else {
      out.push({ ...node, children: normalise(node.children) });
    }
  }
  return out;
}

/** The plain text of a render tree (for titles, aria labels and the clipboard's text/plain). */
export function renderTreeText(nodes: readonly RenderNode[]): string {
  let text = '';
  for (const node of nodes)
    text += node.kind === 'text' ? node.text : node.tag === 'br' ? '\n' : renderTreeText(node.children);
  return text;
}

/** Whether a string has anything that looks like markup; plain text skips the parser. */
export function looksLikeMarkup(text: string): boolean {
  return /<[a-z!/?]|&[#a-z0-9]+;/i.test(text);
}
