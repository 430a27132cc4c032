// Where the official styles and locales come from at run time: the folder scripts/build-csl.mjs
// writes (out/csl/ beside the bundled main and CLI code, inside the app package), copied from the
// committed resources/csl/. Never the network, never the system's CSL files. An interface, so tests and workers can hand the XML over directly.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CslManifest {
  /** The CSL project's repositories and commits the files are from (resources/csl/source.json). */
  source: {
    stylesRepository: string;
    stylesCommit: string;
    localesRepository: string;
    localesCommit: string;
    license: string;
  };
  /** Citewise style id → the style's CSL name, file (relative to the folder) and title. */
  styles: Record<string, { name: string; file: string; title: string }>;
  locales: string[];
}

export interface CslAssets {
  readonly manifest: CslManifest;
  /** The XML of a built-in style by its Citewise id. */
  styleXml(id: string): string;
  /** A locale's XML, or undefined when it is not shipped. */
  localeXml(lang: string): string | undefined;
}

/** Reads a build-csl folder, caching each file after its first read. */
export function directoryAssets(dir: string): CslAssets {
  const manifestFile = join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) {
    throw new Error(`No CSL styles at ${dir}: run \`node scripts/build-csl.mjs\` (part of \`npm run build\`).`);
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as CslManifest;
  const cache = new Map<string, string>();
  const read = (rel: string): string => {
    let text = cache.get(rel);
    if (text === undefined) {
      text = readFileSync(join(dir, rel), 'utf8');
      cache.set(rel, text);
    }
    return text;
  };
  return {
    manifest,
    styleXml(id) {
      const entry = manifest.styles[id];
      if (!entry) throw new Error(`No built-in CSL style ${id}`);
      return read(entry.file);
    },
    localeXml(lang) {
      return manifest.locales.includes(lang) ? read(`locales/locales-${lang}.xml`) : undefined;
    },
  };
}

/**
 * The build-csl folder for this process: $CITEWISE_CSL_DIR, else out/csl beside the bundle
 * (out/main/index.js and out/cli/index.js both sit one level below out/), else the repository's
 * out/csl when running from source (tsx, vitest).
 */
export function defaultCslDir(): string {
  const fromEnv = process.env.CITEWISE_CSL_DIR;
  if (fromEnv) return resolve(fromEnv);
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = resolve(here, '..', 'csl');
  if (existsSync(join(bundled, 'manifest.json'))) return bundled;
  for (let dir = here; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'out', 'csl');
    if (dirname(dir) === dir) return bundled;
  }
}
