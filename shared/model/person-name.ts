// A person's name written as plain text → a CSL name: the one reader for every name that comes as one
// string (RIS authors, the service's authorName in assistant answers and reference checks, the
// inventors and investigators of evidence records). BibTeX name lists have their own grammar
// (electron/core/formats/bibtex/names.ts), which reads braces and LaTeX; for plain text it agrees
// with this one on where the family name starts ("Jean de la Fontaine", "{Van der Berg}, Francesca").
import type { CslName } from './csl';
import { NAME_PARTICLES } from './name-particles';

/**
 * Particles that open a family name also when capitalised, before its last word ("Vincent Van Gogh",
 * "Anna De Luca", "Ursula Von der Leyen"). Shorter ones that are also given names or name syllables in
 * other languages ("Di", "Da", "Le", "Al", "Bin") count capitalised only before a lower-case particle
 * ("Maria Da la Cruz") or written lower-case ("Leonardo da Vinci").
 */
const CAPITALISED_PARTICLES: ReadonlySet<string> = new Set([
  'van',
  'von',
  'de',
  'del',
  'della',
  'der',
  'den',
  'ten',
  'ter',
  'dos',
  'das',
  'du',
]);

/** Words that make a name an organisation's rather than a person's: kept whole, as a literal name. */
const ORGANISATION =
  /\b(?:organi[sz]ation|institut\w*|universit\w*|association|society|council|committee|group|consortium|collaboration|agency|department|ministry|foundation|cent(?:er|re)|office|board|team|network|project|inc|ltd|llc|gmbh|corporation|company|commission|bureau|federation|union|academy|alliance|trust|services?|authority|programme|program|initiative|panel|assembly|congress|parliament|government|nations|bank|fund|laborator(?:y|ies)|hospital|school|college|press|library|museum|registry|survey|investigators|writing|working)\b|[&\d]|\b(?:of|for|and|the|on)\b/i;
const SUFFIX = /^(?:Jr|Sr|II|III|IV)\.?$/;
// "C", "JD" (PubMed) or "E.", "S.J.", "R.-M." (Embase and Ovid write initials with periods).
const INITIALS = /^(?:\p{Lu}{1,3}|\p{Lu}\.(?:-?\p{Lu}\.)*)$/u;

/**
 * A name as one string → CSL: "Family, Given" and "Family, Given, Suffix" (RIS, registries);
 * "Given Family", the family name starting at its first particle ("Ludwig van Beethoven", "Francesca
 * M. Van der Berg"); PubMed's and Embase's "Family INITIALS" ("Watson JD", "Fanning E."); "Jr."/"III" as the suffix; an
 * organisation ("World Health Organization"), a single word ("Plato") or a name of more than five
 * words as one literal name. Spacing is folded; an empty name gives null.
 */
export function parsePersonName(text: string): CslName | null {
  const name = text.replace(/\s+/g, ' ').trim();
  if (name === '') return null;
  if (name.includes(',')) {
    const parts = name.split(',').map((p) => p.trim());
    if (parts[0] === '') return { literal: name };
    const out: CslName = { family: parts[0]! };
    if (parts[1]) out.given = parts[1];
    if (parts.length > 2 && parts.slice(2).join(', ') !== '') out.suffix = parts.slice(2).join(', ');
    return out;
  }
  const words = name.split(' ');
  if (words.length < 2 || words.length > 5 || ORGANISATION.test(name)) return { literal: name };
  const suffix = words.length > 2 && SUFFIX.test(words[words.length - 1]!) ? words.pop() : undefined;
  let initials = 0;
  while (initials < words.length - 1 && INITIALS.test(words[words.length - 1 - initials]!)) initials++;
  let out: CslName;
  if (initials > 0 && !INITIALS.test(words[0]!)) {
    // PubMed's "Barata C", "Watson JD", "Hopfield J J", Embase's "Fanning E.": the family name, then the initials.
    out = { family: words.slice(0, -initials).join(' '), given: words.slice(-initials).join(' ') };
  } else {
    const at = familyStart(words);
    out = { family: words.slice(at).join(' '), given: words.slice(0, at).join(' ') };
  }
  if (suffix) out.suffix = suffix;
  return out;
}

/** Where the family name starts among "given… family" words: at its particles, else at the last word. */
function familyStart(words: readonly string[]): number {
  const last = words.length - 1;
  // The first lower-case particle after the given names ("Jean de la Fontaine")…
  let at = words.findIndex((w, i) => i > 0 && i < last && NAME_PARTICLES.has(w));
  // …with the capitalised particles just before it ("Van der Berg", "Da la Cruz").
  if (at > 0) {
    while (at > 1 && NAME_PARTICLES.has(words[at - 1]!.toLowerCase())) at--;
    return at;
  }
  // A capitalised particle before the last word ("Vincent Van Gogh"), given names kept before it.
  at = last;
  while (at > 1 && CAPITALISED_PARTICLES.has(words[at - 1]!.toLowerCase())) at--;
  return at;
}

/**
 * An author as the service gives one (papers, assistant references): its family and given names when
 * it has them, else its authorName read by parsePersonName ("Francesca M. Van der Berg" → family "Van
 * der Berg"), never split at the last space. Null for an author without a name.
 */
export function serviceAuthorName(a: {
  authorName?: string | null;
  family?: string | null;
  given?: string | null;
}): CslName | null {
  const family = a.family?.trim();
  if (family) {
    const given = a.given?.trim();
    return given ? { family, given } : { family };
  }
  return parsePersonName(a.authorName ?? '');
}
