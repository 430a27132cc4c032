/// <reference lib="dom" />
// The renderer as an attacker would probe it, in a real Chromium against browser mode.
import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, launchBrowser, newPage, type PageProblems, type RunningApp } from './harness';

describe('renderer security in browser mode', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let evil: Server;
  let evilOrigin: string;

  beforeAll(async () => {
    app = await launchApp();
    browser = await launchBrowser();
    ({ page, problems } = await newPage(await browser.newContext()));
    await page.goto(app.url);
    await page.getByRole('navigation', { name: 'Panes' }).waitFor();
    // Another origin on the same machine: a page the user might have open in another tab.
    evil = createServer((_req, res) => res.end('<!doctype html><title>elsewhere</title>'));
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
    const address = evil.address();
    evilOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    evil?.close();
  });

  it('exposes no Node.js to the renderer', async () => {
    const globals = await page.evaluate(() => ({
      require: typeof (globalThis as Record<string, unknown>).require,
      process: typeof (globalThis as Record<string, unknown>).process,
      module: typeof (globalThis as Record<string, unknown>).module,
      Buffer: typeof (globalThis as Record<string, unknown>).Buffer,
    }));
    expect(globals).toEqual({ require: 'undefined', process: 'undefined', module: 'undefined', Buffer: 'undefined' });
  });

  it('enforces the CSP: no eval, no inline script or handler, no foreign script or connection', async () => {
    // Code run by page.evaluate itself is exempt from CSP (DevTools), so every probe below makes the
    // page's own context do the forbidden thing: a string timer (eval), an inline handler, and so on.
    const outcome = await page.evaluate(async () => {
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
      const w = window as unknown as Record<string, unknown>;
      (setTimeout as unknown as (code: string, ms: number) => void)('window.__evalRan = true', 0);
      const img = document.createElement('img');
      img.setAttribute('onerror', 'window.__handlerRan = true');
      img.src = 'data:,not-an-image';
      document.body.append(img);
      const inline = document.createElement('script');
      inline.textContent = 'window.__inlineRan = true';
      document.body.append(inline);
      const foreign = document.createElement('script');
      foreign.src = 'https://cdn.example.com/x.js';
      document.body.append(foreign);
      let fetchResult = 'allowed';
      try {
        await fetch('https://example.com/');
      } catch {
        fetchResult = 'blocked';
      }
      await new Promise((r) => setTimeout(r, 300));
      img.remove();
      return {
        evalRan: w.__evalRan === true,
        handlerRan: w.__handlerRan === true,
        inlineRan: w.__inlineRan === true,
        fetchResult,
        violations,
      };
    });
    expect(outcome).toMatchObject({ evalRan: false, handlerRan: false, inlineRan: false, fetchResult: 'blocked' });
    expect(outcome.violations).toEqual(
      expect.arrayContaining(['script-src', 'script-src-attr', 'script-src-elem', 'connect-src']),
    );
  });

  it('refuses a browser that does not have the token', async () => {
    const stranger = await browser.newContext();
    const p = await stranger.newPage();
    const response = await p.goto(`${app.origin}/`);
    expect(response?.status()).toBe(401);
    expect(await p.textContent('body')).toContain('needs the token');
    await stranger.close();
  });

  it('refuses a WebSocket opened from another origin, while our own page connects', async () => {
    const wsUrl = `${app.origin.replace('http', 'ws')}/ipc`;
    const probe = (url: string) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(url);
        ws.onopen = () => {
          ws.close();
          resolve('open');
        };
        ws.onerror = () => resolve('refused');
      });
    expect(await page.evaluate(probe, wsUrl)).toBe('open');

    const other = await page.context().newPage();
    await other.goto(evilOrigin);
    // Same browser, so the cookie would go along; even the token in the URL must not help another origin.
    expect(await other.evaluate(probe, wsUrl)).toBe('refused');
    expect(await other.evaluate(probe, `${wsUrl}?token=${app.token}`)).toBe('refused');
    await other.close();
  });

  it('logged no errors but the ones provoked above', () => {
    const provoked = /Content Security Policy|WebSocket connection to|Fetch API cannot load https:\/\/example\.com/;
    expect(problems.errors.filter((e) => !provoked.test(e))).toEqual([]);
  });
});
