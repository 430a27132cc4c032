// A loopback port that was free a moment ago, for tests that start a server on a port they choose
// (the editor API's default-port and taken-port paths need a known number, not port 0).
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
