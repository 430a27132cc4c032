// JSON the library reads back from its own columns (an item's CSL, undo entries, assistant threads,
// graphs, capture evidence). A row damaged on disk, by another program or by an old bug, is a clear
// error naming the record it belongs to, here where it is read, instead of a TypeError three layers
// later (`csl.title` of a string, `ids.some` of an object) or a bare "Unexpected token" in the log.
import type { CslItem } from '../../../shared/model/csl';
import { CoreError } from '../errors';

/** A shape check: null when the value fits, otherwise what is wrong with it in a few words. */
export type ShapeCheck = (value: unknown) => string | null;

/** Thrown for a stored value that does not parse or does not have its shape; the message names the record. */
export class DamagedRecordError extends CoreError {
  constructor(what: string, problem: string) {
    super(
      'INTERNAL',
      `${what} is damaged in the library file (${problem}); other items are unaffected, and "citewise restore" brings back the newest backup.`,
      { damaged: what },
    );
    this.name = 'DamagedRecordError';
  }
}

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);

export const isObject: ShapeCheck = (v) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? null : `an object was expected, not ${kind(v)}`;

export const isArray: ShapeCheck = (v) => (Array.isArray(v) ? null : `a list was expected, not ${kind(v)}`);

/** A list whose every element passes `each`. */
export const arrayOf =
  (each: ShapeCheck): ShapeCheck =>
  (v) => {
    if (!Array.isArray(v)) return `a list was expected, not ${kind(v)}`;
    for (let i = 0; i < v.length; i++) {
      const problem = each(v[i]);
      if (problem) return `element ${i + 1}: ${problem}`;
    }
    return null;
  };

export const isItemId: ShapeCheck = (v) =>
  Number.isSafeInteger(v) && (v as number) > 0 ? null : `an item id was expected, not ${kind(v)}`;

export const isString: ShapeCheck = (v) => (typeof v === 'string' ? null : `text was expected, not ${kind(v)}`);

/** An item's CSL as the library stores it: an object with a type. */
export const isCsl: ShapeCheck = (v) =>
  isObject(v) ?? (typeof (v as { type?: unknown }).type === 'string' ? null : 'it has no CSL type');

/** Parses stored JSON and checks its shape; `what` names the record ("item 12 (smith2020)"). */
export function readStored<T>(text: string, what: string, check: ShapeCheck = () => null): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new DamagedRecordError(what, `not JSON: ${(err as Error).message}`);
  }
  const problem = check(value);
  if (problem) throw new DamagedRecordError(what, problem);
  return value as T;
}

/** An item's stored CSL record. */
export function storedCsl(text: string, id: number, key?: string): CslItem {
  return readStored<CslItem>(text, `The record of item ${id}${key ? ` (${key})` : ''}`, isCsl);
}
