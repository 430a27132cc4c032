// The research assistant: a task per request that goes PENDING → STARTED (info.step advancing in the
// contract's step order) → SUCCESS with a session whose answer cites ranked passages from the corpus
// (abstract sentences and citation statements), with [n] markers matching its references.
import { randomUUID } from 'node:crypto';
import {
  ASSISTANT_STEPS,
  GUESSES,
  type AssistantPollRequest,
  type AssistantTask,
  type AssistantTurn,
  type AssistantReference,
  type AssistantSession,
  type AssistantStep,
  type AssistantPaper,
  type CitationStatement,
  type CitationStyle,
  type OperationId,
  type TaskStatus,
} from '../../../shared/service/index';
import { HttpError, ok, type Context, type Handler } from '../http';
import { FIELDS } from '../corpus/vocab';
import { formatReference } from '../cite';
import { hit, words } from './search';
import { normalizeDoi, type CitationRow, type Corpus, type PaperRow } from '../store';

export interface SessionState {
  session: AssistantSession;
  token: string;
}

export interface AssistantTaskState {
  id: string;
  token: string;
  createdAt: number;
  steps: AssistantStep[];
  polls: number;
  fail: boolean;
  cancelled: boolean;
  plan: Plan;
  session: AssistantSession;
}

interface Passage {
  paper: PaperRow;
  text: string;
  kind: 'abstract' | 'citation_statement';
  score: number;
  statement?: CitationStatement;
}
interface Plan {
  searches: string[];
  consulted: string[];
  used: string[];
  content: string;
}

const STOP = new Set(
  'a an and are as at be by can do does for from has have how in into is it its of on or that the their there these this to was were what when which who why will with about between among than more less does did any all our we you your effect effects role evidence studies study'.split(
    ' ',
  ),
);

function contentWords(text: string): string[] {
  return [...new Set(words(text).filter((w) => w.length > 2 && !STOP.has(w)))];
}

function overlap(text: string, terms: readonly string[]): number {
  const lower = text.toLowerCase();
  let n = 0;
  for (const t of terms) if (lower.includes(t)) n++;
  return n / Math.max(1, terms.length);
}

const sentences = (text: string): string[] => text.match(/[^.!?]+[.!?]+/g)?.map((s) => s.trim()) ?? [text];

function candidates(corpus: Corpus, body: AssistantPollRequest, terms: readonly string[]): PaperRow[] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (body.yearFrom && /^\d{4}$/.test(body.yearFrom)) where.push(`p.year >= ${Number(body.yearFrom)}`);
  if (body.yearTo && /^\d{4}$/.test(body.yearTo)) where.push(`p.year <= ${Number(body.yearTo)}`);
  if (body.dois?.length) {
    const dois = body.dois.map(normalizeDoi);
    where.push(`p.doi IN (${dois.map(() => '?').join(',')})`);
    params.push(...dois);
  }
  if (body.journals?.length) {
    const ids = [...corpus.journals.values()]
      .filter((j) =>
        body.journals!.some((n) =>
          `${j.name} ${j.short} ${j.issn_print} ${j.issn_e ?? ''}`.toLowerCase().includes(n.toLowerCase()),
        ),
      )
      .map((j) => j.id);
    where.push(ids.length ? `p.journal_id IN (${ids.join(',')})` : '0');
  }
  if (body.topics?.length) {
    const ids = FIELDS.flatMap((f, i) =>
      body.topics!.some((t) => f.topic.toLowerCase().includes(t.toLowerCase()) || f.key === t.toLowerCase()) ? [i] : [],
    );
    where.push(ids.length ? `p.field IN (${ids.join(',')})` : '0');
  }
  if (body.publicationTypes?.length) {
    where.push(`(${body.publicationTypes.map(() => 'p.ntypes LIKE ?').join(' OR ')})`);
    params.push(...body.publicationTypes.map((t) => `%"${t.toLowerCase()}"%`));
  }
  if (body.abstractsOnly) where.push('p.abstract IS NOT NULL');
  const extra = where.length ? ` AND ${where.join(' AND ')}` : '';
  if (terms.length === 0 || body.dois?.length) {
    return corpus.db
      .prepare(`SELECT p.* FROM papers p WHERE 1 ${extra} ORDER BY p.t_citing DESC LIMIT 200`)
      .all(...params) as PaperRow[];
  }
  const match = terms.map((t) => `"${t}"*`).join(' OR ');
  return corpus.db
    .prepare(
      `SELECT p.* FROM papers_fts JOIN papers p ON p.id = papers_fts.rowid WHERE papers_fts MATCH ? ${extra} ORDER BY papers_fts.rank LIMIT 200`,
    )
    .all(match, ...params) as PaperRow[];
}

