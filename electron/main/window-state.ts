// The window's size and position, remembered between launches in the data directory.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const DEFAULT_BOUNDS: WindowBounds = { width: 1280, height: 820, maximized: false };
const FILE = 'window-state.json';

export function loadWindowState(dataDir: string, isVisible: (b: WindowBounds) => boolean): WindowBounds {
  try {
    const raw = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as Partial<WindowBounds>;
    const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
    if (!ok(raw.width) || !ok(raw.height) || raw.width < 400 || raw.height < 300) return DEFAULT_BOUNDS;
    const bounds: WindowBounds = {
      width: Math.round(raw.width),
      height: Math.round(raw.height),
      maximized: raw.maximized === true,
    };
    if (ok(raw.x) && ok(raw.y)) Object.assign(bounds, { x: Math.round(raw.x), y: Math.round(raw.y) });
    // A display that was unplugged would leave the window off-screen; keep only the size then.
    return bounds.x === undefined || isVisible(bounds)
      ? bounds
      : { width: bounds.width, height: bounds.height, maximized: bounds.maximized };
  } catch {
    return DEFAULT_BOUNDS;
  }
}

export function saveWindowState(dataDir: string, bounds: WindowBounds): void {
  const file = join(dataDir, FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(bounds));
    renameSync(tmp, file);
  } catch {
    // Losing the window size is not worth interrupting the user.
  }
}
