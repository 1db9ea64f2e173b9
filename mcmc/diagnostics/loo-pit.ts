/**
 * LOO-PIT, the leave-one-out probability integral transform (Gelfand et al. 1992; Gabry et al.
 * 2019), the same numbers as ArviZ 0.23's `az.loo_pit`: for each observation yᵢ, the LOO
 * predictive probability that a replicate is at most yᵢ, Σₛ wᵢˢ · 1[ŷᵢˢ ≤ yᵢ], with wᵢˢ the
 * Pareto-smoothed LOO importance weights. A calibrated model gives values that look uniform on
 * [0, 1]; a U shape means the predictive is too narrow, a hump too wide, a slope a bias.
 */
import { checkOptions, fail } from '../../src/checks.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { type Draws, type DrawsStructure, componentChains, drawsLayout, float64Values, toTensor } from './draws.js';
import { type LogLikelihoodInput, logLikMatrix, reffFromPosterior } from './loo.js';
import { logSumExp, psisSmooth, tailLength } from './internal/psis.js';
import { detExp } from '../../src/math/index.js';

export interface LooPitOptions {
  /** The pointwise log-likelihood `[draws, chains, ...observations]` (or a record by node, see `varName`): the weights are PSIS-smoothed from it. */
  readonly logLik?: LogLikelihoodInput;
  /** Which entry of a record of log-likelihoods to use. */
  readonly varName?: string;
  /** Posterior draws, for r_eff as `az.loo_pit` computes it from an InferenceData (not with `reff`). */
  readonly posterior?: DrawsStructure;
  /** Relative efficiency for the smoothing (default: from `posterior`, else 1). */
  readonly reff?: number;
  /** Normalised log weights `[draws, chains, ...observations]` to use instead of `logLik` (ArviZ's `log_weights`). */
  readonly logWeights?: Draws;
}

const SIGNED_INT = new Set(['int8', 'int16', 'int32', 'int64']);

/**
 * The LOO-PIT value of each observation, shaped like `y`, as `az.loo_pit(idata, y=…)` (with
 * `logLik`, and `posterior` for r_eff) or `az.loo_pit(y=, y_hat=, log_weights=)` (with
 * `logWeights`). As in ArviZ, when `y` or `yHat` has a signed-integer dtype both are first
 * smoothed by ArviZ's cubic spline (`smooth_data`), so discrete data give values ArviZ gives.
 *
 * @param y - the observations (a number, array or Tensor; shape = the observation shape).
 * @param yHat - posterior predictive draws `[draws, chains, ...observations]` (e.g.
 *   `samplePosteriorPredictive(...)[node]`).
 * @param options - `logLik` or `logWeights` (one is needed), `posterior` or `reff`, `varName`.
 * @throws {TypeError} for non-numeric input or an unknown option.
 * @throws {RangeError} when the shapes disagree, neither or both of `logLik`/`logWeights` are
 *   given, both `reff` and `posterior`, or integer data with fewer than 2 observations or draws.
 * @example
 * import { JointDistributionNamed, Normal, Sample } from 'stochax/distributions';
 * import { looPit, logLikelihood, samplePosteriorPredictive, windowedAdaptiveNuts } from 'stochax/mcmc';
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 10 }),
 *   y: ({ mu }) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: 3 }),
 * });
 * const y = [1.2, 0.7, 2.1];
 * const { draws } = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
 * const yHat = samplePosteriorPredictive(model, draws, { seed: 1 }).y!;
 * looPit(y, yHat, { logLik: logLikelihood(model, draws, { y }), posterior: draws }).toNumbers();   // three values in [0, 1]
 */
