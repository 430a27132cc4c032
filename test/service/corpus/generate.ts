// The seeded corpus generator. One pass builds the bibliographic skeleton in typed arrays (years,
// fields, journals, authors, the reference graph and its citation statements, tallies), then papers and
// graph rows are written to SQLite in large transactions, and indexes are built after loading.
import Database from 'better-sqlite3';
import { Rng, base62, rngFor, slugify } from './rng';
import { FIELDS, PUBLISHERS, PREPRINT_SERVER, GIVEN_NAMES, FAMILY_NAMES, AFFILIATIONS } from './vocab';
import { KIND, topicFor, titleFor, abstractFor, keywordsFor } from './text';
import { issn, orcid } from './identifiers';
import { createSchema, INDEXES, SCHEMA_VERSION } from './schema';
import { generateEvidence } from './evidence';

export interface GenerateOptions {
  papers: number;
  seed: number;
  /** Called with progress messages. */
  log?: (message: string) => void;
}

export const FIRST_YEAR = 1985;
export const LAST_YEAR = 2025;
/** Citation statement ids start here, like the real service's large integers. */
export const CITATION_ID_BASE = 2_100_000_000;

// Citation types (low two bits of kind).
export const T_MENTIONING = 0;
export const T_SUPPORTING = 1;
export const T_CONTRADICTING = 2;
export const T_UNCLASSIFIED = 3;

export const NOTICE_STATUSES = [
  'Has correction',
  'Has erratum',
  'Has expression of concern',
  'Retracted',
  'Withdrawn',
] as const;
/** Per-paper rates, a little above the real ones so that a demo corpus shows each kind. */
const NOTICE_RATES = [0.012, 0.006, 0.0015, 0.003, 0.0008];

class GrowableInt32 {
  data: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Int32Array(Math.max(16, capacity));
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}

