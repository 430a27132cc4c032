// When the full integrity_check runs. It reads the whole file (1.7 s on 100,000 items), so running it
// at every open made every command on a big library pay for it. What it finds is damage that a crash,
// a failing disk or another program writing the file caused, so it runs when one of those may have
// happened:
// - after an unclean shutdown: every open leaves a mark beside the library (a file named for its
//   process) and removes it on close; a mark whose process is gone means that process died with the
//   library open (kill -9, a power cut, a crash);
// - on a schedule: when the last full check is older than CHECK_INTERVAL_MS (slow damage: a disk, a
//   sync tool or a copy made while the file was being written);
// - when there is no record of a check (a library from before this rule, or one copied in);
// - when SQLite reported damage (SQLITE_CORRUPT, SQLITE_NOTADB) while the library was in use, or at
//   this open before any check had run (open.ts then checks and retries once).
// A restore needs none of its own: the backup passes integrity_check before it replaces the file.
// Where the marks cannot be written (a read-only folder), every open checks, as before.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CHECK_INTERVAL_MS = 7 * 24 * 3600 * 1000;

export type CheckReason = 'unclean-shutdown' | 'scheduled' | 'no-record' | 'damage-seen';

export interface CheckPlan {
  /** Why the full check must run now, or null when it need not. */
  reason: CheckReason | null;
  /** Marks left by processes that are gone; removed once the check has passed. */
  staleMarks: string[];
}

const MARK = /^open-(\d+)-[0-9a-f]+$/;
const RECORD = 'last-integrity-check';
const DAMAGE = 'damage-seen';

/** Whether an error is SQLite saying the file is damaged or not a database. */
export function isDamage(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/** The folder beside the library that holds the open marks and the time of the last full check. */
export function stateDir(file: string): string {
  return `${file}.state`;
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lastCheck(dir: string): number | null {
  try {
    const ms = Number(readFileSync(join(dir, RECORD), 'utf8').trim());
    return Number.isFinite(ms) && ms > 0 ? ms : null;
  } catch {
    return null;
  }
}

/** Decides whether the library file at `file` (which exists) needs its full check before it is opened. */
export function planCheck(file: string, now: number, interval = CHECK_INTERVAL_MS): CheckPlan {
  const dir = stateDir(file);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { reason: 'no-record', staleMarks: [] };
  }
  const staleMarks = names.filter((n) => {
    const m = MARK.exec(n);
    return m !== null && !alive(Number(m[1]));
  });
  if (staleMarks.length) return { reason: 'unclean-shutdown', staleMarks };
  if (names.includes(DAMAGE)) return { reason: 'damage-seen', staleMarks };
  const last = lastCheck(dir);
  if (last === null) return { reason: 'no-record', staleMarks };
  // A clock set back is no reason to skip checks for years.
  if (now - last >= interval || last > now + interval) return { reason: 'scheduled', staleMarks };
  return { reason: null, staleMarks };
}

/** Whether another live process (not this one) has the library at `file` open now. */
export function openElsewhere(file: string): boolean {
  return names(stateDir(file)).some((n) => {
    const m = MARK.exec(n);
    return m !== null && Number(m[1]) !== process.pid && alive(Number(m[1]));
  });
}

const LEFTOVERS = 'leftovers-pending';

/**
 * Whether a process that died with the library open may have left files behind that no open has
 * removed yet (a stale mark now, or one an earlier open saw while another process had the library open).
 */
export function leftoversPending(file: string, plan: CheckPlan): boolean {
  return plan.staleMarks.length > 0 || names(stateDir(file)).includes(LEFTOVERS);
}

/** Notes that leftovers are still to be removed (true), or that they were (false). */
export function setLeftoversPending(file: string, pending: boolean): void {
  try {
    if (!pending) rmSync(join(stateDir(file), LEFTOVERS), { force: true });
    else {
      mkdirSync(stateDir(file), { recursive: true });
      writeFileSync(join(stateDir(file), LEFTOVERS), '');
    }
  } catch {
    // Without the note, leftovers wait for the next unclean shutdown: only space, never data.
  }
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Records a passed full check (or a new, empty library) and drops the marks it accounted for. */
export function recordCheck(file: string, now: number, staleMarks: readonly string[] = []): void {
  const dir = stateDir(file);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, RECORD), `${now}\n`);
    rmSync(join(dir, DAMAGE), { force: true });
    for (const n of staleMarks) rmSync(join(dir, n), { force: true });
  } catch {
    // Without the record the next open checks again: slower, never less safe.
  }
}

/** The name of an open's mark for process `pid` (what planCheck looks for: MARK). */
export function openMarkName(pid: number): string {
  return `open-${pid}-${randomBytes(6).toString('hex')}`;
}

/** Leaves this open's mark; the returned function removes it (call it after a clean close). */
export function markOpen(file: string): () => void {
  const path = join(stateDir(file), openMarkName(process.pid));
  try {
    mkdirSync(stateDir(file), { recursive: true });
    writeFileSync(path, '');
  } catch {
    return () => {};
  }
  return () => rmSync(path, { force: true });
}

/** Notes that SQLite reported damage while the library was open, so that the next open checks it. */
export function flagDamage(file: string): void {
  try {
    mkdirSync(stateDir(file), { recursive: true });
    writeFileSync(join(stateDir(file), DAMAGE), '');
  } catch {
    // Nothing more to do: the error itself reaches the user.
  }
}
