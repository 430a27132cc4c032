// Issue 41, point 5 (follow-up): a field named `__proto__` in an imported entry was dropped without a
// word (BibTeX, a CSL-JSON item), or kept where the request bounds then refused every edit of the item
// (a CSL-JSON `custom.__proto__`); a CSL-JSON `"__proto__": {...}` even became the item object's
// prototype, so its fields seemed set on the item. It is left out now, with a report line naming the
// entry and the field; every other field of the entry is kept, the item can be edited, and no
// prototype changes. RIS cannot name a field so (tags are two letters): a line starting `__proto__` is
// the previous field's text, kept as written.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import type { CslItem } from '../../../shared/model/csl';
import { tempDir } from '../../helpers/tmp';

interface Report {
  added: number;
  ids: number[];
  errors: { line: number; reason: string }[];
  warnings: { line: number; reason: string }[];
}

describe('a field named __proto__ in an imported entry', { timeout: 120_000 }, () => {
  let dir: ReturnType<typeof tempDir>;
  let core: Core;

  beforeAll(async () => {
    dir = tempDir();
    core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
  });
  afterAll(async () => {
    await core.close();
    dir.remove();
  });

  async function imported(text: string, fileName: string): Promise<{ report: Report; csl: Record<string, unknown> }> {
    const r = await core.invoke('library.import', { text, fileName });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    const report = (r.ok ? r.value : null) as Report;
    expect(report.added).toBe(1);
    const got = await core.invoke('library.item.get', { id: report.ids[0]! });
    if (!got.ok) throw new Error(got.error.message);
    return { report, csl: (got.value as { csl: CslItem & Record<string, unknown> }).csl };
  }

  async function editable(id: number, csl: Record<string, unknown>): Promise<void> {
    const update = await core.invoke('library.item.update', { id, csl: { ...csl, title: 'Edited' } });
    expect(update, JSON.stringify(update)).toMatchObject({ ok: true });
  }

  it('BibTeX: the field is left out with a line naming the entry; the rest of the entry is kept', async () => {
    const bib = [
      '@article{doe2020,',
      '  title = {Prototypes},',
      '  __proto__ = {polluted},',
      '  author = {Doe, Jane},',
      '  journal = {Journal of Objects},',
      '  year = 2020',
      '}',
      '',
    ].join('\n');
    const { report, csl } = await imported(bib, 'proto.bib');
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([
      {
        line: 1,
        reason:
          'The entry "doe2020": the field "__proto__" was left out; Citewise cannot store a field named "__proto__".',
      },
    ]);
    expect(csl).toMatchObject({
      title: 'Prototypes',
      author: [{ family: 'Doe', given: 'Jane' }],
      'container-title': 'Journal of Objects',
    });
    expect(JSON.stringify(csl)).not.toContain('polluted');
    expect(Object.getPrototypeOf(csl)).toBe(Object.prototype);
    await editable(report.ids[0]!, csl);
  });

  it('CSL-JSON: top-level and nested __proto__ keys are left out, each named; no field comes from a prototype', async () => {
    // Written as text: in an object literal `__proto__` is the literal's prototype, not a key.
    const text = `[
  {"id": "other", "type": "book", "title": "Innocent neighbour"},
  {"id": "c1", "type": "book", "title": "Prototypes in JSON",
   "__proto__": {"DOI": "10.1234/from-the-prototype", "note": "polluted"},
   "custom": {"source": "kept", "__proto__": "x"},
   "author": [{"family": "Roe", "given": "Rick", "__proto__": {"literal": "polluted"}}]}
]`;
    expect(text.match(/"__proto__"/g)).toHaveLength(3);
    const r = await core.invoke('library.import', { text, fileName: 'proto.json' });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    const report = (r.ok ? r.value : null) as Report;
    expect(report.added).toBe(2);
    expect(report.errors).toEqual([]);
    const why = (at: string) =>
      `Item 2 ("c1"): the field "${at}" was left out; Citewise cannot store a field named "__proto__".`;
    expect(report.warnings.map((w) => w.reason)).toEqual([
      why('__proto__'),
      why('custom.__proto__'),
      why('author[0].__proto__'),
    ]);
    const got = await core.invoke('library.item.get', { id: report.ids[1]! });
    if (!got.ok) throw new Error(got.error.message);
    const csl = (got.value as { csl: Record<string, unknown> }).csl;
    expect(csl).toMatchObject({ title: 'Prototypes in JSON', author: [{ family: 'Roe', given: 'Rick' }] });
    expect(csl.DOI).toBeUndefined();
    expect(csl.note).toBeUndefined();
    expect((csl.custom as Record<string, unknown>).source).toBe('kept');
    expect(JSON.stringify(csl)).not.toMatch(/polluted|__proto__|from-the-prototype/);
    await editable(report.ids[1]!, csl);
  });

  it('RIS: a line starting __proto__ is the text of the field before it, kept; nothing is left out', async () => {
    const ris = [
      'TY  - JOUR',
      'TI  - Prototypes in RIS',
      '__proto__  - polluted',
      'AU  - Doe, Jane',
      'PY  - 2020',
      'ER  - ',
      '',
    ].join('\n');
    const { report, csl } = await imported(ris, 'proto.ris');
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(csl.title).toBe('Prototypes in RIS __proto__  - polluted');
    expect(Object.getPrototypeOf(csl)).toBe(Object.prototype);
    await editable(report.ids[0]!, csl);
  });
});