function passages(
  corpus: Corpus,
  rows: readonly PaperRow[],
  terms: readonly string[],
  body: AssistantPollRequest,
): Passage[] {
  const out: Passage[] = [];
  const sections = body.citationSections?.map((s) => s.toLowerCase());
  for (const paper of rows) {
    const titleBoost = overlap(paper.title, terms) * 0.5;
    if (paper.abstract) {
      for (const s of sentences(paper.abstract))
        out.push({ paper, text: s, kind: 'abstract', score: overlap(s, terms) + titleBoost });
    }
    if (body.abstractsOnly) continue;
    const stmts = corpus.db
      .prepare('SELECT target, id, source, kind FROM citations WHERE target = ? ORDER BY id LIMIT 40')
      .all(paper.id) as CitationRow[];
    const sources = corpus.papersByIds(stmts.map((c) => c.source));
    for (const c of stmts) {
      const src = sources.get(c.source)!;
      const citation = corpus.citation(c, src, paper);
      if (sections && !sections.includes(citation.section ?? '')) continue;
      const text = corpus.snippet(c, src, paper);
      // Supporting and contrasting statements say more than mentions.
      const weight = citation.type === 'supporting' || citation.type === 'contradicting' ? 0.15 : 0;
      out.push({
        paper,
        text,
        kind: 'citation_statement',
        score: overlap(text, terms) + titleBoost + weight,
        statement: { ...citation, snippet: text, snippetHidden: false, lang: 'en', langConfidence: 0.99 },
      });
    }
  }
  return out.filter((p) => p.score > 0);
}

function rankPapers(corpus: Corpus, best: Map<number, Passage[]>, rankBy: string | undefined): number[] {
  const entries = [...best.entries()];
  const rel = (id: number): number => best.get(id)![0]!.score;
  const key: Record<string, (p: PaperRow) => number> = {
    date: (p) => p.year * 10000 + p.month * 100 + p.day,
    citations: (p) => p.t_citing,
    'supporting-citations': (p) => p.t_sup,
    'contrasting-citations': (p) => p.t_con,
    'journal-rank': (p) => corpus.journal(p).quality,
  };
  const k = rankBy ? key[rankBy] : undefined;
  // Other orders keep only reasonably relevant papers, then sort by their key.
  const pool = k ? entries.filter(([id]) => rel(id) >= 0.34) : entries;
  return pool
    .sort((a, b) => {
      const pa = a[1][0]!.paper;
      const pb = b[1][0]!.paper;
      if (k) return k(pb) - k(pa) || rel(b[0]) - rel(a[0]);
      if (rankBy === 'all')
        return rel(b[0]) + Math.log1p(pb.t_citing) * 0.05 - (rel(a[0]) + Math.log1p(pa.t_citing) * 0.05);
      return rel(b[0]) - rel(a[0]) || pb.t_citing - pa.t_citing;
    })
    .map(([id]) => id);
}

const LEADS = [
  '',
  'For example, ',
  'Similarly, ',
  'Moreover, ',
  'In addition, ',
  'Related work reports that ',
  'Another study notes that ',
];

function sentenceFrom(p: Passage, i: number): string {
  let text = p.text
    .replace(/\s*\[\d+\]/g, '')
    .replace(/\s*\([^()]*et al\.,? \d{4}\)/g, '')
    .trim();
  if (!/[.!?]$/.test(text)) text += '.';
  if (p.statement?.type === 'contradicting')
    return `However, not all findings agree: ${text[0]!.toLowerCase()}${text.slice(1)}`;
  const lead =
    i === 0 || /^(a )?similar|^consistent|^in line|^unlike|^in contrast/i.test(text) ? '' : LEADS[i % LEADS.length]!;
  return lead ? `${lead}${text[0]!.toLowerCase()}${text.slice(1)}` : text;
}

