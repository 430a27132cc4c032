// Malformed and hostile inputs: each gives a clear error (with a line where there is one) within 2 s,
// never a hang or a crash, and the good entries around a bad one are kept.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FormatError, importBytes, importText, type ParseResult } from '../../../electron/core/formats';
import { generateBibtex } from './corpus';

const TEN_MB = 10 * 1024 * 1024;

function timed<T>(fn: () => T): T {
  const started = performance.now();
  try {
    return fn();
  } finally {
    expect(performance.now() - started, 'must answer within 2 s').toBeLessThan(2000);
  }
}

function failure(fn: () => unknown): FormatError {
  try {
    timed(fn);
  } catch (err) {
    expect(err).toBeInstanceOf(FormatError);
    return err as FormatError;
  }
  throw new Error('expected a FormatError');
}

describe('a 10 MB field', () => {
  const huge = 'x'.repeat(TEN_MB);

  it('BibTeX: rejects that entry with its line, keeps the others', () => {
    const r = timed(() =>
      importText(`@misc{a, title={A}}\n@misc{big,\n abstract = {${huge}}}\n@misc{c, title={C}}`, { format: 'bibtex' }),
    );
    expect(r.items.map((i) => i.sourceKey)).toEqual(['a', 'c']);
    expect(r.errors).toEqual([
      {
        line: 2,
        reason: expect.stringMatching(/The field "abstract" is 10,485,760 characters long; the limit is 1,000,000/),
        excerpt: expect.any(String),
      },
    ]);
  });

  it('RIS, CSL-JSON and DOI lists: reject the record, item or line', () => {
    const ris = timed(() =>
      importText(`TY  - JOUR\nTI  - ok\nER  - \nTY  - JOUR\nAB  - ${huge}\nER  - \n`, { format: 'ris' }),
    );
    expect(ris.items).toHaveLength(1);
    expect(ris.errors).toEqual([
      { line: 4, reason: expect.stringMatching(/The AB field on line 5 is 10,485,760 characters long/) },
    ]);
    const json = timed(() =>
      importText(`[{"id":"a","type":"book"},\n{"id":"b","type":"book","abstract":"${huge}"}]`, { format: 'csljson' }),
    );
    expect(json.items).toHaveLength(1);
    expect(json.errors).toEqual([
      { line: 2, reason: expect.stringMatching(/Item 2 \("b"\): "abstract" is 10,485,760 characters long/) },
    ]);
    const dois = timed(() => importText(`10.1000/a\n${huge}`, { format: 'doi-list' }));
    expect(dois.dois).toHaveLength(1);
    expect(dois.errors[0]).toMatchObject({
      line: 2,
      reason: expect.stringMatching(/The line is 10,485,760 characters long/),
    });
  });
});

describe('10,000 nested braces or brackets', () => {
  it('BibTeX: the entry is rejected for its nesting, the next one is read', () => {
    const r = timed(() =>
      importText(`@misc{deep, title = ${'{'.repeat(10_000)}x${'}'.repeat(10_000)}}\n@misc{ok, title={Fine}}`, {
        format: 'bibtex',
      }),
    );
    expect(r.items.map((i) => i.sourceKey)).toEqual(['ok']);
    expect(r.errors).toEqual([
      {
        line: 1,
        reason: 'Braces in the field "title" are nested more than 64 levels deep.',
        excerpt: expect.any(String),
      },
    ]);
  });

  it('BibTeX: unbalanced opening braces to the end of the file', () => {
    const r = timed(() =>
      importText(`@misc{ok, title={Fine}}\n@misc{deep, title = ${'{'.repeat(10_000)}`, { format: 'bibtex' }),
    );
    expect(r.items).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ line: 2 });
  });

  it('CSL-JSON: refused before JSON.parse recurses', () => {
    const err = failure(() => importText(`[${'['.repeat(10_000)}${']'.repeat(10_000)}]`, { format: 'csljson' }));
    expect(err.message).toMatch(/nested more than 64 levels deep/);
    expect(err.line).toBe(1);
  });

  it('RIS and DOI lists have no nesting; braces are text', () => {
    expect(
      timed(() => importText(`TY  - JOUR\nTI  - ${'{'.repeat(10_000)}\nER  - `, { format: 'ris' })).items,
    ).toHaveLength(1);
    expect(timed(() => importText('{'.repeat(10_000), { format: 'doi-list' })).errors).toHaveLength(1);
  });
});

