/// <reference lib="dom" />
// Browser mode, cold: from spawning `citewise serve` on a fresh library to the first contentful paint
// and to the shell showing the core's data, in Debian's Chromium (already running, as a user's is).
import { launchApp, launchBrowser } from '../../e2e/harness';
import { percentile, type BenchCase } from '../harness';

const bench: BenchCase = {
  name: 'shell-startup',
  description: 'browser mode cold start: process spawn → server ready → first paint → shell ready',
  async run({ quick, log }) {
    const runs = quick ? 2 : 9;
    const browser = await launchBrowser();
    const ready: number[] = [];
    const paint: number[] = [];
    const shell: number[] = [];
    try {
      for (let i = 0; i < runs; i++) {
        const t0 = Date.now();
        const app = await launchApp();
        const tReady = Date.now();
        const context = await browser.newContext();
        const page = await context.newPage();
        try {
          await page.goto(app.url);
          await page
            .locator('footer')
            .getByText(/v\d+\.\d+\.\d+/)
            .waitFor();
          const tShell = Date.now();
          const fcp = await page.evaluate(() => {
            const entry = performance.getEntriesByName('first-contentful-paint')[0];
            return entry ? performance.timeOrigin + entry.startTime : Number.NaN;
          });
          ready.push(tReady - t0);
          paint.push(fcp - t0);
          shell.push(tShell - t0);
          log(`run ${i + 1}: ready ${tReady - t0} ms, first paint ${Math.round(fcp - t0)} ms, shell ${tShell - t0} ms`);
        } finally {
          await context.close();
          await app.stop();
        }
      }
    } finally {
      await browser.close();
    }
    const median = (xs: number[]) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        50,
      );
    return [
      { metric: 'spawn → server ready (median)', value: median(ready), unit: 'ms', note: `${runs} runs` },
      { metric: 'spawn → first contentful paint (median)', value: median(paint), unit: 'ms' },
      { metric: 'spawn → shell shows core data (median)', value: median(shell), unit: 'ms' },
    ];
  },
};

export default bench;
