/**
 * `hdi(samples, { hdiProb })`: the highest-density interval of draws, as ArviZ's `az.hdi`
 * computes it (the narrowest interval holding ⌊hdiProb·n⌋ + 1 of the n sorted draws; unimodal).
 */
import { checkBoolean, checkOptions, fail } from '../../src/checks.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { type DrawsStructure, type MapStructure, drawsLayout, float64Values, mapStructure } from './draws.js';

export interface HdiOptions {
  /** Probability mass of the interval, in (0, 1] (default 0.94, ArviZ's `stats.ci_prob`). */
  readonly hdiProb?: number;
  /** Drop NaN draws first (ArviZ's `skipna`; default false: NaNs sort last and propagate as in ArviZ). */
  readonly skipNa?: boolean;
}

const FN = 'hdi';

/**
 * ArviZ's `_hdi` on one scalar's draws (any order): sorts them, takes the narrowest window of
 * `⌊prob·n⌋` steps (the first one on ties) and returns its ends. Returns undefined when the
 * window does not fit (`⌊prob·n⌋ ≥ n`, e.g. prob = 1), where ArviZ raises.
 * NaN draws sort last; a window that reaches them makes the upper end NaN, as in NumPy's argmin.
 */
export function hdiOf(values: ArrayLike<number>, prob: number, skipNa = false): [number, number] | undefined {
  let x = Float64Array.from(values);
  if (skipNa) {
    const kept = x.filter((v) => v === v);
    if (kept.length > 0) x = kept;
  }
  return hdiOfSorted(x.sort(), prob);
}

/** {@link hdiOf} of draws already sorted (ascending, NaN last; for a caller that has them sorted). @internal */
export function hdiOfSorted(x: Float64Array, prob: number): [number, number] | undefined {
  const n = x.length;
  const inc = Math.floor(prob * n);
  const count = n - inc;
  if (count <= 0) return undefined;
  let best = 0;
  let bestWidth = x[inc]! - x[0]!;
  if (bestWidth === bestWidth) {
    for (let k = 1; k < count; k++) {
      const w = x[k + inc]! - x[k]!;
      if (w !== w) { best = k; break; }
      if (w < bestWidth) { bestWidth = w; best = k; }
    }
  }
  return [x[best]!, x[best + inc]!];
}

/**
 * The highest-density interval (HDI) of MCMC draws: the narrowest interval holding a fraction
 * `hdiProb` of them, as ArviZ's `az.hdi` computes it — sort the n draws (all chains pooled),
 * slide a window spanning ⌊hdiProb·n⌋ positions, and keep the narrowest (the first on ties).
 * Bit for bit ArviZ's numbers on the same doubles; unimodal only (ArviZ's default; no
 * `multimodal`, no `circular`).
 *
 * @param samples - draws in TFP layout `[draws, chains, ...event]` (a rank-1 part is one chain), as
 *   a `Tensor`, typed array or nested arrays, or an array or record of such parts.
 * @param options - `hdiProb` (default 0.94), `skipNa` (default false).
 * @returns Per part, a float64 `Tensor` of shape `[...event, 2]`: `[lower, upper]` per element.
 * @throws {TypeError} for samples that are not draws, a non-number `hdiProb`, a non-boolean
 *   `skipNa`, or an unknown option name.
 * @throws {RangeError} for `hdiProb` outside (0, 1], or too few draws for the interval
 *   (⌊hdiProb·n⌋ ≥ n, e.g. `hdiProb: 1`, where ArviZ raises too).
 *
 * @example
 * import { random } from 'stochax';
 * import { hdi } from 'stochax/mcmc';
 * const draws = random.normal(random.key(0), [1000, 4]);       // [draws, chains]
 * hdi(draws).toArray();                                        // → about [-1.88, 1.88]
 * hdi({ theta: random.normal(random.key(1), [500, 4, 3]) }, { hdiProb: 0.5 }).theta.shape;  // [3, 2]
 */
export function hdi<S extends DrawsStructure>(samples: S, options?: HdiOptions): MapStructure<S, Tensor> {
  const o = checkOptions(FN, options, ['hdiProb', 'skipNa']);
  const prob = o.hdiProb === undefined ? 0.94 : checkHdiProb(FN, 'hdiProb', o.hdiProb);
  const skipNa = o.skipNa === undefined ? false : checkBoolean(FN, 'skipNa', o.skipNa);
  return mapStructure(FN, 'samples', samples, (part, where) => {
    const layout = drawsLayout(FN, where, part);
    const values = float64Values(part);
    const { eventSize } = layout;
    const n = layout.draws * layout.chains;
    const out = new Float64Array(eventSize * 2);
    const column = new Float64Array(n);
    for (let e = 0; e < eventSize; e++) {
      for (let i = 0; i < n; i++) column[i] = values[i * eventSize + e]!;
      const r = hdiOf(column, prob, skipNa);
      if (r === undefined) fail('range', FN, 'hdiProb', `leaves too few draws for an interval (⌊hdiProb·n⌋ = ${Math.floor(prob * n)} of n = ${n} draws in ${where})`, prob);
      out[2 * e] = r[0];
      out[2 * e + 1] = r[1];
    }
    return new Tensor(out, [...layout.eventShape, 2], 'float64');
  }) as MapStructure<S, Tensor>;
}

/** A probability in (0, 1] (ArviZ's `hdi_prob` range). */
export function checkHdiProb(fn: string, arg: string, x: unknown): number {
  if (typeof x !== 'number') fail('type', fn, arg, 'must be a number', x);
  if (!(x > 0 && x <= 1)) fail('range', fn, arg, 'must be a probability in (0, 1]', x);
  return x;
}
