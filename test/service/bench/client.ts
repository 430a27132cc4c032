// Helpers for the local service's benchmarks: run the service as a child process (so the load
// generator does not share its event loop) and time keep-alive HTTP requests against it.
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';

export interface ChildService {
  url: string;
  /** Milliseconds from spawn to the "listening" line. */
  readyMs: number;
  token: string;
  stop(): Promise<void>;
}

/** Starts `test/service/main.ts` with tsx; resolves when it prints its URL. */
export function spawnService(root: string, args: string[], timeoutMs = 15 * 60_000): Promise<ChildService> {
  const token = 'bench-token';
  const t0 = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'test/service/main.ts'),
      '--port',
      '0',
      '--key',
      `${token}=*`,
      '--rate-limit-keyed',
      '1000000',
      ...args,
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`service did not start within ${timeoutMs} ms\n${err}`));
    }, timeoutMs);
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1]!,
          readyMs: performance.now() - t0,
          token,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before listening\n${err}`));
    });
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One request; resolves with the status and the elapsed milliseconds (body fully read). */
export function timedRequest(
  url: string,
  method: 'GET' | 'POST',
  token: string,
  body?: string,
): Promise<{ status: number; ms: number; bytes: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, bytes }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function encodeDoi(doi: string): string {
  return encodeURIComponent(doi).replaceAll('%2F', '/');
}
