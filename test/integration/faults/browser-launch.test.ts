// Issue 41, point 7: the browser the command line opens (`serve --open`, the editor API's picker)
// got CITEWISE_API_KEY in its environment, and the URL with the per-launch token on its command line,
// where every user of the machine can read it (`ps`, /proc/PID/cmdline). A fake xdg-open on PATH
// records what a real one would be given.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyToClipboard } from '../../../electron/cli/commands/api';
import { openInBrowser } from '../../../electron/cli/open-browser';
import { tempDir } from '../../helpers/tmp';

const TOKEN = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const URL_WITH_TOKEN = `http://127.0.0.1:41234/?token=${TOKEN}`;
const KEY = 'sk-test-0123456789abcdef';

async function until(file: string): Promise<string> {
  const end = Date.now() + 30_000;
  while (!existsSync(file) || readFileSync(file, 'utf8') === '') {
    if (Date.now() > end) throw new Error(`${file} was never written`);
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 100)); // the script's last lines
  return readFileSync(file, 'utf8');
}

describe.skipIf(process.platform !== 'linux')(
  'programs the command line starts for the user',
  { timeout: 60_000 },
  () => {
    let dir: ReturnType<typeof tempDir>;
    let saved: NodeJS.ProcessEnv;
    let record: string;

    beforeEach(() => {
      dir = tempDir();
      const bin = join(dir.path, 'bin');
      mkdirSync(bin);
      record = join(dir.path, 'record.txt');
      // Stands in for xdg-open and xclip: writes its arguments and environment, reads stdin (xclip).
      for (const name of ['xdg-open', 'xclip']) {
        writeFileSync(
          join(bin, name),
          `#!/bin/sh\ncat >/dev/null 2>&1 </dev/stdin || true\n{ echo "ARGS $*"; env; } > "${record}.tmp"; mv "${record}.tmp" "${record}"\n`,
          { mode: 0o755 },
        );
      }
      saved = { ...process.env };
      process.env.PATH = `${bin}:${process.env.PATH ?? ''}`;
      process.env.CITEWISE_API_KEY = KEY;
      process.env.DISPLAY = ':99';
      delete process.env.WAYLAND_DISPLAY;
    });
    afterEach(() => {
      process.env = saved;
      dir.remove();
    });

    it('the browser gets neither the API key nor the token on its command line, and still reaches the URL', async () => {
      expect(openInBrowser(URL_WITH_TOKEN)).toBe(true);
      const seen = await until(record);
      const args = seen.split('\n')[0]!;
      expect(args).not.toContain(TOKEN);
      expect(seen).not.toContain(KEY);
      expect(seen).not.toMatch(/^CITEWISE_API_KEY=/m);
      // It was given a private page that sends it on to the URL.
      const page = fileURLToPath(args.replace(/^ARGS /, '').trim());
      expect(statSync(page).mode & 0o077).toBe(0);
      const html = readFileSync(page, 'utf8');
      expect(html).toContain(`location.replace("${URL_WITH_TOKEN}")`);
      expect(html).toContain(`content="0;url=${URL_WITH_TOKEN}"`);
      // Nobody else can list the folder either.
      expect(statSync(join(page, '..')).mode & 0o077).toBe(0);
    });

    it('a URL without a token is given as it is; the key is not passed either', async () => {
      expect(openInBrowser('http://127.0.0.1:41234/')).toBe(true);
      const seen = await until(record);
      expect(seen.split('\n')[0]).toBe('ARGS http://127.0.0.1:41234/');
      expect(seen).not.toContain(KEY);
    });

    it('the clipboard tool does not get the API key', async () => {
      await copyToClipboard('[@key]', process.env);
      const seen = await until(record);
      expect(seen).not.toContain(KEY);
      expect(seen).toContain('DISPLAY=:99');
    });

    it('no display: nothing is started', () => {
      delete process.env.DISPLAY;
      expect(openInBrowser(URL_WITH_TOKEN)).toBe(false);
      expect(existsSync(record)).toBe(false);
    });
  },
);
