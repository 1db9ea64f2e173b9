/**
 * A streaming variance (TFP's `tfp.experimental.stats.RunningVariance`) as a plain readonly
 * object, so it can sit in kernel results: sample count, running mean and the sum of squared
 * residuals, updated one sample or one chunk at a time with Pébay's (2008) formula (Welford's
 * for single samples): the TFP engine's variance estimate, its arithmetic `mcmc/nuts/welford.ts`'s
 * {@link addChunk}.
 */
import { fail } from '../../../src/checks.js';
import { asTensor, type TensorLike } from '../../../src/tensor/core.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import { addChunk } from '../welford.js';

/** Running variance state (TFP's `RunningVariance(num_samples, mean, sum_squared_residuals)`). */
export interface RunningVariance {
  readonly numSamples: number;
  readonly mean: Tensor;
  readonly sumSquaredResiduals: Tensor;
}

function f64(fn: string, arg: string, x: TensorLike): Tensor {
  const t = asTensor(fn, arg, x);
  return t.dtype === 'float64' ? t : t.astype('float64');
}

/**
 * A running variance that has seen `numSamples` samples with the given mean and (population)
 * variance (TFP's `RunningVariance.from_stats`); `numSamples: 0` starts empty (the mean and
 * variance then only fix the shape).
 *
 * @throws TypeError/RangeError for a negative count or mismatched mean and variance shapes.
 * @example
 * const rv = runningVarianceFromStats({ numSamples: 0, mean: zeros([4, 3]), variance: ones([4, 3]) });
 */
export function runningVarianceFromStats(stats: { numSamples: number; mean: TensorLike; variance: TensorLike }): RunningVariance {
  const fn = 'runningVarianceFromStats';
  const n = stats.numSamples;
  if (typeof n !== 'number' || !(n >= 0) || !Number.isFinite(n)) fail('range', fn, 'numSamples', 'must be a non-negative number', n);
  const mean = f64(fn, 'mean', stats.mean);
  const v = f64(fn, 'variance', stats.variance);
  if (v.shape.length !== mean.shape.length || v.shape.some((d, i) => d !== mean.shape[i])) {
    fail('range', fn, 'variance', `must have the shape of \`mean\` [${mean.shape.join(', ')}]`, v.shape);
  }
  const ssr = new Float64Array(v.size);
  const vd = v.data as Float64Array;
  for (let i = 0; i < ssr.length; i++) ssr[i] = n * vd[i]!;
  return { numSamples: n, mean, sumSquaredResiduals: new Tensor(ssr, mean.shape, 'float64') };
}

/**
 * `rv` updated with a chunk of samples: `sample` has shape `[m, ...rv.mean.shape]` (m samples
 * along axis 0), or exactly `rv.mean.shape` with `chunked: false` (one sample).
 *
 * @throws RangeError when the sample's shape does not match.
 * @example
 * rv = updateRunningVariance(rv, draws);   // draws: Tensor [m, 4, 3]
 */
export function updateRunningVariance(rv: RunningVariance, sample: TensorLike, chunked = true): RunningVariance {
  const fn = 'updateRunningVariance';
  const x = f64(fn, 'sample', sample);
  const shape = rv.mean.shape;
  const inner = chunked ? x.shape.slice(1) : x.shape;
  if (inner.length !== shape.length || inner.some((d, i) => d !== shape[i]) || (chunked && x.ndim === 0)) {
    fail('range', fn, 'sample', `must have shape ${chunked ? '[m, ' : '['}${shape.join(', ')}]`, x.shape);
  }
  const m = chunked ? x.shape[0]! : 1;
  const size = rv.mean.size;
  const xd = x.data as Float64Array, mu = rv.mean.data as Float64Array, s0 = rv.sumSquaredResiduals.data as Float64Array;
  const nA = rv.numSamples;
  const mean = new Float64Array(size), ssr = new Float64Array(size), out = new Float64Array(2);
  for (let i = 0; i < size; i++) {
    addChunk(out, nA, mu[i]!, s0[i]!, xd, i, size, m);
    mean[i] = out[0]!;
    ssr[i] = out[1]!;
  }
  return { numSamples: nA + m, mean: new Tensor(mean, shape, 'float64'), sumSquaredResiduals: new Tensor(ssr, shape, 'float64') };
}

/**
 * The variance accumulated so far, `sumSquaredResiduals / (numSamples − ddof)` (population
 * variance by default; NaN before any sample).
 * @example
 * runningVarianceValue(updateRunningVariance(rv, tensor([[1], [3]]))); // → Tensor [1]: [1] when rv was empty
 */
export function runningVarianceValue(rv: RunningVariance, ddof = 0): Tensor {
  const s = rv.sumSquaredResiduals.data as Float64Array;
  const out = new Float64Array(s.length);
  const d = rv.numSamples - ddof;
  for (let i = 0; i < s.length; i++) out[i] = s[i]! / d;
  return new Tensor(out, rv.mean.shape, 'float64');
}
