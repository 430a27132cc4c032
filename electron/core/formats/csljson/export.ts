// CSL items → CSL-JSON, the format citeproc-js, Pandoc and Zotero read. `custom` stays: it is where
// the round trip keeps what CSL has no variable for, and CSL processors ignore it.
import type { CslItem } from '../../../../shared/model/csl';
import { withOthersNames } from '../../../../shared/model/others';

export interface CslJsonExportOptions {
  /** Leave out `custom` for tools that reject unknown properties. */
  withoutCustom?: boolean;
}

export function toCslJson(items: readonly CslItem[], options: CslJsonExportOptions = {}): string {
  // A list that ends in "and others" gets the last name {"literal": "others"}, as pandoc writes it
  // and as its citeproc prints "et al." (the import takes it off again).
  const list = items.map((item) => {
    const out = withOthersNames(item);
    if (!options.withoutCustom) return out;
    const { custom: _custom, ...rest } = out;
    return rest;
  });
  return `${JSON.stringify(list, null, 2)}\n`;
}
