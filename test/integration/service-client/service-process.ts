// The local service and the recording proxy in a process of their own, so that arrival times are
// taken on an event loop the client under test cannot stall. Prints the proxy's URL on its first
// line; GET /__arrivals on the proxy answers the recorded arrivals; SIGTERM stops it.
import { recordingProxy, service } from './helpers';

const svc = await service();
const proxy = await recordingProxy(svc.url);
const { createServer } = await import('node:http');
// A second listener for the test's questions, so they are not recorded as traffic.
const control = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      arrivals: proxy.arrivals,
      timeOrigin: performance.timeOrigin,
      dois: svc.corpus.db.prepare('SELECT doi FROM papers ORDER BY id LIMIT 100').all(),
    }),
  );
});
await new Promise<void>((r) => control.listen(0, '127.0.0.1', r));
const address = control.address() as { port: number };
process.stdout.write(`${JSON.stringify({ url: proxy.url, control: `http://127.0.0.1:${address.port}` })}\n`);
process.once('SIGTERM', () => {
  control.close();
  void proxy
    .close()
    .then(() => svc.close())
    .then(() => process.exit(0));
});
