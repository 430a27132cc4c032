// rbbt (paleolimbot/rbbt, R), replayed request by request as its source sends them, through to the
// files it writes. Its HTTP goes through httr: GET with bbt_url()'s query, POST with
// encode = "json" (jsonlite::toJSON(auto_unbox = TRUE)), the answer read with httr::content().
//   R/api.R       has_bbt(): GET cayw?probe=TRUE; bbt_call_json_rpc(): POST json-rpc
//   R/bbt.R       bbt_bib(): item.export(keys, translator, library_id), then .action(result$result);
//                 bbt_bib_selected(): GET select?<translator>; bbt_cite_cayw(), bbt_bib_cayw()
//   R/write-bib.R bbt_write_bib(): readr::write_file(bbt_bib(...), path); translator by extension:
//                 .json → "json", .bib → "biblatex", .yaml → "yaml"
//   R/update.R    bbt_update_bib(): the keys a document cites → bbt_write_bib()
//   R/bbt-libraries.R bbt_libraries(): user.groups
// Better BibTeX answers item.export with the text itself since 6.7.142; Citewise answered
// [200, "text/plain", text], which rbbt wrote as nothing: refs.bib was left at 0 bytes.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerPicker, send, startFixture, type Fixture } from './helpers';

/** httr's request headers (curl's Accept-Encoding included). */
const HTTR = {
  'User-Agent': 'libcurl/8.5.0 r-curl/5.2.1 httr/1.4.7',
  Accept: 'application/json, text/xml, application/xml, */*',
  'Accept-Encoding': 'deflate, gzip, br, zstd',
};

/** jsonlite::toJSON(list(...), auto_unbox = TRUE) of a JSON-RPC call as bbt_call_json_rpc() builds it. */
function rbbtBody(method: string, params: unknown[]): string {
  return JSON.stringify({ jsonrpc: '2.0', method, params });
}

/** rbbt's keys of a document: bbt_detect_citations_chr()'s regex, as R's stringr runs it. */
function detectCitations(text: string): string[] {
  const cleaned = ` ${text}`
    .replace(/\n```\{.+?\}[\s\S]+?\r?\n```/g, '')
    .replace(/`r.+?`/g, '')
    .replace(/\(http.+?\)/g, '')
    .replace(/<http.+?>/g, '');
  return [...new Set([...cleaned.matchAll(/[^a-zA-Z0-9\\]@([a-zA-Z0-9_.\-:]+[a-zA-Z0-9])/g)].map((m) => m[1]!))];
}

