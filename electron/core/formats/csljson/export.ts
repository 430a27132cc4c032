// CSL items → CSL-JSON, the format citeproc-js, Pandoc and Zotero read. `custom` stays: it is where
// the round trip keeps what CSL has no variable for, and CSL processors ignore it.
import type { CslItem } from '../../../../shared/model/csl';

export interface CslJsonExportOptions {
  /** Leave out `custom` for tools that reject unknown properties. */
  withoutCustom?: boolean;
}

export function toCslJson(items: readonly CslItem[], options: CslJsonExportOptions = {}): string {
  const list = options.withoutCustom ? items.map(({ custom: _custom, ...rest }) => rest) : items;
  return `${JSON.stringify(list, null, 2)}\n`;
}
