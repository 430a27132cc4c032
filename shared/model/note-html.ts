// Rich notes: the allowlist a note's HTML is kept to. A note is stored as HTML written only by
// sanitizeNoteHtml (the core runs it on every write: the editor, an import, the Connector, a sync
// peer), and shown only through noteTree, so what a pasted page or an imported Zotero note carried
// beyond headings, emphasis, lists, links, quotes, tables and citations to items never survives.
// Plain-text notes (older libraries, RIS N1 lines, the CLI) become paragraphs.
import { CDATA_NODE, ELEMENT_NODE, MAX_DEPTH, TEXT_NODE, parseMarkup, type MarkupNode } from './markup-parse';

/** The elements a note may hold. */
export type NoteTag =
  | 'p'
  | 'h1'
  | 'h2'
  | 'h3'
  | 'blockquote'
  | 'pre'
  | 'ul'
  | 'ol'
  | 'li'
  | 'table'
  | 'tr'
  | 'th'
  | 'td'
  | 'strong'
  | 'em'
  | 'u'
  | 's'
  | 'sup'
  | 'sub'
  | 'code'
  | 'br'
  | 'a'
  | 'cite';

export type NoteNode =
  | { kind: 'text'; text: string }
  | { kind: 'element'; tag: NoteTag; href?: string; item?: number; children: NoteNode[] };

/** A citation to an item of the library inside a note: `<cite data-item="ID">label</cite>`. */
export const CITATION_TAG = 'cite';

/** Longest note kept (characters of HTML); the IPC contract refuses longer ones first. */
export const MAX_NOTE_HTML = 1_000_000;
/** Elements beyond this many contribute only their text (bounds the work of a hostile input). */
const MAX_ELEMENTS = 20_000;

const KEEP_ATTRIBUTES: ReadonlySet<string> = new Set(['href', 'class', 'style', 'data-item', 'data-citation']);

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
  'title',
]);

const SIMPLE: Readonly<Record<string, NoteTag>> = {
  p: 'p',
  h1: 'h1',
  h2: 'h2',
  h3: 'h3',
  // Deeper headings read as the smallest one a note shows.
  h4: 'h3',
  h5: 'h3',
  h6: 'h3',
  blockquote: 'blockquote',
  pre: 'pre',
  ul: 'ul',
  ol: 'ol',
  li: 'li',
  table: 'table',
  tr: 'tr',
  th: 'th',
  td: 'td',
  strong: 'strong',
  b: 'strong',
  em: 'em',
  i: 'em',
  u: 'u',
  s: 's',
  strike: 's',
  del: 's',
  sup: 'sup',
  sub: 'sub',
  code: 'code',
  br: 'br',
};

const BLOCKS: ReadonlySet<NoteTag> = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'blockquote',
  'pre',
  'ul',
  'ol',
  'li',
  'table',
  'tr',
]);

/** Link targets a note keeps: the web and mail. javascript:, data:, file: and the like lose the link, not the text. */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  if (href.length > 4096) return null;
  // Control characters and spaces inside a scheme ("java\tscript:") are how filters get bypassed.
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  if (/[\u0000-\u001f\u007f]/.test(href)) return null;
  if (/^(https?:\/\/|mailto:)/i.test(href)) return href;
  return null;
}

export interface SanitizeNoteOptions {
  /**
   * Maps a Zotero citation (the item URIs of its data-citation) to an item of this library, so a
   * citation in an imported note stays a link; unmapped ones keep their text.
   */
  citationItem?: (uris: readonly string[]) => number | undefined;
}

/** A Zotero note's data-citation attribute: URI-encoded JSON with citationItems[].uris. */
function zoteroCitationUris(attribute: string): string[] {
  try {
    const parsed = JSON.parse(decodeURIComponent(attribute)) as { citationItems?: { uris?: unknown }[] };
    const uris: string[] = [];
    for (const c of parsed.citationItems ?? [])
      if (Array.isArray(c.uris)) for (const u of c.uris) if (typeof u === 'string') uris.push(u);
    return uris;
  } catch {
    return [];
  }
}

