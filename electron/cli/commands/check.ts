// `citewise check`: the search index and the retraction watch from the command line, through the same
// RetractionWatch as the app. Exit codes: 0 nothing flagged; 3 some items flagged; 4 nothing flagged
// but the notices could not be refreshed (offline…), so the answer may be out of date; 1 failure;
// 2 wrong usage.
import { STATUS_LABELS } from '../../../shared/model/item-status';
import { CoreError } from '../../core/errors';
import { Enricher } from '../../core/jobs/enrich';
import { RetractionWatch } from '../../core/jobs/retraction-watch';
import type { FlaggedItem } from '../../core/library/enrichment-store';
import { searchIndexDrift } from '../../core/library/search-index';
import { defineCommand, type CommandContext, type ParsedCommand } from '../command';
import { noExtraArgs, withLibrary, withService, type PaperSource } from '../library-session';
import {
  changeJson,
  changeLine,
  EXIT_FLAGGED,
  EXIT_PAUSED,
  reportProgress,
  runJson,
  type EnrichCommandContext,
} from './enrich';

export const command = defineCommand({
  name: 'check',
  help: [
    {
      usage: 'check',
      text: `Check that the search index holds every item (rebuilding it when not); refresh
stale editorial notices; list items that are retracted, withdrawn, corrected or
under an expression of concern, and those whose status changed since the last
check (which are then marked seen)`,
    },
  ],
  options: {
    repair: { type: 'boolean', help: 'Rebuild the search index from the items even when it looks right' },
    offline: { type: 'boolean', help: 'Use the notices already in the library; ask the service nothing' },
    'keep-unseen': { type: 'boolean', help: 'Do not mark the changes as seen' },
    json: { type: 'boolean', help: 'Print the flagged items and the changes as JSON' },
  },
  notes: `  Exit codes of check: 0 nothing flagged, 3 some items flagged, 4 nothing flagged but the notices
                   could not be refreshed (the answer may be out of date), 1 failure.`,
  run: checkCommand,
});

async function checkCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  noExtraArgs('check', p.positionals);
  const how = { offline: p.values.offline === true, keepUnseen: p.values['keep-unseen'] === true };
  const run = (service: PaperSource): Promise<number> =>
    withLibrary(
      ctx.dataDir,
      async (library) => {
        // The search index first: an item it lacks can never be found (an open that ran the integrity
        // check already rebuilt a drifted one, an ordinary open does not look; --repair rebuilds it regardless).
        const index = await library.searchIndex(p.values.repair === true ? 'always' : 'if-drifted');
        const drifted = searchIndexDrift(index.before);
        const line = drifted
          ? `Search index: ${index.before.missing} of ${index.before.items} items were missing from it and ${index.before.extra} rows belonged to deleted items; it was rebuilt.\n`
          : index.before.missing > 0 && !index.after
            ? `Search index: ${index.before.missing} of ${index.before.items} items are indexed when the first sync that brought them ends (\`citewise sync\`).\n`
            : `Search index: all ${index.before.items} items are indexed${index.after ? '; rebuilt as asked (--repair)' : ''}.\n`;
        (p.values.json === true ? ctx.stderr : ctx.stdout).write(line);
        return runCheck(how, {
          stdout: ctx.stdout,
          stderr: ctx.stderr,
          json: p.values.json === true,
          library,
          service,
        });
      },
      ctx.stderr,
    );
  if (how.offline) {
    return run({
      papers: () => Promise.reject(new CoreError('OFFLINE', 'check --offline asks the service nothing')),
      tallies: () => Promise.reject(new CoreError('OFFLINE', 'check --offline asks the service nothing')),
    });
  }
  return withService(ctx, run);
}

function flaggedJson(f: FlaggedItem): unknown {
  return {
    id: f.id,
    citationKey: f.citationKey,
    title: f.title,
    doi: f.doi,
    status: f.status,
    notices: f.notices,
    checkedAt: new Date(f.checkedAt).toISOString(),
  };
}

/** Refreshes stale notices (unless offline), records status changes, prints flagged items and unseen changes, and marks those seen. */
export async function runCheck(
  options: { offline: boolean; keepUnseen: boolean },
  ctx: EnrichCommandContext,
): Promise<number> {
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
    if (result.flagged.length === 0)
      ctx.stdout.write(
        'No item in the library is retracted, withdrawn, corrected or under an expression of concern.\n',
      );
    else {
      ctx.stdout.write(`Flagged items (${result.flagged.length}):\n`);
      for (const f of result.flagged)
        ctx.stdout.write(
          `  ${STATUS_LABELS[f.status].padEnd(31)} ${f.citationKey}\t${(f.title ?? '').replace(/<[^>]+>/g, '')}\t${f.doi}\n`,
        );
    }
    if (result.changes.length > 0) {
      ctx.stdout.write(`Changed since the last check (${result.changes.length}):\n`);
      for (const c of result.changes) ctx.stdout.write(changeLine(c));
    }
    if (paused)
      ctx.stderr.write(
        `citewise: the notices could not be refreshed (${paused.message}); this is what the library knew already.\n`,
      );
  }
  if (result.flagged.length > 0) return EXIT_FLAGGED;
  return paused ? EXIT_PAUSED : 0;
}
