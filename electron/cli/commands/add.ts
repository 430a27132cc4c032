// `citewise add DOI…`: papers by DOI through the app's own path: addDois (metadata from the service,
// one import transaction, the cache filled; DOIs the service could not be asked about kept as
// placeholders), then the added items are enriched as the app enriches new items. Exit 0 all added;
// 1 some DOI not added; 4 the service could not be reached for some of it, which stays queued for the
// next `citewise enrich`.
import { addByDoiSummary } from '../../../shared/model/add-by-doi';
import { Enricher } from '../../core/jobs/enrich';
import { defineCommand, UsageError, type CommandContext, type ParsedCommand } from '../command';
import { printJson, withLibrary, withService } from '../library-session';
import { EXIT_PAUSED } from './enrich';

export const command = defineCommand({
  name: 'add',
  help: [
    {
      usage: 'add DOI…',
      text: `Add papers by DOI, with their metadata, tallies and editorial notices from the
citation service. When it cannot be reached, the DOIs are kept as placeholders
that "citewise enrich" completes. Exit 1 when any DOI was not added, 4 when
some is left for "citewise enrich"`,
    },
  ],
  options: { json: { type: 'boolean', help: 'Print the report as JSON' } },
  run: addCommand,
});

async function addCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  if (p.positionals.length === 0) throw new UsageError('add needs at least one DOI: citewise add 10.1038/171737a0');
  return withService(ctx, (service) =>
    withLibrary(
      ctx.dataDir,
      async (client) => {
        const { addDois } = await import('../../core/library/add-dois');
        const { ids, ...report } = await addDois(client, service, p.positionals, { source: 'doi' });
        let paused: { code: string; message: string } | null = null;
        if (ids.length > 0) {
          const enricher = new Enricher({ library: client.enrichment, service });
          try {
            const { outcome } = await enricher.enrich(
              { kind: 'items', ids },
              { reason: 'import', label: 'Evidence of the added papers' },
            );
            paused = outcome?.paused ?? null;
          } finally {
            await enricher.close();
          }
        }
        if (p.values.json) printJson(ctx.stdout, { ...report, paused });
        else {
          ctx.stdout.write(`${addByDoiSummary(report)}\n`);
          for (const a of report.added) ctx.stdout.write(`added ${a.doi} as ${a.citationKey}\n`);
          for (const q of report.queued)
            ctx.stdout.write(
              `${q.doi}: kept as a placeholder (item ${q.id}); its metadata is fetched by the next "citewise enrich"\n`,
            );
          for (const d of report.duplicates)
            ctx.stdout.write(`${d.doi}: already in the library (item ${d.existingId}), skipped\n`);
          for (const n of report.notAdded) ctx.stderr.write(`citewise: ${n.doi}: not added: ${n.reason}\n`);
          if (paused)
            ctx.stderr.write(
              `citewise: the citation service could not be reached (${paused.message}); run "citewise enrich" later to complete what was added.\n`,
            );
        }
        if (report.notAdded.length > 0) return 1;
        return paused || report.queued.length > 0 ? EXIT_PAUSED : 0;
      },
      ctx.stderr,
    ),
  );
}
