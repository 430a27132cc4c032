// `citewise search QUERY`: items found with the search language, one a line (or JSON).
import { parseQuery } from '../../../shared/model/query';
import { fulltextMatchOf } from '../../core/library/query-sql';
import type { LibraryRow } from '../../core/library/types';
import { defineCommand, UsageError, type CommandContext, type ParsedCommand } from '../command';
import { checkQuery, hitLines, plural, printJson, withLibrary } from '../library-session';

export const command = defineCommand({
  name: 'search',
  help: [
    {
      usage: 'search QUERY',
      text: 'Find items with the search language (title:, author:, year:>2015, type:, doi:, tag:…)',
    },
  ],
  options: {
    limit: { type: 'string', arg: 'N', help: 'At most N results (default 50)' },
    json: { type: 'boolean', help: 'Print the items found as JSON' },
  },
  run: searchCommand,
});

function evidenceJson(row: LibraryRow): unknown {
  return row.evidence.state === 'found'
    ? {
        supporting: row.evidence.supporting,
        contrasting: row.evidence.contrasting,
        mentioning: row.evidence.mentioning,
      }
    : row.evidence.state;
}

async function searchCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  if (p.positionals.length === 0)
    throw new UsageError('search needs a query: citewise search "author:smith year:>2015"');
  const query = p.positionals.join(' ');
  checkQuery(query);
  const limitText = (p.values.limit as string | undefined) ?? '50';
  const limit = Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new UsageError(`--limit must be a number from 1 to 1000 (got "${limitText}")`);
  // Pages and snippets only for a query with `fulltext:` terms: any other would ask the worker for none.
  const withPages = fulltextMatchOf(parseQuery(query)) !== null;
  const { rows, total, hits } = await withLibrary(
    ctx.dataDir,
    async (client) => {
      const page = await client.listing.list({ query, limit });
      return {
        rows: page.rows,
        total: await client.listing.count({ query }),
        hits: withPages
          ? await client.fulltext.hits(
              query,
              page.rows.map((r) => r.id),
            )
          : [],
      };
    },
    ctx.stderr,
  );
  if (p.values.json) {
    printJson(ctx.stdout, {
      query,
      total,
      items: rows.map((r) => ({
        id: r.id,
        citationKey: r.citationKey,
        type: r.type,
        title: r.title,
        creators: r.creators,
        year: r.year,
        container: r.container,
        doi: r.doi,
        evidence: evidenceJson(r),
        retracted: r.retracted,
        ...(hits.length
          ? { pages: hits.filter((h) => h.itemId === r.id).map((h) => ({ page: h.page, snippet: h.snippet })) }
          : {}),
      })),
    });
    return 0;
  }
  for (const r of rows) {
    ctx.stdout.write(
      `${r.citationKey}\t${r.year ?? ''}\t${r.creators ?? ''}\t${(r.title ?? '').replace(/<[^>]+>/g, '')}${r.doi ? `\t${r.doi}` : ''}\n${hitLines(hits, r.id)}`,
    );
  }
  ctx.stderr.write(
    total > rows.length
      ? `${plural(total, 'item')} found; the first ${rows.length} shown (use --limit).\n`
      : `${plural(total, 'item')} found.\n`,
  );
  return 0;
}
