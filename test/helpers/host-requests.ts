// Requests to browser mode's host server as tests make them: a plain HTTP request on its own
// connection (no keep-alive, so no idle connection is left behind), and a WebSocket's outcome.
import { request } from 'node:http';
import WebSocket from 'ws';

export interface HostReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function hostRequest(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<HostReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method, agent: false, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** 'open' (closed again at once), or how the upgrade was refused. */
export function wsOutcome(url: string, options: WebSocket.ClientOptions = {}): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, options);
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(`refused ${res.statusCode}`));
    ws.on('error', (e) => resolve(`error ${e.message}`));
  });
}
