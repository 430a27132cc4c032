// A core with a small library and the editor API in front of it, and a raw HTTP client that sends
// exactly the method, path, headers and body a real client sends.
import { request } from 'node:http';
import { join } from 'node:path';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../../../electron/api/server';
import type { PickSession } from '../../../electron/api/picker';
import { tempDir } from '../../helpers/tmp';
import { buildCslDir } from '../../unit/formats/cite/helpers';

export const BIB = `@article{adams2001,
  author = {Adams, Ann and Baker, Bob},
  title = {On Citing},
  journal = {Journal of Tests},
  year = {2001},
  volume = {3},
  pages = {1--10},
  doi = {10.1000/adams}
}

@book{brigge2002,
  author = {Brigge, Carl},
  title = {Books Are Long},
  publisher = {Press},
  year = {2002}
}

@inproceedings{Author:2026-test,
  author = {Author, Ada},
  title = {A Synthetic Article},
  booktitle = {Proceedings},
  year = {2026}
}
`;

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body?: string | Buffer,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: { Host: `127.0.0.1:${port}`, ...headers },
        setHost: false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface Fixture {
  core: Core;
  api: ApiServer;
  dir: ReturnType<typeof tempDir>;
  /** Picker sessions opened so far, newest last. */
  sessions: PickSession[];
  /** What selected=1 answers. */
  selected: number[];
  clipboard: string[];
  ids: Record<string, number>;
  /** The next picker opened, as soon as it is. */
  nextPicker(): Promise<PickSession>;
  /** The library's own export of these items (by citation key), to compare answers with. */
  exportOf(keys: string[], format: 'bibtex' | 'biblatex' | 'csljson'): Promise<string>;
  /** Creates a collection (under `parentId`) holding `keys`' items; its id. */
  collection(name: string, parentId?: number | null, keys?: string[]): Promise<number>;
  close(): Promise<void>;
}

export async function startFixture(extra: Partial<ApiServerOptions> = {}): Promise<Fixture> {
  // Formatted citations need the styles build-csl writes (out/csl after a build).
  process.env.CITEWISE_CSL_DIR ??= buildCslDir();
  const dir = tempDir('citewise-api-');
  const core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
  const imported = await core.invoke('library.import', { text: BIB, fileName: 'refs.bib' });
  if (!imported.ok) throw new Error(imported.error.message);
  const ids: Record<string, number> = {};
  for (const key of ['adams2001', 'brigge2002', 'Author:2026-test']) {
    const id = await core.library.lib.findByCitationKey(key);
    if (id === null) throw new Error(`${key} was not imported`);
    ids[key] = id;
  }
  const sessions: PickSession[] = [];
  const waiting: ((s: PickSession) => void)[] = [];
  const fixture: Fixture = {
    core,
    dir,
    sessions,
    selected: [],
    clipboard: [],
    ids,
    api: undefined as unknown as ApiServer,
    nextPicker: () => new Promise((resolve) => waiting.push(resolve)),
    exportOf: async (keys, format) =>
      (
        await core.library.lib.exportText(
          keys.map((k) => ids[k]!),
          format,
        )
      ).content,
    async collection(name, parentId = null, keys = []) {
      const made = await core.invoke('library.collections.create', { name, parentId });
      if (!made.ok) throw new Error(made.error.message);
      const id = (made.value as { id: number }).id;
      if (keys.length > 0)
        await core.invoke('library.collections.addItems', { collectionId: id, ids: keys.map((k) => ids[k]!) });
      return id;
    },
    async close() {
      await fixture.api.close();
      await core.close();
      dir.remove();
    },
  };
  fixture.api = await startApiServer({
    core,
    port: 0,
    openPicker: (s) => {
      sessions.push(s);
      waiting.shift()?.(s);
    },
    selection: () => Promise.resolve(fixture.selected),
    copy: (text) => {
      fixture.clipboard.push(text);
      return Promise.resolve();
    },
    ...extra,
  });
  return fixture;
}

/** What the picker page does: search, then send the picks (with the token from its URL fragment). */
export async function answerPicker(port: number, session: PickSession, picks: unknown[] | null): Promise<Reply> {
  const headers = {
    'X-Citewise-Picker': session.token,
    'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0',
    Origin: `http://127.0.0.1:${port}`,
  };
  if (picks === null) return send(port, 'POST', `/citewise/picker/${session.id}/cancel`, headers);
  const body = JSON.stringify({ picks });
  return send(
    port,
    'POST',
    `/citewise/picker/${session.id}/done`,
    { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    body,
  );
}

/** A POST to the JSON-RPC endpoint with `body` as it is (Content-Length set). */
export function postRpc(port: number, headers: Record<string, string>, body: string): Promise<Reply> {
  return send(port, 'POST', '/better-bibtex/json-rpc', { ...headers, 'Content-Length': Buffer.byteLength(body) }, body);
}

export interface RpcAnswer<T = unknown> {
  result?: T;
  error?: { code: number; message: string };
}

/** One JSON-RPC call as a client posts it (id 1, Content-Type: application/json), its answer parsed. */
export async function callRpc<T = unknown>(
  port: number,
  method: string,
  params: unknown,
  headers: Record<string, string> = { 'User-Agent': 'curl/8.5.0' },
): Promise<RpcAnswer<T>> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  const r = await postRpc(port, { ...headers, 'Content-Type': 'application/json' }, body);
  return JSON.parse(r.body) as RpcAnswer<T>;
}
