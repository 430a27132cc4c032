// zotero.lua, Better BibTeX's Pandoc filter (retorquere/zotero-better-bibtex, site/content/exporting/
// zotero.lua), replayed with Pandoc itself: a Lua filter of ours makes the request zotero.lua makes
// (module zotero, load_items): item.pandoc_filter with { style, asCSL, citekeys } as the query of a
// GET to /better-bibtex/json-rpc?, every character but letters and digits percent-encoded (its
// utils.urlencode), fetched by pandoc.mediabag.fetch, so Pandoc's own HTTP client sends it. The
// answer is read as zotero.lua reads it: result.errors[key] (0: not found), result.items[key] with
// custom.uri, whose item key its regex http://zotero.org/users/local/%w+/items/(%w+) takes.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from './helpers';

const run = promisify(execFile);

/** Our filter: collects the cited keys, then asks for them exactly as zotero.lua does. */
const FILTER = String.raw`
local keys, order = {}, {}
local function quote(s) return '"' .. s:gsub('[\\"]', '\\%0') .. '"' end
local function urlencode(s)
  return (s:gsub('[^%w]', function(c) return string.format('%%%X', string.byte(c)) end))
end
return {
  { Cite = function(c)
      for _, citation in ipairs(c.citations) do
        if not keys[citation.id] then keys[citation.id] = true; table.insert(order, citation.id) end
      end
    end },
  { Pandoc = function(doc)
      local quoted = {}
      for _, k in ipairs(order) do table.insert(quoted, quote(k)) end
      local request = '{"jsonrpc":"2.0","method":"item.pandoc_filter","params":{"style":"apa","asCSL":'
        .. os.getenv('CW_AS_CSL') .. ',"citekeys":[' .. table.concat(quoted, ',') .. ']}}'
      local url = 'http://127.0.0.1:' .. os.getenv('CW_PORT') .. '/better-bibtex/json-rpc?' .. urlencode(request)
      local mt, body = pandoc.mediabag.fetch(url, '.')
      local out = io.open(os.getenv('CW_OUT'), 'w')
      out:write(body)
      out:close()
      return doc
    end },
}
`;

interface Answer {
  result: {
    errors: Record<string, number>;
    items: Record<string, Record<string, unknown> & { custom?: { uri: string; itemID: number; author: string } }>;
  };
}

describe('zotero.lua, replayed through Pandoc', { timeout: 120_000 }, () => {
  let f: Fixture;
  let filter: string;
  let doc: string;

  beforeAll(async () => {
    f = await startFixture();
    filter = join(f.dir.path, 'ask.lua');
    writeFileSync(filter, FILTER);
    doc = join(f.dir.path, 'paper.md');
    writeFileSync(doc, 'As @adams2001 argued [see @Author:2026-test, p. 4; @nobody1999].\n');
  });
  afterAll(async () => {
    await f.close();
  });

  const pandoc = async (asCSL: boolean): Promise<Answer> => {
    const out = join(f.dir.path, `answer-${asCSL}.json`);
    await run(
      'pandoc',
      ['--lua-filter', filter, '-t', asCSL ? 'docx' : 'odt', '-o', join(f.dir.path, 'out.bin'), doc],
      {
        env: { ...process.env, CW_PORT: String(f.api.port), CW_AS_CSL: String(asCSL), CW_OUT: out },
      },
    );
    return JSON.parse(readFileSync(out, 'utf8')) as Answer;
  };

  it('for .docx (asCSL): the CSL items with their URIs and author text, and the key it lacks', async () => {
    const answer = await pandoc(true);
    expect(answer.result.errors).toEqual({ nobody1999: 0 });
    expect(Object.keys(answer.result.items).sort()).toEqual(['Author:2026-test', 'adams2001']);
    const adams = answer.result.items.adams2001!;
    expect(adams).toMatchObject({ title: 'On Citing', type: 'article-journal' });
    expect(adams.custom).toMatchObject({ itemID: f.ids.adams2001, author: 'Adams and Baker' });
    const key = /http:\/\/zotero\.org\/users\/local\/\w+\/items\/(\w+)/.exec(adams.custom!.uri)?.[1];
    expect(key).toBe(String(f.ids.adams2001));
  });

  it("for scannable-cite .odt (not asCSL): the items in Zotero's shape", async () => {
    const answer = await pandoc(false);
    expect(answer.result.errors).toEqual({ nobody1999: 0 });
    expect(answer.result.items.adams2001).toMatchObject({ itemType: 'journalArticle', citationKey: 'adams2001' });
  });
});
