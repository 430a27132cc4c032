// Small, targeted corrections to citeproc-js 2.4.63, applied once when citeproc.ts loads it (in the
// main thread and in each citation worker). Each wraps one internal function; each has a test in
// test/unit/formats/cite/citeproc-patches.test.ts that fails without it. They assume citeproc-js's
// internals, so patchCiteproc refuses (throws at load) when a function it wraps is not there.

/** The parts of citeproc-js's internals the patches touch. */
interface CiteprocInternals {
  NameOutput: { prototype: Record<string, unknown> & { state?: unknown } };
  Util: { Names: Record<string, unknown> };
}

interface NameState {
  tmp: { area: string; rendered_name: unknown };
  opt: Record<string, unknown>;
}

/** Added to the names an entry rendered when its list was cut short (et al., or an ellipsis). */
const TRUNCATED = '\u0000et-al';

const APPLIED = Symbol.for('citewise.citeproc-patches');

export function patchCiteproc<T extends object>(csl: T): T {
  const internals = csl as unknown as CiteprocInternals & { [APPLIED]?: true };
  if (internals[APPLIED]) return csl;
  const proto = internals.NameOutput?.prototype;
  const names = internals.Util?.Names;
  for (const [what, fn] of [
    ['NameOutput.prototype._joinEtAl', proto?._joinEtAl],
    ['NameOutput.prototype._joinEllipsis', proto?._joinEllipsis],
    ['Util.Names.initializeWith', names?.initializeWith],
  ] as const) {
    if (typeof fn !== 'function') throw new Error(`citeproc-js has no ${what}: the patches in citeproc-patches.ts need review for this version`);
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

  // With initialize-with-hyphen="false" (Vancouver, AMA) each part of a compound given name is an
  // initial: Min-jun → MJ, as Ji-Woo → JW. citeproc-js takes a lower-case part after a hyphen for
  // a particle and leaves it whole ("Zhang M jun"). Initialising, the part is capitalised first.
  const initializeWith = names.initializeWith as (state: NameState, name: unknown, terminator: unknown, normalizeOnly: unknown) => unknown;
  names.initializeWith = function (this: unknown, state: NameState, name: unknown, terminator: unknown, normalizeOnly: unknown) {
    const compound = !normalizeOnly && state?.opt?.['initialize-with-hyphen'] === false && typeof name === 'string' && name.includes('-');
    const given = compound ? (name as string).replace(/-(\p{Ll})/gu, (_m, c: string) => `-${c.toLocaleUpperCase()}`) : name;
    return initializeWith.call(this, state, given, terminator, normalizeOnly);
  };

  internals[APPLIED] = true;
  return csl;
}
