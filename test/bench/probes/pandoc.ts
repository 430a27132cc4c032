// Running another program as a bench's comparison: pandoc (the reference tool the issues measure
// Citewise against) when it is installed, timed from spawn to exit like the built CLI.
import { spawn, spawnSync } from 'node:child_process';

/** Runs `command args` in `cwd` and resolves with its wall time, spawn to exit, ms; rejects on a non-zero exit. */
export function timed(command: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const p = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${err.slice(0, 1000)}`))));
  });
}

/**
 * Whether pandoc is installed; when it is not, logs the note every case that compares with it shows
 * (only Citewise is measured then).
 */
export function findPandoc(log: (line: string) => void): boolean {
  const found = spawnSync('pandoc', ['--version']).status === 0;
  if (!found) log('pandoc is not installed: only Citewise is measured (apt-get install pandoc)');
  return found;
}
