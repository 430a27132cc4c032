import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Environment variables a program the command line starts (a browser, a clipboard tool) never gets. */
const SECRET_ENV = ['CITEWISE_API_KEY'];

/** The environment for a program started for the user: this one without Citewise's secrets. */
export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of SECRET_ENV) delete copy[name];
  return copy;
}

/** How long the page that hands a tokened address to the browser stays on disk (it is read at once). */
const HANDOFF_MS = 60_000;

/**
 * A page, readable by this user only, that sends the browser on to `url`. A URL with a token in it
 * given to the browser on its command line could be read by every user of the machine (`ps`, /proc);
 * the page's path can, and the token is not in it. Removed after a minute or when the command ends.
 */
function handoffPage(url: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'citewise-open-'));
  chmodSync(dir, 0o700);
  const file = join(dir, 'open.html');
  const target = JSON.stringify(url).replace(/</g, '\\u003c');
  const attr = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  writeFileSync(
    file,
    `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
      `<meta http-equiv="refresh" content="0;url=${attr}"><title>Opening Citewise…</title>` +
      `<script>location.replace(${target});</script>\n`,
    { mode: 0o600 },
  );
  const remove = () => rmSync(dir, { recursive: true, force: true });
  setTimeout(remove, HANDOFF_MS).unref();
  process.once('exit', remove);
  return file;
}

/**
 * Opens a URL in the default browser where there is one; says nothing and does nothing on a headless
 * machine. A URL with a query or fragment (a token) goes through a private page, never the command
 * line; the browser does not inherit CITEWISE_API_KEY.
 */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (process.platform !== 'darwin' && process.platform !== 'win32' && !env.DISPLAY && !env.WAYLAND_DISPLAY)
    return false;
  let target = url;
  try {
    if (/[?#]/.test(url)) target = pathToFileURL(handoffPage(url)).href;
  } catch {
    return false;
  }
  let command: string;
  let args: string[];
  if (process.platform === 'darwin') [command, args] = ['open', [target]];
  else if (process.platform === 'win32') [command, args] = ['cmd', ['/c', 'start', '""', target.replace(/&/g, '^&')]];
  else [command, args] = ['xdg-open', [target]];
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', env: childEnv(env) });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
