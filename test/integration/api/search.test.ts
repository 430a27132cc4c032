// item.search as pickers send it at every keystroke: a typed citation key first, one letter a whole
// word (its prefix matched nearly every item), two letters a prefix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startFixture, type Fixture } from './helpers';

describe('item.search', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(() => f.close());

  const search = async (terms: string): Promise<string[]> => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'item.search', params: [terms] });
    const r = await send(
      f.api.port,
      'POST',
      '/better-bibtex/json-rpc',
      { 'User-Agent': 'curl/8', 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      body,
    );
    return (JSON.parse(r.body) as { result: { citekey: string }[] }).result.map((i) => i.citekey);
  };

  it('puts the item whose citation key was typed first, then the ranked matches', async () => {
    expect(await search('Author:2026-test')).toEqual(['Author:2026-test']);
    expect(await search('@brigge2002')).toEqual(['brigge2002']);
    expect((await search('')).sort()).toEqual(['Author:2026-test', 'adams2001', 'brigge2002']);
  });

  it('one letter matches that word only; two letters are a prefix', async () => {
    expect(await search('s')).toEqual([]);
    expect(await search('sy')).toEqual(['Author:2026-test']);
    expect(await search('a')).toEqual(['Author:2026-test']);
  });
});
