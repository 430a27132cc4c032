// `citewise add`: items by identifier, by hand, or as a copy of one.
// - `add ID…`: a mixed list of DOIs, arXiv ids, PMIDs, PMCIDs and ISBNs through the app's own path
//   (add-identifiers.ts: the service's metadata by DOI, one import transaction, placeholders when it
//   cannot be reached), then the added items are enriched as the app enriches new items. Exit 0 all
//   added (or already there); 1 some input not added; 4 the service could not be reached for some of
//   it, which stays queued for the next `citewise enrich`.
// - `add --type T field=value…`: a new item typed in, checked as the New item dialog checks it
//   (shared/model/item-form.ts). Exit 0 added; 2 an unknown type, field or role, or a value that cannot
//   be stored (it says which).
// - `add --duplicate KEY`: a copy of an item (fields, creators, tags), as Duplicate item in the app.
import { addByIdentifierSummary, type IdentifierOutcome } from '../../../shared/model/add-by-identifier';
import type { CslItem } from '../../../shared/model/csl';
import { buildNewItem, fieldKey, type TypedCreator } from '../../../shared/model/item-form';
import { ITEM_TYPES, itemTypeNamed, typeChoices, typeCreators, typeFields } from '../../../shared/model/item-types';
import { CoreError } from '../../core/errors';
import { parseNameList } from '../../core/formats/bibtex/names';
import { Enricher } from '../../core/jobs/enrich';
import type { LibraryClient } from '../../core/library/client';
import { defineCommand, UsageError, type CommandContext, type ParsedCommand } from '../command';
import { printJson, withLibrary, withService } from '../library-session';
import { EXIT_PAUSED } from './enrich';

const TYPE_LIST = (() => {
  const { common, more } = typeChoices();
  return [...common, ...more].map((s) => s.type).join(', ');
})();

export const command = defineCommand({
  name: 'add',
  help: [
    {
      usage: 'add ID…',
      text: `Add papers by identifier: DOIs, arXiv ids (2101.00001v2, hep-th/9901001),
PMIDs, PMCIDs and ISBNs, mixed. DOIs and arXiv ids get their metadata,
tallies and notices from the citation service; when it cannot be reached
they are kept as placeholders that "citewise enrich" completes. PMIDs,
PMCIDs and ISBNs cannot be looked up (the service finds papers by DOI
only): one the library has is reported, any other is refused with why.
Exit 1 when any was not added, 4 when some is left for "citewise enrich"`,
      options: ['json'],
    },
    {
      usage: 'add --type T FIELD=VALUE…',
      text: `Add an item by hand, of any CSL type (${TYPE_LIST}),
or by Zotero's name for it (journalArticle, bookSection, computerProgram…).
Fields by their CSL names or Zotero's and BibTeX's (title, date, publisher,
place, ISBN, DOI, URL, journal, university, archive, archive_location…);
creators by role: author="Kuhn, Thomas S." (repeat for several, or join
with "and"), author="{World Health Organization}" for an institution.
"citewise add --type T --fields" lists a type's fields. Exit 2 for an
unknown type, field or role, or a value that cannot be stored`,
      options: ['type', 'fields'],
    },
    {
      usage: 'add --duplicate KEY',
      text: 'Add a copy of the item with this citation key (or item id): its fields, creators and tags',
      options: ['duplicate'],
    },
  ],
  options: {
    json: { type: 'boolean', help: 'Print the report as JSON' },
    type: { type: 'string', arg: 'T', help: "The new item's CSL type: book, thesis, webpage, dataset, software…" },
    fields: { type: 'boolean', help: "With --type: list the type's fields and creator roles, add nothing" },
    duplicate: { type: 'string', arg: 'KEY', help: 'Copy the item with this citation key or id' },
  },
  notes: '  Exit codes of add: 0 added, 1 some not added, 2 wrong usage, 4 left for "citewise enrich"',
  run: addCommand,
});