function itemIdOf(raw: string | null | undefined): number | undefined {
  if (raw == null || !/^\d{1,15}$/.test(raw.trim())) return undefined;
  const id = Number(raw.trim());
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

function mapElement(
  node: MarkupNode,
  name: string,
  options: SanitizeNoteOptions,
): { tag: NoteTag; href?: string; item?: number } | null {
  const simple = SIMPLE[name];
  if (simple) return { tag: simple };
  const attr = (n: string) => node.getAttribute?.(n) ?? null;
  switch (name) {
    case 'a': {
      const href = safeHref(attr('href') ?? '');
      return href === null ? null : { tag: 'a', href };
    }
    case 'cite': {
      const item = itemIdOf(attr('data-item'));
      return item === undefined ? null : { tag: 'cite', item };
    }
    case 'span': {
      // Zotero's citation: <span class="citation" data-citation="%7B…%7D">(Author, 2020)</span>.
      const citation = attr('data-citation');
      if (citation && options.citationItem) {
        const item = options.citationItem(zoteroCitationUris(citation));
        if (item !== undefined) return { tag: 'cite', item };
      }
      const style = (attr('style') ?? '').toLowerCase().replace(/\s+/g, '');
      if (/text-decoration:underline/.test(style)) return { tag: 'u' };
      if (/text-decoration:line-through/.test(style)) return { tag: 's' };
      if (/font-weight:(bold|[6-9]00)/.test(style)) return { tag: 'strong' };
      if (/font-style:(italic|oblique)/.test(style)) return { tag: 'em' };
      return null;
    }
    default:
      return null;
  }
}

/** The allowlisted tree of untrusted note HTML. */
export function noteTree(html: string, options: SanitizeNoteOptions = {}): NoteNode[] {
  const budget = { elements: 0 };
  return tidy(walk(parseMarkup(html.slice(0, MAX_NOTE_HTML), KEEP_ATTRIBUTES), 0, budget, options, false));
}

function walk(
  nodes: ArrayLike<MarkupNode>,
  depth: number,
  budget: { elements: number },
  options: SanitizeNoteOptions,
  inCitation: boolean,
): NoteNode[] {
  const out: NoteNode[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_NODE) {
      if (node.nodeValue) out.push({ kind: 'text', text: node.nodeValue });
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE) continue;
    const name = node.nodeName.toLowerCase();
    if (DROPPED.has(name)) continue;
    budget.elements++;
    const overBudget = depth >= MAX_DEPTH || budget.elements > MAX_ELEMENTS;
    let mapped = overBudget ? null : mapElement(node, name, options);
    // A citation's label is text: no links or nested citations inside it.
    if (inCitation && mapped && (mapped.tag === 'a' || mapped.tag === 'cite' || BLOCKS.has(mapped.tag))) mapped = null;
    const children = walk(node.childNodes, depth + 1, budget, options, inCitation || mapped?.tag === 'cite');
    if (!mapped) {
      // Unknown elements give their content; a div (Zotero wraps every note in one) is a block break.
      if (name === 'div' && !inCitation) out.push({ kind: 'element', tag: 'p', children });
      else out.push(...children);
      continue;
    }
    if (mapped.tag === 'br') {
      out.push({ kind: 'element', tag: 'br', children: [] });
      continue;
    }
    const element: NoteNode = { kind: 'element', tag: mapped.tag, children };
    if (mapped.href !== undefined) element.href = mapped.href;
    if (mapped.item !== undefined) element.item = mapped.item;
    out.push(element);
  }
  return out;
}

/** Merges adjacent text, unwraps a paragraph that only wraps blocks (Zotero's outer div), drops empty inline wrappers. */
function tidy(nodes: NoteNode[]): NoteNode[] {
  const out: NoteNode[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (node.kind === 'text') {
      if (last?.kind === 'text') last.text += node.text;
      else out.push({ kind: 'text', text: node.text });
      continue;
    }
    const children = tidy(node.children);
    if (node.tag === 'p' && children.some((c) => c.kind === 'element' && BLOCKS.has(c.tag))) {
      out.push(...children);
      continue;
    }
    if (node.tag !== 'br' && !BLOCKS.has(node.tag) && node.tag !== 'td' && node.tag !== 'th' && children.length === 0)
      continue;
    out.push({ ...node, children });
  }
  return out;
}