export function looPit(y: unknown, yHat: unknown, options?: LooPitOptions): Tensor {
  const fn = 'looPit';
  const o = checkOptions(fn, options, ['logLik', 'varName', 'posterior', 'reff', 'logWeights']);
  if ((o.logLik === undefined) === (o.logWeights === undefined)) fail('range', fn, 'options', 'give exactly one of `logLik` and `logWeights`', options);
  if (o.logWeights !== undefined && (o.reff !== undefined || o.posterior !== undefined || o.varName !== undefined)) {
    fail('range', fn, 'options', '`reff`, `posterior` and `varName` are for `logLik`; `logWeights` are used as given', options);
  }
  if (o.reff !== undefined && o.posterior !== undefined) fail('range', fn, 'options', 'give `reff` or `posterior`, not both', options);
  const yt = toTensor(fn, 'y', y);
  const ht = toTensor(fn, 'yHat', yHat);
  const layout = drawsLayout(fn, 'yHat', ht);
  if (layout.eventShape.join() !== yt.shape.join()) {
    fail('range', fn, 'yHat', `must have shape [draws, chains, ...${JSON.stringify(yt.shape)}] (y's shape after the draws and chains)`, [...ht.shape]);
  }
  const n = layout.eventSize, S = layout.draws * layout.chains;
  // ŷ per observation, chain-major (ArviZ's stacked (chain, draw) sample order)
  const hv = float64Values(ht);
  const hatRows = new Float64Array(n * S);
  for (let j = 0; j < n; j++) hatRows.set(componentChains(hv, layout, j).data, j * S);
  let yv: Float64Array = Float64Array.from(float64Values(yt));

  const m = logLikMatrix(fn, o.logLik !== undefined ? 'logLik' : 'logWeights', o.logLik ?? o.logWeights, o.varName);
  if (m.nSamples !== S || m.nData !== n) {
    fail('range', fn, o.logLik !== undefined ? 'logLik' : 'logWeights', `must have yHat's shape ${JSON.stringify(ht.shape)}`, m.obsShape);
  }
  const lw = m.rows;   // a fresh copy, chain-major per observation
  if (o.logLik !== undefined) {
    const reff = o.reff !== undefined ? positiveReff(fn, o.reff) : o.posterior !== undefined ? reffFromPosterior(fn, o.posterior, S) : 1;
    const tail = tailLength(S, reff);
    for (let j = 0; j < n; j++) {
      const row = lw.subarray(j * S, (j + 1) * S);
      for (let s = 0; s < S; s++) row[s] = -row[s]!;
      psisSmooth(row, tail);
    }
  }
  if (SIGNED_INT.has(yt.dtype) || SIGNED_INT.has(ht.dtype)) {
    if (yt.shape.length === 0 || yt.shape[0]! < 2 || S < 2) fail('range', fn, 'y', 'with integer data needs at least 2 observations and 2 draws (ArviZ smooths them with a cubic spline)', [...yt.shape]);
    yv = smoothAlongFirstAxis(yv, yt.shape[0]!, n / yt.shape[0]!);
    for (let j = 0; j < n; j++) hatRows.set(splineResample(hatRows.subarray(j * S, (j + 1) * S)), j * S);
  }
  const out = new Float64Array(n);
  const sel: number[] = [];
  for (let j = 0; j < n; j++) {
    sel.length = 0;
    for (let s = 0; s < S; s++) if (hatRows[j * S + s]! <= yv[j]!) sel.push(lw[j * S + s]!);
    out[j] = sel.length === 0 ? 0 : Math.min(1, detExp(logSumExp(sel)));
  }
  return new Tensor(out, [...yt.shape], 'float64');
}

function positiveReff(fn: string, x: unknown): number {
  if (typeof x !== 'number') fail('type', fn, 'reff', 'must be a number', x);
  if (!(x > 0 && Number.isFinite(x))) fail('range', fn, 'reff', 'must be positive and finite', x);
  return x;
}

/** ArviZ's smoothing of observations: the spline over the first axis, column by column. */
function smoothAlongFirstAxis(v: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(v.length);
  const col = new Float64Array(rows);
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) col[r] = v[r * cols + c]!;
    const s = splineResample(col);
    for (let r = 0; r < rows; r++) out[r * cols + c] = s[r]!;
  }
  return out;
}

/**
 * ArviZ's `smooth_data` on one vector: SciPy's `CubicSpline` (not-a-knot ends) through the n
 * values at x = linspace(0, 1, n), evaluated at linspace(0.01, 0.99, n). On a uniform grid
 * not-a-knot makes the second derivative linear over the first and last two intervals, so
 * M₁ = r₁/6 and M₍ₙ₋₂₎ = r₍ₙ₋₂₎/6, and the rows between are tridiagonal (solved by Thomas).
 */
function splineResample(y: Float64Array): Float64Array {
  const n = y.length;
  const h = 1 / (n - 1);
  const M = new Float64Array(n);   // second derivatives (0 for n = 2: a line)
  const r = (i: number) => 6 * (y[i - 1]! - 2 * y[i]! + y[i + 1]!) / (h * h);
  if (n === 3) M.fill(r(1) / 6);   // one parabola
  else if (n >= 4) {
    M[1] = r(1) / 6;
    M[n - 2] = r(n - 2) / 6;
    // rows i = 2 … n−3: M[i−1] + 4 M[i] + M[i+1] = r(i), with M[1] and M[n−2] known
    const k = n - 4;
    if (k > 0) {
      const c = new Float64Array(k), d = new Float64Array(k);
      for (let t = 0; t < k; t++) {
        const i = t + 2;
        let rhs = r(i);
        if (t === 0) rhs -= M[1]!;
        if (t === k - 1) rhs -= M[n - 2]!;
        const denom = 4 - (t > 0 ? c[t - 1]! : 0);
        c[t] = 1 / denom;
        d[t] = (rhs - (t > 0 ? d[t - 1]! : 0)) / denom;
      }
      for (let t = k - 1; t >= 0; t--) M[t + 2] = d[t]! - c[t]! * (t < k - 1 ? M[t + 3]! : 0);
    }
    M[0] = 2 * M[1]! - M[2]!;
    M[n - 1] = 2 * M[n - 2]! - M[n - 3]!;
  }
  const out = new Float64Array(n);
  for (let q = 0; q < n; q++) {
    const x = 0.01 + (0.98 * q) / (n - 1);
    const i = Math.min(n - 2, Math.max(0, Math.floor(x / h)));
    const a = (i + 1) * h - x, b = x - i * h;
    out[q] = (M[i]! * a * a * a + M[i + 1]! * b * b * b) / (6 * h)
      + (y[i]! - (M[i]! * h * h) / 6) * (a / h) + (y[i + 1]! - (M[i + 1]! * h * h) / 6) * (b / h);
  }
  return out;
}
