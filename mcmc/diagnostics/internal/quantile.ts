/**
 * Sample quantiles of a sorted array, two ways that agree in value but not in rounding:
 * SciPy's `mstats.mquantiles(alphap=1, betap=1)` (what ArviZ's `_quantile` calls, R type 7)
 * and NumPy's default `quantile(method='linear')`. Each repeats its library's floating-point
 * steps, so a draw equal to a quantile compares equal here too.
 */

/**
 * Ascending copy of `x` (NaN last). Inside {@link sharingSortedDraws} the copy is kept and given
 * again for the same values (checked bit for bit), so callers treat it as read only.
 */
export function sorted(x: Float64Array): Float64Array {
  if (shared === undefined) return Float64Array.from(x).sort();
  const key = `${x.length}:${x[0]}:${x[x.length >> 1]}:${x[x.length - 1]}`;   // a cheap first sieve; sameBits decides
  let entries = shared.byKey.get(key);
  for (const e of entries ?? []) if (sameBits(e.data, x)) return e.sorted;
  const out = Float64Array.from(x).sort();
  if (shared.values + x.length <= SHARED_VALUES) {
    if (entries === undefined) shared.byKey.set(key, (entries = []));
    entries.push({ data: Float64Array.from(x), sorted: out });   // a copy: the caller may change x later
    shared.values += x.length;
  }
  return out;
}

/** The sorted copies kept inside {@link sharingSortedDraws}, by a sieve key, with the draws they sort. */
let shared: { byKey: Map<string, { data: Float64Array; sorted: Float64Array }[]>; values: number } | undefined;
/** At most this many draws kept (twice: the draws and their sort, 128 MB). */
const SHARED_VALUES = 1 << 23;

/**
 * Runs `f` with {@link sorted}'s copies kept for reuse: the summary, the rank plots and the
 * histograms of one run sort the same draws, each once this way. Nested calls share the outer scope.
 *
 * @example
 * const [table, html] = sharingSortedDraws(() => { const s = summary(draws); return [s, reportHtml({ draws, summary: s })]; });
 */
export function sharingSortedDraws<T>(f: () => T): T {
  return sortedDrawsScope()(f);
}

/**
 * A {@link sharingSortedDraws} scope to enter more than once: each call runs `f` with the same
 * kept sorts, so work done at different times (a run's warnings right after sampling, its summary
 * and report later) sorts each quantity once. The sorts live as long as the returned function.
 *
 * @example
 * const sorting = sortedDrawsScope();
 * const warnings = sorting(() => samplingWarnings(draws, trace));
 * const table = sorting(() => summary(draws));   // the warnings' sorts again
 */
export function sortedDrawsScope(): <T>(f: () => T) => T {
  const store: NonNullable<typeof shared> = { byKey: new Map(), values: 0 };
  return (f) => {
    if (shared !== undefined) return f();
    shared = store;
    try {
      return f();
    } finally {
      shared = undefined;
    }
  };
}

/** The draws of `a` and `b` equal bit for bit (NaN payloads and the sign of zero included). @internal */
export function sameBits(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  const x = new Int32Array(a.buffer, a.byteOffset, 2 * a.length), y = new Int32Array(b.buffer, b.byteOffset, 2 * b.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** `mquantiles(x, p, alphap=1, betap=1)` of an ascending array. */
export function mquantile(sortedX: Float64Array, p: number): number {
  const n = sortedX.length;
  if (n === 1) return sortedX[0]!;
  const m = 1 + p * (1 - 1 - 1);
  const aleph = n * p + m;
  const k = Math.floor(Math.min(Math.max(aleph, 1), n - 1));
  const gamma = Math.min(Math.max(aleph - k, 0), 1);
  return (1 - gamma) * sortedX[k - 1]! + gamma * sortedX[k]!;
}

/** NumPy's `quantile(x, p)` (linear interpolation) of an ascending array. */
export function numpyQuantile(sortedX: Float64Array, p: number): number {
  const n = sortedX.length;
  const virtual = (n - 1) * p;
  const prev = Math.min(Math.max(Math.floor(virtual), 0), n - 1);
  const next = Math.min(prev + 1, n - 1);
  const t = virtual - Math.floor(virtual);
  const a = sortedX[prev]!;
  const b = sortedX[next]!;
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/** NumPy's `median` of an ascending array (mean of the two middle values for even sizes). */
export function median(sortedX: Float64Array): number {
  const n = sortedX.length;
  const h = n >> 1;
  return n % 2 === 1 ? sortedX[h]! : (sortedX[h - 1]! + sortedX[h]!) / 2;
}
