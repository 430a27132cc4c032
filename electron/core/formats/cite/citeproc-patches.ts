// Small, targeted corrections to citeproc-js 2.4.63, applied once when citeproc.ts loads it (in the
// main thread and in each citation worker). Each wraps one internal function; each has a test in
// test/unit/formats/cite/citeproc-patches.test.ts that fails without it. They assume citeproc-js's
// internals, so patchCiteproc refuses (throws at load) when a function it wraps is not there.
import { isOthersName } from '../../../../shared/model/others';

/** The parts of citeproc-js's internals the patches touch. */
interface CiteprocInternals {
  NameOutput: { prototype: Record<string, unknown> & { state?: unknown } };
  Util: { Names: Record<string, unknown> };
  getSortCompare: (this: CaseState, defaultLocale?: string) => (a: string, b: string) => number;
  toLocaleLowerCase: (this: CaseState, str: string) => string;
  toLocaleUpperCase: (this: CaseState, str: string) => string;
  stringCompare?: (a: string, b: string) => number;
  Disambiguation: { prototype: Record<string, unknown> };
  cloneAmbigConfig: (config: AmbigConfig) => AmbigConfig;
}

/** citeproc-js's record of what a cite shows to be told apart: names per name list, given-name levels. */
interface AmbigConfig {
  names: number[];
  givens: number[][];
}

/** The fields of citeproc-js's CSL.Disambiguation the name-disambiguation patch reads and restores. */
interface DisambiguationRun {
  lists: Array<[AmbigConfig, unknown[]]>;
  base: AmbigConfig;
  betterbase: AmbigConfig;
  gname: number;
  gnameset: number;
  modeindex: number;
  clashes: number[];
  partners: unknown[];
  nonpartners: unknown[];
  listpos: number;
  initGivens: boolean;
}

/** Where a run stood when it split a set of cites: the state the set split off must resume from. */
interface SplitPoint {
  base: AmbigConfig;
  betterbase: AmbigConfig;
  gname: number;
  gnameset: number;
  modeindex: number;
}

interface CaseState {
  tmp: { lang_array?: string[] };
}

interface NameState {
  tmp: { area: string; rendered_name: unknown };
  opt: Record<string, unknown>;
}

/** The NameOutput fields the "and others" patch reads. */
interface OthersOutput {
  citewiseOthers: Set<string> | undefined;
  freeters: Record<string, unknown[] | undefined>;
  freeters_count: Record<string, number | undefined>;
  etal_spec: Record<string, { freeters: number } | undefined>;
}

/** Added to the names an entry rendered when its list was cut short (et al., or an ellipsis). */
const TRUNCATED = '\u0000et-al';

const APPLIED = Symbol.for('citewise.citeproc-patches');

/** Strings remembered per language list by the casing patch before it starts over. */
const MEMO_LIMIT = 100_000;

