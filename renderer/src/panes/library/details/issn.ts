// The ISSNs in an item's ISSN field (one, several, or an array), valid ones only, normalised.
import { parseIssn } from '../../../../../shared/model/doi';

export function issnsOf(value: unknown): string[] {
  const parts = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(/[,;\s]+/) : [];
  const out: string[] = [];
  for (const p of parts) {
    const parsed = parseIssn(p);
    if (parsed.ok && !out.includes(parsed.issn)) out.push(parsed.issn);
  }
  return out;
}
