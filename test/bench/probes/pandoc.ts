// Running another program as a bench's comparison: pandoc (the reference tool the issues measure
// Citewise against) when it is installed, timed from spawn to exit like the built CLI.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Runs `command args` in `cwd` and resolves with its wall time, spawn to exit, ms; rejects on a non-zero exit. */
export async function timed(command: string, args: string[], cwd: string): Promise<number> {
  return (await timedCpu(command, args, cwd)).wall;
}

/**
 * CPU time (user + system, ms, every thread) of the children this process has waited for, from
 * /proc/self/stat (cutime + cstime, in USER_HZ = 100 ticks a second); undefined where there is no /proc.
 */
export function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // After "pid (comm) ": field 3 (state) is index 0, so cutime (16) and cstime (17) are 13 and 14.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * As timed, with the child's CPU time too (ms; undefined off Linux). On a loaded machine CPU time is
 * the fairer comparison: wall time mostly measures the other processes. Run one child at a time.
 */
export function timedCpu(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ wall: number; cpu: number | undefined }> {
  return new Promise((resolve, reject) => {
    const cpuBefore = childrenCpuMs();
    const started = performance.now();
    const p = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    // libuv has reaped the child when 'exit' is emitted, so its times are in this process's cutime/cstime.
    p.on('exit', (code) => {
      const wall = performance.now() - started;
      const cpuAfter = childrenCpuMs();
      if (code !== 0)
        return reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${err.slice(0, 1000)}`));
      resolve({ wall, cpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore });
    });
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
