/// <reference lib="dom" />
// IPC round trips, sequential, for 10,000 small calls and for one 10 MB payload:
// - WebSocket: measured inside Chromium on the renderer's real path to host mode;
// - Electron IPC path: the preload API and main bridge with Electron's structured-clone semantics.
//   The Electron binary cannot run on this machine, so Electron's own IPC transport is not in it.
import { electronIpc } from '../../helpers/transports';
import { launchApp, launchBrowser } from '../../e2e/harness';
import { percentile, type BenchCase, type BenchMetric } from '../harness';

const MB10 = 10 * 1024 * 1024;

const bench: BenchCase = {
  name: 'ipc-roundtrip',
  description: 'IPC round trip p50/p99 for 10,000 small calls and one 10 MB payload, over both transports',
  async run({ quick, log }) {
    const calls = quick ? 1000 : 10_000;
    const metrics: BenchMetric[] = [];

    const app = await launchApp();
    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext()).newPage();
      // tsx keeps function names with an __name helper that the page does not have.
      await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
      await page.goto(app.url);
      await page.getByRole('navigation', { name: 'Panes' }).waitFor();
      const ws = await page.evaluate(
        async ({ calls, size }) => {
          const socket = new WebSocket(`ws://${location.host}/ipc`);
          await new Promise((r, j) => ((socket.onopen = r), (socket.onerror = j)));
          const waiting = new Map<number, () => void>();
          socket.onmessage = (e) => {
            const m = JSON.parse(e.data as string) as { type: string; id: number };
            if (m.type === 'result') waiting.get(m.id)?.();
          };
          let id = 0;
          const call = (payload: unknown) =>
            new Promise<void>((r) => {
              const n = ++id;
              waiting.set(n, r);
              socket.send(JSON.stringify({ type: 'invoke', id: n, channel: 'diag.echo', input: { payload } }));
            });
          for (let i = 0; i < 200; i++) await call(i); // warm-up
          const times: number[] = [];
          for (let i = 0; i < calls; i++) {
            const t = performance.now();
            await call({ i, text: 'small' });
            times.push(performance.now() - t);
          }
          const big = 'x'.repeat(size);
          const bigTimes: number[] = [];
          for (let i = 0; i < 3; i++) {
            const t = performance.now();
            await call(big);
            bigTimes.push(performance.now() - t);
          }
          socket.close();
          return { times: times.sort((a, b) => a - b), bigTimes: bigTimes.sort((a, b) => a - b) };
        },
        { calls, size: MB10 },
      );
      metrics.push(
        {
          metric: 'WebSocket (Chromium → host) small call p50',
          value: percentile(ws.times, 50),
          unit: 'ms',
          note: `${calls} sequential calls`,
        },
        { metric: 'WebSocket (Chromium → host) small call p99', value: percentile(ws.times, 99), unit: 'ms' },
        {
          metric: 'WebSocket (Chromium → host) 10 MB payload round trip',
          value: percentile(ws.bigTimes, 50),
          unit: 'ms',
          note: 'median of 3',
        },
      );
      log(
        `WebSocket: p50 ${percentile(ws.times, 50).toFixed(3)} ms, p99 ${percentile(ws.times, 99).toFixed(3)} ms, 10 MB ${percentile(ws.bigTimes, 50).toFixed(0)} ms`,
      );
    } finally {
      await browser.close();
      await app.stop();
    }

    const t = await electronIpc();
    try {
      for (let i = 0; i < 200; i++) await t.api.invoke('diag.echo', { payload: i });
      const times: number[] = [];
      for (let i = 0; i < calls; i++) {
        const s = performance.now();
        await t.api.invoke('diag.echo', { payload: { i, text: 'small' } });
        times.push(performance.now() - s);
      }
      times.sort((a, b) => a - b);
      const big = 'x'.repeat(MB10);
      const bigTimes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const s = performance.now();
        await t.api.invoke('diag.echo', { payload: big });
        bigTimes.push(performance.now() - s);
      }
      bigTimes.sort((a, b) => a - b);
      const note = 'preload + main bridge with structured clone; Electron binary unavailable here';
      metrics.push(
        { metric: 'Electron IPC path small call p50', value: percentile(times, 50), unit: 'ms', note },
        { metric: 'Electron IPC path small call p99', value: percentile(times, 99), unit: 'ms' },
        {
          metric: 'Electron IPC path 10 MB payload round trip',
          value: percentile(bigTimes, 50),
          unit: 'ms',
          note: 'median of 3',
        },
      );
      log(`Electron IPC path: p50 ${percentile(times, 50).toFixed(3)} ms, p99 ${percentile(times, 99).toFixed(3)} ms`);
    } finally {
      await t.close();
    }
    return metrics;
  },
};

export default bench;