async function addCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  if (typeof p.values.duplicate === 'string') return duplicateCommand(p, ctx, p.values.duplicate);
  if (typeof p.values.type === 'string') return newItemCommand(p, ctx, p.values.type);
  if (p.values.fields) throw new UsageError('--fields lists the fields of a type: citewise add --type book --fields');
  if (p.positionals.length === 0)
    throw new UsageError(
      'add needs identifiers (citewise add 10.1038/171737a0 arXiv:2101.00001) or --type T FIELD=VALUE… (citewise add --type book title="…")',
    );
  return identifiersCommand(p, ctx);
}

// ── by identifier ──

function outcomeLine(o: IdentifierOutcome): string {
  switch (o.status) {
    case 'added':
      return `added ${o.label} as ${o.citationKey}`;
    case 'queued':
      return `${o.label}: kept as a placeholder (item ${o.itemId}); its metadata is fetched by the next "citewise enrich"`;
    case 'duplicate':
      return `${o.label}: already in the library (item ${o.itemId}), skipped`;
    case 'not-added':
      return `${o.label}: not added: ${o.reason}${o.isbn ? ` (citewise add --type book ISBN=${o.isbn} title="…")` : ''}`;
  }
}

/**
 * The report as `citewise add --json` wrote it when it took DOIs only (added, duplicates, notAdded,
 * queued), beside `outcomes`: scripts written for it keep working.
 */
function byDoiShape(outcomes: readonly IdentifierOutcome[]) {
  const ref = (o: IdentifierOutcome): string => o.doi ?? o.input;
  return {
    added: outcomes
      .filter((o) => o.status === 'added')
      .map((o) => ({ doi: ref(o), id: o.itemId!, citationKey: o.citationKey ?? '' })),
    duplicates: outcomes.filter((o) => o.status === 'duplicate').map((o) => ({ doi: ref(o), existingId: o.itemId! })),
    notAdded: outcomes
      .filter((o) => o.status === 'not-added')
      .map((o) => ({ doi: o.input, reason: o.reason ?? '', ...(o.code ? { code: o.code } : {}) })),
    queued: outcomes.filter((o) => o.status === 'queued').map((o) => ({ doi: ref(o), id: o.itemId! })),
  };
}

async function identifiersCommand(p: ParsedCommand, ctx: CommandContext): Promise<number> {
  return withService(ctx, (service) =>
    withLibrary(
      ctx.dataDir,
      async (client) => {
        const { addIdentifiers } = await import('../../core/library/add-identifiers');
        const { ids, ...report } = await addIdentifiers(client, service, p.positionals, { source: 'identifier' });
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
        if (p.values.json) printJson(ctx.stdout, { ...report, ...byDoiShape(report.outcomes), paused });
        else {
          ctx.stdout.write(`${addByIdentifierSummary(report)}\n`);
          for (const o of report.outcomes)
            (o.status === 'not-added' ? ctx.stderr : ctx.stdout).write(
              `${o.status === 'not-added' ? 'citewise: ' : ''}${outcomeLine(o)}\n`,
            );
          if (paused)
            ctx.stderr.write(
              `citewise: the citation service could not be reached (${paused.message}); run "citewise enrich" later to complete what was added.\n`,
            );
        }
        if (report.outcomes.some((o) => o.status === 'not-added')) return 1;
        return paused || report.outcomes.some((o) => o.status === 'queued') ? EXIT_PAUSED : 0;
      },
      ctx.stderr,
    ),
  );
}

// ── by hand ──

/** FIELD=VALUE pairs into fields and creators; a role name (author, editor…) is a creator. */
function readAssignments(
  type: string,
  pairs: readonly string[],
): { values: Record<string, string>; people: TypedCreator[] } {
  const values: Record<string, string> = {};
  const people: TypedCreator[] = [];
  const roles = new Map(typeCreators(type).map((c) => [c.role, c]));
  const roleNamed = (name: string): string | null => {
    const lower = name.toLowerCase();
    for (const c of typeCreators(type)) if (c.role === lower || c.label.toLowerCase() === lower) return c.role;
    return null;
  };
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0)
      throw new UsageError(`"${pair}" is not FIELD=VALUE (for example title="A title" or author="Kuhn, Thomas")`);
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1);
    const role = roleNamed(name);
    if (role !== null && roles.has(role as never)) {
      const { names } = parseNameList(value, {});
      if (names.length === 0) throw new UsageError(`${name}= has no name (write ${name}="Family, Given")`);
      for (const n of names)
        people.push(
          n.literal
            ? { role, literal: n.literal }
            : {
                role,
                family: [n['non-dropping-particle'], n.family].filter(Boolean).join(' '),
                given: [n.given, n['dropping-particle']].filter(Boolean).join(' '),
              },
        );
      continue;
    }
    const key = fieldKey(name);
    if (key in values) throw new UsageError(`${name} is given twice`);
    values[key] = value;
  }
  return { values, people };
}

