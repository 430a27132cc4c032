// Set-up for the enrichment tests: the local service behind a proxy that records which DOIs each bulk
// request carried to the service and can "go offline" (drops connections without forwarding), a real
// library in its own directory through its worker, and a service client tuned to fail fast.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { LibraryClient } from '../../../electron/core/library/client';
import { ServiceClient } from '../../../electron/core/service';
import type { CslItem } from '../../../shared/model/csl';
import { tempDir } from '../../helpers/tmp';

export interface BulkRequest {
  path: '/papers' | '/tallies';
  dois: string[];
}

export interface ServiceProxy {
  url: string;
  /** Bulk requests that reached the service. */
  bulk: BulkRequest[];
  offline: boolean;
  /** Milliseconds to hold every forwarded request. */
  delayMs: number;
  /** Answers a request with this HTTP status instead of forwarding it, when it returns one (e.g. 422 for one search). */
  refuse: ((url: string) => number | null) | null;
  /** How many times each DOI reached the service on this path. */
  counts(path: BulkRequest['path']): Map<string, number>;
  close(): Promise<void>;
}

export async function serviceProxy(target: () => string): Promise<ServiceProxy> {
  const state: { offline: boolean; delayMs: number; refuse: ServiceProxy['refuse'] } = {
    offline: false,
    delayMs: 0,
    refuse: null,
  };
  const bulk: BulkRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (state.offline) {
      req.socket.destroy();
      return;
    }
    const refused = state.refuse?.(req.url ?? '') ?? null;
    if (refused !== null) {
      res
        .writeHead(refused, { 'content-type': 'application/json' })
        .end(JSON.stringify({ detail: 'Refused by the test proxy' }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (state.delayMs > 0) await new Promise((r) => setTimeout(r, state.delayMs));
        const path = (req.url ?? '').split('?')[0]!;
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        if (req.method === 'POST' && (path === '/papers' || path === '/tallies') && body)
          bulk.push({ path, dois: JSON.parse(body.toString()) as string[] });
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers))
          if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
        try {
          const answer = await fetch(target() + req.url, {
            method: req.method,
            headers,
            body: body && req.method !== 'GET' ? body : undefined,
          });
          const text = Buffer.from(await answer.arrayBuffer());
          const out: Record<string, string> = {};
          answer.headers.forEach((v, k) => {
            if (!['content-length', 'transfer-encoding', 'content-encoding', 'connection'].includes(k)) out[k] = v;
          });
          res.writeHead(answer.status, out).end(text);
        } catch {
          req.socket.destroy();
        }
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bulk,
    get offline() {
      return state.offline;
    },
    set offline(v: boolean) {
      state.offline = v;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(v: number) {
      state.delayMs = v;
    },
    get refuse() {
      return state.refuse;
    },
    set refuse(v: ServiceProxy['refuse']) {
      state.refuse = v;
    },
    counts(path) {
      const m = new Map<string, number>();
      for (const r of bulk) if (r.path === path) for (const d of r.dois) m.set(d, (m.get(d) ?? 0) + 1);
      return m;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A client that gives up quickly when the service cannot be reached (the tests go offline on purpose). */
export function fastClient(url: () => string, key: string | null): ServiceClient {
  return new ServiceClient({
    baseUrl: url,
    getKey: async () => key,
    maxAttempts: 2,
    backoffInitialMs: 5,
    backoffMaxMs: 10,
    attemptTimeoutMs: 5000,
    breakerFailures: 1000,
  });
}

export interface TestLibraryDir {
  dir: string;
  file: string;
  open(): Promise<LibraryClient>;
  remove(): void;
}

export function libraryDir(): TestLibraryDir {
  const dir = tempDir('citewise-enrich-');
  const file = join(dir.path, 'citewise.sqlite');
  return { dir: dir.path, file, open: () => LibraryClient.start({ file }), remove: () => dir.remove() };
}

/** Bare items as a user might have them: a DOI and little else. */
export function bareItems(dois: readonly string[]): CslItem[] {
  return dois.map((doi, i) => ({ id: `bare-${i}`, type: 'article-journal', title: `Imported title ${i}`, DOI: doi }));
}