export function patchCiteproc<T extends object>(csl: T): T {
  const internals = csl as unknown as CiteprocInternals & { [APPLIED]?: true };
  if (internals[APPLIED]) return csl;
  const proto = internals.NameOutput?.prototype;
  const names = internals.Util?.Names;
  for (const [what, fn] of [
    ['NameOutput.prototype._joinEtAl', proto?._joinEtAl],
    ['NameOutput.prototype._joinEllipsis', proto?._joinEllipsis],
    ['NameOutput.prototype.divideAndTransliterateNames', proto?.divideAndTransliterateNames],
    ['NameOutput.prototype._normalizeVariableValue', proto?._normalizeVariableValue],
    ['NameOutput.prototype.truncatePersonalNameLists', proto?.truncatePersonalNameLists],
    ['NameOutput.prototype.setEtAlParameters', proto?.setEtAlParameters],
    ['Util.Names.initializeWith', names?.initializeWith],
    ['getSortCompare', internals.getSortCompare],
    ['toLocaleLowerCase', internals.toLocaleLowerCase],
    ['toLocaleUpperCase', internals.toLocaleUpperCase],
    ['Disambiguation.prototype.disNames', internals.Disambiguation?.prototype?.disNames],
    ['Disambiguation.prototype.incrementDisambig', internals.Disambiguation?.prototype?.incrementDisambig],
    ['cloneAmbigConfig', internals.cloneAmbigConfig],
  ] as const) {
    if (typeof fn !== 'function')
      throw new Error(`citeproc-js has no ${what}: the patches in citeproc-patches.ts need review for this version`);
  }

  // subsequent-author-substitute ("———" for a repeated author list, MLA and others) compares the
  // names an entry rendered with the previous entry's. citeproc-js records only the names, so
  // "Lefèvre, Carlos, et al." and then "Lefèvre, Carlos" looked the same and the second became "———".
  // CSL replaces the list only when it is the same list: recording the cut makes them differ.
  for (const key of ['_joinEtAl', '_joinEllipsis'] as const) {
    const join = proto[key] as (this: { state: NameState }, ...args: unknown[]) => unknown;
    proto[key] = function (this: { state: NameState }, ...args: unknown[]) {
      const tmp = this.state.tmp;
      if (tmp.area === 'bibliography' && Array.isArray(tmp.rendered_name)) tmp.rendered_name.push(TRUNCATED);
      return join.apply(this, args);
    };
  }

  // "and others": a name list that ends in {"literal": "others"} (BibTeX's `and others`, as pandoc
  // writes it in CSL-JSON) names fewer authors than the work has. pandoc's citeproc prints the names
  // and the style's "et al."; citeproc-js printed "others" as one more author. The marker is taken off
  // the list and counted as a name cut: the list is then shortened as the style's et-al-min and
  // et-al-use-first say for its length with the marker, and ends in "et al." (never in APA's
  // "… last author", whom the list does not name).
  const divide = proto.divideAndTransliterateNames as (this: OthersOutput) => unknown;
  proto.divideAndTransliterateNames = function (this: OthersOutput) {
    this.citewiseOthers = undefined;
    return divide.call(this);
  };
  const normalize = proto._normalizeVariableValue as (this: OthersOutput, item: unknown, v: string) => unknown[];
  proto._normalizeVariableValue = function (this: OthersOutput, item: unknown, v: string) {
    const names = normalize.call(this, item, v);
    if (names.length >= 2 && isOthersName(names[names.length - 1])) {
      names.pop();
      (this.citewiseOthers ??= new Set()).add(v);
    }
    return names;
  };
  const truncate = proto.truncatePersonalNameLists as (this: OthersOutput) => unknown;
  proto.truncatePersonalNameLists = function (this: OthersOutput) {
    const result = truncate.call(this);
    for (const v of this.citewiseOthers ?? []) {
      // Without spoof_institutional_affiliations (off in citeproc-js) every name is a "freeter".
      if (this.freeters[v]?.length && typeof this.freeters_count[v] === 'number') this.freeters_count[v] += 1;
    }
    return result;
  };
  const setEtAl = proto.setEtAlParameters as (this: OthersOutput) => unknown;
  proto.setEtAlParameters = function (this: OthersOutput) {
    const result = setEtAl.call(this);
    for (const v of this.citewiseOthers ?? []) {
      const spec = this.etal_spec[v];
      if (spec && spec.freeters === 2) spec.freeters = 1;
    }
    return result;
  };

  // With initialize-with-hyphen="false" (Vancouver, AMA) each part of a compound given name is an
  // initial: Min-jun → MJ, as Ji-Woo → JW. citeproc-js takes a lower-case part after a hyphen for
  // a particle and leaves it whole ("Zhang M jun"). Initialising, the part is capitalised first.
  const initializeWith = names.initializeWith as (
    state: NameState,
    name: unknown,
    terminator: unknown,
    normalizeOnly: unknown,
  ) => unknown;
  names.initializeWith = function (
    this: unknown,
    state: NameState,
    name: unknown,
    terminator: unknown,
    normalizeOnly: unknown,
  ) {
    const compound =
      !normalizeOnly &&
      state?.opt?.['initialize-with-hyphen'] === false &&
      typeof name === 'string' &&
      name.includes('-');
    const given = compound
      ? (name as string).replace(/-(\p{Ll})/gu, (_m, c: string) => `-${c.toLocaleUpperCase()}`)
      : name;
    return initializeWith.call(this, state, given, terminator, normalizeOnly);
  };

  // Name disambiguation (disambiguate-add-names with given names by cite: MLA, Chicago, APA's
  // add-names). citeproc-js works through a set of cites that read alike ("Laurent et al." x 4) with one
  // counter that only moves forward: more of the first given name, then one more name, and so on.
  // When a step tells part of the set apart ("M. Laurent et al." x 2 against "H." and "J."), it splits
  // the set and finishes the first part (the two M. Laurents need a second name) before it turns to
  // the rest, but it turns to them with the counter where the first part left it, so "H. Laurent" and
  // "J. Laurent", which their initials had already told apart, got the names the M. Laurents needed
  // (and one more); and a cite that read differently from the one it compares with since an earlier
  // step was not split off at all. Citations and, through them, bibliography entries (CSL 1.0.2 carries what a cite
  // needed into its entry) then printed names nothing asked for. The CSL specification adds names
  // only to the cites still ambiguous, and pandoc (jgm/citeproc) does: each part split off resumes
  // from the state of the split, and is first checked as it stood there.
  const disambiguation = internals.Disambiguation.prototype;
  const cloneConfig = internals.cloneAmbigConfig;
  const splits = new WeakMap<object, SplitPoint>();
  const current = new WeakMap<object, object>();
  const disNames = disambiguation.disNames as (this: DisambiguationRun, ismax?: boolean) => unknown;
  disambiguation.disNames = function (this: DisambiguationRun, ismax?: boolean) {
    const lists = this.lists.length;
    const clashing = this.clashes[1] !== 0 && this.nonpartners.length > 1;
    // citeproc-js splits a set only when a step lowered the count of cites that read like the one it
    // looks at (its case [d]); cites that read differently from it since an earlier step stayed in the
    // set and were given every further step. They are split off too: taken as case [d], the cites
    // that still read alike go on, the others are a new set.
    if (clashing && !ismax && this.clashes[1]! >= this.clashes[0]!) this.clashes[0] = this.clashes[1]! + 1;
    const split = clashing && this.clashes[1]! < this.clashes[0]!;
    const point: SplitPoint | undefined = split
      ? {
          base: cloneConfig(this.base),
          betterbase: undefined as unknown as AmbigConfig,
          gname: this.gname,
          gnameset: this.gnameset,
          modeindex: this.modeindex,
        }
      : undefined;
    const result = disNames.call(this, ismax);
    if (point && this.lists.length === lists + 1) {
      point.betterbase = cloneConfig(this.betterbase);
      const pushed = this.lists[lists]!;
      this.lists[lists] = [cloneConfig(point.betterbase), pushed[1]];
      splits.set(this.lists[lists]!, point);
    }
    return result;
  };
  const increment = disambiguation.incrementDisambig as (this: DisambiguationRun) => boolean;
  disambiguation.incrementDisambig = function (this: DisambiguationRun) {
    const list = this.lists[0];
    if (list && current.get(this) !== list) {
      current.set(this, list);
      const point = splits.get(list);
      if (point) {
        this.base = cloneConfig(point.base);
        this.betterbase = cloneConfig(point.betterbase);
        list[0] = this.betterbase;
        this.gname = point.gname;
        this.gnameset = point.gnameset;
        this.modeindex = point.modeindex;
        this.initGivens = false;
        // As at the start of a run: the set is first scanned as it stood, without a step.
        return false;
      }
    }
    return increment.call(this);
  };

  // Speed, not output. Lower- and upper-casing ask ICU with the engine's language list at every call
  // (12 µs each, tens of thousands per bibliography): the results are remembered per language list.
  // Sorting compared with String.prototype.localeCompare(b, locale, options), which builds a collator
  // at every comparison (35 µs); ECMA-402 defines it as new Intl.Collator(locale, options).compare,
  // so one collator per sort gives the same order. Measured: see README.md (Performance).
  for (const key of ['toLocaleLowerCase', 'toLocaleUpperCase'] as const) {
    const convert = internals[key];
    const memo = new Map<string, Map<string, string>>();
    internals[key] = function (this: CaseState, str: string): string {
      const arr = this?.tmp?.lang_array;
      if (typeof str !== 'string' || !Array.isArray(arr)) return convert.call(this, str);
      const langs = arr.join('\u0000');
      let known = memo.get(langs);
      if (!known) memo.set(langs, (known = new Map()));
      let value = known.get(str);
      if (value === undefined) {
        value = convert.call(this, str);
        if (known.size >= MEMO_LIMIT) known.clear();
        known.set(str, value);
      }
      return value;
    };
  }
  internals.getSortCompare = function (this: CaseState, defaultLocale?: string) {
    if (internals.stringCompare) return internals.stringCompare;
    const collator = new Intl.Collator(defaultLocale || 'en-US', {
      sensitivity: 'base',
      ignorePunctuation: true,
      numeric: true,
    });
    const strcmp = (a: string, b: string): number =>
      collator.compare(internals.toLocaleLowerCase.call(this, a), internals.toLocaleLowerCase.call(this, b));
    const stripPunct = (str: string): string => str.replace(/^[[\]'"]*/g, '');
    // As citeproc-js: brackets are ignored in sorting when the collator does not ignore them itself.
    if (!strcmp('[x', 'x')) return strcmp;
    return (a: string, b: string): number => strcmp(stripPunct(a), stripPunct(b));
  };

  internals[APPLIED] = true;
  return csl;
}
