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
