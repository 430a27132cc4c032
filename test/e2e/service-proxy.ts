// A pass-through in front of the local service, so an e2e test can make the network behave as it does
// for a user: slow (a latency set at any moment), gone (closed, every connection cut), or a service
// whose answers carry hostile markup for one DOI. Loopback only; it forwards to the local service.
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ServiceProxy {
  url: string;
  /** Milliseconds each answer is held back. */
  latencyMs: number;
  /** Requests forwarded so far, by path (without the query). */
  readonly paths: string[];
  /** Stops answering: the listener closes and open connections are cut, as when the network goes. */
  goOffline(): Promise<void>;
}

/** Rewrites the string fields of every object in a JSON answer that belongs to `doi`. */
function poison(value: unknown, doi: string, payload: string, inside: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => poison(v, doi, payload, inside));
  if (!value || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const mine = inside || (typeof obj.doi === 'string' && obj.doi.toLowerCase() === doi);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const keyed = k.toLowerCase() === doi;
    if (
      mine &&
      typeof v === 'string' &&
      ['title', 'abstract', 'snippet', 'text', 'journal', 'family', 'given', 'name'].includes(k)
    )
      out[k] = `${v} ${payload}`;
    else out[k] = poison(v, doi, payload, mine || keyed);
  }
  return out;
}

const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host']);
const copyHeaders = (h: IncomingHttpHeaders): Record<string, string | string[]> =>
  Object.fromEntries(Object.entries(h).filter(([k, v]) => v !== undefined && !HOP.has(k))) as Record<
    string,
    string | string[]
  >;

export async function startServiceProxy(
  target: string,
  hostile: { doi: string; payload: string },
): Promise<ServiceProxy> {
  const base = new URL(target);
  const doi = hostile.doi.toLowerCase();
  const paths: string[] = [];
  const proxy: ServiceProxy = {
    url: '',
    latencyMs: 0,
    paths,
    async goOffline() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      paths.push((req.url ?? '').split('?')[0]!);
      setTimeout(() => {
        const upstream = request(
          {
            host: base.hostname,
            port: base.port,
            path: req.url,
            method: req.method,
            headers: { ...copyHeaders(req.headers), 'content-length': String(body.length) },
          },
          (answer) => {
            const parts: Buffer[] = [];
            answer.on('data', (c: Buffer) => parts.push(c));
            answer.on('end', () => {
              let text = Buffer.concat(parts).toString('utf8');
              const about =
                decodeURIComponent(req.url ?? '')
                  .toLowerCase()
                  .includes(doi) || body.toString('utf8').toLowerCase().includes(doi);
              if (about && /json/.test(String(answer.headers['content-type']))) {
                const whole = decodeURIComponent(req.url ?? '')
                  .toLowerCase()
                  .includes(doi);
                text = JSON.stringify(poison(JSON.parse(text), doi, hostile.payload, whole));
              }
              res.writeHead(answer.statusCode ?? 502, copyHeaders(answer.headers));
              res.end(text);
            });
          },
        );
        upstream.on('error', () => res.destroy());
        upstream.end(body);
      }, proxy.latencyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  proxy.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return proxy;
}
