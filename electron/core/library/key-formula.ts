// The citation key formula the library makes new keys with (Settings → Citation keys), read from the
// library's settings table wherever keys are made: imports, items added by hand or by identifier,
// placeholders completed by the service, regenerated keys. Null while it is the default, so the common
// case keeps the key prepared with each item (derive.ts) and parses nothing.
import { compileKeyFormula, isDefaultFormula, type KeyFormula } from '../../../shared/model/citekey-formula';
import type { ReadDb } from './sql';
import { sql } from './sql';

/** The settings key (shared/ipc/settings.ts `citekeyFormula`). */
export const KEY_FORMULA_SETTING = 'citekeyFormula';

let cached: { text: string; formula: KeyFormula } | null = null;

/**
 * The formula set for this library, or null when it is the default (or unset). A stored formula that
 * no longer compiles (a hand-edited file) counts as the default, as the settings store reads it.
 */
export function storedKeyFormula(db: ReadDb): KeyFormula | null {
  const row = db.get<{ value: string }>(sql`SELECT value FROM settings WHERE key = ${KEY_FORMULA_SETTING}`);
  if (!row) return null;
  let text: unknown;
  try {
    text = JSON.parse(row.value);
  } catch {
    return null;
  }
  if (typeof text !== 'string' || isDefaultFormula(text)) return null;
  if (cached?.text === text) return cached.formula;
  const parsed = compileKeyFormula(text);
  if (!parsed.ok) return null;
  cached = { text, formula: parsed.formula };
  return parsed.formula;
}
