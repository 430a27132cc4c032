#!/usr/bin/env node
// Build step: the CSL styles repository the Styles browser offers (docs/styles.md), taken from the
// machine's copy when there is one: Debian's citation-style-language-styles
// (/usr/share/citation-style-language/styles, or --source DIR / $CITEWISE_STYLE_SOURCE). It writes
// out/csl-collection/ (or --out DIR):
//   index.json            every style (independent and dependent): file name, title, short title,
//                         fields, citation format, default locale, and a dependent's parent
//   styles/NAME.csl.gz    each independent style, gzipped, byte for byte as the source has it
//   COPYRIGHT             the package's copyright file (the styles are CC BY-SA 3.0)
// Nothing is downloaded and the repository holds none of the files. Without a source folder it
// writes an index saying so ({ available: false }), and the app shows "no style collection on this
// machine"; `npm install && npm start` work either way. An index already built from the same source
// (same folder, file count and newest modification time) is kept, so a rebuild costs nothing.
//
// Usage: node scripts/build-style-collection.mjs [--out DIR] [--source DIR] [--quiet]
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEBIAN = '/usr/share/citation-style-language/styles';
const DEBIAN_COPYRIGHT = '/usr/share/doc/citation-style-language-styles/copyright';
const FORMAT = 2;

function parseArgs(argv) {
  const out = {
    out: join(ROOT, 'out', 'csl-collection'),
    source: process.env.CITEWISE_STYLE_SOURCE || DEBIAN,
    quiet: false,
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out.out = resolve(argv[++i] ?? '');
    else if (argv[i] === '--source') out.source = resolve(argv[++i] ?? '');
    else if (argv[i] === '--quiet') out.quiet = true;
    else throw new Error(`build-style-collection: unknown argument ${argv[i]}`);
  }
  return out;
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s) =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, e) => ENTITIES[e])
    .replace(/\s+/g, ' ')
    .trim();
const element = (info, name) => {
  const m = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`).exec(info);
  return m ? decode(m[1]) : '';
};
const attr = (tag, name) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? decode(m[1]) : null;
};

/** The index entry of one style file, or a reason it is not a style. */
export function describeStyle(name, xml) {
  const root = /<style\b[^>]*>/.exec(xml);
  const info = /<info>([\s\S]*?)<\/info>/.exec(xml)?.[1];
  if (!root || !info) return { problem: 'no <style> with <info>' };
  const title = element(info, 'title');
  if (!title) return { problem: 'no <title>' };
  const id = element(info, 'id');
  const tags = info.match(/<(?:category|link)\b[^>]*\/?>/g) ?? [];
  const fields = [];
  let format = null;
  let parent = null;
  for (const tag of tags) {
    if (tag.startsWith('<category')) {
      const f = attr(tag, 'field');
      if (f && !fields.includes(f)) fields.push(f);
      format ??= attr(tag, 'citation-format');
    } else if (attr(tag, 'rel') === 'independent-parent') {
      parent = (attr(tag, 'href') ?? '').replace(/^https?:\/\/www\.zotero\.org\/styles\//, '') || null;
    }
  }
  const entry = { name, title };
  const short = element(info, 'title-short');
  if (short) entry.short = short;
  if (id) entry.id = id;
  if (fields.length) entry.fields = fields.sort();
  if (format) entry.format = format;
  const locale = attr(root[0], 'default-locale');
  if (locale) entry.locale = locale;
  if (parent) entry.parent = parent;
  return { entry };
}

function stampOf(source) {
  const files = [];
  for (const dir of [source, join(source, 'dependent')])
    if (existsSync(dir)) for (const f of readdirSync(dir)) if (f.endsWith('.csl')) files.push(join(dir, f));
  let newest = 0;
  for (const f of files) newest = Math.max(newest, statSync(f).mtimeMs);
  return { source, files: files.length, newest: Math.floor(newest) };
}

export function buildStyleCollection({ out, source, quiet = false } = {}) {
  const target = out ?? join(ROOT, 'out', 'csl-collection');
  const from = source ?? DEBIAN;
  const say = (m) => quiet || console.log(`build-style-collection: ${m}`);
  const indexFile = join(target, 'index.json');
  if (!existsSync(from)) {
    const absent = { format: FORMAT, available: false, reason: `no CSL styles folder at ${from}` };
    mkdirSync(target, { recursive: true });
    rmSync(join(target, 'styles'), { recursive: true, force: true });
    writeFileSync(indexFile, `${JSON.stringify(absent)}\n`);
    say(`${absent.reason}: the Styles browser will say there is no style collection on this machine`);
    return absent;
  }
  const stamp = stampOf(from);
  try {
    const old = JSON.parse(readFileSync(indexFile, 'utf8'));
    if (old.format === FORMAT && old.available && JSON.stringify(old.stamp) === JSON.stringify(stamp)) {
      say(`up to date (${old.styles.length} styles from ${from})`);
      return old;
    }
  } catch {
    // No index yet, or an unreadable one: build it.
  }
  const styles = [];
  const skipped = [];
  const tmp = `${target}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(join(tmp, 'styles'), { recursive: true });
  for (const [dir, dependent] of [
    [from, false],
    [join(from, 'dependent'), true],
  ]) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort()) {
      if (!file.endsWith('.csl')) continue;
      const name = file.slice(0, -4);
      const xml = readFileSync(join(dir, file));
      const { entry, problem } = describeStyle(name, xml.toString('utf8'));
      if (!entry) {
        skipped.push(`${file}: ${problem}`);
        continue;
      }
      if (dependent !== Boolean(entry.parent)) {
        skipped.push(`${file}: ${dependent ? 'a dependent style without its parent link' : 'links to a parent'}`);
        continue;
      }
      if (!dependent) writeFileSync(join(tmp, 'styles', `${name}.csl.gz`), gzipSync(xml, { level: 9 }));
      styles.push(entry);
    }
  }
  // A dependent style whose parent is not there cannot be installed: left out, and said.
  const independent = new Set(styles.filter((s) => !s.parent).map((s) => s.name));
  // In title order, so a search lists its matches alphabetically without sorting them each time.
  const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
  const kept = styles
    .filter((s) => !s.parent || independent.has(s.parent))
    .sort((a, b) => collator.compare(a.title, b.title) || (a.name < b.name ? -1 : 1));
  for (const s of styles)
    if (s.parent && !independent.has(s.parent)) skipped.push(`${s.name}: its parent ${s.parent} is missing`);
  const index = {
    format: FORMAT,
    available: true,
    source: from === DEBIAN ? 'Debian citation-style-language-styles' : from,
    license: 'CC BY-SA 3.0 (https://creativecommons.org/licenses/by-sa/3.0/)',
    stamp,
    styles: kept,
    skipped,
  };
  if (from === DEBIAN && existsSync(DEBIAN_COPYRIGHT))
    writeFileSync(join(tmp, 'COPYRIGHT'), readFileSync(DEBIAN_COPYRIGHT));
  writeFileSync(join(tmp, 'index.json'), `${JSON.stringify(index)}\n`);
  const old = `${target}.old-${process.pid}-${Date.now()}`;
  mkdirSync(dirname(target), { recursive: true });
  if (existsSync(target)) renameSync(target, old);
  renameSync(tmp, target);
  rmSync(old, { recursive: true, force: true });
  say(
    `${kept.length} styles (${independent.size} independent, ${kept.length - independent.size} dependent) from ${from} → ${target}${skipped.length ? `; ${skipped.length} skipped` : ''}`,
  );
  return index;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    buildStyleCollection(parseArgs(process.argv.slice(2)));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  }
}
