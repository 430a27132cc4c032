// `citewise enrich [DOI…]`: enrichment from the command line, through the same Enricher as the app.
// Without a scope (or with --all) it first runs the title searches of PDFs captured offline, as the
// app does when the service is back, so the items they identify are enriched in the same run.
// Progress goes to stderr, results to stdout. Exit codes: 0 done; 1 failure, or some DOIs given up,
// or a title search failed; 2 wrong usage; 4 paused (offline, rate-limited, key refused): what is left
// stays queued and the next `citewise enrich` continues it.
import type { Writable } from 'node:stream';
import { parseDoi } from '../../../shared/model/doi';
import { STATUS_LABELS } from '../../../shared/model/item-status';
import { Enricher, progressText, type EnrichOutcome, type EnrichService } from '../../core/jobs/enrich';
import type { LibraryClient } from '../../core/library/client';
import type { EnrichRun, EnrichScope, StatusChange } from '../../core/library/enrichment-store';
import { captureServiceOf, type CaptureService } from '../../core/pdf/capture';
import { PendingCaptures, type PendingRun } from '../../core/pdf/pending-captures';
import { defineCommand, UsageError, type CommandContext, type ParsedCommand } from '../command';
import { checkQuery, findCollection, withLibrary, withService } from '../library-session';
import { grouped } from '../../../shared/model/numbers';

export const EXIT_FLAGGED = 3;
export const EXIT_PAUSED = 4;

export interface EnrichCommandContext {
  stdout: Writable;
  stderr: Writable;
  json: boolean;
  library: LibraryClient;
  service: EnrichService;
}

/** `enrich` also runs the title searches of PDFs captured offline, through the paper search. */
export interface EnrichRunContext extends EnrichCommandContext {
  capture: CaptureService;
}

export interface EnrichRequest {
  dois: string[];
  collection?: string | undefined;
  query?: string | undefined;
  /** Fetch everything in scope again, not only what is missing or stale (library scope). */
  all: boolean;
}

export const command = defineCommand({
  name: 'enrich',
  help: [
    {
      usage: 'enrich [DOI…]',
      text: `Fetch metadata, tallies and editorial notices from the citation service and fill
the fields items lack (never fields you edited). Without a scope: look up the
titles of PDFs captured offline, continue an interrupted enrichment, then fetch
what is missing or stale. Progress on stderr`,
    },
  ],
  options: {
    collection: { type: 'string', arg: 'N', help: 'Only the items in collection N (and its subcollections)' },
    query: { type: 'string', arg: 'Q', help: 'Only the items a search finds' },
    all: { type: 'boolean', help: 'The whole library again, not only what is missing or stale' },
    json: { type: 'boolean', help: 'Print the runs and what they filled as JSON' },
  },
  notes: `  Exit codes of enrich: 0 done, 1 failed (some DOIs given up, or a title search of a PDF failed),
                   4 paused (offline or rate-limited; the rest stays queued and "citewise enrich"
                   continues it).`,
  run: enrichCommand,
});

async function enrichCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  const collection = p.values.collection as string | undefined;
  const query = p.values.query as string | undefined;
  const scopes = [
    p.positionals.length > 0,
    collection !== undefined,
    query !== undefined,
    p.values.all === true,
  ].filter(Boolean).length;
  if (scopes > 1) throw new UsageError('enrich takes one scope: DOIs, --collection, --query or --all');
  if (query !== undefined) checkQuery(query);
  for (const arg of p.positionals) {
    const parsed = parseDoi(arg);
    if (!parsed.ok) throw new UsageError(`"${arg}" is not a DOI: ${parsed.reason}`);
  }
  return withService(ctx, (service) =>
    withLibrary(
      ctx.dataDir,
      (library) =>
        runEnrich(
          { dois: p.positionals, collection, query, all: p.values.all === true },
          {
            stdout: ctx.stdout,
            stderr: ctx.stderr,
            json: p.values.json === true,
            library,
            service,
            capture: captureServiceOf(service),
          },
        ),
      ctx.stderr,
    ),
  );
}

export function reportProgress(stderr: Writable): (run: EnrichRun) => void {
  let last = '';
  return (run) => {
    const line = `${run.label}: ${progressText(run)}${run.state === 'paused' ? ` (${run.message})` : ''}`;
    if (line !== last) stderr.write(`${line}\n`);
    last = line;
  };
}

/** A run as --json prints it: every field but the times. */
export function runJson(r: EnrichRun): unknown {
  const { createdAt: _created, updatedAt: _updated, ...shown } = r;
  return shown;
}

export function changeJson(c: StatusChange): unknown {
  return {
    doi: c.doi,
    previous: c.previous,
    current: c.current,
    changedAt: new Date(c.changedAt).toISOString(),
    items: c.items,
  };
}

export function changeLine(c: StatusChange): string {
  const who = c.items.map((i) => i.citationKey).join(', ') || c.doi;
  const from = c.previous === null ? 'first check' : STATUS_LABELS[c.previous];
  return `  ${who}: ${from} → ${STATUS_LABELS[c.current]} (${c.doi})\n`;
}

/** What the title searches of PDFs captured offline came to, and why each that failed did. */
interface TitleSearches {
  run: PendingRun;
  failures: string[];
}

/**
 * Runs the title searches of PDFs captured offline (pending-captures.ts), as the app does when the
 * service is back. The items identified become DOI placeholders, which the enrichment after it fills.
 */
