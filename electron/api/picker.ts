// The picker: a CAYW request waits here until the user picks (or cancels) in a page the API server
// serves on loopback. Each pick gets its own random id and token; the token travels in the page
// URL's fragment (never sent in a request line or logged) and comes back in a header on every call
// the page makes, so no other page or program can read the library through the picker or answer for
// the user.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Pick } from './cayw-format';

export interface PickSession {
  readonly id: string;
  readonly token: string;
  /** The page address the user opens: origin, path and the token in the fragment. */
  readonly url: string;
}

/**
 * What the host gets to show a picker: the session, `cancel` for when the user closes it unanswered,
 * and `answer` for a host that picks in a UI of its own (browser mode's banner in the app).
 */
export interface OpenedPick extends PickSession {
  /** What the page asks: items to cite (the picker), or a word-processor document's preferences. */
  kind: 'cite' | ChoiceForm['kind'];
  cancel(): void;
  answer(picks: Pick[]): void;
}

/**
 * A choice other than items, asked in a page of the same kind and answered the same way (the word
 * processor's Document Preferences): what the page shows, and how its answer is checked.
 */
export interface ChoiceForm<T = unknown> {
  kind: 'docprefs';
  /** What the page loads from …/options (JSON). */
  options: unknown;
  /** The page's answer, checked field by field; throws with what is wrong. */
  parse(body: unknown): T;
}

/** Shows a picker; may return what takes it away again once the pick is over (a window to close). */
export type OpenPicker = (session: OpenedPick) => void | (() => void);

interface Pending extends PickSession {
  form?: ChoiceForm;
  resolve(value: unknown): void;
}

export const PICKER_PATH = '/citewise/picker/';
export const PICKER_TOKEN_HEADER = 'x-citewise-picker';

const MAX_PICKS = 500;
const MAX_TEXT = 1000;

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A pick list as the page sends it, checked field by field; throws with what is wrong. */
export function parsePicks(body: unknown): Pick[] {
  const list = (body as { picks?: unknown } | null)?.picks;
  if (!Array.isArray(list)) throw new Error('expected { picks: [...] }');
  if (list.length > MAX_PICKS) throw new Error(`at most ${MAX_PICKS} picks`);
  return list.map((raw, i) => {
    const p = raw as Record<string, unknown>;
    const text = (name: string): string | undefined => {
      const v = p[name];
      if (v === undefined || v === null || v === '') return undefined;
      if (typeof v !== 'string' || v.length > MAX_TEXT)
        throw new Error(`pick ${i + 1}: ${name} must be text of at most ${MAX_TEXT} characters`);
      return v;
    };
    const citationKey = text('citationKey');
    if (citationKey === undefined) throw new Error(`pick ${i + 1}: citationKey is missing`);
    return {
      citationKey,
      locator: text('locator'),
      label: text('label'),
      prefix: text('prefix'),
      suffix: text('suffix'),
      suppressAuthor: p.suppressAuthor === true,
    };
  });
}

export class PickerHub {
  readonly #pending = new Map<string, Pending>();
  readonly #open: OpenPicker;
  /** What takes each open picker away again (its window), by id. */
  readonly #closers = new Map<string, () => void>();

  /** `open` shows the picker to the user (a browser tab in headless mode, a window in the app). */
  constructor(open: OpenPicker) {
    this.#open = open;
  }

  /** Opens a picker and waits for the user: the picks, or null when cancelled (or `signal` aborts). */
  pick(origin: string, signal: AbortSignal): Promise<Pick[] | null> {
    return this.#ask<Pick[]>(origin, signal, undefined);
  }

  /** Opens a page asking `form` and waits for the user: the checked answer, or null when cancelled. */
  ask<T>(origin: string, signal: AbortSignal, form: ChoiceForm<T>): Promise<T | null> {
    return this.#ask<T>(origin, signal, form);
  }

  /** The form a waiting page asks (undefined for a picker of items). */
  formOf(id: string): ChoiceForm | undefined {
    return this.#pending.get(id)?.form;
  }

  #ask<T>(origin: string, signal: AbortSignal, form: ChoiceForm<T> | undefined): Promise<T | null> {
    const id = randomBytes(12).toString('base64url');
    const token = randomBytes(24).toString('base64url');
    return new Promise((resolve) => {
      const session: Pending = {
        id,
        token,
        url: `${origin}${PICKER_PATH}${id}#${token}`,
        ...(form ? { form } : {}),
        resolve: (value) => {
          if (!this.#pending.delete(id)) return;
          signal.removeEventListener('abort', onAbort);
          resolve(value as T | null);
          const close = this.#closers.get(id);
          this.#closers.delete(id);
          close?.();
        },
      };
      const onAbort = () => session.resolve(null);
      if (signal.aborted) return resolve(null);
      signal.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, session);
      const close = this.#open({
        id,
        token,
        url: session.url,
        kind: form?.kind ?? 'cite',
        cancel: () => session.resolve(null),
        answer: (picks) => session.resolve(picks),
      });
      // Answered (or given up) while it was opening: take it away at once.
      if (close) {
        if (this.#pending.has(id)) this.#closers.set(id, close);
        else close();
      }
    });
  }

  /** Whether a picker with this id is waiting and the token is its own. */
  authorised(id: string, token: string | undefined): boolean {
    const s = this.#pending.get(id);
    return s !== undefined && token !== undefined && sameToken(token, s.token);
  }

  exists(id: string): boolean {
    return this.#pending.has(id);
  }

  /** The user's answer: picks for a picker, a form's checked answer, or null (cancelled). */
  finish(id: string, value: unknown): void {
    this.#pending.get(id)?.resolve(value);
  }

  /** Pickers open now (tests check none is left behind). */
  get open(): number {
    return this.#pending.size;
  }

  cancelAll(): void {
    for (const s of [...this.#pending.values()]) s.resolve(null);
  }
}
