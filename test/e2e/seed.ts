// Seeds a library before the app starts, the way a user would: with the built CLI (`import`, `add`)
// against the local service. Also picks DOIs of the service's corpus with the traits a test needs.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningService } from '../service/server';
import { ROOT } from './harness';

/** Runs the built CLI; asynchronously, since the local service answering it runs in this process. */
export function cli(dataDir: string, serviceUrl: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(ROOT, 'bin/citewise.mjs'), ...args, '--data-dir', dataDir],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          CITEWISE_SERVICE_URL: serviceUrl,
          DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
        },
        encoding: 'utf8',
      },
      (error, stdout, stderr) =>
        error ? reject(new Error(`citewise ${args.join(' ')} failed: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}

/** CSL-JSON items whose text is hostile markup, to show it stays inert text through every view. */
export const HOSTILE_TITLE = 'Payload <img src=x onerror="window.__pwned=1"> in a <i>title</i>';
export const HOSTILE_ITEMS = [
  {
    id: 'hostile',
    type: 'article-journal',
    title: HOSTILE_TITLE,
    'container-title': 'Journal of <script>window.__pwned=1</script>Tests',
    author: [{ family: 'Aardvark<svg onload="window.__pwned=1">', given: 'Ann' }],
    issued: { 'date-parts': [[2019, 4, 2]] },
    volume: '7',
    page: '1-9',
    abstract:
      '<jats:sec><jats:title>Background</jats:title><jats:p>Water is H<jats:sub>2</jats:sub>O at 10<jats:sup>5</jats:sup> Pa, <jats:italic>in vitro</jats:italic> and <jats:bold>in vivo</jats:bold>.<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1"><a href="javascript:window.__pwned=1">link text</a></jats:p></jats:sec><jats:p>Second paragraph with <span style="font-variant:small-caps">small caps</span>.</jats:p>',
  },
  {
    id: 'plain',
    type: 'book',
    title: 'A Plain Book',
    author: [{ family: 'Baker', given: 'Bo' }],
    issued: { 'date-parts': [[2001]] },
    publisher: 'Press',
    'citation-key': 'baker2001',
  },
];

export function writeHostile(dir: string): string {
  const file = join(dir, 'hostile.json');
  writeFileSync(file, JSON.stringify(HOSTILE_ITEMS));
  return file;
}

/** A retracted paper with at least `minCitations` citation statements, and one under an expression of concern. */
export function pickDois(service: RunningService, minCitations = 15): { retracted: string; concern: string } {
  const db = service.corpus.db;
  const retracted = db
    .prepare(
      `SELECT doi FROM papers p WHERE retracted = 1 AND abstract IS NOT NULL AND (SELECT count(*) FROM citations c WHERE c.target = p.id) >= ? ORDER BY id LIMIT 1`,
    )
    .pluck()
    .get(minCitations) as string | undefined;
  const concern = db
    .prepare(
      `SELECT doi FROM papers WHERE retracted = 0 AND (notice_flags & 4) != 0 AND (notice_flags & 16) = 0 ORDER BY id LIMIT 1`,
    )
    .pluck()
    .get() as string | undefined;
  if (!retracted || !concern)
    throw new Error('the corpus has no paper with the traits this test needs; raise its size');
  return { retracted, concern };
}
