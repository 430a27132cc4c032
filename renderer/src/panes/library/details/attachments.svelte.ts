// The attachments of the item shown in the details column: whether each file is still there and
// unchanged (the core compares size and SHA-256), adding one by path (typed, or dropped on the
// column), and opening one. The desktop app opens files with their application; browser mode cannot,
// so the core answers with the path and the user copies it. Only local paths are ever sent.
import type { AttachmentCheck, CitewiseApi } from '../../../../../shared/ipc';
import { copyText } from '../export/clipboard';
import { droppedPaths } from './dropped-paths';

export class AttachmentsState {
  readonly #api: CitewiseApi;
  #checks = $state<Record<number, AttachmentCheck>>({});
  #error = $state<string | null>(null);
  #notice = $state('');
  #adding = $state(false);
  /** In browser mode: the attachment whose path is shown to copy. */
  #revealed = $state<{ id: number; path: string } | null>(null);
  #generation = 0;
  path = $state('');

  /** Opens a URL in a new tab (the browser's window.open; a test's recorder in Node). */
  readonly #openUrl: (url: string) => void;

  constructor(
    api: CitewiseApi,
    openUrl: (url: string) => void = (url) => window.open(url, '_blank', 'noopener,noreferrer'),
  ) {
    this.#api = api;
    this.#openUrl = openUrl;
  }

  get error() {
    return this.#error;
  }
  get notice() {
    return this.#notice;
  }
  get adding() {
    return this.#adding;
  }
  get revealed() {
    return this.#revealed;
  }
  check(id: number): AttachmentCheck | undefined {
    return this.#checks[id];
  }

  /** Checks the item's files (called when the item or its attachments change). */
  async refresh(itemId: number): Promise<void> {
    const n = ++this.#generation;
    const result = await this.#api.invoke('library.attachments.check', { itemId });
    if (n !== this.#generation) return;
    this.#checks = result.ok ? Object.fromEntries(result.value.map((c) => [c.id, c])) : {};
  }

  /** Forgets what was shown for the previous item. */
  reset(): void {
    this.#generation++;
    this.#checks = {};
    this.#error = null;
    this.#notice = '';
    this.#revealed = null;
    this.path = '';
  }

  /** Attaches the typed path, or the paths given (a drop). */
  async add(itemId: number, dropped?: readonly string[]): Promise<void> {
    const paths = dropped ?? [this.path];
    this.#error = null;
    this.#notice = '';
    this.#adding = true;
    try {
      const added: string[] = [];
      for (const path of paths) {
        const result = await this.#api.invoke('library.attachments.add', { itemId, path });
        if (!result.ok) {
          this.#error = result.error.message;
          break;
        }
        added.push(fileName(result.value.path));
      }
      if (added.length > 0) {
        this.#notice = `Attached ${added.join(', ')}.`;
        if (!dropped) this.path = '';
      }
    } finally {
      this.#adding = false;
    }
  }

  /** A drop on the details column: attach the local files it names, or say why it cannot. */
  async drop(itemId: number, data: DataTransfer): Promise<void> {
    const paths = droppedPaths(data);
    if (paths.length > 0) return this.add(itemId, paths);
    this.#notice = '';
    this.#error = data.types.includes('Files')
      ? 'Citewise cannot see where a dropped file is kept here; paste its full path into the field below instead. (To import references, drop the file on the table.)'
      : 'Only files on this computer can be attached: drop a file, or paste its full path.';
  }

  /** `name`: what the details show for the file (a copy in the library folder is stored under its checksum). */
  async open(itemId: number, id: number, name?: string): Promise<void> {
    this.#error = null;
    this.#notice = '';
    const result = await this.#api.invoke('library.attachments.open', { itemId, id });
    if (!result.ok) {
      this.#error = result.error.message;
      return;
    }
    if (result.value.opened) {
      this.#revealed = null;
      this.#notice = `Opened ${name ?? fileName(result.value.path)}.`;
    } else {
      // Browser mode: the host serves the file to this session (electron/host/attachments.ts); a PDF
      // opens in the browser's viewer in a new tab. The path stays shown, to open it elsewhere.
      // (window.open with noopener returns null whether or not the tab opened: the link below stays.)
      this.#openUrl(attachmentUrl(itemId, id));
      this.#notice = `Opened ${name ?? fileName(result.value.path)} in a new tab.`;
      this.#revealed = { id, path: result.value.path };
    }
  }

  async copyPath(path: string): Promise<void> {
    try {
      await copyText(path);
      this.#notice = 'Path copied.';
    } catch {
      this.#error = 'Could not use the clipboard here; select the path and copy it.';
    }
  }

  dismiss(): void {
    this.#error = null;
    this.#revealed = null;
  }
}

export const fileName = (path: string): string => path.split(/[\\/]/).pop() ?? path;

/** Where browser mode's host serves an attachment (its ATTACHMENT_ROUTE). */
export const attachmentUrl = (itemId: number, id: number): string => `/attachments/${itemId}/${id}`;
