// The lowercase words that open a family name ("van der Berg", "de la Cruz", "bin Salman"): a name
// written "given family" is split before them. One list for every reader that splits such names
// (RIS authors without a comma, the inventors and investigators of evidence records).
export const NAME_PARTICLES: ReadonlySet<string> = new Set([
  'van',
  'von',
  'der',
  'den',
  'de',
  'del',
  'della',
  'di',
  'da',
  'dos',
  'das',
  'du',
  'la',
  'le',
  'ten',
  'ter',
  'bin',
  'al',
  'el',
  'zu',
  'op',
]);
