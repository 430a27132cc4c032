// The allowlist behind SafeMarkup: untrusted markup is tokenized into a DOM-shaped tree (no browser
// parser, see parseMarkup below), and mapped to a plain render tree of a few safe tags. Nothing of the
// input's attributes survives except what is read here and turned into one of our own class names.
// Pure and DOM-free, so all of it is tested in Node.

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

/** The part of a DOM node the walk reads. */
export interface MarkupNode {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<MarkupNode>;
  getAttribute?(name: string): string | null;
}

const TEXT_NODE = 3;
const CDATA_NODE = 4;
const ELEMENT_NODE = 1;

/** Deeper nesting than any real abstract or bibliography is flattened to text. */
export const MAX_DEPTH = 48;
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

// ── the tokenizer ──
// Untrusted markup never reaches a browser parser: Chromium compiles the inline event handlers of
// elements even in a DOMParser document (the e2e canary saw the CSP block them), so this small
// tokenizer builds the tree instead. It reads only tag names, `class` and `style`; everything else
// of a tag is skipped. Malformed input still yields a tree: unclosed elements close at the end, and
// stray end tags are ignored.

const VOID = new Set([
  'br',
  'img',
  'hr',
  'input',
  'meta',
  'link',
  'wbr',
  'source',
  'area',
  'col',
  'embed',
  'param',
  'track',
  'base',
]);
/** Elements whose content is raw text up to their end tag (so a "<" inside does not open a tag). */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  copy: '©',
  reg: '®',
  trade: '™',
  deg: '°',
  plusmn: '±',
  times: '×',
  divide: '÷',
  middot: '·',
  thinsp: '\u2009',
  ensp: '\u2002',
  emsp: '\u2003',
  minus: '−',
  le: '≤',
  ge: '≥',
  ne: '≠',
  asymp: '≈',
  micro: 'µ',
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  epsilon: 'ε',
  kappa: 'κ',
  lambda: 'λ',
  mu: 'μ',
  pi: 'π',
  sigma: 'σ',
  tau: 'τ',
  chi: 'χ',
  omega: 'ω',
  Delta: 'Δ',
  Sigma: 'Σ',
  Omega: 'Ω',
  eacute: 'é',
  egrave: 'è',
  uuml: 'ü',
  ouml: 'ö',
  auml: 'ä',
  szlig: 'ß',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      // Not NUL, not a surrogate, within Unicode: else the replacement character, as browsers do.
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

interface ParsedElement extends MarkupNode {
  attrs: Record<string, string>;
  childNodes: MarkupNode[];
}

function textNode(text: string): MarkupNode {
  return { nodeType: TEXT_NODE, nodeName: '#text', nodeValue: text, childNodes: [] };
}

function elementNode(name: string, attrs: Record<string, string>): ParsedElement {
  return {
    nodeType: ELEMENT_NODE,
    nodeName: name,
    nodeValue: null,
    childNodes: [],
    attrs,
    getAttribute: (n) => attrs[n.toLowerCase()] ?? null,
  };
}

const TAG_NAME = /^[A-Za-z][\w:.-]*/;
const ATTRIBUTE = /^\s*([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/;

/** Parses untrusted markup into a DOM-shaped tree, with no DOM. */
export function parseMarkup(input: string): MarkupNode[] {
  const root = elementNode('#root', {});
  const stack: ParsedElement[] = [root];
  const top = () => stack[stack.length - 1]!;
  let i = 0;
  let text = '';
  const flush = () => {
    if (text) top().childNodes.push(textNode(decodeEntities(text)));
    text = '';
  };
  while (i < input.length) {
    const lt = input.indexOf('<', i);
    if (lt === -1) {
      text += input.slice(i);
      break;
    }
    text += input.slice(i, lt);
    i = lt;
    if (input.startsWith('<!--', i)) {
      const end = input.indexOf('-->', i + 4);
      i = end === -1 ? input.length : end + 3;
      continue;
    }
    if (input.startsWith('<![CDATA[', i)) {
      const end = input.indexOf(']]>', i + 9);
      flush();
      top().childNodes.push({
        nodeType: CDATA_NODE,
        nodeName: '#cdata-section',
        nodeValue: input.slice(i + 9, end === -1 ? input.length : end),
        childNodes: [],
      });
      i = end === -1 ? input.length : end + 3;
      continue;
    }
    if (input[i + 1] === '!' || input[i + 1] === '?') {
      // A doctype or a processing instruction: nothing to show.
      const end = input.indexOf('>', i);
      i = end === -1 ? input.length : end + 1;
      continue;
    }
    const closing = input[i + 1] === '/';
    const nameMatch = TAG_NAME.exec(input.slice(i + (closing ? 2 : 1), i + (closing ? 2 : 1) + 200));
    if (!nameMatch) {
      // A "<" that opens no tag ("a < b") is text.
      text += '<';
      i++;
      continue;
    }
    const name = nameMatch[0].toLowerCase();
    let j = i + (closing ? 2 : 1) + nameMatch[0].length;
    const attrs: Record<string, string> = {};
    // The rest of the tag: attributes up to the first ">" outside quotes.
    for (;;) {
      const rest = input.slice(j, j + 4096);
      const m = ATTRIBUTE.exec(rest);
      if (!m || m[0].length === 0) break;
      const attr = m[1]!.toLowerCase();
      if (!closing && (attr === 'class' || attr === 'style') && !(attr in attrs))
        attrs[attr] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
      j += m[0].length;
    }
    const gt = input.indexOf('>', j);
    const selfClosing = gt > 0 && input[gt - 1] === '/';
    i = gt === -1 ? input.length : gt + 1;
    flush();
    if (closing) {
      const at = stack.findLastIndex((e, k) => k > 0 && e.nodeName === name);
      if (at > 0) stack.length = at;
      continue;
    }
    const element = elementNode(name, attrs);
    top().childNodes.push(element);
    if (RAW_TEXT.has(name)) {
      const endTag = new RegExp(`</${name.replace(/[.:-]/g, '\\$&')}`, 'ig');
      endTag.lastIndex = i;
      const end = endTag.exec(input)?.index ?? -1;
      const raw = input.slice(i, end === -1 ? input.length : end);
      if (raw) element.childNodes.push(textNode(raw));
      const close = end === -1 ? -1 : input.indexOf('>', end);
      i = close === -1 ? input.length : close + 1;
      continue;
    }
    if (!VOID.has(name) && !selfClosing && stack.length < 4 * MAX_DEPTH) stack.push(element);
  }
  flush();
  return root.childNodes;
}
