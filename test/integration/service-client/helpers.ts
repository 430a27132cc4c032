// Shared set-up for the client's integration tests: the local service on port 0, a recording proxy
// in front of it that sees requests as the service does (arrival time, status, whether a 429 was
// injected), and corpus samples.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startService, type RunningService } from '../../service/server';
import type { ServiceOptions } from '../../service/options';

export interface Arrival {
  at: number;
  done: number;
  method: string;
  path: string;
  status: number;
  retryAfter: string | null;
  injected: boolean;
  authorized: boolean;
}

export interface Recorder {
  url: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

/** A pass-through proxy that records every request as it reaches the service, and its answer. */
export async function recordingProxy(target: string): Promise<Recorder> {
  const arrivals: Arrival[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && k !== 'host' && k !== 'connection' && k !== 'content-length') headers[k] = v;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      fetch(target + req.url, {
        method: req.method,
        headers,
        body: body && req.method !== 'GET' ? body : undefined,
      }).then(
        async (answer) => {
          const text = Buffer.from(await answer.arrayBuffer());
          arrivals.push({
            at,
            done: performance.now(),
            method: req.method ?? '',
            path: (req.url ?? '').split('?')[0]!,
            status: answer.status,
            retryAfter: answer.headers.get('retry-after'),
            injected: text.includes('injected fault'),
            authorized: 'authorization' in headers,
          });
          const out: Record<string, string> = {};
          answer.headers.forEach((v, k) => {
            if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'content-encoding' && k !== 'connection')
              out[k] = v;
          });
          res.writeHead(answer.status, out).end(text);
        },
        () => {
          // The service dropped the connection: drop ours too, as the client would have seen it.
          arrivals.push({
            at,
            done: performance.now(),
            method: req.method ?? '',
            path: (req.url ?? '').split('?')[0]!,
            status: 0,
            retryAfter: null,
            injected: true,
            authorized: 'authorization' in headers,
          });
          req.socket.destroy();
        },
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export async function service(
  options: Partial<ServiceOptions> = {},
): Promise<RunningService & { fullKey: string; publicKey: string }> {
  const svc = await startService({ port: 0, assistantSteps: 'instant', referenceCheckMs: 0, ...options });
  const full = svc.keys.find((k) => k.scopes.has('*')) ?? svc.keys[0]!;
  const pub = svc.keys.find((k) => !k.scopes.has('*')) ?? full;
  return Object.assign(svc, { fullKey: full.token, publicKey: pub.token });
}

export function sampleDois(svc: RunningService, n: number): string[] {
  return (svc.corpus.db.prepare('SELECT doi FROM papers ORDER BY id LIMIT ?').all(n) as { doi: string }[]).map(
    (r) => r.doi,
  );
}

/** The maximum number of times that fall within any window of `ms`. */
export function maxInWindow(times: readonly number[], ms: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  let j = 0;
  for (let i = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= ms) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}
