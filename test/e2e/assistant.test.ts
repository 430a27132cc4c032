/// <reference lib="dom" />
// The Assistant pane end to end in Chromium, in browser mode, against the local service (behind a
// pass-through that can make the assistant's answers hostile or cut the network): a question asked
// with its options, its steps watched as they happen, the answer with [n] markers linked to its
// references; three references added to the library; the draft in vancouver and as Markdown with its
// .bib; a running question cancelled and asked again; a conversation renamed and deleted; a reference
// check of a .bib with a retracted paper flagging it; and hostile markup shown as text throughout.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/tmp';
import { createServer, request, type Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../service/server';
import { seriousViolations, shootThemes } from './axe';
import { launchApp, launchBrowser, newPage, screenshot, type PageProblems, type RunningApp } from './harness';
import { pickDois } from './seed';
import { shownText, shownTexts } from './text';

const CANARY =
  'Canary <img src=x onerror="window.__canary()"><script>window.__canary()</script><b onclick="window.__canary()">bold</b>';

interface Gateway {
  url: string;
  /** Appends the canary to answers, passages and titles of the assistant's tasks. */
  hostile: boolean;
  offline: boolean;
  close(): Promise<void>;
}

/** Rewrites assistant task answers when hostile; answers every request with a dropped connection when offline. */
async function gateway(target: string): Promise<Gateway> {
  const base = new URL(target);
  const g: Gateway = { url: '', hostile: false, offline: false, close: async () => {} };
  const server: Server = createServer((req, res) => {
    if (g.offline) {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>;
      const up = request(
        {
          host: base.hostname,
          port: base.port,
          path: req.url,
          method: req.method,
          headers: { ...headers, 'content-length': String(body.length) },
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            let text = Buffer.concat(parts).toString('utf8');
            if (
              g.hostile &&
              (req.url ?? '').startsWith('/api_partner/assistant/') &&
              /json/.test(String(answer.headers['content-type']))
            ) {
              const task = JSON.parse(text) as {
                result?: {
                  turns?: {
                    role: string;
                    content: string;
                    references?: { answer?: string; title?: string; paper?: { title?: string } }[];
                  }[];
                };
              };
              for (const turn of task.result?.turns ?? []) {
                if (turn.role !== 'assistant') continue;
                turn.content = turn.content.replace(/\[1\]/, `${CANARY} [1]`);
                for (const r of turn.references ?? []) {
                  r.answer = `${r.answer ?? ''} ${CANARY}`;
                  r.title = `${r.title ?? ''} ${CANARY}`;
                  if (r.paper) r.paper.title = `${r.paper.title ?? ''} ${CANARY}`;
                }
                // The second reference's paper was retracted since: the answer must say so where it cites it.
                const second = turn.references?.[1]?.paper as { editorialNotices?: unknown[] } | undefined;
                if (second)
                  second.editorialNotices = [
                    { status: 'Retracted', date: '2024-02-01', noticeDoi: '10.5555/retraction.1', urls: [] },
                  ];
              }
              text = JSON.stringify(task);
            }
            const out: Record<string, string> = {};
            for (const [k, v] of Object.entries(answer.headers))
              if (typeof v === 'string' && !['content-length', 'transfer-encoding', 'connection'].includes(k))
                out[k] = v;
            res.writeHead(answer.statusCode ?? 502, out).end(text);
          });
        },
      );
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  g.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  g.close = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  return g;
}

describe('Assistant', () => {
  let service: RunningService;
  let proxy: Gateway;
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;
  let retractedDoi: string;

  const canaryFired = () => page.evaluate(() => (window as unknown as { __canaryFired?: number }).__canaryFired ?? 0);
  const lastTurn = () => page.getByTestId('assistant-turn').last();

  beforeAll(async () => {
    service = await startService({
      port: 0,
      papers: 600,
      assistantSteps: 'realistic',
      assistantStepMs: 1200,
      referenceCheckMs: 1500,
      log: () => {},
    });
    const fullKey = service.keys.find((k) => k.scopes.has('*'))!.token;
    retractedDoi = pickDois(service).retracted;
    proxy = await gateway(service.url);
    app = await launchApp({
      env: {
        CITEWISE_SERVICE_URL: proxy.url,
        CITEWISE_API_KEY: fullKey,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
      },
    });
    browser = await launchBrowser();
    context = await browser.newContext({
      viewport: { width: 1360, height: 900 },
      colorScheme: 'light',
      acceptDownloads: true,
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    await context.addInitScript(() => {
      const w = window as unknown as { __canary: () => void; __canaryFired: number };
      w.__canaryFired = 0;
      w.__canary = () => void w.__canaryFired++;
    });
    ({ page, problems } = await newPage(context));
    await page.goto(`${app.url}#/assistant`);
    await page.getByTestId('assistant-question').waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await proxy?.close();
    await service?.close();
  });

  it('asks a question with its options, shows the steps as they happen, and answers with [n] markers linked to references', async () => {
    await screenshot(page, 'assistant-empty');
    proxy.hostile = true;
    await page.getByTestId('assistant-question').fill('Does sleep deprivation impair working memory in older adults?');
    await page.getByTestId('assistant-options-toggle').click();
    await page.getByTestId('opt-refs').fill('6');
    await page.getByTestId('opt-style').selectOption('vancouver');
    await page.getByTestId('opt-effort').selectOption('high');
    await page.getByTestId('opt-year-from').fill('20x0');
    await screenshot(page, 'assistant-options');
    await page.getByTestId('assistant-ask').click();
    await expect
      .poll(() => shownText(page.getByTestId('assistant-form-problem')), { timeout: 15_000 })
      .toMatch(/four-digit years/);
    await page.getByTestId('opt-year-from').fill('');
    await page.getByTestId('assistant-options-toggle').click();
    await page.getByTestId('assistant-ask').click();

    // The steps, one after another, with the current one marked: recorded in the page as they show.
    const progress = page.getByTestId('assistant-progress');
    await progress.waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { __seen: { steps: string[]; searches: boolean; partial: boolean } };
      w.__seen = { steps: [], searches: false, partial: false };
      const timer = setInterval(() => {
        const step = document
          .querySelector('[data-testid=assistant-step][aria-current=step]')
          ?.getAttribute('data-step');
        if (step && !w.__seen.steps.includes(step)) w.__seen.steps.push(step);
        if (document.querySelector('[data-testid=assistant-searches]')) w.__seen.searches = true;
        if (document.querySelector('[data-testid=assistant-partial]')) w.__seen.partial = true;
        if (!document.querySelector('[data-testid=assistant-progress]')) clearInterval(timer);
      }, 15);
    });
    await page
      .locator('[data-testid=assistant-step][aria-current=step][data-step=RETRIEVING_PRIMARY_SOURCES]')
      .waitFor({ timeout: 45_000 });
    await screenshot(page, 'assistant-progress');
    // Generous: this machine is shared, and a loaded one stretches the service's step timer.
    await progress.waitFor({ state: 'detached', timeout: 60_000 });
    const recorded = await page.evaluate(
      () => (window as unknown as { __seen: { steps: string[]; searches: boolean; partial: boolean } }).__seen,
    );
    const seen = new Set(recorded.steps);
    const sawSearches = recorded.searches;
    const sawPartial = recorded.partial;
    // In the contract's order.
    const order = [
      'SCHEDULING_ASSISTANT',
      'GENERATING_SEARCH_STRATEGY',
      'EXECUTING_SEARCHES',
      'RETRIEVING_PRIMARY_SOURCES',
      'COMPOSING_RESPONSE',
      'GENERATING_RESPONSE',
    ];
    expect(recorded.steps).toEqual([...recorded.steps].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
    expect(seen.size).toBeGreaterThanOrEqual(4);
    expect([...seen]).toEqual(expect.arrayContaining(['EXECUTING_SEARCHES', 'RETRIEVING_PRIMARY_SOURCES']));
    expect(sawSearches).toBe(true);
    expect(sawPartial).toBe(true);

    // The answer: text with markers, each a link to its reference.
    const turn = lastTurn();
    await expect.poll(() => turn.getAttribute('data-status'), { timeout: 20_000 }).toBe('answered');
    const markers = turn.getByTestId('answer-marker');
    expect(await markers.count()).toBeGreaterThan(0);
    const refs = turn.getByTestId('answer-reference');
    expect(await refs.count()).toBeGreaterThanOrEqual(3);
    expect(await refs.count()).toBeLessThanOrEqual(6);
    const href = await markers.first().getAttribute('href');
    expect(href).toMatch(/^#turn-\d+-ref-\d+$/);
    expect(await page.locator(href!).count()).toBe(1);
    const paneHash = new URL(page.url()).hash;
    await markers.first().click();
    await expect.poll(() => page.locator(href!).getAttribute('class'), { timeout: 15_000 }).toMatch(/highlighted/);
    // The marker scrolls to its reference without taking the address's pane (a reload stays here).
    expect(new URL(page.url()).hash).toBe(paneHash);
    // Each reference shows its passage and where it comes from.
    const kinds = await shownTexts(turn.getByTestId('reference-kind'));
    expect(kinds.length).toBeGreaterThan(0);
    for (const k of kinds) expect(k).toMatch(/^From (the abstract|a citation statement|the paper)$/);
    expect(await shownText(turn.getByTestId('reference-passage').first())).toContain('Canary');
    expect(await shownText(turn.getByTestId('turn-usage'))).toMatch(/Assistant usage: \d+ of \d+/);
    // The library is empty: no reference is marked as in it.
    expect(await turn.getByTestId('reference-in-library').count()).toBe(0);
    // A retracted reference is flagged in its card and at every marker that cites it.
    expect(await shownText(refs.nth(1).getByTestId('reference-flag'))).toBe(
      'Retracted. 1 February 2024. Check the notice before citing it. Read the notice',
    );
    expect(await refs.nth(1).getByRole('link', { name: 'Read the notice' }).getAttribute('href')).toBe(
      'https://doi.org/10.5555/retraction.1',
    );
    expect(await refs.nth(0).getByTestId('reference-flag').count()).toBe(0);
    const flaggedMarkers = await shownTexts(turn.locator('[data-testid=answer-marker].flagged'));
    expect(flaggedMarkers.length).toBeGreaterThan(0);
    expect(new Set(flaggedMarkers)).toEqual(new Set(['[2]']));

    // The hostile markup stayed text: no element from it, nothing ran.
    expect(
      await page
        .locator('[data-testid=assistant-conversation] img, [data-testid=assistant-conversation] script')
        .count(),
    ).toBe(0);
    expect(await page.locator('[data-testid=assistant-conversation] [onclick]').count()).toBe(0);
    expect(await turn.getByTestId('answer-text').textContent()).toContain('Canary');
    expect(await canaryFired()).toBe(0);
    proxy.hostile = false;
    await screenshot(page, 'assistant-answer');
  }, 150_000);

  it('adds three chosen references to the library in one step', async () => {
    const turn = lastTurn();
    for (const n of [1, 2, 3]) await turn.getByLabel(`Choose reference ${n}`).check();
    await expect
      .poll(() => shownText(turn.getByTestId('add-references')), { timeout: 15_000 })
      .toMatch(/Add 3 chosen to library/);
    await turn.getByTestId('add-references').click();
    await expect.poll(() => shownText(turn.getByTestId('add-report')), { timeout: 20_000 }).toMatch(/^Added 3\b/);
    // The three are marked as in the library (asked of the library by DOI, one call per answer); the
    // fourth is not. After a reload the marks come from the library alone, before any "Add".
    const refs = turn.getByTestId('answer-reference');
    await expect.poll(() => refs.nth(2).getByTestId('reference-in-library').count(), { timeout: 15_000 }).toBe(1);
    // The choice was spent: the three are no longer chosen, and the button offers only what is not in the library yet.
    const total = await refs.count();
    for (const n of [1, 2, 3])
      expect(await turn.getByLabel(`Choose reference ${n}`, { exact: true }).isChecked()).toBe(false);
    const button = turn.getByTestId('add-references');
    await expect
      .poll(() => shownText(button), { timeout: 15_000 })
      .toMatch(new RegExp(`^\\s*Add all ${total - 3} to library\\s*$`));
    expect(await button.isEnabled()).toBe(true);
    // Choosing only a reference already there leaves nothing to add: the button says 0 and is disabled.
    await turn.getByLabel('Choose reference 1', { exact: true }).check();
    await expect.poll(() => shownText(button)).toMatch(/^\s*Add 0 chosen to library\s*$/);
    expect(await button.isDisabled()).toBe(true);
    await turn.getByLabel('Choose reference 4', { exact: true }).check();
    await expect.poll(() => shownText(button)).toMatch(/^\s*Add 1 chosen to library\s*$/);
    expect(await button.isEnabled()).toBe(true);
    await button.scrollIntoViewIfNeeded();
    await shootThemes(page, 'assistant-after-add');
    for (const n of [1, 4]) await turn.getByLabel(`Choose reference ${n}`, { exact: true }).uncheck();
    await page.goto(`${app.url}#/assistant`);
    await page.getByTestId('assistant-session').first().getByRole('button').first().click();
    await expect.poll(() => lastTurn().getByTestId('reference-in-library').count(), { timeout: 15_000 }).toBe(3);
    const marked = lastTurn().getByTestId('answer-reference');
    for (const i of [0, 1, 2])
      expect(await shownText(marked.nth(i).getByTestId('reference-in-library'))).toMatch(
        /^\s*In library\s+Show in Library\s*$/,
      );
    expect(await marked.nth(3).getByTestId('reference-in-library').count()).toBe(0);
    expect(await lastTurn().getByTestId('add-report').count()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    await marked.nth(2).scrollIntoViewIfNeeded();
    await screenshot(page, 'assistant-in-library-1280-light');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await screenshot(page, 'assistant-in-library-1280-dark');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await page.setViewportSize({ width: 1360, height: 900 });
    // The mark reaches the item: the Library, searched for the reference's DOI, shows it.
    const firstDoi = await shownText(marked.nth(0).locator('.meta a'));
    await marked.nth(0).getByRole('button', { name: 'Show in Library: reference 1' }).click();
    await expect
      .poll(() => page.getByLabel('Search the library').inputValue(), { timeout: 15_000 })
      .toBe(`doi:${firstDoi}`);
    await page.keyboard.press('Control+4');
    await page.getByTestId('assistant-question').waitFor();

    // A collection made in the Library pane is offered here; the same three go into it in one step.
    await page.keyboard.press('Control+1');
    await page.getByRole('button', { name: 'New collection' }).click();
    await page.getByLabel('New collection name').fill('Sleep review');
    await page.getByLabel('New collection name').press('Enter');
    await page.keyboard.press('Control+4');
    const again = lastTurn();
    await expect
      .poll(() => shownTexts(again.getByTestId('add-collection').locator('option')), { timeout: 15_000 })
      .toContain('Sleep review');
    for (const n of [1, 2, 3]) await again.getByLabel(`Choose reference ${n}`).check();
    await again.getByTestId('add-collection').selectOption({ label: 'Sleep review' });
    await again.getByTestId('add-references').click();
    await expect
      .poll(() => shownText(again.getByTestId('add-report')), { timeout: 20_000 })
      .toMatch(/^Added 0, 3 already in the library, in “Sleep review”\.$/);
    await page.keyboard.press('Control+1');
    await expect
      .poll(() => shownText(page.locator('li', { hasText: 'Sleep review' }).first()), { timeout: 15_000 })
      .toMatch(/Sleep review\s*3/);
    await page.keyboard.press('Control+4');
    await page.getByTestId('assistant-question').waitFor();
  }, 150_000);

  it('exports the draft in vancouver, and as Markdown with Pandoc citations and its .bib', async () => {
    const turn = lastTurn();
    for (const n of [1, 2, 3]) await turn.getByLabel(`Choose reference ${n}`).uncheck();
    await turn.getByTestId('draft-toggle').click();
    const panel = turn.getByTestId('draft-panel');
    await expect.poll(() => panel.getByTestId('draft-style').inputValue(), { timeout: 15_000 }).toBe('vancouver');
    await panel.getByTestId('draft-document').click();
    const preview = panel.getByTestId('draft-preview');
    await preview.waitFor();
    const text = await shownText(preview);
    expect(text).toContain('References');
    // Vancouver numbers its citations in order and lists the references under the same numbers.
    expect(text).toMatch(/\(1\)|\[1\]|\b1\b/);
    expect(await preview.locator('.csl-entry').count()).toBeGreaterThanOrEqual(3);
    expect(await shownText(preview.locator('.csl-entry').first())).toMatch(/^\s*1\./);
    // The payload was stored as the answer's text; in the draft it is still text, not an element.
    expect(text).toContain('Canary <img src=x');
    expect(await preview.locator('img, script, [onclick]').count()).toBe(0);
    expect(await canaryFired()).toBe(0);
    await panel.getByTestId('draft-copy').click();
    await expect.poll(() => shownText(panel.getByRole('status')), { timeout: 15_000 }).toMatch(/Copied as rich text/);
    const copied = await page.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      return {
        text: await (await item!.getType('text/plain')).text(),
        html: await (await item!.getType('text/html')).text(),
      };
    });
    expect(copied.text).toMatch(/\nReferences\n\n1\. /);
    expect(copied.html).toContain('<p><b>References</b></p>');
    await screenshot(page, 'assistant-draft-vancouver');
    // The same draft as Word and LibreOffice files with live citations (Zotero's fields).
    const { FileDocument } = await import('../../electron/api/integration/file-document');
    for (const kind of ['docx', 'odt'] as const) {
      const saved = page.waitForEvent('download');
      await panel.getByTestId(`draft-export-${kind}`).click();
      const got = await saved;
      expect(got.suggestedFilename()).toMatch(new RegExp(`\\.${kind}$`));
      const doc = FileDocument.read(readFileSync((await got.path())!), kind);
      expect(doc.fields().filter((f) => f.code.startsWith('ITEM')).length).toBeGreaterThan(0);
      expect(doc.fields().at(-1)!.code).toMatch(/^BIBL /);
      await expect.poll(() => shownText(panel.getByRole('status')), { timeout: 15_000 }).toContain(`Saved as .${kind}`);
    }
    await screenshot(page, 'assistant-draft-exported');
    // The draft is not squeezed by the follow-up box, at laptop sizes, with the question's options open.
    await page.getByTestId('assistant-options-toggle').click();
    for (const [width, height] of [
      [1280, 800],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      const sizes = await page.evaluate(() => ({
        conversation: document.querySelector('[data-testid=assistant-conversation]')!.getBoundingClientRect().height,
        form: document.querySelector('form.ask')!.getBoundingClientRect().height,
      }));
      // Before: 362 px of answer against a 311 px box at 1280x800 (54 %).
      expect(
        sizes.conversation / (sizes.conversation + sizes.form),
        `${width}x${height}: ${JSON.stringify(sizes)}`,
      ).toBeGreaterThanOrEqual(0.62);
      // The question itself stays visible and usable in the box.
      expect(await page.getByTestId('assistant-question').isVisible()).toBe(true);
      await screenshot(page, `assistant-draft-${width}-light`);
      await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
      await screenshot(page, `assistant-draft-${width}-dark`);
      await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    }
    await page.getByTestId('assistant-options-toggle').click();
    await page.setViewportSize({ width: 1360, height: 900 });

    await panel.getByTestId('draft-markdown').click();
    const md = (await panel.getByTestId('draft-markdown-text').textContent()) ?? '';
    const keys = [...md.matchAll(/(?<!\\)@([\w:.-]+)/g)].map((m) => m[1]!);
    expect(keys.length).toBeGreaterThan(0);
    expect(md).not.toMatch(/\[\d+\]/);
    const download = page.waitForEvent('download');
    await panel.getByTestId('draft-save-bib').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.bib$/);
    const bib = readFileSync((await file.path())!, 'utf8');
    for (const key of new Set(keys)) expect(bib).toContain(`{${key},`);
    await screenshot(page, 'assistant-draft-markdown');
  }, 120_000);

  it('cancels a running question, keeps it, and asks it again', async () => {
    await page.getByTestId('assistant-question').fill('And what about in adolescents?');
    await page.getByTestId('assistant-ask').click();
    await page.getByTestId('assistant-progress').waitFor();
    await page.getByTestId('assistant-cancel').click();
    const turn = lastTurn();
    await expect.poll(() => turn.getAttribute('data-status'), { timeout: 20_000 }).toBe('cancelled');
    expect(await turn.getByTestId('turn-question').textContent()).toBe('And what about in adolescents?');
    expect(await shownText(turn.getByTestId('turn-error'))).toMatch(/Cancelled/);
    await screenshot(page, 'assistant-cancelled');
    await turn.getByTestId('turn-retry').click();
    await expect.poll(() => lastTurn().getAttribute('data-status'), { timeout: 30_000 }).toBe('answered');
  }, 120_000);

  it('says so when the network is gone, keeps the question, and answers it once the network is back', async () => {
    proxy.offline = true;
    await page.getByTestId('assistant-question').fill('Is caffeine a confounder here?');
    await page.getByTestId('assistant-ask').click();
    const turn = lastTurn();
    await expect.poll(() => turn.getAttribute('data-status'), { timeout: 60_000 }).toBe('failed');
    expect(await turn.getByTestId('turn-question').textContent()).toBe('Is caffeine a confounder here?');
    expect(await shownText(turn.getByTestId('turn-error'))).toMatch(/cannot reach|offline|did not finish/i);
    await screenshot(page, 'assistant-offline');
    proxy.offline = false;
    await expect
      .poll(
        async () => {
          if (
            (await lastTurn().getAttribute('data-status')) !== 'answered' &&
            (await lastTurn().getByTestId('turn-retry').count()) > 0
          )
            await lastTurn().getByTestId('turn-retry').click();
          return lastTurn().getAttribute('data-status');
        },
        { timeout: 60_000, interval: 3000 },
      )
      .toBe('answered');
  }, 150_000);

  it('keeps the conversation in the library: renamed, readable after a reload, deleted', async () => {
    const session = page.getByTestId('assistant-session').first();
    await session.getByTestId('session-rename').click();
    await page.getByTestId('session-title-input').fill('Sleep and memory');
    await page.getByTestId('session-title-input').press('Enter');
    await expect
      .poll(() => shownText(page.getByTestId('assistant-session').first()), { timeout: 15_000 })
      .toContain('Sleep and memory');
    // A new page load: what is shown comes from the library file.
    await page.goto(`${app.url}#/assistant`);
    await page.getByTestId('assistant-session').first().waitFor();
    await page
      .getByTestId('assistant-session')
      .first()
      .getByRole('button', { name: /^Sleep and memory/ })
      .click();
    await expect
      .poll(() => shownText(page.getByTestId('conversation-title')), { timeout: 15_000 })
      .toBe('Sleep and memory');
    expect(await page.getByTestId('assistant-turn').count()).toBe(3);
    expect(await page.getByTestId('answer-marker').count()).toBeGreaterThan(0);
    expect(await canaryFired()).toBe(0);
    // Dark theme, and no serious accessibility problems.
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await screenshot(page, 'assistant-dark');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    const violations = await seriousViolations(page);
    expect(violations, violations.join('\n')).toEqual([]);
    await page.getByTestId('assistant-session').first().getByTestId('session-delete').click();
    await page.getByTestId('session-delete-confirm').click();
    await expect.poll(() => page.getByTestId('assistant-session').count(), { timeout: 15_000 }).toBe(0);
  }, 120_000);

  it('checks a .bib with a retracted paper and flags it; the report opens in the browser', async () => {
    await page.getByTestId('tab-check').click();
    await screenshot(page, 'assistant-refcheck-empty');
    const row = service.corpus.db.prepare('SELECT title, year FROM papers WHERE doi = ?').get(retractedDoi) as {
      title: string;
      year: number;
    };
    const other = service.corpus.db
      .prepare('SELECT doi, title, year FROM papers WHERE retracted = 0 AND notice_flags = 0 LIMIT 1')
      .get() as { doi: string; title: string; year: number };
    const bib = `@article{retracted,\n  title = {${row.title}},\n  doi = {${retractedDoi}},\n  year = {${row.year}}\n}\n@article{fine,\n  title = {${other.title}},\n  doi = {${other.doi}},\n  year = {${other.year}}\n}\n@article{nowhere,\n  title = {An entirely unrelated title about medieval pottery glazes},\n  year = {1999}\n}\n`;
    await page
      .getByTestId('refcheck-file')
      .setInputFiles({ name: 'manuscript.bib', mimeType: 'application/x-bibtex', buffer: Buffer.from(bib) });
    await page.getByTestId('refcheck-start').click();
    await page.getByTestId('refcheck-progress').waitFor();
    const result = page.getByTestId('refcheck-result');
    await result.waitFor({ timeout: 30_000 });
    const rows = page.getByTestId('refcheck-row');
    expect(await rows.count()).toBe(3);
    const flagged = page.locator('[data-testid=refcheck-row][data-severity=retracted]');
    expect(await flagged.count()).toBe(1);
    expect(await shownText(flagged)).toContain(retractedDoi);
    expect(await shownText(flagged.getByTestId('refcheck-flag'))).toBe('Retracted');
    expect(await shownText(page.getByTestId('refcheck-retracted-count'))).toBe('1 retracted');
    // Problems first: the retracted paper, then the reference found nowhere.
    expect(await rows.nth(0).getAttribute('data-problem')).toBe('retracted');
    expect(await shownText(rows.nth(1))).toMatch(/No match found/);
    expect(await rows.nth(1).getAttribute('data-problem')).toBe('not-found');
    // Each matched reference is a citation in the user's default style (APA), its entry as written
    // behind a disclosure; a reference that matched nothing has no citation.
    const fine = page.locator('[data-testid=refcheck-row]', { hasText: other.doi });
    const citation = await shownText(fine.getByTestId('refcheck-citation'));
    expect(citation).toContain(`(${other.year}).`);
    expect(citation).toContain(other.title.replace(/<[^>]+>/g, '').slice(0, 20));
    expect(citation).not.toMatch(/@article|\btitle = \{/);
    expect(await fine.locator('details.raw').getAttribute('open')).toBeNull();
    expect(await fine.getByTestId('refcheck-raw').isVisible()).toBe(false);
    await fine.getByText('Entry as written').click();
    expect(await fine.getByTestId('refcheck-raw').isVisible()).toBe(true);
    expect(await rows.nth(1).getByTestId('refcheck-citation').count()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'assistant-refcheck-1280-light');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await screenshot(page, 'assistant-refcheck-1280-dark');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await page.setViewportSize({ width: 1360, height: 900 });
    await screenshot(page, 'assistant-refcheck-result');
    const problemRows = await page.locator('[data-testid=refcheck-row]:not([data-problem=""])').count();
    await page.getByTestId('refcheck-problems-only').check();
    await expect.poll(() => rows.count()).toBe(problemRows);
    expect(problemRows).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'assistant-refcheck-problems-only');
    await page.getByTestId('refcheck-problems-only').uncheck();
    await expect.poll(() => rows.count()).toBe(3);
    const violations = await seriousViolations(page);
    expect(violations, violations.join('\n')).toEqual([]);
    const popup = context.waitForEvent('page');
    await page.getByTestId('refcheck-report').click();
    const report = await popup;
    expect(report.url()).toMatch(
      new RegExp(`^${service.url.replace(/[.:/]/g, '\\$&')}/reference-check/[\\w-]+\\?authToken=`),
    );
    await report.close();

    // The file edited on disk and checked again: read as it is now, not as it was when chosen.
    const dir = tempDir('citewise-refcheck-');
    const path = join(dir.path, 'edited.bib');
    writeFileSync(path, bib);
    await page.getByTestId('refcheck-file').setInputFiles(path);
    await page.getByTestId('refcheck-start').click();
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(3);
    writeFileSync(
      path,
      `${bib}@article{added,\n  title = {A second entirely unrelated title about bronze casting moulds},\n  year = {1998}\n}\n`,
    );
    await page.getByTestId('refcheck-start').click();
    // Either the browser reads the edited file, or it refuses a file changed since it was chosen and says so.
    await expect
      .poll(async () => (await page.getByTestId('refcheck-error').count()) > 0 || (await rows.count()) === 4, {
        timeout: 30_000,
      })
      .toBe(true);
    if ((await rows.count()) !== 4) {
      expect(await shownText(page.getByTestId('refcheck-error'))).toMatch(
        /edited\.bib changed since it was chosen: choose it again/,
      );
      await page.getByTestId('refcheck-file').setInputFiles(path);
      await page.getByTestId('refcheck-start').click();
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(4);
    }
    dir.remove();

    // A file that is not what its name says is refused with a reason.
    await page
      .getByTestId('refcheck-file')
      .setInputFiles({ name: 'paper.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf at all') });
    await page.getByTestId('refcheck-start').click();
    await expect
      .poll(() => shownText(page.getByTestId('refcheck-error')), { timeout: 15_000 })
      .toMatch(/paper\.pdf is not a PDF/);
    expect(problems.errors).toEqual([]);
  }, 120_000);
});
