// `citewise enrich` and `citewise check`: enrichment and the retraction watch from the command line,
// through the same Enricher and RetractionWatch as the app. Progress goes to stderr, results to stdout.
// Exit codes (also in LIBRARY_HELP):
//   enrich: 0 done; 1 failure, or some DOIs given up; 2 wrong usage; 4 paused (offline, rate-limited,
//           key refused): what is left stays queued and the next `citewise enrich` continues it.
//   check:  0 nothing flagged; 3 some items flagged; 4 nothing flagged but the notices could not be
//           refreshed (offline…), so the answer may be out of date; 1 failure; 2 wrong usage.
import type { Writable } from 'node:stream';
import { STATUS_LABELS } from '../../../shared/model/item-status';
import { CoreError } from '../../core/errors';
import { Enricher, progressText, type EnrichOutcome, type EnrichService } from '../../core/jobs/enrich';
import { RetractionWatch } from '../../core/jobs/retraction-watch';
import type { LibraryClient } from '../../core/library/client';
import { type EnrichRun, type EnrichScope, type FlaggedItem, type StatusChange } from '../../core/library/enrichment-store';

export const EXIT_FLAGGED = 3;
export const EXIT_PAUSED = 4;

export interface EnrichCommandContext {
  stdout: Writable;
  stderr: Writable;
  json: boolean;
  library: LibraryClient;
  service: EnrichService;
}

export interface EnrichRequest {
  dois: string[];
  collection?: string | undefined;
  query?: string | undefined;
  /** Fetch everything in scope again, not only what is missing or stale (library scope). */
  all: boolean;
}

function reportProgress(stderr: Writable): (run: EnrichRun) => void {
  let last = '';
  return (run) => {
    const line = `${run.label}: ${progressText(run)}${run.state === 'paused' ? ` (${run.message})` : ''}`;
    if (line !== last) stderr.write(`${line}\n`);
    last = line;
  };
}

async function collectionId(library: LibraryClient, name: string): Promise<number> {
  const all = await library.lib.listCollections();
  const matches = all.filter((c) => c.name === name);
  const found = matches.length > 0 ? matches : all.filter((c) => c.name.toLowerCase() === name.toLowerCase());
  if (found.length === 0) throw new CoreError('NOT_FOUND', `no collection is called "${name}"${all.length ? ` (there are: ${all.map((c) => c.name).join(', ')})` : ''}`);
  if (found.length > 1) throw new CoreError('CONFLICT', `${found.length} collections are called "${name}"; rename one to enrich it`);
  return found[0]!.id;
}

function runJson(r: EnrichRun): unknown {
  return { id: r.id, label: r.label, reason: r.reason, state: r.state, total: r.total, done: r.done, failed: r.failed, filled: r.filled, remaining: r.remaining, message: r.message };
}

function changeJson(c: StatusChange): unknown {
  return { doi: c.doi, previous: c.previous, current: c.current, changedAt: new Date(c.changedAt).toISOString(), items: c.items };
}

function flaggedJson(f: FlaggedItem): unknown {
  return { id: f.id, citationKey: f.citationKey, title: f.title, doi: f.doi, status: f.status, notices: f.notices, checkedAt: new Date(f.checkedAt).toISOString() };
}

function changeLine(c: StatusChange): string {
  const who = c.items.map((i) => i.citationKey).join(', ') || c.doi;
  const from = c.previous === null ? 'first check' : STATUS_LABELS[c.previous];
  return `  ${who}: ${from} → ${STATUS_LABELS[c.current]} (${c.doi})\n`;
}

/**
 * Without a scope: continues runs left unfinished (offline, crash), then fetches what is missing or
 * stale in the library; `all` fetches the whole library again. With DOIs, --collection or --query:
 * fetches those items.
 */