function lowerBound(cum: Float64Array, end: number, x: number): number {
  let lo = 0;
  let hi = end - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function generateCorpus(path: string, options: GenerateOptions): void {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const N = Math.max(50, Math.floor(options.papers));
  const seed = options.seed >>> 0;
  const rng = new Rng(seed, 1);

  const db = new Database(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -262144');
  db.pragma('page_size = 8192');
  createSchema(db);

  // ---- Journals ------------------------------------------------------------------------------
  interface J {
    id: number;
    field: number;
    name: string;
    short: string;
    code: string;
    pub: (typeof PUBLISHERS)[number];
    slug: string;
    issnPrint: string;
    issnE: string | null;
    firstYear: number;
    quality: number;
  }
  const journals: J[] = [];
  const journalsByField: number[][] = FIELDS.map(() => []);
  const jr = rngFor(seed, KIND.journal, 0);
  const codeOf = (name: string): string =>
    name
      .split(/\s+/)
      .filter((w) => /^[A-Z]/.test(w))
      .map((w) => w[0]!.toLowerCase())
      .join('');
  FIELDS.forEach((field, fi) => {
    for (const [name, short] of field.journals) {
      const id = journals.length + 1;
      const pub = jr.pick(PUBLISHERS);
      journals.push({
        id,
        field: fi,
        name,
        short,
        code: codeOf(name),
        pub,
        slug: base62(jr, 5),
        issnPrint: issn(jr),
        issnE: jr.chance(0.8) ? issn(jr) : null,
        firstYear: jr.int(1960, 2005),
        quality: 0.3 + jr.next() * 2.5,
      });
      journalsByField[fi]!.push(id);
    }
  });
  const preprintJournal: J = {
    id: journals.length + 1,
    field: -1,
    name: PREPRINT_SERVER[0],
    short: PREPRINT_SERVER[1],
    code: 'rs',
    pub: PUBLISHERS[1]!,
    slug: base62(jr, 5),
    issnPrint: issn(jr),
    issnE: null,
    firstYear: 2017,
    quality: 0.2,
  };
  journals.push(preprintJournal);

  // ---- Affiliations and authors -----------------------------------------------------------------
  const affSlugs = AFFILIATIONS.map(
    (name, i) => `${slugify(name, 10)}-${base62(rngFor(seed, KIND.author, -1 - i), 4)}`,
  );
  const A = Math.max(60, Math.round(N * 0.45));
  const authorField = new Uint8Array(A + 1);
  const authorAff = new Int32Array(A + 1);
  const authorWeight = new Float64Array(A + 1);
  const authorsByField: number[][] = FIELDS.map(() => []);
  for (let a = 1; a <= A; a++) {
    const f = rng.int(0, FIELDS.length - 1);
    authorField[a] = f;
    authorAff[a] = rng.chance(0.9) ? rng.int(1, AFFILIATIONS.length) : 0;
    authorWeight[a] = Math.min(120, rng.pareto(1.35));
    authorsByField[f]!.push(a);
  }
  const authorCum = authorsByField.map((list) => {
    const cum = new Float64Array(list.length);
    let s = 0;
    list.forEach((a, i) => {
      s += authorWeight[a]!;
      cum[i] = s;
    });
    return cum;
  });

  // ---- Papers: year, field, journal, authors -------------------------------------------------------
  // Years grow roughly exponentially, like the literature; papers are numbered in publication order.
  const years = new Uint16Array(N);
  {
    const span = LAST_YEAR - FIRST_YEAR + 1;
    const w: number[] = [];
    for (let y = 0; y < span; y++) w.push(Math.exp(y * 0.075));
    const total = w.reduce((a, b) => a + b, 0);
    let idx = 0;
    for (let y = 0; y < span; y++) {
      const count = y === span - 1 ? N - idx : Math.round((w[y]! / total) * N);
      for (let k = 0; k < count && idx < N; k++) years[idx++] = FIRST_YEAR + y;
    }
    while (idx < N) years[idx++] = LAST_YEAR;
  }
  const field = new Uint8Array(N);
  const journalOf = new Int32Array(N);
  const isPreprint = new Uint8Array(N);
  const publishedOf = new Int32Array(N).fill(-1); // preprint idx -> published idx
  const preprintOf = new Int32Array(N).fill(-1);
  const hasFulltext = new Uint8Array(N);
  const authorStart = new Int32Array(N + 1);
  const authorList = new GrowableInt32(N * 5);
  const weight = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    field[i] = rng.int(0, FIELDS.length - 1);
    journalOf[i] = rng.pick(journalsByField[field[i]!]!);
    hasFulltext[i] = rng.chance(0.72) ? 1 : 0;
    weight[i] = Math.min(5000, rng.pareto(1.5));
  }
  // Preprint/published pairs: the preprint shares field, authors and (nearly) the title.
  for (let i = 0; i + 1 < N; i++) {
    if (years[i]! >= 2017 && !isPreprint[i] && preprintOf[i] === -1 && publishedOf[i] === -1 && rng.chance(0.035)) {
      isPreprint[i] = 1;
      publishedOf[i] = i + 1;
      preprintOf[i + 1] = i;
      field[i + 1] = field[i]!;
      journalOf[i + 1] = rng.pick(journalsByField[field[i]!]!);
      journalOf[i] = preprintJournal.id;
    }
  }
  for (let i = 0; i < N; i++) {
    authorStart[i] = authorList.length;
    if (preprintOf[i]! >= 0) {
      const p = preprintOf[i]!;
      for (let k = authorStart[p]!; k < authorStart[p + 1]!; k++) authorList.push(authorList.data[k]!);
      continue;
    }
    const f = field[i]!;
    const count = Math.max(1, Math.min(14, Math.round(Math.exp(1.35 + rng.normal() * 0.5))));
    const list = authorsByField[f]!;
    const cum = authorCum[f]!;
    const seen = new Set<number>();
    for (let k = 0; k < count * 3 && seen.size < count; k++) {
      const a = rng.chance(0.85)
        ? list[lowerBound(cum, cum.length, rng.next() * cum[cum.length - 1]!)]!
        : rng.int(1, A);
      if (!seen.has(a)) {
        seen.add(a);
        authorList.push(a);
      }
    }
  }
  authorStart[N] = authorList.length;

  // Landmark papers among the oldest: heavily cited, some with more than 3,000 statements.
  const landmarks = new Map<number, { p: number; perRef: number }>();
  {
    const count = Math.max(3, Math.round(N / 25000));
    const pool = Math.max(count * 3, Math.floor(N * 0.08));
    for (let k = 0; k < count; k++) {
      let idx = rng.int(0, pool - 1);
      while (landmarks.has(idx) || isPreprint[idx]) idx = (idx + 1) % pool;
      const statements = k === 0 ? 3200 + rng.int(0, 1500) : Math.round(600 + rng.pareto(1.1) * 800);
      const later = N - idx - 1;
      const p = Math.min(0.9, Math.max(0.002, statements / (later * 2.6)));
      const perRef = Math.max(1, statements / (later * p));
      landmarks.set(idx, { p, perRef });
      weight[idx] = 0; // cited through the landmark rule only
    }
  }

  // ---- Reference graph and citation statements ---------------------------------------------------
  const cum = new Float64Array(N);
  const fieldIdx: Int32Array[] = FIELDS.map(() => new Int32Array(N));
  const fieldCum: Float64Array[] = FIELDS.map(() => new Float64Array(N));
  const fieldCount = new Int32Array(FIELDS.length);
  const lastPaperOfAuthor = new Int32Array(A + 1).fill(-1);

  const refSrc = new GrowableInt32(N * 9);
  const refTgt = new GrowableInt32(N * 9);
  const stSrc = new GrowableInt32(N * 10);
  const stTgt = new GrowableInt32(N * 10);
  const stKind = new GrowableInt32(N * 10);
  const tally = new Int32Array(N * 5); // sup, con, men, unc, citingPublications (as target)
  const citingTally = new Int32Array(N * 5); // sup, con, men, unc, citedPublications (as source)
  const landmarkList = [...landmarks.entries()];

  const sharesAuthor = (x: number, y: number): boolean => {
    for (let a = authorStart[x]!; a < authorStart[x + 1]!; a++) {
      for (let b = authorStart[y]!; b < authorStart[y + 1]!; b++)
        if (authorList.data[a] === authorList.data[b]) return true;
    }
    return false;
  };

  const addStatement = (src: number, tgt: number, self: boolean): void => {
    const r = rng.next();
    const type = r < 0.045 ? T_SUPPORTING : r < 0.056 ? T_CONTRADICTING : r < 0.071 ? T_UNCLASSIFIED : T_MENTIONING;
    const s = rng.next();
    let section: number;
    if (type === T_SUPPORTING || type === T_CONTRADICTING) section = s < 0.7 ? 3 : s < 0.92 ? 2 : 0;
    else section = s < 0.42 ? 0 : s < 0.6 ? 1 : s < 0.72 ? 2 : s < 0.95 ? 3 : 4;
    stSrc.push(src);
    stTgt.push(tgt);
    stKind.push(type | (section << 2) | ((self ? 1 : 0) << 5));
    tally[tgt * 5 + type]!++;
    citingTally[src * 5 + type]!++;
  };

  const targets = new Set<number>();
  for (let i = 0; i < N; i++) {
    const f = field[i]!;
    targets.clear();
    if (i > 0 && !isPreprint[i]) {
      const available = i;
      const k = Math.min(available, Math.max(0, Math.round(Math.exp(1.9 + rng.normal() * 0.6))));
      for (let attempt = 0; attempt < k * 3 && targets.size < k; attempt++) {
        let t: number;
        if (rng.chance(0.82) && fieldCount[f]! > 0) {
          const n = fieldCount[f]!;
          const fc = fieldCum[f]!;
          t = fieldIdx[f]![lowerBound(fc, n, rng.next() * fc[n - 1]!)]!;
        } else {
          t = lowerBound(cum, i, rng.next() * cum[i - 1]!);
        }
        if (t < i && weight[t]! > 0) targets.add(t);
      }
      // Authors cite their own earlier work.
      if (rng.chance(0.25)) {
        const a = authorList.data[authorStart[i]! + rng.int(0, authorStart[i + 1]! - authorStart[i]! - 1)]!;
        const t = lastPaperOfAuthor[a]!;
        if (t >= 0 && t < i && !isPreprint[t]) targets.add(t);
      }
      for (const [lm, rule] of landmarkList) {
        if (lm < i && rng.chance(rule.p)) targets.add(lm);
      }
    }
    for (const t of targets) {
      refSrc.push(i);
      refTgt.push(t);
      tally[t * 5 + 4]!++;
      citingTally[i * 5 + 4]!++;
      const lm = landmarks.get(t);
      if (!hasFulltext[i] && !lm) continue;
      const self = sharesAuthor(i, t);
      const n = lm ? Math.max(1, Math.round(lm.perRef * (0.5 + rng.next()))) : 1 + rng.geometric(0.62);
      for (let s = 0; s < n; s++) addStatement(i, t, self);
    }
    // Make paper i available as a target for later papers.
    cum[i] = (i > 0 ? cum[i - 1]! : 0) + weight[i]! * (years[i]! >= LAST_YEAR - 1 ? 0.3 : 1);
    const n = fieldCount[f]!;
    fieldIdx[f]![n] = i;
    fieldCum[f]![n] = (n > 0 ? fieldCum[f]![n - 1]! : 0) + weight[i]!;
    fieldCount[f] = n + 1;
    for (let a = authorStart[i]!; a < authorStart[i + 1]!; a++) lastPaperOfAuthor[authorList.data[a]!] = i;
  }
  log(
    `graph: ${N} papers, ${refSrc.length} references, ${stSrc.length} citation statements (${Date.now() - started} ms)`,
  );

  // ---- Editorial notices -------------------------------------------------------------------------
  const noticeFlags = new Uint8Array(N);
  NOTICE_RATES.forEach((rate, kind) => {
    const count = Math.max(2, Math.round(N * rate));
    for (let k = 0; k < count; k++) {
      let idx = rng.int(0, N - 1);
      for (let tries = 0; tries < 10 && (isPreprint[idx] || years[idx]! > LAST_YEAR - 1); tries++)
        idx = rng.int(0, N - 1);
      noticeFlags[idx]! |= 1 << kind;
    }
  });
  // A landmark with an expression of concern and one retracted paper with many citations make good demos.
  noticeFlags[landmarkList[1]![0]]! |= 1 << 2;
  noticeFlags[landmarkList[2]![0]]! |= 1 << 3;

  // ---- DOIs ---------------------------------------------------------------------------------------
  const doiOf = (i: number): string => {
    const j = journals[journalOf[i]! - 1]!;
    const y = years[i]!;
    if (j === preprintJournal) return `${j.pub.prefix}/rs.${y}.${(i + 1).toString(36)}`;
    // Older Wiley-style SICI DOIs contain characters that must be escaped in URLs.
    if (j.pub.memberId === 311 && y < 2000)
      return `${j.pub.prefix}/(sici)${j.issnPrint}(${y}01)${(i % 90) + 1}:1<${(i % 97) + 1}::aid-${j.code}${i + 1}>3.0.co;2-${String.fromCharCode(97 + (i % 26))}`;
    return `${j.pub.prefix}/${j.code}.${y}.${String(i + 1).padStart(6, '0')}`;
  };

  // ---- Write -------------------------------------------------------------------------------------
  const insJournal = db.prepare('INSERT INTO journals VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)');
  const insAff = db.prepare('INSERT INTO affiliations VALUES (?,?,?)');
  const insAuthor = db.prepare('INSERT INTO authors VALUES (?,?,?,?,?,?,?,?)');
  const authorCompact: string[] = new Array<string>(A + 1);
  db.transaction(() => {
    for (const j of journals)
      insJournal.run(
        j.id,
        j.name,
        j.short,
        j.slug,
        j.code,
        j.pub.name,
        j.pub.memberId,
        j.pub.prefix,
        j.issnPrint,
        j.issnE,
        j.field,
        j.firstYear,
        j.quality,
      );
    AFFILIATIONS.forEach((name, i) => insAff.run(i + 1, name, affSlugs[i]!));
    for (let a = 1; a <= A; a++) {
      const r = rngFor(seed, KIND.author, a);
      let given = r.pick(GIVEN_NAMES);
      if (!given.includes('.') && r.chance(0.3)) given += ` ${String.fromCharCode(65 + r.int(0, 25))}.`;
      const family = r.pick(FAMILY_NAMES);
      const slug = `${slugify(`${given} ${family}`, 6)}-${base62(r, 6)}`;
      const id = r.chance(0.35) ? orcid(r) : null;
      authorCompact[a] = [given, family, slug, id ?? '', authorAff[a] ? String(authorAff[a]) : ''].join('\u001f');
      insAuthor.run(
        a,
        given,
        family,
        slug,
        id,
        authorAff[a] || null,
        authorField[a]!,
        `20${String(r.int(15, 22))}-0${r.int(1, 9)}-1${r.int(0, 9)}T0${r.int(0, 9)}:1${r.int(0, 9)}:00Z`,
      );
    }
  })();

  const insPaper = db.prepare(
    'INSERT INTO papers VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)',
  );
  const insPA = db.prepare('INSERT INTO paper_authors VALUES (?,?)');
  const insNotice = db.prepare('INSERT INTO notices VALUES (?,?,?,?)');
  const BATCH = 20000;
  for (let start = 0; start < N; start += BATCH) {
    db.transaction(() => {
      for (let i = start; i < Math.min(N, start + BATCH); i++) {
        const id = i + 1;
        const pr = rngFor(seed, KIND.paper + 100, id);
        const j = journals[journalOf[i]! - 1]!;
        const f = field[i]!;
        // A published version keeps its preprint's topic and title.
        const topicId = preprintOf[i]! >= 0 ? preprintOf[i]! + 1 : id;
        const topic = topicFor(seed, topicId, f);
        const title = titleFor(seed, topicId, topic);
        const hasAbstract = pr.chance(0.62) || landmarks.has(i);
        const abstract = hasAbstract ? abstractFor(seed, id, topic) : null;
        const keywords = pr.chance(0.45) ? JSON.stringify(keywordsFor(seed, id, topic)) : null;
        const y = years[i]!;
        let type = 'journal-article';
        let ntypes = ['article'];
        let pmType: string | null = null;
        const tr = pr.next();
        if (isPreprint[i]) {
          type = 'posted-content';
          ntypes = ['preprint'];
        } else if (f === 5 && tr < 0.3) {
          type = 'proceedings-article';
          ntypes = ['conference paper'];
        } else if (tr < 0.1) {
          ntypes = ['review'];
          if (tr < 0.03) ntypes = ['review', 'systematic review'];
        } else if (tr < 0.12) {
          type = 'book-chapter';
          ntypes = ['book chapter'];
        } else if (tr < 0.14) {
          ntypes = ['letter'];
        }
        if (FIELDS[f]!.stats === 'clinical' || FIELDS[f]!.stats === 'biomedical') {
          pmType = ntypes.includes('review')
            ? 'Review'
            : ntypes[0] === 'article' && pr.chance(0.3)
              ? 'Randomized Controlled Trial'
              : 'Journal Article';
          if (pmType === 'Randomized Controlled Trial') ntypes = ['article', 'clinical trial'];
        }
        const volume = String(Math.max(1, y - j.firstYear + 1));
        const issue = isPreprint[i] || pr.chance(0.12) ? null : String(pr.int(1, 12));
        const first = pr.int(1, 2400);
        const page = isPreprint[i]
          ? `rs.${id}`
          : f === 4 || pr.chance(0.15)
            ? String(pr.int(100000, 999999))
            : `${first}-${first + pr.int(4, 22)}`;
        const aIds: number[] = [];
        const affIds: string[] = [];
        for (let k = authorStart[i]!; k < authorStart[i + 1]!; k++) {
          const a = authorList.data[k]!;
          aIds.push(a);
          const aff = pr.chance(0.85) ? authorAff[a]! : pr.chance(0.5) ? pr.int(1, AFFILIATIONS.length) : 0;
          affIds.push(aff ? String(aff) : '');
          insPA.run(a, id);
        }
        const flags = noticeFlags[i]!;
        const t = i * 5;
        insPaper.run(
          id,
          doiOf(i),
          `${slugify(title, 7)}-${base62(pr, 6)}`,
          title,
          abstract,
          keywords,
          y,
          pr.int(1, 12),
          pr.int(1, 28),
          j.id,
          volume,
          issue,
          page,
          type,
          JSON.stringify(ntypes),
          pmType,
          f,
          flags & (1 << 3) ? 1 : 0,
          flags,
          preprintOf[i]! >= 0 ? doiOf(preprintOf[i]!) : null,
          publishedOf[i]! >= 0 ? doiOf(publishedOf[i]!) : null,
          aIds.join(','),
          affIds.join(','),
          aIds.map((a) => authorCompact[a]!).join('\u001e'),
          tally[t + 1],
          tally[t + 2],
          tally[t],
          tally[t + 3],
          tally[t + 4],
          citingTally[t + 1],
          citingTally[t + 2],
          citingTally[t],
          citingTally[t + 3],
          citingTally[t + 4],
        );
        if (flags) {
          for (let kind = 0; kind < NOTICE_STATUSES.length; kind++) {
            if (!(flags & (1 << kind))) continue;
            const ny = Math.min(LAST_YEAR, y + pr.int(0, 4));
            const date = `${ny}-${String(pr.int(1, 12)).padStart(2, '0')}-${String(pr.int(1, 28)).padStart(2, '0')}`;
            const noticeDoi = `${j.pub.prefix}/${j.code}.${ny}.n${String(id).padStart(6, '0')}${kind}`;
            insNotice.run(id, NOTICE_STATUSES[kind]!, date, noticeDoi);
            // The real service sometimes lists the same notice twice.
            if (pr.chance(0.1)) insNotice.run(id, NOTICE_STATUSES[kind]!, date, noticeDoi);
          }
        }
      }
    })();
  }
  log(`papers written (${Date.now() - started} ms)`);

  // Graph rows, sorted by target (counting sort) so that the clustered keys are appended in order.
  const sortByTarget = (tgt: GrowableInt32): Int32Array => {
    const counts = new Int32Array(N + 1);
    for (let k = 0; k < tgt.length; k++) counts[tgt.data[k]! + 1]!++;
    for (let k = 1; k <= N; k++) counts[k]! += counts[k - 1]!;
    const order = new Int32Array(tgt.length);
    for (let k = 0; k < tgt.length; k++) order[counts[tgt.data[k]!]!++] = k;
    return order;
  };
  {
    const order = sortByTarget(refTgt);
    const ins = db.prepare('INSERT INTO refs VALUES (?,?)');
    for (let s = 0; s < order.length; s += 200000) {
      db.transaction(() => {
        for (let k = s; k < Math.min(order.length, s + 200000); k++) {
          const o = order[k]!;
          ins.run(refTgt.data[o]! + 1, refSrc.data[o]! + 1);
        }
      })();
    }
  }
  {
    const order = sortByTarget(stTgt);
    const ins = db.prepare('INSERT INTO citations VALUES (?,?,?,?)');
    for (let s = 0; s < order.length; s += 200000) {
      db.transaction(() => {
        for (let k = s; k < Math.min(order.length, s + 200000); k++) {
          const o = order[k]!;
          ins.run(stTgt.data[o]! + 1, CITATION_ID_BASE + k, stSrc.data[o]! + 1, stKind.data[o]!);
        }
      })();
    }
  }
  log(`graph written (${Date.now() - started} ms)`);

  generateEvidence(db, { seed, papers: N });
  log(`evidence written (${Date.now() - started} ms)`);

  // Let SQLite's sorter use a second thread while building indexes.
  db.pragma('threads = 2');
  db.exec(INDEXES);
  db.exec("INSERT INTO evidence_fts(evidence_fts) VALUES ('rebuild')");
  const setMeta = db.prepare('INSERT INTO meta VALUES (?,?)');
  setMeta.run('schemaVersion', String(SCHEMA_VERSION));
  setMeta.run('seed', String(seed));
  setMeta.run('papers', String(N));
  setMeta.run('authors', String(A));
  setMeta.run('generatedAt', new Date().toISOString());
  setMeta.run('generationMs', String(Date.now() - started));
  db.exec('ANALYZE');
  db.close();
  log(`indexes built (${Date.now() - started} ms)`);
}
