// Better BibTeX's export translators, by name or by the ids its clients hard-code, mapped onto what
// Citewise writes. Names are matched the way Better BibTeX matches them: spaces dropped, lower case,
// "better" removed ("Better BibLaTeX", "biblatex" and "BetterBibLaTeX" are one translator).

export type TranslatorKind = 'bibtex' | 'biblatex' | 'csljson' | 'cslyaml' | 'bbtjson';

export interface Translator {
  id: string;
  label: string;
  kind: TranslatorKind;
  mime: string;
}

export const TRANSLATORS: readonly Translator[] = [
  {
    id: 'ca65189f-8815-4afe-8c8b-8c7c15f0edca',
    label: 'Better BibTeX',
    kind: 'bibtex',
    mime: 'text/x-bibtex; charset=utf-8',
  },
  {
    id: 'f895aa0d-f28e-47fe-b247-2ea77c6ed583',
    label: 'Better BibLaTeX',
    kind: 'biblatex',
    mime: 'text/x-bibtex; charset=utf-8',
  },
  {
    id: 'f4b52ab0-f878-4556-85a0-c7aeedd09dfc',
    label: 'Better CSL JSON',
    kind: 'csljson',
    mime: 'application/json; charset=utf-8',
  },
  {
    id: '0f238e69-043e-4882-93bf-342de007de19',
    label: 'Better CSL YAML',
    kind: 'cslyaml',
    mime: 'application/yaml; charset=utf-8',
  },
  {
    id: '36a3b0b5-bad0-4a04-b79b-441c7cef77db',
    label: 'BetterBibTeX JSON',
    kind: 'bbtjson',
    mime: 'application/json; charset=utf-8',
  },
];

const stripped = (name: string): string => name.replace(/\s/g, '').toLowerCase().replace('better', '');

/**
 * Other names clients use for the same translators (pull export extensions, rbbt's options), as
 * Better BibTeX reads them: `.bib` is BibLaTeX there, `jzon` its JSON, `yaml` CSL YAML.
 */
const ALIASES: Readonly<Record<string, TranslatorKind>> = {
  bib: 'biblatex',
  json: 'csljson',
  'csl-json': 'csljson',
  csl: 'csljson',
  yaml: 'cslyaml',
  yml: 'cslyaml',
  jzon: 'bbtjson',
};

/** The translator a name, a stripped name or an id stands for; null when unknown. */
export function findTranslator(nameOrId: string): Translator | null {
  const wanted = nameOrId.trim();
  const byId = TRANSLATORS.find((t) => t.id === wanted.toLowerCase());
  if (byId) return byId;
  const key = stripped(wanted);
  const kind = ALIASES[key] ?? TRANSLATORS.find((t) => stripped(t.label) === key)?.kind;
  return TRANSLATORS.find((t) => t.kind === kind) ?? null;
}

export const TRANSLATOR_NAMES =
  'Better BibTeX (bibtex), Better BibLaTeX (biblatex, bib), Better CSL JSON (csljson, json), Better CSL YAML (yaml), BetterBibTeX JSON (jzon), or their ids';