describe('truncated files', () => {
  const whole = generateBibtex({ entries: 200, seed: 3 });

  it('BibTeX cut mid-entry: every complete entry is kept, the cut one is reported with its line', () => {
    const cut = whole.slice(0, Math.floor(whole.length * 0.6));
    const r = timed(() => importText(cut, { format: 'bibtex' }));
    expect(r.count).toBeGreaterThan(100);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.reason).toMatch(/cut off|never closed|file ends/);
    const lastStart = cut.lastIndexOf('\n@') + 1;
    expect(r.errors[0]!.line).toBe(cut.slice(0, lastStart).split('\n').length);
  });

  it('JSON cut mid-array is a whole-file error that says it may be cut off', () => {
    expect(
      failure(() => importText('[{"id": "a", "type": "book"},\n{"id": "b"', { format: 'csljson' })).message,
    ).toMatch(/cut off|ends inside a string|not closed/);
    expect(
      failure(() => importText('[{"id": "a", "type": "book"},\n{"id": "b",', { format: 'csljson' })).message,
    ).toMatch(/may be cut off/);
  });
});

describe('binary garbage and wrong encodings', () => {
  it('random bytes are refused as binary, in any format', () => {
    const bytes = randomBytes(200_000);
    for (const format of ['bibtex', 'ris', 'csljson', 'doi-list'] as const) {
      expect(failure(() => importBytes(bytes, { format })).message).toMatch(/binary/);
    }
  });

  it('a PDF or a PNG renamed .bib is refused as binary', () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      randomBytes(5000),
    ]);
    expect(failure(() => importBytes(png, { fileName: 'x.bib' })).message).toMatch(/binary/);
    const pdf = Buffer.concat([
      Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Length 5000 /Filter /FlateDecode >>\nstream\n', 'latin1'),
      randomBytes(5000),
    ]);
    expect(failure(() => importBytes(pdf, { fileName: 'x.bib' })).message).toMatch(/binary|unprintable/);
  });

  it('invalid UTF-8 is read as Windows-1252 with a warning that names the line', () => {
    const bytes = Buffer.concat([
      Buffer.from('@misc{a, title={Fine}}\n@misc{b, title={Caf'),
      Buffer.from([0xe9]),
      Buffer.from('}}\n'),
    ]);
    const r = timed(() => importBytes(bytes, { fileName: 'x.bib' }));
    expect(r.items.map((i) => i.item.title)).toEqual(['Fine', 'Café']);
    expect(r.warnings[0]).toMatchObject({ line: 2, reason: expect.stringMatching(/not valid UTF-8/) });
  });

  it('UTF-16 text decoded as one byte per character is refused with a clear error, not parsed as garbage', () => {
    expect(
      failure(() => importText(Buffer.from('@misc{a, title={x}}', 'utf16le').toString('latin1'), { format: 'bibtex' }))
        .message,
    ).toMatch(/NUL/);
  });
});

describe('size, count and time limits', () => {
  it('refuses a file over the size limit before parsing it', () => {
    expect(failure(() => importBytes(Buffer.alloc(2000, 0x41), { limits: { maxBytes: 1000 } })).message).toMatch(
      /the import limit is 0\.0 MB/,
    );
    expect(failure(() => importText('a'.repeat(2000), { limits: { maxBytes: 1000 } })).message).toMatch(
      /the import limit is 1,000/,
    );
  });

  it('refuses more entries than the limit', () => {
    expect(
      failure(() => importText(generateBibtex({ entries: 50 }), { format: 'bibtex', limits: { maxEntries: 10 } }))
        .message,
    ).toMatch(/more than 10 entries/);
  });

  it('stops a parse that runs over its time budget, saying nothing was imported', () => {
    const text = generateBibtex({ entries: 20_000, seed: 5 });
    const err = failure(() => importText(text, { format: 'bibtex', limits: { timeBudgetMs: 1 } }));
    expect(err.message).toMatch(/took longer than 1 ms and was stopped; nothing was imported/);
    expect(err.code).toBe('INVALID_INPUT');
  });

  it('an empty file is an empty import, not an error', () => {
    const r: ParseResult = importText('', { format: 'bibtex' });
    expect(r).toMatchObject({ count: 0, errors: [], warnings: [] });
  });
});