function fieldsHelp(type: string): string {
  const spec = ITEM_TYPES[type as keyof typeof ITEM_TYPES];
  const lines = [`${spec.label} (${type})`, '  fields:'];
  for (const f of typeFields(type))
    lines.push(
      `    ${f.key.padEnd(26)}${f.label}${f.kind === 'date' ? ' (YYYY-MM-DD, YYYY-MM, YYYY or as written)' : ''}`,
    );
  lines.push(
    `    ${'abstract'.padEnd(26)}Abstract`,
    `    ${'citation-key'.padEnd(26)}Citation key (made by the formula when not given)`,
  );
  lines.push('  creators:');
  for (const c of typeCreators(type)) lines.push(`    ${c.role.padEnd(26)}${c.label}`);
  return `${lines.join('\n')}\n`;
}

async function newItemCommand(p: ParsedCommand, ctx: CommandContext, written: string): Promise<number> {
  const type = itemTypeNamed(written);
  if (type === null)
    throw new UsageError(
      `"${written}" is not an item type; the types are: ${TYPE_LIST} (Zotero's names, such as journalArticle or bookSection, work too)`,
    );
  if (p.values.fields) {
    ctx.stdout.write(fieldsHelp(type));
    return 0;
  }
  if (p.positionals.length === 0)
    throw new UsageError(
      `add --type ${type} needs fields: citewise add --type ${type} title="…" (--fields lists them)`,
    );
  const { values, people } = readAssignments(type, p.positionals);
  const built = buildNewItem(type, values, people);
  if (!built.ok) {
    const lines = built.problems.map((pr) => pr.message);
    throw new UsageError(
      `${lines.join('\n  ')}${built.problems.some((pr) => pr.field !== 'title' && pr.field !== 'creators' && !pr.message.includes(':')) ? `\n  (citewise add --type ${type} --fields lists its fields)` : ''}`,
    );
  }
  return withLibrary(
    ctx.dataDir,
    async (client) => {
      const id = await client.lib.addItem(built.item);
      const item = await client.lib.getItem(id);
      if (p.values.json) printJson(ctx.stdout, { id, citationKey: item.citationKey, item: item.csl });
      else
        ctx.stdout.write(
          `added item ${id} as ${item.citationKey}: ${ITEM_TYPES[type].label.toLowerCase()} “${item.title ?? ''}”\n`,
        );
      return 0;
    },
    ctx.stderr,
  );
}

// ── a copy ──

async function itemByKeyOrId(client: LibraryClient, ref: string): Promise<number> {
  const byKey = await client.lib.findByCitationKey(ref);
  if (byKey !== null) return byKey;
  if (/^\d+$/.test(ref)) {
    try {
      return (await client.lib.getItem(Number(ref))).id;
    } catch {
      // Reported below, as for a key.
    }
  }
  throw new CoreError('NOT_FOUND', `no item has the citation key (or id) "${ref}"`);
}

async function duplicateCommand(p: ParsedCommand, ctx: CommandContext, ref: string): Promise<number> {
  if (p.positionals.length > 0) throw new UsageError('add --duplicate KEY takes no other arguments');
  return withLibrary(
    ctx.dataDir,
    async (client) => {
      const source = await itemByKeyOrId(client, ref);
      const copy = await client.lib.duplicateItem(source, null);
      const item = await client.lib.getItem(copy);
      if (p.values.json)
        printJson(ctx.stdout, { id: copy, citationKey: item.citationKey, copyOf: source, item: item.csl as CslItem });
      else ctx.stdout.write(`added item ${copy} as ${item.citationKey}, a copy of item ${source}\n`);
      return 0;
    },
    ctx.stderr,
  );
}