describe('rbbt, replayed from its source', { timeout: 120_000 }, () => {
  let f: Fixture;
  const post = (body: string) =>
    send(
      f.api.port,
      'POST',
      '/better-bibtex/json-rpc',
      { ...HTTR, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      body,
    );
  /** bbt_bib(): the result as httr parses it, or stop(message) as an Error. */
  const bbtBib = async (keys: string[], translator: string, libraryId = 1): Promise<string> => {
    const r = await post(rbbtBody('item.export', [[...new Set(keys)], translator, libraryId]));
    expect(r.status).toBe(200);
    const parsed = JSON.parse(r.body) as { result?: unknown; error?: { message: string } };
    if (parsed.error) throw new Error(parsed.error.message);
    // readr::write_file() takes a character vector: a list (the old [200, "text/plain", text]) is no text.
    if (typeof parsed.result !== 'string') throw new Error(`rbbt cannot write ${JSON.stringify(parsed.result)}`);
    return parsed.result;
  };
  /** bbt_write_bib(path, keys, translator = bbt_guess_translator(path)). */
  const writeBib = async (path: string, keys: string[]): Promise<string> => {
    const translator = path.endsWith('.json') ? 'json' : path.endsWith('.yaml') ? 'yaml' : 'biblatex';
    writeFileSync(path, await bbtBib(keys, translator));
    return readFileSync(path, 'utf8');
  };

  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(async () => {
    await f.close();
  });

  it('has_bbt(): GET cayw?probe=TRUE answers "ready"', async () => {
    const r = await send(f.api.port, 'GET', '/better-bibtex/cayw?probe=TRUE', HTTR);
    expect(r.status).toBe(200);
    expect(r.body).toBe('ready');
  });

  it('bbt_libraries(): user.groups with params [] gives an integer id and a name', async () => {
    const r = await post(rbbtBody('user.groups', []));
    const groups = (JSON.parse(r.body) as { result: { id: unknown; name: unknown }[] }).result;
    expect(groups.map((g) => [Number.isInteger(g.id), typeof g.name])).toEqual([[true, 'string']]);
    expect(groups[0]).toMatchObject({ id: 1, name: 'My Library' });
  });

  it('bbt_update_bib(): the keys an R Markdown file cites, written to refs.bib as BibLaTeX (not 0 bytes)', async () => {
    const rmd = join(f.dir.path, 'paper.Rmd');
    writeFileSync(
      rmd,
      '---\ntitle: "A paper"\nbibliography: refs.bib\n---\n\nAs @adams2001 shows [see @brigge2002, p. 3].\n',
    );
    const keys = detectCitations(readFileSync(rmd, 'utf8'));
    expect(keys).toEqual(['adams2001', 'brigge2002']);
    const written = await writeBib(join(f.dir.path, 'refs.bib'), keys);
    expect(written.length).toBeGreaterThan(0);
    expect(written).toBe(
      (await f.core.library.lib.exportText([f.ids.adams2001!, f.ids.brigge2002!], 'biblatex')).content,
    );
    expect(written).toContain('@article{adams2001,');
    expect(written).toContain('journaltitle = {Journal of Tests}');
  });

  it('bbt_write_bib() to .json and .yaml: files Pandoc reads as bibliographies', async () => {
    const json = await writeBib(join(f.dir.path, 'refs.json'), ['adams2001', 'Author:2026-test']);
    expect((JSON.parse(json) as { 'citation-key': string }[]).map((i) => i['citation-key'])).toEqual([
      'adams2001',
      'Author:2026-test',
    ]);
    const yaml = await writeBib(join(f.dir.path, 'refs.yaml'), ['adams2001', 'brigge2002']);
    expect(yaml.startsWith('---\nreferences:\n- {')).toBe(true);
    const doc = join(f.dir.path, 'cite.md');
    writeFileSync(doc, 'See @adams2001 and @brigge2002.\n');
    for (const bib of ['refs.json', 'refs.yaml', 'refs.bib']) {
      const out = execFileSync(
        'pandoc',
        ['--citeproc', '--bibliography', join(f.dir.path, bib), '-t', 'plain', '--wrap=none', doc],
        { encoding: 'utf8' },
      );
      expect(out, bib).toContain('Adams');
      expect(out, bib).toContain('On Citing');
    }
  });

  it('bbt_bib() with a key Citewise lacks: an error rbbt stops with, and nothing written', async () => {
    await expect(bbtBib(['adams2001', 'nobody1999'], 'biblatex')).rejects.toThrow('not found: nobody1999');
    // A single key is still a JSON array (as.list(unique(keys))).
    expect(await bbtBib(['brigge2002'], 'bibtex')).toContain('@book{brigge2002,');
  });

  it('bbt_bib_selected(): GET select?<translator> exports the Library selection', async () => {
    f.selected = [f.ids.brigge2002!];
    for (const translator of ['biblatex', 'bibtex', 'json', 'yaml']) {
      const r = await send(f.api.port, 'GET', `/better-bibtex/select?${translator}`, HTTR);
      expect(r.status, translator).toBe(200);
      expect(r.body, translator).toContain('brigge2002');
    }
    f.selected = [];
    const none = await send(f.api.port, 'GET', '/better-bibtex/select?biblatex', HTTR);
    expect(none.status).toBe(404);
    expect(none.body).toContain('no items are selected');
  });

  it('bbt_cite_cayw() and bbt_bib_cayw(translator = "json")', async () => {
    const pick = async (query: string, key: string) => {
      const opened = f.nextPicker();
      const reply = send(f.api.port, 'GET', `/better-bibtex/cayw?${query}`, HTTR);
      await answerPicker(f.api.port, await opened, [{ citationKey: key }]);
      return (await reply).body;
    };
    expect(await pick('format=pandoc', 'adams2001')).toBe('@adams2001');
    expect(await pick('format=cite', 'adams2001')).toBe('\\cite{adams2001}');
    const bib = await pick('format=translate&translator=json', 'brigge2002');
    expect((JSON.parse(bib) as { 'citation-key': string }[])[0]!['citation-key']).toBe('brigge2002');
    expect(await pick('format=translate&translator=yaml', 'brigge2002')).toContain('"citation-key":"brigge2002"');
  });
});
