#!/usr/bin/env node
// Build step: copies the official CSL styles and locales the app formats with from resources/csl/
// (committed: the CSL project's own files, unmodified, with their licence, see resources/csl/README.md)
// into out/csl/ (or --out DIR), which the core loads at run time (electron/core/formats/cite/assets.ts),
// with a manifest.json naming each built-in style's file and title and every locale. Nothing is
// downloaded. Each file is checked before it is copied: well formed for citeproc-js's own XML parser,
// the style named by its file (its <id>), the locale by its xml:lang, and licensed CC BY-SA; a file
// that fails stops the build with its path and what is wrong, and out/csl is left as it was. The app
// then loads ordinary CSL XML, by the same path as a user's own .csl file, and `pandoc --citeproc`
// reads the very same files (test/integration/cite-pandoc).
//
// Usage: node scripts/build-csl.mjs [--out DIR] [--source DIR] [--quiet]
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(ROOT, 'package.json'));

/** Citewise style id → CSL style name (the file name in the CSL styles repository), shared with the formatter. */
export const BUILT_IN_STYLES = JSON.parse(
  readFileSync(join(ROOT, 'electron', 'core', 'formats', 'cite', 'built-in-styles.json'), 'utf8'),
);

/** Locales shipped: every file in resources/csl/locales; en-US and en-GB are required, the build fails without them. */
const REQUIRED_LOCALES = ['en-US', 'en-GB'];
const LICENSE_URL = /^https?:\/\/creativecommons\.org\/licenses\/by-sa\/3\.0\/?$/;

function parseArgs(argv) {
  const out = { out: join(ROOT, 'out', 'csl'), source: join(ROOT, 'resources', 'csl'), quiet: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out.out = resolve(argv[++i] ?? '');
    else if (argv[i] === '--source') out.source = resolve(argv[++i] ?? '');
    else if (argv[i] === '--quiet') out.quiet = true;
    else throw new Error(`build-csl: unknown argument ${argv[i]}`);
  }
  return out;
}

const child = (node, name) => node.children.find((c) => typeof c !== 'string' && c.name === name);
const text = (node) =>
  node
    ? node.children
        .filter((c) => typeof c === 'string')
        .join('')
        .trim()
    : '';

/** Parses one CSL file with citeproc-js's parser and checks its root, its licence and (for a style) its id. */
function check(CSL, file, rootName) {
  const where = relative(ROOT, file) || file;
  let tree;
  try {
    tree = CSL.parseXml(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`build-csl: ${where} is not well-formed CSL XML: ${err instanceof Error ? err.message : err}`, {
      cause: err,
    });
  }
  if (!tree || tree.name !== rootName) throw new Error(`build-csl: ${where} has no <${rootName}> root element`);
  const info = child(tree, 'info');
  const rights = info && child(info, 'rights');
  if (!rights || !LICENSE_URL.test(rights.attrs.license ?? ''))
    throw new Error(`build-csl: ${where} does not carry the CC BY-SA 3.0 licence in <info><rights license>`);
  return { tree, info };
}

export function buildCsl({ out, source, quiet = false } = {}) {
  const target = out ?? join(ROOT, 'out', 'csl');
  const from = source ?? join(ROOT, 'resources', 'csl');
  const sourceFile = join(from, 'source.json');
  if (!existsSync(sourceFile)) throw new Error(`build-csl: no ${sourceFile} (the CSL files' source and licence)`);
  const origin = JSON.parse(readFileSync(sourceFile, 'utf8'));
  for (const part of ['styles', 'locales'])
    if (!/^[0-9a-f]{40}$/.test(origin[part]?.commit ?? '') || !origin[part]?.repository)
      throw new Error(`build-csl: ${sourceFile} names no ${part} repository and commit`);
  const CSL = require('citeproc');

  const manifest = {
    source: {
      stylesRepository: origin.styles.repository,
      stylesCommit: origin.styles.commit,
      localesRepository: origin.locales.repository,
      localesCommit: origin.locales.commit,
      license: origin.license,
    },
    styles: {},
    locales: [],
  };
  const copies = [];
  for (const [id, name] of Object.entries(BUILT_IN_STYLES)) {
    const file = join(from, 'styles', `${name}.csl`);
    if (!existsSync(file)) throw new Error(`build-csl: the built-in style ${id} has no file ${relative(ROOT, file)}`);
    const { info } = check(CSL, file, 'style');
    const styleId = text(child(info, 'id'));
    if (!styleId.endsWith(`/styles/${name}`))
      throw new Error(`build-csl: ${relative(ROOT, file)} is the style ${styleId || '(no <id>)'}, not ${name}`);
    const title = text(child(info, 'title'));
    if (!title) throw new Error(`build-csl: ${relative(ROOT, file)} has no <title>`);
    copies.push([file, join('styles', `${name}.csl`)]);
    manifest.styles[id] = { name, file: `styles/${name}.csl`, title };
  }
  const localeFiles = readdirSync(join(from, 'locales'))
    .filter((f) => /^locales-[A-Za-z]{2,3}(-[A-Za-z0-9]+)*\.xml$/.test(f))
    .sort();
  for (const f of localeFiles) {
    const lang = f.slice('locales-'.length, -'.xml'.length);
    const file = join(from, 'locales', f);
    const { tree } = check(CSL, file, 'locale');
    if (tree.attrs['xml:lang'] !== lang)
      throw new Error(
        `build-csl: ${relative(ROOT, file)} is the locale ${tree.attrs['xml:lang'] ?? '(no xml:lang)'}, not ${lang}`,
      );
    copies.push([file, join('locales', f)]);
    manifest.locales.push(lang);
  }
  for (const lang of REQUIRED_LOCALES)
    if (!manifest.locales.includes(lang))
      throw new Error(`build-csl: locale ${lang} is missing from ${join(from, 'locales')}`);

  const tmp = `${target}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(join(tmp, 'styles'), { recursive: true });
  mkdirSync(join(tmp, 'locales'), { recursive: true });
  for (const [file, rel] of copies) copyFileSync(file, join(tmp, rel));
  // The licence and source travel with the files, into the packaged app.
  copyFileSync(join(from, 'README.md'), join(tmp, 'README.md'));
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
