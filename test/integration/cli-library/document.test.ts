// `citewise document refresh FILE` on a real library: a .docx as Zotero's Word plugin leaves it is
// refreshed in place (a new style through the document preferences; a citation changed by hand kept
// and listed); bad input changes nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../electron/cli/command';
import { runDocumentCommand } from '../../../electron/cli/commands/document';
import { CoreError } from '../../../electron/core/errors';
import { FileDocument } from '../../../electron/api/integration/file-document';
import { parseCitationCode } from '../../../electron/api/integration/codes';
import { ZipReader } from '../../../electron/core/manuscript/zip';
import { docx, paragraph, zip, zoteroField } from '../../unit/manuscript/docx-fixture';
import { collector, tempDir } from './helpers';

async function doc(dataDir: string, ...args: string[]) {
  const out = collector();
  const err = collector();
  const code = await runDocumentCommand(['document', ...args], { dataDir, stdout: out.stream, stderr: err.stream });
  return { code, stdout: out.text(), stderr: err.text() };
}

const PREFS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="ZOTERO_PREF_1"><vt:lpwstr>&lt;data data-version="3" zotero-version="7.0.11"&gt;&lt;session id="Zs9Kq2Lm"/&gt;&lt;style id="http://www.zotero.org/styles/apa" locale="en-US" hasBibliography="1" bibliographyStyleHasBeenSet="0"/&gt;&lt;prefs&gt;&lt;pref name="fieldType" value="Field"/&gt;&lt;/prefs&gt;&lt;/data&gt;</vt:lpwstr></property></Properties>';

/** A Zotero .docx with two citations; the second's text changed by hand ("(see Roe)"). */
function zoteroDocx(): Buffer {
  const book = (family: string, year: number) => ({
    itemData: {
      type: 'book',
      title: `${family}'s Book`,
      author: [{ family, given: 'A.' }],
      issued: { 'date-parts': [[year]] },
    },
  });
  const field2 = zoteroField([book('Roe', 2004)], '(Roe, 2004)', 255, 'zz22yy11').replace(
    '<w:t>(Roe, 2004)</w:t>',
    '<w:t>(see Roe)</w:t>',
  );
  const base = new ZipReader(
    docx([paragraph('First ', zoteroField([book('Doe', 2003)], '(Doe, 2003)'), '.'), paragraph('Then ', field2)]),
  );
  const entries: Record<string, string | Buffer> = {};
  for (const n of base.names()) entries[n] = base.read(n, 1e7)!;
  entries['docProps/custom.xml'] = PREFS;
  return zip(entries);
}

describe('citewise document refresh', () => {
  let data: ReturnType<typeof tempDir>;
  let work: ReturnType<typeof tempDir>;
  beforeEach(() => {
    data = tempDir();
    work = tempDir('citewise-doc-');
  });
  afterEach(() => {
    data.remove();
    work.remove();
  });

  it('refreshes a Zotero .docx in place in a new style, keeping the hand-edited citation', async () => {
    const file = join(work.path, 'paper.docx');
    writeFileSync(file, zoteroDocx());
    const r = await doc(data.path, 'refresh', file, '--style', 'ieee');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Refreshed 2 citations in');
    expect(r.stdout).toContain('Kept a citation changed by hand (no longer updated): "(see Roe)"');
    expect(r.stderr).toContain('not in the library');
    const fields = FileDocument.read(readFileSync(file), 'docx').fields();
    expect(fields.map((f) => f.text)).toEqual(['[1]', '(see Roe)']);
    expect(parseCitationCode(fields[1]!.code, 'c').properties.dontUpdate).toBe(true);
    // Again: nothing left to change, the file is not rewritten.
    const again = await doc(data.path, 'refresh', file, '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ changed: false, citations: 2, keptHandEdits: [] });
  });

  it('changes nothing on bad input, and says what is wrong', async () => {
    const file = join(work.path, 'broken.docx');
    const broken = Buffer.from(zoteroDocx().toString('latin1').replace(/^/, ''), 'latin1').subarray(0, 200);
    writeFileSync(file, broken);
    await expect(doc(data.path, 'refresh', file)).rejects.toThrow(CoreError);
    await expect(doc(data.path, 'refresh', file)).rejects.toThrow(/was not changed: it is not a Word \.docx file/);
    expect(readFileSync(file)).toEqual(broken);
    await expect(doc(data.path, 'refresh', join(work.path, 'x.pdf'))).rejects.toThrow(UsageError);
    await expect(doc(data.path, 'refresh', file, '--out', join(work.path, 'x.odt'))).rejects.toThrow(
      /--out must name a \.docx/,
    );
  });

  it('says so when the refreshed file cannot be written, and leaves the original as it was', async () => {
    const file = join(work.path, 'paper.docx');
    const before = zoteroDocx();
    writeFileSync(file, before);
    const out = join(work.path, 'no-such-folder', 'paper.docx');
    await expect(doc(data.path, 'refresh', file, '--style', 'ieee', '--out', out)).rejects.toThrow(
      /could not write .* \(it is left as it was\): ENOENT/,
    );
    expect(readFileSync(file)).toEqual(before);
  });
});
