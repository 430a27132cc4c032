// The tokenizer behind the allowlist renderers (SafeMarkup for service text, note HTML for notes):
// untrusted markup becomes a DOM-shaped tree without a browser parser. Pure, so the core sanitises
// notes with the same reading the renderer shows them with.

/** The part of a DOM node the walk reads. */
export interface MarkupNode {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<MarkupNode>;
  getAttribute?(name: string): string | null;
}

export const TEXT_NODE = 3;
export const CDATA_NODE = 4;
export const ELEMENT_NODE = 1;

/** Deeper nesting than any real abstract, bibliography or note is flattened to text. */
export const MAX_DEPTH = 48;

// ── the tokenizer ──
// Untrusted markup never reaches a browser parser: Chromium compiles the inline event handlers of
// elements even in a DOMParser document (the e2e canary saw the CSP block them), so this small
// tokenizer builds the tree instead. It reads only tag names and the attributes its caller names
// (`class` and `style` unless told); everything else of a tag is skipped. Malformed input still yields a tree: unclosed elements close at the end, and
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

/** The attributes SafeMarkup reads; a caller with an allowlist of its own (notes) names others. */
const DEFAULT_KEEP: ReadonlySet<string> = new Set(['class', 'style']);

/**
 * Parses untrusted markup into a DOM-shaped tree, with no DOM. Only the attributes in `keep` are
 * read (lower-case names); all others of a tag are skipped.
 */
export function parseMarkup(input: string, keep: ReadonlySet<string> = DEFAULT_KEEP): MarkupNode[] {
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
      if (!closing && keep.has(attr) && !(attr in attrs)) attrs[attr] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
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
