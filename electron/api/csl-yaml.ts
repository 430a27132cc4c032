// CSL YAML, Better BibTeX's "Better CSL YAML" translator (rbbt's `yaml`, a `.yaml` bibliography for
// Pandoc): a YAML document whose `references` list holds the CSL-JSON items. Each item is written as
// a YAML flow mapping in JSON syntax, which YAML 1.2 reads as it is (JSON is a subset of YAML), so the
// values keep exactly the text of Citewise's CSL-JSON export. Pure.

// Characters YAML does not allow unescaped (DEL, the C1 controls but NEL, the BOM and the two
// non-characters); JSON.stringify leaves them as they are, and they can only stand inside strings.
const NOT_PRINTABLE = /[\u007f-\u0084\u0086-\u009f\ufeff\ufffe\uffff]/g;

const escaped = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

export function cslYaml(items: readonly unknown[]): string {
  if (items.length === 0) return '---\nreferences: []\n...\n';
  const lines = items.map((item) => `- ${JSON.stringify(item).replace(NOT_PRINTABLE, escaped)}\n`);
  return `---\nreferences:\n${lines.join('')}...\n`;
}