export async function runEnrich(req: EnrichRequest, ctx: EnrichCommandContext): Promise<number> {
  const enricher = new Enricher({ library: ctx.library.enrichment, service: ctx.service });
  const onProgress = reportProgress(ctx.stderr);
  const outcomes: EnrichOutcome[] = [];
  let withoutDoi = 0;
  try {
    let scope: EnrichScope | null = null;
    if (req.dois.length > 0) scope = { kind: 'dois', dois: req.dois };
    else if (req.collection !== undefined) scope = { kind: 'collection', id: await collectionId(ctx.library, req.collection) };
    else if (req.query !== undefined) scope = { kind: 'query', query: req.query };
    else if (req.all) scope = { kind: 'library' };

    if (scope) {
      const { queued, outcome } = await enricher.enrich(scope, { onProgress });
      withoutDoi = queued.withoutDoi;
      if (outcome) outcomes.push(outcome);
    } else {
      outcomes.push(...(await enricher.resume({ onProgress })));
      if (!outcomes.some((o) => o.paused)) {
        const refreshed = await enricher.refreshStale({ onProgress, limit: Number.MAX_SAFE_INTEGER, label: 'Enrich what is missing or stale' });
        if (refreshed) outcomes.push(refreshed);
      }
    }
  } finally {
    await enricher.close();
  }

  const paused = outcomes.find((o) => o.paused)?.paused ?? null;
  const changes = outcomes.flatMap((o) => o.changes);
  const filled = outcomes.flatMap((o) => o.filled);
  const failed = outcomes.reduce((n, o) => n + o.run.failed, 0);
  if (ctx.json) {
    ctx.stdout.write(
      `${JSON.stringify({ runs: outcomes.map((o) => runJson(o.run)), filled, statusChanges: changes.map(changeJson), withoutDoi, paused: paused ? { code: paused.code, message: paused.message } : null }, null, 2)}\n`,
    );
  } else {
    if (outcomes.length === 0) ctx.stdout.write('Nothing to enrich: every item with a DOI is up to date.\n');
    for (const o of outcomes) ctx.stdout.write(`${o.run.label}: ${progressText(o.run)}${o.run.state === 'done' ? '' : ` (${o.run.state})`}\n`);
    if (withoutDoi > 0) ctx.stdout.write(`${withoutDoi.toLocaleString('en')} item${withoutDoi === 1 ? ' has' : 's have'} no DOI and cannot be enriched.\n`);
    if (changes.length > 0) {
      ctx.stdout.write(`Editorial status changed (${changes.length}):\n`);
      for (const c of changes) ctx.stdout.write(changeLine(c));
    }
    if (paused) ctx.stderr.write(`citewise: enrichment paused: ${paused.message}. The rest stays queued; run "citewise enrich" again to continue.\n`);
  }
  if (paused) return EXIT_PAUSED;
  return failed > 0 ? 1 : 0;
}

/** Refreshes stale notices (unless offline), records status changes, prints flagged items and unseen changes, and marks those seen. */
export async function runCheck(options: { offline: boolean; keepUnseen: boolean }, ctx: EnrichCommandContext): Promise<number> {
  const enricher = new Enricher({ library: ctx.library.enrichment, service: ctx.service });
  const watch = new RetractionWatch({ library: ctx.library.enrichment, enricher });
  let result;
  try {
    result = await watch.check({ refresh: !options.offline, onProgress: reportProgress(ctx.stderr) });
    if (!options.keepUnseen && result.changes.length > 0) await watch.markSeen(result.changes.map((c) => c.id));
  } finally {
    watch.dispose();
    await enricher.close();
  }
  const paused = result.refreshed?.paused ?? null;
  if (ctx.json) {
    ctx.stdout.write(
      `${JSON.stringify({ flagged: result.flagged.map(flaggedJson), changes: result.changes.map(changeJson), refreshed: result.refreshed ? runJson(result.refreshed.run) : null, paused: paused ? { code: paused.code, message: paused.message } : null }, null, 2)}\n`,
    );
  } else {
    if (result.flagged.length === 0) ctx.stdout.write('No item in the library is retracted, withdrawn, corrected or under an expression of concern.\n');
    else {
      ctx.stdout.write(`Flagged items (${result.flagged.length}):\n`);
      for (const f of result.flagged) ctx.stdout.write(`  ${STATUS_LABELS[f.status].padEnd(31)} ${f.citationKey}\t${(f.title ?? '').replace(/<[^>]+>/g, '')}\t${f.doi}\n`);
    }
    if (result.changes.length > 0) {
      ctx.stdout.write(`Changed since the last check (${result.changes.length}):\n`);
      for (const c of result.changes) ctx.stdout.write(changeLine(c));
    }
    if (paused) ctx.stderr.write(`citewise: the notices could not be refreshed (${paused.message}); this is what the library knew already.\n`);
  }
  if (result.flagged.length > 0) return EXIT_FLAGGED;
  return paused ? EXIT_PAUSED : 0;
}