function assistantPaper(corpus: Corpus, row: PaperRow, used: Passage[], score: number): AssistantPaper {
  const h = hit(corpus, row, [], false);
  return {
    ...h,
    id: row.id,
    relevancyScore: Math.round(score * 1000) / 1000,
    citations: used.filter((u) => u.statement).map((u) => u.statement!),
    fulltextExcerpts: [],
    highlightedFields: [],
  } as AssistantPaper;
}

const ANSWER_SENTENCES = { short: 3, medium: 6, long: 10 } as const;

function compose(
  corpus: Corpus,
  body: AssistantPollRequest,
  prior: readonly AssistantTurn[],
  baseUrl: string,
): { turn: AssistantTurn; plan: Plan } {
  const question = body.userInput;
  let terms = contentWords(question);
  // A short follow-up borrows the subject of the previous question.
  const lastUser = [...prior].reverse().find((t) => t.role === 'user');
  if (lastUser && terms.length < 4) terms = [...new Set([...terms, ...contentWords(lastUser.content)])];
  const effort = (body as Record<string, unknown>)[GUESSES.assistantEffortField] as string | undefined;
  const searchCount = { minimal: 1, low: 2, medium: 3, high: 4 }[effort ?? 'low'] ?? 2;
  const searches = [
    terms.slice(0, 6).join(' '),
    terms.slice(0, 3).join(' '),
    terms.slice(2, 6).join(' '),
    terms.slice(-3).join(' '),
  ]
    .filter((s, i, all) => s && all.indexOf(s) === i)
    .slice(0, searchCount);
  if (body.searches?.length) searches.unshift(...body.searches);
  const rows = candidates(corpus, body, terms);
  const never = body.neverUseReferences === true || body.numReferences === 0;
  const numReferences = Math.min(body.numReferences ?? 10, 1000);
  const all = never ? [] : passages(corpus, rows, terms, body);
  const byPaper = new Map<number, Passage[]>();
  for (const p of all.sort((a, b) => b.score - a.score)) {
    const list = byPaper.get(p.paper.id) ?? [];
    list.push(p);
    byPaper.set(p.paper.id, list);
  }
  const order = rankPapers(corpus, byPaper, body.rankBy).slice(0, numReferences);
  const style: CitationStyle = body.citationStyle ?? 'apa';
  const length = body.answerLength ?? 'medium';
  const maxSentences = ANSWER_SENTENCES[length];
  const references: AssistantReference[] = [];
  const body_: string[] = [];
  const topic = terms.slice(0, 4).join(', ');
  if (order.length === 0) {
    body_.push(
      never
        ? `Without consulting references: questions about ${topic || 'this topic'} are usually answered by weighing primary studies, reviews and the way later work cites them.`
        : `I could not find publications in the corpus that address ${topic || 'this question'}${body.yearFrom || body.yearTo ? ' within the requested years' : ''}. Try broader terms or fewer filters.`,
    );
  } else {
    const years = order.map((id) => byPaper.get(id)![0]!.paper.year);
    const [min, max] = [Math.min(...years), Math.max(...years)];
    const span = min === max ? `in ${min}` : `between ${min} and ${max}`;
    body_.push(
      `Evidence on this question comes from ${order.length === 1 ? 'one study' : `${order.length} studies`} published ${span}${order.length > 3 ? '; it is broadly consistent, with some disagreement' : ''}.`,
    );
  }
  const perSentence = Math.max(1, Math.ceil(order.length / Math.max(1, maxSentences - 2)));
  for (let i = 0; i < order.length; i += perSentence) {
    const group = order.slice(i, i + perSentence);
    const lead = byPaper.get(group[0]!)![0]!;
    const markers = group.map((id, k) => {
      const n = i + k + 1;
      const used = byPaper.get(id)!.slice(0, 3);
      const row = used[0]!.paper;
      references.push({
        answer: used[0]!.text,
        texts: used.map((u) => u.text),
        context: row.abstract ? row.abstract.slice(0, 400) : used[0]!.text,
        title: row.title,
        doi: row.doi,
        link: `${baseUrl}/reports/${row.slug}`,
        type: used[0]!.kind,
        paper: assistantPaper(corpus, row, used, used[0]!.score),
        textSources: [...new Set(used.map((u) => u.kind))],
        patent: null,
        refCheckId: null,
        included: true,
        reason: `Matched ${Math.round(used[0]!.score * 100)}% of the question's terms in its ${used[0]!.kind === 'abstract' ? 'abstract' : 'citation statements'}`,
      });
      return `[${n}]`;
    });
    body_.push(`${sentenceFrom(lead, i).replace(/\.$/, '')} ${markers.join('')}.`);
    // Long answers say more about each group from its lead paper's next passage.
    const more = byPaper.get(group[0]!)![1];
    if (length === 'long' && more) body_.push(`${sentenceFrom(more, i + 1).replace(/\.$/, '')} [${i + 1}].`);
  }
  if (order.length > 1 && length !== 'short')
    body_.push(
      `Overall, the evidence should be read with the design and population of each study in mind [1]${order.length > 1 ? `[${Math.min(2, order.length)}]` : ''}.`,
    );
  let content = body_.join(' ');
  if (references.length) {
    const rowsById = new Map(order.map((id) => [id, byPaper.get(id)![0]!.paper]));
    content += `\n\nReferences\n${order.map((id, i) => `[${i + 1}] ${formatReference(corpus, rowsById.get(id)!, style)}`).join('\n')}`;
  }
  const consulted = [...new Set(rows.slice(0, 50).map((r) => r.doi))];
  const turn: AssistantTurn = {
    role: 'assistant',
    content,
    sections: references.length ? ['Answer', 'References'] : ['Answer'],
    structuredResponse: body.useStructuredResponse
      ? references.map((r, i) => ({ reference: i + 1, doi: r.doi, claim: r.answer }))
      : null,
    references,
    searchStrategy: searches,
    warning: order.length === 0 && !never ? 'No matching publications were found' : null,
    model: body.model ?? 'citewise-local-extractive',
    settings: {
      rankBy: body.rankBy ?? 'relevance',
      yearFrom: body.yearFrom ?? null,
      yearTo: body.yearTo ?? null,
      citationStyle: style,
      answerLength: body.answerLength ?? 'medium',
    } as unknown as AssistantTurn['settings'],
    publicationsConsulted: consulted.map((doi) => ({
      doi,
      included: references.some((r) => r.doi === doi),
    })) as unknown as AssistantTurn['publicationsConsulted'],
    columns: [],
  };
  return { turn, plan: { searches, consulted, used: references.map((r) => r.doi!), content } };
}

