// English titles written in Title Case ("Deep Learning for DNA Sequencing") → sentence case ("Deep
// learning for DNA sequencing"), which is what CSL expects a title to be stored as: styles that want
// Title Case (Chicago, MLA) make it, styles that want sentence case (APA, AMA, Vancouver) cannot undo
// it. As Better BibTeX does on import: braced words (<span class="nocase">) are left alone, and so are
// acronyms (DNA), words with a capital inside (iPhone, McDonald), single letters and the first word of
// the title and of each subtitle (after ":", "?", "!" or a spaced dash; not ".", which ends "vs." as
// often as a sentence). Whether a title is changed at all is the import's setting (SentenceCaseMode).
/** What starts a subtitle: its first word keeps its capital. */
const SUBTITLE_END = /(?:[:?!]|\s[-–—])\s+$/;
const TAG = /<[^>]*>/g;
const WORD = /\p{L}[\p{L}\p{M}'’]*/gu;
const NOCASE_OPEN = '<span class="nocase">';
/** Capitalised, the rest lower-case: the only shape that is lowered. */
const CAPITALISED = /^\p{Lu}[\p{Ll}\p{M}'’]+$/u;
// The words Title Case leaves lower-case (Chicago, APA): a sign that a title is in Title Case.
const FUNCTION_WORDS = new Set(
  'a an and as at but by for from in into nor of on onto or per the to upon via vs with within without'.split(' '),
);

/** English, or no language given: the titles Better BibTeX converts (langid, then language). */
export function isEnglish(language: string | undefined): boolean {
  if (language === undefined) return true;
  const l = language.trim().toLowerCase().replace(/[{}]/g, '');
  return (
    l === '' ||
    /^(?:en(?:[-_][a-z]+)?|english|american|british|canadian|australian|newzealand|usenglish|ukenglish|us english|uk english)$/.test(
      l,
    )
  );
}

/**
 * The text of a title outside tags, piece by piece, with whether case may change: not in a nocase span,
 * nor in bold or italic (`\textbf{DNA}`, `\emph{In vivo}`), whose braces BibTeX itself never lowers.
 */
function pieces(rich: string): { text: string; free: boolean }[] {
  const out: { text: string; free: boolean }[] = [];
  let depth = 0; // inside a nocase span: nested spans count, other tags do not matter
  let marks = 0; // inside <i> or <b>
  const spans: boolean[] = [];
  let last = 0;
  for (const m of rich.matchAll(TAG)) {
    if (m.index > last) out.push({ text: rich.slice(last, m.index), free: depth === 0 && marks === 0 });
    const tag = m[0];
    if (tag.startsWith('</')) {
      if (tag === '</span>' && spans.pop()) depth--;
      else if ((tag === '</i>' || tag === '</b>') && marks > 0) marks--;
    } else if (tag.startsWith('<span')) {
      const nocase = tag === NOCASE_OPEN;
      spans.push(nocase);
      if (nocase) depth++;
    } else if (tag === '<i>' || tag === '<b>') marks++;
    out.push({ text: tag, free: false });
    last = m.index + tag.length;
  }
  if (last < rich.length) out.push({ text: rich.slice(last), free: depth === 0 && marks === 0 });
  return out;
}

/**
 * Whether a title is in Title Case, strictly: outside braces no word is lower-case but the function
 * words ("of", "for", "and"), at least two capitalised words of four letters or more follow the first,
 * and a lower-case function word joins them. "The role of Darwin in biology" is not, so its "Darwin" is
 * never lowered, nor is anything in "Keira Drake's apology for the book" (one lower-case word is
 * enough); nor are "Gödel and Ångström" (too short) or "Ångström, Gödel, Dvořák" (no function word),
 * which are more likely names than a Title Case title.
 */
export function looksTitleCase(rich: string): boolean {
  let words = 0;
  let joined = false;
  let first = true;
  for (const piece of pieces(rich)) {
    if (!piece.free) {
      if (!piece.text.startsWith('<')) first = false;
      continue;
    }
    for (const m of piece.text.matchAll(WORD)) {
      const word = m[0];
      // The end of a word a brace or markup cut ("{Keira Drake}'s"), not a word of its own.
      if (m.index > 0 && /['’]/.test(piece.text[m.index - 1]!)) continue;
      if (first) {
        first = false;
        continue;
      }
      if (FUNCTION_WORDS.has(word)) {
        joined = true;
        continue;
      }
      // A lower-case word, however short, says sentence case; "iPhone" says nothing either way.
      if (word === word.toLowerCase()) return false;
      if (word.replace(/['’]/g, '').length < 4) continue;
      if (CAPITALISED.test(word)) words++;
    }
  }
  return words >= 2 && joined;
}

/**
 * Whether a title marks the words whose case matters (a braced word, `{DNA}`, as BibTeX styles expect)
 * and leaves others free: then its free capitals are Title Case, not names, and BibTeX itself lowers
 * them in a sentence-case style. A title braced whole (as Mendeley writes every title) marks nothing.
 */
export function protectsWords(rich: string): boolean {
  let kept = false;
  let free = false;
  for (const piece of pieces(rich)) {
    if (piece.text.startsWith('<') || !/\p{L}/u.test(piece.text)) continue;
    if (piece.free) free = true;
    else kept = true;
  }
  return kept && free;
}

/** Title Case → sentence case, as described above. Text without such words comes back unchanged. */
export function toSentenceCase(rich: string): string {
  let out = '';
  // Whether the next word starts the title or a subtitle, and keeps its capital.
  let starts = true;
  for (const piece of pieces(rich)) {
    if (!piece.free) {
      out += piece.text;
      if (!piece.text.startsWith('<') && /\p{L}/u.test(piece.text)) starts = /[:?!]\s*$/.test(piece.text);
      continue;
    }
    let last = 0;
    for (const m of piece.text.matchAll(WORD)) {
      const between = piece.text.slice(last, m.index);
      out += between;
      if (SUBTITLE_END.test(between)) starts = true;
      const word = m[0];
      out += !starts && CAPITALISED.test(word) ? word.toLowerCase() : word;
      starts = false;
      last = m.index + word.length;
    }
    const rest = piece.text.slice(last);
    out += rest;
    if (SUBTITLE_END.test(rest)) starts = true;
  }
  return out;
}
