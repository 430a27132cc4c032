// Citation formatting: see formatter.ts. scripts/build-csl.mjs supplies the styles and locales.
export { CiteFormatter, createCiteFormatter, type CiteFormatterOptions } from './formatter';
export { defaultCslDir, directoryAssets, type CslAssets, type CslManifest } from './assets';
export { BUILT_IN_CSL_STYLES, inspectStyle } from './styles';
export type { WorkerEntry } from './pool';
export type { BibliographyStore } from './persist';
export { escapeHtml, isSafeHtml } from './html';
export * from './types';