function info(task: AssistantTaskState, stepIndex: number): AssistantTask['info'] {
  const step = task.steps[stepIndex]!;
  const at = (s: AssistantStep): boolean => stepIndex >= task.steps.indexOf(s);
  const progress = step === 'GENERATING_RESPONSE' ? 0.6 : step === 'COMPOSING_RESPONSE' ? 0.2 : 0;
  const words_ = task.plan.content.split('\n\nReferences')[0]!.split(' ');
  return {
    step,
    stepNumber: stepIndex + 1,
    response: words_.slice(0, Math.floor(words_.length * progress)).join(' '),
    structuredResponse: [],
    searches: at('EXECUTING_SEARCHES') ? task.plan.searches : [],
    currentSearch:
      step === 'EXECUTING_SEARCHES' ? (task.plan.searches[task.polls % task.plan.searches.length] ?? '') : '',
    publicationsConsulting: at('RETRIEVING_PRIMARY_SOURCES') ? task.plan.consulted.slice(0, 20) : [],
    publicationsUsed: at('COMPOSING_RESPONSE') ? task.plan.used : [],
    dois: at('RETRIEVING_PRIMARY_SOURCES') ? task.plan.consulted.slice(0, 20) : [],
    factChecks: { used: [], rejected: [] },
  };
}

