// Looks for a key on disk in the forms a careless writer would leave it in.
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** The byte sequences that would betray `secret`: raw, URL-encoded, hex, UTF-16 and base64 at every alignment. */
export function leakForms(secret: string): Map<string, Buffer> {
  const forms = new Map<string, Buffer>([
    ['raw', Buffer.from(secret, 'utf8')],
    ['URL-encoded', Buffer.from(encodeURIComponent(secret), 'utf8')],
    ['form-encoded', Buffer.from(new URLSearchParams({ k: secret }).toString().slice(2), 'utf8')],
    ['hex', Buffer.from(Buffer.from(secret).toString('hex'), 'utf8')],
    ['HEX', Buffer.from(Buffer.from(secret).toString('hex').toUpperCase(), 'utf8')],
    ['UTF-16LE', Buffer.from(secret, 'utf16le')],
    ['UTF-16BE', Buffer.from(secret, 'utf16le').swap16()],
    ['JSON', Buffer.from(JSON.stringify(secret), 'utf8')],
  ]);
  // Inside a longer base64 text the key may start at any byte offset mod 3; each gives other
  // characters, except for the groups that hold key bytes only, which are what we look for.
  const bytes = Buffer.from(secret, 'utf8');
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const from = Math.ceil(offset / 3) * 4;
    const to = Math.floor((offset + bytes.length) / 3) * 4;
    const core = encoded.slice(from, to);
    forms.set(`base64+${offset}`, Buffer.from(core, 'utf8'));
    forms.set(`base64url+${offset}`, Buffer.from(core.replaceAll('+', '-').replaceAll('/', '_'), 'utf8'));
  }
  return forms;
}

export interface Leak {
  path: string;
  form: string;
}

/** Every file under `dirs` (symlinks not followed) whose name or content holds one of the forms. */
export async function findLeaks(dirs: string[], secret: string): Promise<{ leaks: Leak[]; filesScanned: number }> {
  const forms = leakForms(secret);
  const leaks: Leak[] = [];
  let filesScanned = 0;
  const seen = new Set<string>();

  const visit = async (path: string): Promise<void> => {
    if (seen.has(path)) return;
    seen.add(path);
    let info;
    try {
      info = await lstat(path);
    } catch {
      return; // Removed while we looked: a socket, a lock file.
    }
    if (path.includes(secret)) leaks.push({ path, form: 'file name' });
    if (info.isDirectory()) {
      for (const name of await readdir(path)) await visit(join(path, name));
      return;
    }
    if (!info.isFile() || info.size > MAX_FILE_BYTES) return;
    let content: Buffer;
    try {
      content = await readFile(path);
    } catch {
      return;
    }
    filesScanned += 1;
    for (const [form, needle] of forms) {
      if (content.includes(needle)) leaks.push({ path, form });
    }
  };

  for (const dir of dirs) await visit(dir);
  return { leaks, filesScanned };
}

/** The directories a key written "to disk" by this process would land in, as set up by scripts/test-keychain.sh. */
export function sandboxDirs(): string[] {
  const names = [
    'HOME',
    'XDG_DATA_HOME',
    'XDG_CONFIG_HOME',
    'XDG_CACHE_HOME',
    'XDG_STATE_HOME',
    'XDG_RUNTIME_DIR',
    'TMPDIR',
    'CITEWISE_DATA_DIR',
  ];
  return [...new Set(names.map((n) => process.env[n]).filter((d): d is string => d !== undefined && d !== ''))];
}