async function runTitleSearches(ctx: EnrichRunContext): Promise<TitleSearches> {
  const failures: string[] = [];
  const pending = new PendingCaptures({
    library: ctx.library,
    service: () => ctx.capture,
    // Nobody to tell: the command's own enrichment (missing or stale) fetches what was identified.
    changed: () => {},
    onIdentified: () => {},
    report: (err) => failures.push(err instanceof Error ? err.message : String(err)),
  });
  try {
    return { run: await pending.resume(), failures };
  } finally {
    await pending.close();
  }
}

export function titleSearchesJson({ run }: TitleSearches): unknown {
  return { completed: run.settled, identified: run.identified, waiting: run.waiting, failed: run.failed };
}

export function titleSearchesLine({ run }: TitleSearches): string {
  const n = run.settled + run.waiting + run.failed;
  return `Title searches of ${n === 1 ? '1 PDF' : `${grouped(n)} PDFs`} captured offline: ${grouped(run.settled)} completed (${grouped(run.identified)} identified), ${grouped(run.waiting)} still waiting, ${grouped(run.failed)} failed\n`;
}

/**
 * Without a scope: runs the title searches of PDFs captured offline, continues runs left unfinished
 * (offline, crash), then fetches what is missing or stale in the library; `all` runs those searches
 * and fetches the whole library again. With DOIs, --collection or --query: fetches those items.
 */
export async function runEnrich(req: EnrichRequest, ctx: EnrichRunContext): Promise<number> {
  const enricher = new Enricher({ library: ctx.library.enrichment, service: ctx.service });
  const onProgress = reportProgress(ctx.stderr);
  const outcomes: EnrichOutcome[] = [];
  let withoutDoi = 0;
  let titles: TitleSearches | null = null;
  try {
    let scope: EnrichScope | null = null;
    if (req.dois.length > 0) scope = { kind: 'dois', dois: req.dois };
    else if (req.collection !== undefined)
      scope = { kind: 'collection', id: (await findCollection(ctx.library, req.collection, 'enrich it')).id };
    else if (req.query !== undefined) scope = { kind: 'query', query: req.query };
    else if (req.all) scope = { kind: 'library' };

    // Library-wide runs only (a PDF waiting for its title search has no DOI for a narrower scope to name).
    if (scope === null || scope.kind === 'library') titles = await runTitleSearches(ctx);

    if (scope) {
      const { queued, outcome } = await enricher.enrich(scope, { onProgress });
      withoutDoi = queued.withoutDoi;
      if (outcome) outcomes.push(outcome);
    } else {
      outcomes.push(...(await enricher.resume({ onProgress })));
      if (!outcomes.some((o) => o.paused)) {
        const refreshed = await enricher.refreshStale({
          onProgress,
          limit: Number.MAX_SAFE_INTEGER,
          label: 'Enrich what is missing or stale',
        });
        if (refreshed) outcomes.push(refreshed);
      }
    }
  } finally {
    await enricher.close();
  }

  const paused = outcomes.find((o) => o.paused)?.paused ?? null;
  const changes = outcomes.flatMap((o) => o.changes);
  const filled = outcomes.flatMap((o) => o.filled);
  const failed = outcomes.reduce((n, o) => n + o.run.failed, 0) + (titles?.run.failed ?? 0);
  // Searches left waiting mean the service could not be asked for them: paused, as an enrichment is.
  const titlesWait = (titles?.run.waiting ?? 0) > 0;
  for (const why of titles?.failures ?? [])
    ctx.stderr.write(`citewise: the title search of a PDF captured offline failed: ${why}\n`);
  if (ctx.json) {
    ctx.stdout.write(
      `${JSON.stringify({ runs: outcomes.map((o) => runJson(o.run)), filled, statusChanges: changes.map(changeJson), withoutDoi, titleSearches: titles ? titleSearchesJson(titles) : null, paused: paused ? { code: paused.code, message: paused.message } : null }, null, 2)}\n`,
    );
  } else {
    if (titles && titles.run.settled + titles.run.waiting + titles.run.failed > 0)
      ctx.stdout.write(titleSearchesLine(titles));
    if (outcomes.length === 0) ctx.stdout.write('Nothing to enrich: every item with a DOI is up to date.\n');
    for (const o of outcomes)
      ctx.stdout.write(`${o.run.label}: ${progressText(o.run)}${o.run.state === 'done' ? '' : ` (${o.run.state})`}\n`);
    if (withoutDoi > 0)
      ctx.stdout.write(
        `${grouped(withoutDoi)} item${withoutDoi === 1 ? ' has' : 's have'} no DOI and cannot be enriched.\n`,
      );
    if (changes.length > 0) {
      ctx.stdout.write(`Editorial status changed (${changes.length}):\n`);
      for (const c of changes) ctx.stdout.write(changeLine(c));
    }
    if (paused)
      ctx.stderr.write(
        `citewise: enrichment paused: ${paused.message}. The rest stays queued; run "citewise enrich" again to continue.\n`,
      );
    else if (titlesWait)
      ctx.stderr.write(
        'citewise: the citation service could not be asked for the titles of PDFs captured offline; they keep waiting. Run "citewise enrich" again to continue.\n',
      );
  }
  if (paused || titlesWait) return EXIT_PAUSED;
  return failed > 0 ? 1 : 0;
}