/** Where a task is now: by polls in instant mode, by elapsed time otherwise. */
function view(task: AssistantTaskState, ctx: Context): AssistantTask {
  const usage = { used: ctx.state.usage.get(task.token) ?? 0, max: ctx.options.usageMax };
  const base = { id: task.id, usage };
  if (task.cancelled) return { ...base, status: 'CANCELLED' };
  // stage 0 is PENDING, stages 1..n the steps, n+1 the end.
  const stage =
    ctx.options.assistantSteps === 'instant'
      ? task.polls
      : Math.floor((Date.now() - task.createdAt) / ctx.options.assistantStepMs);
  const failAt = task.steps.indexOf('EXECUTING_SEARCHES') + 2;
  if (task.fail && stage >= failAt)
    return {
      ...base,
      status: 'FAILURE',
      error: 'The assistant failed while executing searches (injected fault); please retry',
    };
  if (stage <= 0) return { ...base, status: 'PENDING' };
  if (stage <= task.steps.length) return { ...base, status: 'STARTED', info: info(task, stage - 1) };
  return { ...base, status: 'SUCCESS', result: task.session };
}

export const assistantHandlers = {
  pollAssistant: (req, ctx) => {
    const body = req.body as AssistantPollRequest;
    const token = req.key!.token;
    const used = ctx.state.usage.get(token) ?? 0;
    if (used >= ctx.options.usageMax)
      throw new HttpError(403, `Assistant usage limit reached: ${used} of ${ctx.options.usageMax} requests used`);
    ctx.state.usage.set(token, used + 1);
    const saved = body.sessionId !== undefined ? ctx.state.sessions.get(body.sessionId) : undefined;
    if (body.sessionId !== undefined && saved && saved.token !== token)
      throw new HttpError(403, 'This session belongs to another token');
    let prior: AssistantTurn[] = saved ? saved.session.turns : (body.turns ?? []);
    if (body.reprocessTurnIdx !== undefined) prior = prior.slice(0, Math.max(0, body.reprocessTurnIdx));
    const { turn, plan } = compose(ctx.corpus, body, prior, req.baseUrl);
    const now = new Date().toISOString();
    const sessionId = saved ? body.sessionId! : ++ctx.state.sessionSeq;
    const turns = [...prior, { role: 'user' as const, content: body.userInput }, turn];
    const session: AssistantSession = {
      slug: `${body.userInput
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 60)}-${sessionId}`,
      title: body.userInput.length > 80 ? `${body.userInput.slice(0, 77)}...` : body.userInput,
      sessionId,
      turns,
      turnsTotal: turns.length,
      turnsOffset: 0,
      lastUpdated: now,
      createdAt: saved?.session.createdAt ?? now,
      shareToken: randomUUID().replace(/-/g, ''),
      hasUploadedReferences: (body.referenceChecks?.length ?? 0) > 0,
      tooManySessions: false,
    };
    if (body.saveSession) ctx.state.sessions.set(sessionId, { session, token });
    const steps = ASSISTANT_STEPS.filter(
      (s) => s !== 'RETRIEVING_UPLOADED_DOCUMENTS' || (body.referenceChecks?.length ?? 0) > 0,
    );
    const forced = req.raw.headers['x-citewise-fault'];
    const task: AssistantTaskState = {
      id: randomUUID(),
      token,
      createdAt: Date.now(),
      steps,
      polls: 0,
      fail: ctx.faults.taskFails(Array.isArray(forced) ? forced[0] : forced),
      cancelled: false,
      plan,
      session,
    };
    ctx.state.assistantTasks.set(task.id, task);
    return ok(view(task, ctx));
  },
  getAssistantTask: (req, ctx) => {
    const task = ctx.state.assistantTasks.get(req.params.task_id!);
    // The real service answers PENDING for ids it does not know.
    if (!task) return ok({ id: req.params.task_id, status: 'PENDING' as TaskStatus });
    task.polls++;
    return ok(view(task, ctx));
  },
  cancelAssistantTask: (req, ctx) => {
    const task = ctx.state.assistantTasks.get(req.params.task_id!);
    if (!task) return ok({ id: req.params.task_id, status: 'REVOKED' as TaskStatus });
    const current = view(task, ctx);
    if (current.status === 'PENDING' || current.status === 'STARTED') task.cancelled = true;
    return ok(view(task, ctx));
  },
} satisfies Partial<Record<OperationId, Handler>>;
