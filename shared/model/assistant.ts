// The assistant as the library keeps it (sessions of questions and answers, readable offline) and the
// pure logic of drafting from an answer: finding its [n] markers, and turning them into Pandoc
// citations or formatted in-text citations. Pure and DOM-free: the core builds drafts with it and the
// renderer links the markers with it.
import type { CslItem, CslName } from './csl';
import { serviceAuthorName } from './person-name';
import type { InUiWords } from './evidence';
import type { AssistantReference, AssistantTurn, CitationStyle } from '../service';

export type AssistantAnswer = InUiWords<AssistantTurn>;

/** The largest manuscript a reference check takes: 25 MB. */
export const MAX_REFCHECK_BYTES = 25 * 1024 * 1024;
/** What a reference check reads: manuscripts (.pdf, .docx, .txt) and bibliographies (.bib, .ris). */
export const REFCHECK_EXTENSIONS = ['pdf', 'docx', 'txt', 'bib', 'ris'] as const;
export type AssistantAnswerReference = InUiWords<AssistantReference>;

/** The options of a question that Citewise offers; sent to the service with the question. */
export interface AssistantOptions {
  answerLength?: 'short' | 'medium' | 'long';
  numReferences?: number;
  rankBy?:
    'all' | 'relevance' | 'date' | 'citations' | 'supporting-citations' | 'contrasting-citations' | 'journal-rank';
  yearFrom?: string;
  yearTo?: string;
  abstractsOnly?: boolean;
  fullTextsOnly?: boolean;
  openAccessOnly?: boolean;
  topics?: string[];
  journals?: string[];
  /** Restrict the answer to these DOIs (a collection's, or the library's). */
  dois?: string[];
  citationStyle?: CitationStyle;
  effort?: 'minimal' | 'low' | 'medium' | 'high';
}

/** Where a turn is: waiting for the service, answered, or stopped (the question is kept to retry). */
export type AssistantTurnStatus = 'pending' | 'answered' | 'failed' | 'cancelled';

export type AssistantFeedbackValue = 'positive' | 'negative';

export interface AssistantTurnRecord {
  id: number;
  sessionId: number;
  position: number;
  question: string;
  options: AssistantOptions;
  /** Where the DOIs restriction came from, for the UI ("collection Thesis", "the library"). */
  scopeLabel: string | null;
  status: AssistantTurnStatus;
  taskId: string | null;
  /** The answer turn as the service gave it, without its references (those are in `references`). */
  answer: AssistantAnswer | null;
  references: AssistantAnswerReference[];
  error: { code: string; message: string } | null;
  usage: { used: number; max: number } | null;
  feedback: { value: AssistantFeedbackValue; reason: string } | null;
  createdAt: number;
  answeredAt: number | null;
}

export interface AssistantSessionSummary {
  id: number;
  title: string;
  createdAt: number;
  updatedAt: number;
  turns: number;
  /** Status of the last turn, so the list can show a running or failed question. */
  lastStatus: AssistantTurnStatus | null;
}

export interface AssistantSessionDetail extends AssistantSessionSummary {
  /** The service's session id, when it gave one. */
  remoteSessionId: number | null;
  records: AssistantTurnRecord[];
}

// ── Answers and their markers ──

export type AnswerPart = { kind: 'text'; text: string } | { kind: 'cite'; numbers: number[]; raw: string };

/** A run of markers such as [1], [1][2], [1, 3], [2–4]. */
const MARKERS = /(?:\[\s*\d{1,4}(?:\s*[,–-]\s*\d{1,4})*\s*\])+/g;
/** The longest range a marker may expand to (a hostile "[1-99999]" stays text). */
const MAX_RANGE = 50;

/**
 * The answer without the reference list the service appends ("References" then "[n] …" lines), which
 * a draft replaces with its own bibliography.
 */
export function answerBody(content: string): string {
  const lines = content.split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (/^(references|bibliography|sources)\s*:?$/i.test(line)) {
      const rest = lines.slice(i + 1).filter((l) => l.trim() !== '');
      if (rest.length > 0 && rest.every((l) => /^\s*\[\d+\]/.test(l))) return lines.slice(0, i).join('\n').trimEnd();
    }
  }
  return content.trimEnd();
}

function expand(group: string): number[] | null {
  const out: number[] = [];
  for (const piece of group.split(',')) {
    const range = /^\s*(\d+)\s*[–-]\s*(\d+)\s*$/.exec(piece);
    if (range) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      if (b < a || b - a > MAX_RANGE) return null;
      for (let n = a; n <= b; n++) out.push(n);
    } else out.push(Number(piece.trim()));
  }
  return out;
}