/** Text escaped for a note's HTML. */
export const escapeNoteText = (t: string): string =>
  t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (t: string): string => escapeNoteText(t).replace(/"/g, '&quot;');

/** A tree as HTML: the only HTML a note is stored as. */
export function noteTreeHtml(nodes: readonly NoteNode[]): string {
  let html = '';
  for (const node of nodes) {
    if (node.kind === 'text') html += escapeNoteText(node.text);
    else if (node.tag === 'br') html += '<br>';
    else {
      let attributes = '';
      if (node.tag === 'a' && node.href !== undefined) attributes = ` href="${escapeAttribute(node.href)}"`;
      if (node.tag === 'cite' && node.item !== undefined) attributes = ` data-item="${node.item}"`;
      html += `<${node.tag}${attributes}>${noteTreeHtml(node.children)}</${node.tag}>`;
    }
  }
  return html;
}

/** Untrusted HTML as a note's HTML, through the allowlist. */
export function sanitizeNoteHtml(html: string, options: SanitizeNoteOptions = {}): string {
  return noteTreeHtml(noteTree(html, options));
}

/** Whether a stored or imported note is HTML rather than plain text. */
export function looksLikeNoteHtml(text: string): boolean {
  return /<\/?(p|div|h[1-6]|ul|ol|li|br|blockquote|pre|b|i|em|strong|a|span|u|s|sup|sub|code|table|cite)\b[^<]*>/i.test(
    text,
  );
}

/** Plain text as a note: a paragraph per blank-line block, a line break per line. */
export function textToNoteHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${escapeNoteText(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** Any note as it is kept: HTML through the allowlist, plain text as paragraphs. */
export function toNoteHtml(body: string, options: SanitizeNoteOptions = {}): string {
  return looksLikeNoteHtml(body) ? sanitizeNoteHtml(body, options) : textToNoteHtml(body);
}

/**
 * A note's text, for search, titles and plain-text formats: a block per line (blank lines between
 * paragraphs), a list item a "- " line, a link its text with the address after it.
 */
export function noteText(html: string): string {
  return treeText(noteTree(html))
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function treeText(nodes: readonly NoteNode[]): string {
  let text = '';
  for (const node of nodes) {
    if (node.kind === 'text') {
      text += node.text.replace(/\s+/g, ' ');
      continue;
    }
    const inner = node.tag === 'pre' ? preText(node.children) : treeText(node.children);
    switch (node.tag) {
      case 'br':
        text += '\n';
        break;
      case 'li':
        text += `\n- ${inner.trim()}`;
        break;
      case 'a':
        text +=
          node.href && inner.trim() !== node.href && `mailto:${inner.trim()}` !== node.href
            ? `${inner} (${node.href})`
            : inner;
        break;
      case 'td':
      case 'th':
        text += `${inner.trim()}\t`;
        break;
      default:
        text += BLOCKS.has(node.tag) ? `\n\n${inner.trim()}\n\n` : inner;
    }
  }
  return text;
}

function preText(nodes: readonly NoteNode[]): string {
  let text = '';
  for (const node of nodes)
    text += node.kind === 'text' ? node.text : node.tag === 'br' ? '\n' : preText(node.children);
  return text;
}

/** A note's title, as Zotero gives one: its first line of text, shortened. */
export function noteTitle(html: string, max = 120): string {
  const first =
    noteText(html)
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  const line = first.replace(/^- /, '').trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** The items a note cites, in order of first mention. */
export function noteCitations(html: string): number[] {
  const ids: number[] = [];
  const visit = (nodes: readonly NoteNode[]) => {
    for (const n of nodes)
      if (n.kind === 'element') {
        if (n.tag === 'cite' && n.item !== undefined && !ids.includes(n.item)) ids.push(n.item);
        visit(n.children);
      }
  };
  visit(noteTree(html));
  return ids;
}
