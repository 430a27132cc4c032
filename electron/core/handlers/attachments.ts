import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename, extname, isAbsolute } from 'node:path';
import type { AttachmentCheck, attachmentsFeature, LibraryChange } from '../../../shared/ipc';
import type { Attachment } from '../../../shared/model/library';
import type { DesktopShell } from '../desktop';
import { CoreError } from '../errors';
import { hashFile } from '../fs/paths';
import type { AsyncLibrary } from '../library/client';
import type { FeatureHandlers } from '../registry';

export interface AttachmentHandlerDeps {
  library: { lib: Pick<AsyncLibrary, 'getItem' | 'addAttachment'> };
  desktop?: DesktopShell | undefined;
  changed: (change: LibraryChange) => void;
}

/** The media type a file is stored with, from its extension (what a reference manager's attachments usually are). */
const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  epub: 'application/epub+zip',
  html: 'text/html',
  htm: 'text/html',
  txt: 'text/plain',
  md: 'text/markdown',
  tex: 'application/x-tex',
  bib: 'application/x-bibtex',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  zip: 'application/zip',
  djvu: 'image/vnd.djvu',
};

/**
 * Files the OS would run rather than show. Opening an attachment must never start a program, whatever
 * an imported library or a typed path says.
 */
const PROGRAMS = new Set([
  'exe',
  'com',
  'bat',
  'cmd',
  'msi',
  'msp',
  'scr',
  'pif',
  'cpl',
  'ps1',
  'psm1',
  'vbs',
  'vbe',
  'js',
  'jse',
  'wsf',
  'wsh',
  'hta',
  'lnk',
  'url',
  'reg',
  'jar',
  'vb',
  'wsc',
  'msc',
  'inf',
  'gadget',
  'application',
  'appref-ms',
  'settingcontent-ms',
  'library-ms',
  'search-ms',
  'diagcab',
  'chm',
  'jnlp',
  'xbap',
  'ps2',
  'psc1',
  'app',
  'command',
  'tool',
  'pkg',
  'mpkg',
  'dmg',
  'workflow',
  'action',
  'scpt',
  'applescript',
  'terminal',
  'webloc',
  'inetloc',
  'desktop',
  'sh',
  'bash',
  'zsh',
  'csh',
  'ksh',
  'fish',
  'run',
  'bin',
  'appimage',
  'deb',
  'rpm',
  'flatpakref',
  'snap',
  'py',
  'pl',
  'rb',
  'php',
]);

export function mimeOf(path: string): string | null {
  return MIME[extname(path).slice(1).toLowerCase()] ?? null;
}

/** Whether the OS would run this file as a program (by extension, or on POSIX an executable file of no known document type). */
export async function isProgram(path: string): Promise<boolean> {
  const ext = extname(path).slice(1).toLowerCase();
  if (PROGRAMS.has(ext)) return true;
  if (process.platform === 'win32' || mimeOf(path) !== null) return false;
  const info = await stat(path);
  return (info.mode & 0o111) !== 0;
}

/** What a missing file means: a linked one was moved or deleted by someone; a copy was deleted from the library folder. */
function missingMessage(a: Attachment, name: string): string {
  return a.stored === 'copied'
    ? `The copy of ${name} that Citewise kept is no longer at ${a.path} (deleted from the library folder?). Add the PDF again to restore it.`
    : `The linked file ${name} is no longer at ${a.path} (moved, renamed or deleted?). Attach it again from where it is now.`;
}

async function checkOne(a: Attachment): Promise<AttachmentCheck> {
  // A copy is stored under its checksum; the user knows it by the name it had.
  const name = a.originalName ?? basename(a.path);
  const info = await stat(a.path).catch(() => null);
  if (!info || !info.isFile()) return { id: a.id, state: 'missing', message: missingMessage(a, name) };
  const readable = await access(a.path, constants.R_OK).then(
    () => true,
    () => false,
  );
  if (!readable)
    return { id: a.id, state: 'unreadable', message: `${name} is there, but Citewise is not allowed to read it.` };
  if (a.sha256 === null)
    return {
      id: a.id,
      state: 'unverified',
      message: `${name} is there; it was attached without a checksum, so changes cannot be detected.`,
    };
  if (a.size !== null && info.size !== a.size)
    return { id: a.id, state: 'changed', message: `${name} has changed since it was attached (its size differs).` };
  const now = await hashFile(a.path).catch(() => null);
  if (!now) return { id: a.id, state: 'unreadable', message: `${name} could not be read to check it.` };
  return now.sha256 === a.sha256
    ? { id: a.id, state: 'ok', message: `${name} is unchanged since it was attached.` }
    : { id: a.id, state: 'changed', message: `${name} has changed since it was attached (its content differs).` };
}

/** Refuses an attachment whose file cannot be read now: a relative path, a missing or unreadable file. */
export async function assertReadable(a: Attachment): Promise<void> {
  if (!isAbsolute(a.path))
    throw new CoreError(
      'INVALID_INPUT',
      `The attachment's path "${a.path}" is not a full path; remove it and attach the file again.`,
    );
  const check = await checkOne(a);
  if (check.state === 'missing' || check.state === 'unreadable') throw new CoreError('NOT_FOUND', check.message);
}

export function attachmentHandlers(deps: AttachmentHandlerDeps) {
  const lib = deps.library.lib;
  const attachmentOf = async (itemId: number, id: number): Promise<Attachment> => {
    const found = (await lib.getItem(itemId)).attachments.find((a) => a.id === id);
    if (!found) throw new CoreError('NOT_FOUND', `Item ${itemId} has no attachment ${id}.`);
    return found;
  };

  return {
    'library.attachments.add': async ({ itemId, path }) => {
      const item = await lib.getItem(itemId);
      const file = await hashFile(path, 'the file to attach');
      if (item.attachments.some((a) => a.path === file.path))
        throw new CoreError('CONFLICT', `${basename(file.path)} is already attached to this item.`);
      const id = await lib.addAttachment(itemId, {
        path: file.path,
        sha256: file.sha256,
        size: file.size,
        mime: mimeOf(file.path),
      });
      deps.changed({ kind: 'items', ids: [itemId] });
      return attachmentOf(itemId, id);
    },
    'library.attachments.check': async ({ itemId }) => {
      const item = await lib.getItem(itemId);
      return Promise.all(item.attachments.map(checkOne));
    },
    'library.attachments.open': async ({ itemId, id }) => {
      const a = await attachmentOf(itemId, id);
      await assertReadable(a);
      if (await isProgram(a.path))
        throw new CoreError(
          'FORBIDDEN',
          `${basename(a.path)} is a program or script; Citewise does not run programs. Open it yourself if you trust it.`,
        );
      if (!deps.desktop) return { path: a.path, opened: false };
      const problem = await deps.desktop.openPath(a.path);
      if (problem) throw new CoreError('INTERNAL', `The system could not open ${basename(a.path)}: ${problem}`);
      return { path: a.path, opened: true };
    },
  } satisfies FeatureHandlers<typeof attachmentsFeature>;
}
