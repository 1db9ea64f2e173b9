/**
 * TFP's `tfp.mcmc.potential_scale_reduction`: the Brooks–Gelman (1998) variance ratio,
 * not square-rooted, optionally over split chains.
 */
import { checkBoolean, checkInteger, checkOptions, fail } from '../../src/checks.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { type DrawsStructure, type MapStructure, float64Values, mapStructure } from './draws.js';

export interface PotentialScaleReductionOptions {
  /** How many axes after the draws axis index independent chains (≥ 1). Default `1`. */
  readonly independentChainNdims?: number;
  /** Cut each chain into halves (dropping the last draw when N is odd). Default `false`. */
  readonly splitChains?: boolean;
}

const FN = 'potentialScaleReduction';

/**
 * Potential scale reduction of each scalar element, exactly TFP's formula:
 * `R̂ = ((M + 1)/M)·σ²₊/W − (N − 1)/(M·N)` with `σ²₊ = ((N − 1)/N)·W + B/N`, W the mean of the
 * unbiased within-chain variances, B/N the unbiased variance of the chain means, M chains of N
 * draws. This is Brooks & Gelman's variance ratio and is **not** square-rooted (it is roughly
 * the square of the classic √-form R-hat). For Stan/ArviZ's rank-normalized split R-hat use
 * {@link rhat}. Computed in float64.
 *
 * @param chainsStates - draws `[N, C1, ..., CD, ...event]` (a `Tensor`, typed array or nested
 *   arrays), or an array or record of such parts.
 * @param options - `independentChainNdims` (default `1`): D, the number of chain axes;
 *   `splitChains` (default `false`): treat each half of every chain as a chain.
 * @returns Float64 `Tensor`s of shape `shape[1 + D:]`, in the structure of `chainsStates`.
 * @throws {TypeError} for input that is not draws or an option of the wrong kind.
 * @throws {RangeError} when `independentChainNdims` < 1 or leaves no draws axis, with fewer
 *   than 2 draws (4 with `splitChains`), or fewer than 2 chains in all (TFP would return NaN).
 *
 * @example
 * import { random } from 'stochax';
 * import { potentialScaleReduction } from 'stochax/mcmc';
 * const draws = random.normal(random.key(0), [1000, 4, 2]);   // 4 chains, a 2-vector
 * potentialScaleReduction(draws).shape;                        // [2], each ≈ 1
 * potentialScaleReduction(draws, { splitChains: true });       // → Tensor float64 [2]
 */
export function potentialScaleReduction<S extends DrawsStructure>(
  chainsStates: S, options?: PotentialScaleReductionOptions,
): MapStructure<S, Tensor> {
  const o = checkOptions(FN, options, ['independentChainNdims', 'splitChains']);
  const icn = o.independentChainNdims === undefined ? 1 : checkInteger(FN, 'independentChainNdims', o.independentChainNdims);
  if (icn < 1) fail('range', FN, 'independentChainNdims', 'must be >= 1', icn);
  const split = o.splitChains === undefined ? false : checkBoolean(FN, 'splitChains', o.splitChains);
  return mapStructure(FN, 'chainsStates', chainsStates, (part, where) => rhatSingleState(part, where, icn, split)) as MapStructure<S, Tensor>;
}

function rhatSingleState(part: Tensor, where: string, icn: number, split: boolean): Tensor {
  const shape = part.shape;
  if (shape.length < 1 + icn) {
    fail('range', FN, where, `must have shape [draws, ${icn} chain ${icn === 1 ? 'axis' : 'axes'}, ...event] (independentChainNdims = ${icn})`, [...shape]);
  }
  const n0 = shape[0]!;
  if (split && n0 < 4) fail('range', FN, where, 'must have at least 4 draws along axis 0 when splitting chains', [...shape]);
  if (!split && n0 < 2) fail('range', FN, where, 'must have at least 2 draws along axis 0', [...shape]);
  const chainsIn = sizeOf(shape.slice(1, 1 + icn));
  const eventShape = shape.slice(1 + icn);
  const event = sizeOf(eventShape);
  const halves = split ? 2 : 1;
  const n = split ? Math.floor(n0 / 2) : n0;
  const m = chainsIn * halves;
  if (m < 2) fail('range', FN, where, 'must hold at least 2 chains (or use splitChains)', [...shape]);
  const values = float64Values(part);

  const out = new Float64Array(event);
  const chainMean = new Float64Array(m);
  const chainVar = new Float64Array(m);
  for (let e = 0; e < event; e++) {
    for (let h = 0; h < halves; h++) {
      for (let c = 0; c < chainsIn; c++) {
        const at = (d: number): number => values[((h * n + d) * chainsIn + c) * event + e]!;
        let s = 0;
        for (let d = 0; d < n; d++) s += at(d);
        const mu = s / n;
        let v = 0;
        for (let d = 0; d < n; d++) v += (at(d) - mu) ** 2;
        chainMean[h * chainsIn + c] = mu;
        chainVar[h * chainsIn + c] = v / (n - 1);
      }
    }
    let grand = 0;
    let w = 0;
    for (let j = 0; j < m; j++) { grand += chainMean[j]!; w += chainVar[j]!; }
    grand /= m;
    w /= m;
    let bDivN = 0;
    for (let j = 0; j < m; j++) bDivN += (chainMean[j]! - grand) ** 2;
    bDivN /= m - 1;
    const sigma2Plus = ((n - 1) / n) * w + bDivN;
    out[e] = ((m + 1) / m) * sigma2Plus / w - (n - 1) / (m * n);
  }
  return new Tensor(out, eventShape, 'float64');
}
