// Styles a user added from a .csl file, kept as files in <data dir>/styles so they outlive the process
// and reach every formatter (the app's and the CLI's). A file is written only after the style passed
// the registry's checks (well-formed CSL 1.0, independent, accepted by citeproc-js), and atomically.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CITATION_STYLE_IDS } from '../../../../shared/model/csl';
import { CoreError } from '../../errors';
import { writeFileAtomic } from '../../fs/atomic-write';
import { USER_STYLE_ID } from './styles';
import type { StyleInfo } from './types';

/** What the store needs of a formatter (CiteFormatter has these). */
export interface StyleHost {
  registerStyle(xml: string, options?: { id?: string }): StyleInfo;
  unregisterStyle(id: string): boolean;
  styles(): StyleInfo[];
}

const EXT = '.csl';

export class UserStyles {
  constructor(readonly dir: string) {}

  /** The ids of the saved styles. */
  ids(): string[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((f) => f.endsWith(EXT))
      .map((f) => f.slice(0, -EXT.length))
      .sort();
  }

  /** Registers every saved style; a file that no longer passes the checks is reported and skipped. */
  loadInto(host: StyleHost): { file: string; problem: string }[] {
    if (!existsSync(this.dir)) return [];
    const problems: { file: string; problem: string }[] = [];
    for (const file of readdirSync(this.dir)
      .filter((f) => f.endsWith(EXT))
      .sort()) {
      try {
        host.registerStyle(readFileSync(join(this.dir, file), 'utf8'), { id: file.slice(0, -EXT.length) });
      } catch (err) {
        problems.push({ file: join(this.dir, file), problem: err instanceof Error ? err.message : String(err) });
      }
    }
    return problems;
  }

  /**
   * Checks and registers the style, then saves it; a style with the same id replaces the saved one.
   * The id is the last part of the style's own <id> unless one is given.
   */
  add(host: StyleHost, xml: string, options: { id?: string } = {}): StyleInfo {
    const info = host.registerStyle(xml, options);
    const previous = this.#read(info.id);
    try {
      mkdirSync(this.dir, { recursive: true });
      // Synced before and after the rename, and no temporary file is left if any step fails.
      writeFileAtomic(this.#file(info.id), xml);
    } catch (err) {
      // Not saved: take the registration back too (or restore the style it replaced).
      host.unregisterStyle(info.id);
      if (previous !== null) host.registerStyle(previous, { id: info.id });
      throw new CoreError(
        'INTERNAL',
        `The style could not be saved in ${this.dir}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    return info;
  }

  remove(host: StyleHost, id: string): void {
    if ((CITATION_STYLE_IDS as readonly string[]).includes(id))
      throw new CoreError('CONFLICT', `"${id}" is a built-in style and cannot be removed.`);
    const file = this.#file(id);
    const known = host.styles().some((s) => s.id === id && !s.builtIn);
    if (!known && !existsSync(file)) throw new CoreError('NOT_FOUND', `No added style is called "${id}".`);
    rmSync(file, { force: true });
    host.unregisterStyle(id);
  }

  /** The saved style's XML, or null when no style is saved under this id (or it is not a style id). */
  xml(id: string): string | null {
    return this.#read(id);
  }

  #read(id: string): string | null {
    try {
      return readFileSync(this.#file(id), 'utf8');
    } catch {
      return null;
    }
  }

  #file(id: string): string {
    // Letters, digits, ".", "_", "-" and no separator, so the file stays in dir.
    if (!USER_STYLE_ID.test(id) || id.includes('..'))
      throw new CoreError('INVALID_INPUT', `"${id}" is not a style id.`);
    return join(this.dir, `${id}${EXT}`);
  }
}