/** The answer as text and marker clusters; markers that name no reference (0, or above `count`) stay text. */
export function answerParts(body: string, count: number): AnswerPart[] {
  const parts: AnswerPart[] = [];
  let last = 0;
  const push = (text: string): void => {
    if (!text) return;
    const prev = parts[parts.length - 1];
    if (prev?.kind === 'text') prev.text += text;
    else parts.push({ kind: 'text', text });
  };
  for (const m of body.matchAll(MARKERS)) {
    const groups = [...m[0].matchAll(/\[([^\]]*)\]/g)].map((g) => expand(g[1]!));
    const numbers = groups.every((g) => g !== null) ? [...new Set(groups.flat() as number[])] : [];
    push(body.slice(last, m.index));
    if (numbers.length > 0 && numbers.every((n) => Number.isInteger(n) && n >= 1 && n <= count))
      parts.push({ kind: 'cite', numbers, raw: m[0] });
    else push(m[0]);
    last = m.index + m[0].length;
  }
  push(body.slice(last));
  return parts;
}

/** Reference numbers in the order the answer first cites them. */
export function citedOrder(parts: readonly AnswerPart[]): number[] {
  const seen: number[] = [];
  for (const p of parts) if (p.kind === 'cite') for (const n of p.numbers) if (!seen.includes(n)) seen.push(n);
  return seen;
}

/**
 * Keeps only the clusters' numbers in `chosen` (a draft of some references); a cluster left empty
 * disappears with the space before it.
 */
export function keepReferences(parts: readonly AnswerPart[], chosen: ReadonlySet<number>): AnswerPart[] {
  const out: AnswerPart[] = [];
  for (const p of parts) {
    if (p.kind === 'text') {
      const prev = out[out.length - 1];
      if (prev?.kind === 'text') prev.text += p.text;
      else out.push({ ...p });
      continue;
    }
    const numbers = p.numbers.filter((n) => chosen.has(n));
    if (numbers.length > 0) out.push({ kind: 'cite', numbers, raw: p.raw });
    else {
      const prev = out[out.length - 1];
      if (prev?.kind === 'text') prev.text = prev.text.replace(/[ \t]+$/, '');
    }
  }
  return out;
}

/** The answer with each cluster replaced by what `cite` makes of it (already escaped for its format). */
export function replaceMarkers(
  parts: readonly AnswerPart[],
  cite: (numbers: number[], index: number) => string,
  text: (t: string) => string = (t) => t,
): string {
  let i = 0;
  return parts.map((p) => (p.kind === 'text' ? text(p.text) : cite(p.numbers, i++))).join('');
}

/** Pandoc's citation syntax: [@a; @b]. Keys with characters Pandoc would end a key on are braced. */
export function pandocCitation(keys: readonly string[]): string {
  return `[${keys.map((k) => (/^[\p{L}\p{N}_][\p{L}\p{N}_:.#$%&\-+?<>~/]*$/u.test(k) && !/[:.#$%&\-+?<>~/]$/.test(k) ? `@${k}` : `@{${k}}`)).join('; ')}]`;
}

/**
 * Answer text as Markdown text: characters Pandoc would read as raw HTML (<, >), as citations (@, [ ])
 * or as an escape are escaped, so the service's text stays text in the converted document.
 */
export function markdownText(text: string): string {
  return text.replace(/[\\<>@[\]]/g, (c) => `\\${c}`);
}

/** The answer as Markdown with Pandoc citations; `keyOf` gives each reference number's citation key. */
export function markdownDraft(parts: readonly AnswerPart[], keyOf: (n: number) => string): string {
  return `${replaceMarkers(parts, (numbers) => pandocCitation(numbers.map(keyOf)), markdownText)}\n`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML document: escaped, paragraphs from blank lines, line breaks kept. */
export function htmlParagraphs(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
  return escaped
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Editorial notice statuses that make a reference one to flag. */
export function noticeSeverity(statuses: readonly string[]): 'retracted' | 'concern' | 'notice' | null {
  const s = statuses.map((x) => x.toLowerCase());
  if (s.some((x) => x.includes('retract') || x.includes('withdrawn'))) return 'retracted';
  if (s.some((x) => x.includes('concern'))) return 'concern';
  return s.length > 0 ? 'notice' : null;
}

/** A reference's paper as CSL-JSON, for drafting with a reference that is not in the library. */
export function cslFromReference(ref: AssistantAnswerReference, id: string): CslItem {
  const p = ref.paper ?? {};
  const item: CslItem = { id, type: 'article-journal', title: (p.title ?? ref.title ?? '').trim() || 'Untitled' };
  const authors = [...(p.authors ?? [])]
    .sort((a, b) => Number(a.authorSequenceNumber ?? 0) - Number(b.authorSequenceNumber ?? 0))
    .map((a) => serviceAuthorName(a))
    .filter((n): n is CslName => n !== null);
  if (authors.length > 0) item.author = authors;
  if (p.journal) item['container-title'] = p.journal;
  if (p.shortJournal) item['container-title-short'] = p.shortJournal;
  if (p.publisher) item.publisher = p.publisher;
  if (p.volume) item.volume = p.volume;
  if (p.issue) item.issue = p.issue;
  if (p.page) item.page = p.page;
  if (typeof p.year === 'number' && p.year > 0) item.issued = { 'date-parts': [[p.year]] };
  const doi = p.doi ?? ref.doi;
  if (doi) item.DOI = doi;
  return item;
}
