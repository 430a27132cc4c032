// Every file in test/fixtures/real-world/ (BibTeX, RIS, CSL-JSON as Zotero, EndNote, Mendeley, PubMed,
// Web of Science, pandoc and Better BibTeX write them), whatever its extension: imported into a library,
// exported in its own format and in CSL-JSON, and imported again into a fresh library, every entry must
// come back with every CSL field, its citation key and its id. Failures name the file, the route, the
// entry and the field, so that a new fixture that breaks says where.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import {
  exportItems,
  importFile,
  importText,
  type ExportFormat,
  type ImportFormat,
  type ParseResult,
  type WorkerSource,
} from '../../../electron/core/formats';
import { idKeyProblem } from '../../../electron/core/formats/source-id';
import { LibraryClient } from '../../../electron/core/library/client';
import { importSource } from '../../../electron/core/library/import-source';
import { tempDir } from '../../helpers/tmp';

const DIR = join(import.meta.dirname, '../../fixtures/real-world');
const FILES = readdirSync(DIR)
  .filter((f) => !f.startsWith('.') && statSync(join(DIR, f)).isFile())
  .sort();

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

/**
 * A source into a fresh library the way the app and the CLI import it (importSource: parsed in the
 * formats worker, posted on the import port, stored by the library worker); the library's view of the
 * entries, in file order.
 */
async function throughLibrary(
  source: WorkerSource,
  fileName: string,
  what: string,
  format?: ImportFormat,
): Promise<CslItem[]> {
  const dir = tempDir('citewise-roundtrip-');
  dirs.push(dir);
  const client = await LibraryClient.start({ file: join(dir.path, 'citewise.sqlite'), durability: 'off' });
  try {
    const stored = await importSource(client, source, { fileName, format });
    const lost = [
      ...stored.duplicates.map(
        (d) => `entry at line ${d.line} taken for a duplicate (${d.reason}) of item ${d.existingId}`,
      ),
      ...stored.errors.map((e) => `entry at line ${e.line} rejected: ${e.reason}`),
    ];
    expect(lost, `${what}: every entry must arrive in the library`).toEqual([]);
    return await client.lib.cslOf(stored.ids);
  } finally {
    await client.close();
  }
}

/** The route's export format for a file: its own format (BibLaTeX when the file uses BibLaTeX fields). */
function ownFormat(file: string, parsed: ParseResult): ExportFormat {
  if (parsed.format === 'bibtex')
    return /^\s*(?:journaltitle|location|date|urldate)\s*=/im.test(readFileSync(join(DIR, file), 'utf8'))
      ? 'biblatex'
      : 'bibtex';
  if (parsed.format === 'doi-list')
    throw new Error(`${file}: a DOI list has no entries to round-trip; real-world fixtures are reference files`);
  return parsed.format;
}

/** JSON with object keys in order: the order of a name's parts is no difference. */
function canonical(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Each field that differs between two versions of an entry, said in words. */
function differences(before: CslItem, after: CslItem, where: string): string[] {
  const out: string[] = [];
  for (const field of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const a = canonical(before[field]);
    const b = canonical(after[field]);
    if (a !== b) out.push(`${where}, field "${field}": ${a ?? '(missing)'} became ${b ?? '(missing)'}`);
  }
  return out;
}

describe('real-world files: import → export → import keeps every field, key and id', () => {
  it('has fixtures', () => {
    expect(FILES.length).toBeGreaterThan(0);
  });

  it.each(FILES)(
    '%s',
    async (file) => {
      const parsed = importFile(join(DIR, file));
      expect(
        parsed.errors.map((e) => `${file}:${e.line}: ${e.reason}`),
        `${file}: entries the import could not read`,
      ).toEqual([]);
      expect(parsed.count, `${file}: no entries were read (detected as ${parsed.format})`).toBeGreaterThan(0);
      const first = await throughLibrary({ kind: 'path', path: join(DIR, file) }, file, file);
      expect(first).toHaveLength(parsed.count);

      if (extname(file) === '.json') {
        // The key a Pandoc or Quarto document cites: the citation-key, else the id when it can be a key.
        const raw = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as unknown;
        const list = (Array.isArray(raw) ? raw : ((raw as { items?: unknown[] }).items ?? [raw])) as {
          id?: unknown;
          'citation-key'?: unknown;
        }[];
        const keyLost = list.flatMap((item, i) => {
          const id = typeof item.id === 'number' ? String(item.id) : item.id;
          const expected =
            typeof item['citation-key'] === 'string'
              ? item['citation-key']
              : typeof id === 'string' && idKeyProblem(id) === null
                ? id
                : null;
          return expected !== null && first[i]?.id !== expected
            ? [`${file}, item ${i + 1}: id "${expected}" came out as "${first[i]?.id}"`]
            : [];
        });
        expect(keyLost, `${file}: citation keys the file gave`).toEqual([]);
      }

      for (const target of [ownFormat(file, parsed), 'csljson'] as const) {
        const route = `${file} → ${target} → import`;
        const text = exportItems(first, target);
        const format = target === 'biblatex' ? 'bibtex' : target;
        const again = importText(text, { format, fileName: `roundtrip.${target}` });
        expect(
          again.errors.map((e) => `${route}, line ${e.line}: ${e.reason}`),
          `${route}: the exported file could not be read back`,
        ).toEqual([]);
        const second = await throughLibrary({ kind: 'text', text }, `roundtrip.${target}`, route, format);
        expect(
          second.map((i) => i.id),
          `${route}: entries or keys`,
        ).toEqual(first.map((i) => i.id));
        const diffs = first.flatMap((item, i) =>
          differences(item, second[i]!, `${route}, entry ${i + 1} "${item.id}"`),
        );
        expect(diffs, `${route}: fields that changed`).toEqual([]);
      }
      // Three libraries and three imports through the workers: seconds each on a loaded 2-core machine.
    },
    90_000,
  );
});
