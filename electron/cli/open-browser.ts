import { spawn } from 'node:child_process';

/** Opens a URL in the default browser where there is one; says nothing and does nothing on a headless machine. */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  let command: string;
  let args: string[];
  if (process.platform === 'darwin') [command, args] = ['open', [url]];
  else if (process.platform === 'win32') [command, args] = ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  else {
    if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return false;
    [command, args] = ['xdg-open', [url]];
  }
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
