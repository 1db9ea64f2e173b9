/**
 * TFP's `tfp.mcmc.effective_sample_size`: per-chain (or cross-chain) ESS from the
 * autocovariance, truncated by a threshold, by a maximum lag, or by Geyer's initial positive
 * pairs.
 */
import { checkAxis, checkBoolean, checkNonNegativeInteger, checkOptions, fail } from '../../src/checks.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { type DrawsStructure, type MapStructure, float64Values, mapStructure, partOption } from './draws.js';
import { laggedProductSums } from './internal/autocov.js';

export interface EffectiveSampleSizeOptions {
  /**
   * Truncate the autocorrelation sequence from the first lag whose value falls below this
   * (`null`: no threshold filter). Default `0`. Ignored with `filterBeyondPositivePairs`.
   * Per part: an array (for an array of parts) or a record (for a record of parts).
   */
  readonly filterThreshold?: number | null | readonly (number | null)[] | { readonly [name: string]: number | null };
  /** Use at most this many lags (`null`: all, `N − 1`). Default `null`. Per part as above. */
  readonly filterBeyondLag?: number | null | readonly (number | null)[] | { readonly [name: string]: number | null };
  /** Keep only the lag pairs `(2m, 2m + 1)` before the first negative pair sum. Default `false`. */
  readonly filterBeyondPositivePairs?: boolean | readonly boolean[] | { readonly [name: string]: boolean };
  /**
   * Axes of the state (≥ 1) holding independent chains to pool into one cross-chain ESS
   * (Vehtari et al. 2021, eq. 10); they drop out of the result. `null`: per-chain ESS.
   * For an array of parts, give an array with one entry (an axis or axes) per part.
   */
  readonly crossChainDims?: number | readonly number[] | null | readonly (number | readonly number[] | null)[]
    | { readonly [name: string]: number | readonly number[] | null };
}

const FN = 'effectiveSampleSize';

/**
 * Effective sample size of each scalar element, TFP's estimator: `ESS = C·N / (−1 + 2·Σ_k
 * w_k)` with `w_k = (N − k)/N · R_k` and `R_k` the autocorrelation at lag `k`, estimated with
 * denominator `N − k`. Per chain, `R_k = acov_k / acov_0`; with `crossChainDims`,
 * `R_k = 1 − (W − mean_c acov_{k,c}) / (W + B/N)` (W the mean biased within-chain variance,
 * B/N the variance of the chain means) and `C` is the number of pooled chains. The sum is
 * truncated by `filterBeyondLag`, then by `filterBeyondPositivePairs` or else
 * `filterThreshold`. Computed in float64.
 *
 * @param states - draws `[N, ...]` with axis 0 indexing draws (a `Tensor`, typed array or
 *   nested arrays), or an array or record of such parts.
 * @param options - `filterThreshold` (default `0`), `filterBeyondLag` (default `null`),
 *   `filterBeyondPositivePairs` (default `false`), `crossChainDims` (default `null`).
 * @returns Float64 `Tensor`s of shape `states.shape[1:]` (minus `crossChainDims`), in the structure of `states`.
 * @throws {TypeError} for input that is not draws or an option of the wrong kind.
 * @throws {RangeError} for fewer than 2 draws, an axis out of range or equal to 0, or fewer
 *   than 2 chains along `crossChainDims`.
 *
 * @example
 * import { random } from 'stochax';
 * import { effectiveSampleSize } from 'stochax/mcmc';
 * const draws = random.normal(random.key(0), [1000, 4]);           // iid
 * effectiveSampleSize(draws).shape;                                  // [4], each ≈ 1000
 * effectiveSampleSize(draws, { crossChainDims: 1, filterBeyondPositivePairs: true }).item(); // ≈ 4000
 */
export function effectiveSampleSize<S extends DrawsStructure>(states: S, options?: EffectiveSampleSizeOptions): MapStructure<S, Tensor> {
  const o = checkOptions(FN, options, ['filterThreshold', 'filterBeyondLag', 'filterBeyondPositivePairs', 'crossChainDims']);
  return mapStructure(FN, 'states', states, (part, where, key) => {
    const threshold = partOption<unknown>(FN, 'filterThreshold', states, o.filterThreshold === undefined ? 0 : o.filterThreshold, key);
    if (threshold !== null && (typeof threshold !== 'number' || Number.isNaN(threshold))) {
      fail('type', FN, 'filterThreshold', 'must be a number or null', threshold);
    }
    const lag = partOption<unknown>(FN, 'filterBeyondLag', states, o.filterBeyondLag ?? null, key);
    const maxLag = lag === null ? null : checkNonNegativeInteger(FN, 'filterBeyondLag', lag);
    const pairs = checkBoolean(FN, 'filterBeyondPositivePairs',
      partOption<unknown>(FN, 'filterBeyondPositivePairs', states, o.filterBeyondPositivePairs ?? false, key));
    const cross = partOption<unknown>(FN, 'crossChainDims', states, o.crossChainDims ?? null, key);
    return essSingleState(part, where, threshold as number | null, maxLag, pairs, cross);
  }) as MapStructure<S, Tensor>;
}

