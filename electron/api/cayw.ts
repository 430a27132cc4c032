// GET /better-bibtex/cayw: probe, pick (or the Library's selection), and the pick as text in the
// format asked for. The text formats are cayw-format.ts; those that need the library (formatted
// citations, translate, json, scannable cite) are put together here.
import {
  formatPicks,
  isTextFormat,
  LOCATOR_ABBREVIATIONS,
  scannableCite,
  TEXT_FORMATS,
  type FormatOptions,
  type Pick,
} from './cayw-format';
import { authorText, translate } from './methods';
import type { EditorLibrary } from './library';
import { INVALID_PARAMS, RpcError } from './json-rpc';
import { findTranslator, TRANSLATOR_NAMES } from './translators';
import { itemKey, itemUri } from './zotero-item';

export const CAYW_FORMATS = [
  ...TEXT_FORMATS,
  'scannable-cite',
  'formatted-citation',
  'formatted-bibliography',
  'json',
  'translate',
] as const;

export interface CaywContext {
  library: EditorLibrary;
  /** Opens the picker and waits: the picks, or null when the user cancelled. */
  pick(): Promise<Pick[] | null>;
  /** The items selected in the Library (selected=1); empty when there is no Library window. */
  selection(): Promise<number[]>;
  /** Puts the answer on the clipboard (clipboard=1); throws with why it could not. */
  copy(text: string): Promise<void>;
  /** Minimizes the app's window after the pick (minimize=1); a no-op without one. */
  minimize(): void;
  /** Aborts when the editor has gone: an export for it stops waiting. */
  signal?: AbortSignal;
}

export interface CaywAnswer {
  status: number;
  body: string;
}

/** Better BibTeX reads a parameter as set when it is present and not empty ("1", "true", "yes"…). */
const flag = (q: URLSearchParams, name: string): boolean => (q.get(name) ?? '') !== '';

function formatOptions(q: URLSearchParams): FormatOptions {
  const labels: Record<string, string> = {};
  for (const label of Object.keys(LOCATOR_ABBREVIATIONS)) {
    const v = q.get(label);
    if (v !== null) labels[label] = v;
  }
  return {
    command: q.get('command') || undefined,
    brackets: flag(q, 'brackets'),
    cite: q.get('cite') || undefined,
    labels,
  };
}

async function render(
  format: string,
  picks: Pick[],
  ids: number[],
  q: URLSearchParams,
  ctx: CaywContext,
): Promise<string> {
  if (picks.length === 0) return '';
  if (isTextFormat(format)) return formatPicks(format, picks, formatOptions(q));
  const { library } = ctx;
  switch (format) {
    case 'json': {
      const csl = await library.csl(ids);
      return JSON.stringify(
        picks.map((p, i) => ({
          id: ids[i],
          citekey: p.citationKey,
          citationKey: p.citationKey,
          locator: p.locator ?? '',
          label: p.locator ? (p.label ?? 'page') : '',
          prefix: p.prefix ?? '',
          suffix: p.suffix ?? '',
          suppressAuthor: p.suppressAuthor === true,
          uri: itemUri(ids[i]!),
          itemType: csl[i]?.type,
          title: csl[i]?.title ?? '',
        })),
      );
    }
    case 'formatted-citation':
    case 'formatted-bibliography': {
      const style = await library.styleOf(q.get('style') || undefined);
      const locale = await library.localeOf(q.get('locale') || undefined);
      const cited = await library.cite(
        ids,
        style,
        locale,
        format === 'formatted-citation' ? 'citation' : 'bibliography',
      );
      return q.get('contentType') === 'html' ? cited.html : cited.text;
    }
    case 'translate': {
      const name = q.get('translator') || 'biblatex';
      const translator = findTranslator(name);
      if (!translator)
        throw new RpcError(INVALID_PARAMS, `unknown translator "${name}": Citewise exports with ${TRANSLATOR_NAMES}`);
      return translate(library, ids, translator, {
        notes: ['yes', 'y', 'true'].includes((q.get('exportNotes') ?? '').toLowerCase()),
        signal: ctx.signal,
      });
    }
    case 'scannable-cite': {
      const csl = await library.csl(ids);
      const labels = csl.map((c) =>
        [authorText(c), c.issued?.['date-parts']?.[0]?.[0]].filter((x) => x !== undefined && x !== '').join(', '),
      );
      return scannableCite(
        picks,
        labels,
        ids.map((id) => `zu:0:${itemKey(id)}`),
        formatOptions(q),
      );
    }
  }
  throw new RpcError(INVALID_PARAMS, `unknown CAYW format "${format}"`);
}

/** `probe=1`: the editor asks whether Citewise is there, nothing more. */
export function isProbe(q: URLSearchParams): boolean {
  return flag(q, 'probe');
}

export async function cayw(q: URLSearchParams, ctx: CaywContext): Promise<CaywAnswer> {
  if (flag(q, 'probe')) return { status: 200, body: 'ready' };
  // Better BibTeX's default format is natbib's \cite.
  const format = q.get('format') || 'latex';
  if (!(CAYW_FORMATS as readonly string[]).includes(format)) {
    return {
      status: 400,
      body: `CAYW failed: unknown format "${format}"; Citewise writes ${CAYW_FORMATS.join(', ')}\n`,
    };
  }
  let picks: Pick[];
  let ids: number[];
  if (flag(q, 'selected')) {
    ids = await ctx.selection();
    const csl = await ctx.library.csl(ids);
    picks = csl.map((c) => ({ citationKey: c['citation-key'] ?? c.id }));
  } else {
    const picked = await ctx.pick();
    if (picked === null) return { status: 200, body: '' };
    const found = await ctx.library.idsOfKeys(picked.map((p) => p.citationKey));
    picks = picked.filter((_, i) => found[i] !== null);
    ids = found.filter((id): id is number => id !== null);
  }
  try {
    const text = await render(format, picks, ids, q, ctx);
    if (flag(q, 'minimize')) ctx.minimize();
    if (flag(q, 'clipboard') && text !== '') await ctx.copy(text);
    return { status: 200, body: text };
  } catch (err) {
    // A request Citewise cannot answer as asked (unknown style, translator) is the client's to fix.
    return {
      status: err instanceof RpcError ? 400 : 500,
      body: `CAYW failed: ${err instanceof Error ? err.message : String(err)}\n`,
    };
  }
}