function essSingleState(
  part: Tensor, where: string, threshold: number | null, lagLimit: number | null, pairs: boolean, crossArg: unknown,
): Tensor {
  const shape = part.shape;
  if (shape.length === 0) fail('range', FN, where, 'must have shape [draws, ...], not a scalar', [...shape]);
  const n = shape[0]!;
  if (n < 2) fail('range', FN, where, 'must have at least 2 draws along axis 0 (shape [draws, ...])', [...shape]);
  const rest = shape.slice(1);
  const cols = sizeOf(rest);
  const values = float64Values(part);

  // Which axes of `rest` are pooled chains.
  const pooled = new Array<boolean>(rest.length).fill(false);
  let cross = false;
  if (crossArg !== null) {
    cross = true;
    const axes = typeof crossArg === 'number' ? [crossArg] : Array.isArray(crossArg) ? crossArg : fail('type', FN, 'crossChainDims', 'must be an axis, an array of axes, or null', crossArg);
    for (const ax of axes) {
      const a = checkAxis(FN, 'crossChainDims', ax, shape.length);
      if (a === 0) fail('range', FN, 'crossChainDims', 'must not include axis 0, which indexes draws', crossArg);
      pooled[a - 1] = true;
    }
  }
  const outShape = rest.filter((_, i) => !pooled[i]);
  const outSize = sizeOf(outShape);
  const numChains = cross ? rest.reduce((a, d, i) => (pooled[i] ? a * d : a), 1) : 1;
  if (cross && numChains < 2) {
    fail('range', FN, 'crossChainDims', `must span more than 1 chain in ${where} of shape [${shape.join(', ')}]`, crossArg);
  }

  // Column j of `rest` (row-major) → output position (kept axes, row-major).
  const outIndex = new Int32Array(cols);
  for (let j = 0; j < cols; j++) {
    let rem = j;
    let o = 0;
    let stride = 1;
    for (let ax = rest.length - 1; ax >= 0; ax--) {
      const d = rest[ax]!;
      const idx = rem % d;
      rem = (rem - idx) / d;
      if (!pooled[ax]) { o += idx * stride; stride *= d; }
    }
    outIndex[j] = o;
  }

  const L = (lagLimit === null ? n - 1 : Math.min(n - 1, lagLimit)) + 1;
  // Autocovariance (TFP: denominator N − k) and mean of every column.
  const acov = new Float64Array(cols * L);
  const means = new Float64Array(cols);
  const centred = new Float64Array(n);
  for (let j = 0; j < cols; j++) {
    let m = 0;
    for (let i = 0; i < n; i++) m += values[i * cols + j]!;
    m /= n;
    means[j] = m;
    for (let i = 0; i < n; i++) centred[i] = values[i * cols + j]! - m;
    const sums = laggedProductSums(centred, [0], n, L - 1);
    for (let k = 0; k < L; k++) acov[j * L + k] = sums[k]! / (n - k);
  }

  const out = new Float64Array(outSize);
  const rho = new Float64Array(L);
  if (!cross) {
    for (let j = 0; j < cols; j++) {
      for (let k = 0; k < L; k++) rho[k] = acov[j * L + k]! / acov[j * L]!;
      out[outIndex[j]!] = essFromRho(rho, n, 1, threshold, pairs);
    }
    return new Tensor(out, outShape, 'float64');
  }
  // Cross-chain: pool the columns that share an output position.
  const groups: number[][] = Array.from({ length: outSize }, () => []);
  for (let j = 0; j < cols; j++) groups[outIndex[j]!]!.push(j);
  for (let o = 0; o < outSize; o++) {
    const g = groups[o]!;
    let meanOfMeans = 0;
    let w = 0;
    for (const j of g) { meanOfMeans += means[j]!; w += acov[j * L]!; }
    meanOfMeans /= g.length;
    w /= g.length;
    let bDivN = 0;
    for (const j of g) bDivN += (means[j]! - meanOfMeans) ** 2;
    bDivN /= g.length - 1;
    const varPlus = w + bDivN;
    for (let k = 0; k < L; k++) {
      let s = 0;
      for (const j of g) s += acov[j * L + k]!;
      rho[k] = 1 - (w - s / g.length) / varPlus;
    }
    out[o] = essFromRho(rho, n, numChains, threshold, pairs);
  }
  return new Tensor(out, outShape, 'float64');
}

/** `C·N / (−1 + 2·Σ w_k)` after TFP's masks (multiplied in, as TFP does, so NaN propagates). */
function essFromRho(rho: Float64Array, n: number, numChains: number, threshold: number | null, pairs: boolean): number {
  const L = rho.length;
  let sum = 0;
  if (pairs) {
    let negatives = 0;
    for (let m = 0; 2 * m + 1 < L; m++) {
      if (rho[2 * m]! + rho[2 * m + 1]! < 0) negatives++;
      const mask = Math.max(1 - negatives, 0);
      sum += (((n - 2 * m) / n) * rho[2 * m]! + ((n - 2 * m - 1) / n) * rho[2 * m + 1]!) * mask;
    }
  } else {
    let below = 0;
    for (let k = 0; k < L; k++) {
      let mask = 1;
      if (threshold !== null) {
        if (rho[k]! < threshold) below++;
        mask = Math.max(1 - below, 0);
      }
      sum += ((n - k) / n) * rho[k]! * mask;
    }
  }
  return (numChains * n) / (-1 + 2 * sum);
}
