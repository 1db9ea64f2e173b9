/**
 * `laplace`: Stan's `laplace_sample` — a normal approximation at the mode in the unconstrained
 * space, its draws mapped to constrained space, with the log density (`logP`) and the
 * approximation's (`logQ`) per draw and PSIS's Pareto k̂ of their ratio to judge it.
 */
import { checkBoolean, checkCount, checkOptions, fail } from '../src/checks.js';
import type { FlatTarget } from '../src/compile/flat-target.js';
import { normal } from '../src/random/normal.js';
import { foldIn, sanitizeSeed, type Seed } from '../src/samplers/seeds.js';
import { cholesky } from '../src/tensor/linalg-kernels.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { JointDistribution } from '../distributions/joint/joint-distribution.js';
import type { JointDistributionPinned } from '../distributions/joint/joint-distribution-pinned.js';
import type { PartialValues, Struct, StructKind } from '../distributions/joint/values.js';
import { paretoKThreshold, psisSmooth, tailLength } from '../mcmc/diagnostics/internal/psis.js';
import { unconstrainDraw } from '../mcmc/internal/init.js';
import { fdHessian } from './hessian.js';
import { optimize, type OptimizeResult } from './optimize.js';
import { problem } from './problem.js';
import { detLog } from '../src/math/index.js';

const FN = 'laplace';
const LOG_2PI = detLog(2 * Math.PI);

export interface LaplaceOptions {
  /** Values for observed nodes (a model only). */
  readonly pins?: PartialValues;
  /**
   * The mode: an `optimize` result, unconstrained coordinates (a Float64Array; for a flat target
   * any array of numbers), or constrained values of the unpinned nodes (a model). Default:
   * `optimize(model, { pins, jacobian, seed })` (the mode of the same density).
   */
  readonly mode?: OptimizeResult | PartialValues | ArrayLike<number>;
  /** Number of draws (default 1000). */
  readonly draws?: number;
  /** Include the log-Jacobian (default true, Stan's: the approximation is of the unconstrained density). */
  readonly jacobian?: boolean;
  /** Seed of the draws (and of the default `optimize` start); the draws are a pure function of it. */
  readonly seed?: Seed;
}

export interface LaplaceResult<P = Record<string, Tensor> | Tensor[]> {
  /** Draws, constrained, `[draws, 1, ...event]` per node (for a flat target: per coordinate, `[draws, 1]`). */
  readonly draws: P;
  /** The draws in unconstrained coordinates, row-major `[draws, dim]`. */
  readonly unconstrained: Float64Array;
  /** The log density at each draw (with the log-Jacobian when `jacobian`), `[draws, 1]`; −∞ where it fails. */
  readonly logP: Tensor;
  /** The normal approximation's log density at each draw (normalised), `[draws, 1]`. */
  readonly logQ: Tensor;
  /** Pareto k̂ of the importance ratios logP − logQ (PSIS): below ~0.7 the approximation is usable for importance sampling. */
  readonly paretoK: number;
  /** The mode (unconstrained) and the Hessian of the log density there (row-major dim × dim). */
  readonly mode: Float64Array;
  readonly hessian: Float64Array;
  /** The approximation's covariance (−H)⁻¹ (row-major dim × dim). */
  readonly covariance: Float64Array;
  /** Gradient evaluations: the mode search's (when run here) plus the Hessian's 2·dim. */
  readonly gradientEvaluations: number;
  readonly warnings: readonly string[];
}

/**
 * Stan's `laplace_sample`: the Hessian H of the log density at the mode (unconstrained space,
 * with the log-Jacobian when `jacobian`) by central finite differences of the gradient,
 * symmetrised; draws θ̂ + L⁻ᵀz with −H = LLᵀ and z standard normal (keys from
 * `foldIn(seed, 'laplace')`), mapped to constrained space; `logP` and `logQ` per draw; Pareto k̂
 * of logP − logQ by PSIS.
 *
 * @throws RangeError naming `mode` when −H is not positive definite there (not a maximum: run
 *   `optimize` to convergence, or the density is flat or improper in some direction);
 *   TypeError/RangeError naming the option for bad options.
 * @example
 * import { JointDistributionNamed, Normal, HalfNormal, Sample } from 'stochax/distributions';
 * import { laplace } from 'stochax/optimize';
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 10 }),
 *   sigma: new HalfNormal({ scale: 1 }),
 *   y: ({ mu, sigma }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
 * });
 * const fit = laplace(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0 });
 * fit.draws.mu.shape;   // [1000, 1]
 * fit.paretoK;          // < 0.7: the normal approximation is good enough to importance-sample
 */
export function laplace<K extends StructKind>(model: JointDistribution<K> | JointDistributionPinned<K>, options?: LaplaceOptions): LaplaceResult<Struct<K, Tensor>>;
export function laplace(model: FlatTarget, options?: LaplaceOptions): LaplaceResult<Record<string, Tensor>>;
export function laplace(model: JointDistribution<StructKind> | JointDistributionPinned<StructKind> | FlatTarget, options: LaplaceOptions = {}): LaplaceResult {
  const o = checkOptions(FN, options, ['pins', 'mode', 'draws', 'jacobian', 'seed']);
  const jacobian = checkBoolean(FN, 'jacobian', o.jacobian ?? true);
  const nDraws = o.draws === undefined ? 1000 : checkCount(FN, 'draws', o.draws);
  if (nDraws < 1) fail('range', FN, 'draws', 'must be at least 1', nDraws);
  const seed = sanitizeSeed(o.seed);
  const p = problem(FN, model, o.pins, o.jacobian, true);
  const warnings: string[] = [...p.notes];
  let evals = 0;
  let mode: Float64Array;
  if (o.mode === undefined) {
    // The mode of the density whose Hessian is taken (optimize's own default is jacobian: false).
    const opt = optimize(model as FlatTarget, { ...(o.pins === undefined ? {} : { pins: o.pins }), ...(p.model === undefined ? {} : { jacobian }), seed });
    mode = opt.unconstrained; evals += opt.gradientEvaluations;
    warnings.push(...opt.warnings);
  } else mode = modeOf(p.dim, p.model === undefined ? undefined : (v) => unconstrainDraw(p.model!, v), o.mode, jacobian, warnings, p.model !== undefined);
  const n = p.dim;
  const hess = fdHessian((x, g) => {
    evals++;
    try {
      const lp = p.target.logDensityGradient(x, g);
      return Number.isFinite(lp) && g.every(Number.isFinite) ? lp : undefined;
    } catch { return undefined; }
  }, mode);
  if (hess === undefined) fail('range', FN, 'mode', `is a point where the log density or its gradient fails within a finite-difference step, so its Hessian cannot be computed (${p.why(mode)})`, Array.from(mode));
  const negH = hess.map((v) => -v);
  const l = cholesky(negH, n);
  if (l === null) fail('range', FN, 'mode', 'is not a maximum of the log density: its Hessian there is not negative definite (run `optimize` to convergence first, or the density is flat or improper in some direction)', Array.from(mode));
  // Draws θ̂ + L⁻ᵀz: back-substitution with Lᵀ.
  const z = normal(foldIn(seed, 'laplace'), [nDraws, n]).data as Float64Array;
  const xs = new Float64Array(nDraws * n), logP = new Float64Array(nDraws), logQ = new Float64Array(nDraws);
  let logDetL = 0;
  for (let i = 0; i < n; i++) logDetL += detLog(l[i * n + i]!);
  const x = new Float64Array(n);
  for (let s = 0; s < nDraws; s++) {
    let zz = 0;
    for (let i = n - 1; i >= 0; i--) {
      const zi = z[s * n + i]!;
      zz += zi * zi;
      let t = zi;
      for (let k = i + 1; k < n; k++) t -= l[k * n + i]! * x[k]!;
      x[i] = t / l[i * n + i]!;
    }
    for (let i = 0; i < n; i++) { x[i] = x[i]! + mode[i]!; xs[s * n + i] = x[i]!; }
    logQ[s] = -0.5 * zz - 0.5 * n * LOG_2PI + logDetL;
    let lp: number;
    try { lp = p.target.logDensity(x); } catch { lp = -Infinity; }
    logP[s] = Number.isFinite(lp) ? lp : -Infinity;
  }
  const failed = logP.reduce((c, v) => c + (v === -Infinity ? 1 : 0), 0);
  if (failed > 0) warnings.push(`${FN}: the log density failed (an exception or a non-finite value) at ${failed} of ${nDraws} draws; their logP is −∞`);
  const paretoK = nDraws < 2 ? Infinity : psisSmooth(logP.map((v, s) => v - logQ[s]!), tailLength(nDraws, 1));
  const goodK = paretoKThreshold(nDraws);
  if (!(paretoK <= goodK)) warnings.push(`${FN}: Pareto k̂ = ${Number.isFinite(paretoK) ? paretoK.toFixed(2) : paretoK} > ${goodK.toFixed(2)}: the normal approximation is far from the posterior in its tails; do not rely on it (run NUTS), or reparameterise`);
  return {
    draws: p.draws(nDraws, (s) => xs.subarray(s * n, (s + 1) * n)),
    unconstrained: xs,
    logP: new Tensor(logP, [nDraws, 1], 'float64'),
    logQ: new Tensor(logQ, [nDraws, 1], 'float64'),
    paretoK, mode, hessian: hess, covariance: inverseFromCholesky(l, n),
    gradientEvaluations: evals,
    warnings,
  };
}

/** The mode as unconstrained coordinates from the `mode` option. */
function modeOf(dim: number, unconstrain: ((v: unknown) => Float64Array) | undefined, mode: unknown, jacobian: boolean, warnings: string[], isModel: boolean): Float64Array {
  if (isOptimizeResult(mode)) {
    if (isModel && mode.jacobian !== jacobian) {
      warnings.push(`${FN}: the mode was found with jacobian: ${mode.jacobian} but the approximation uses jacobian: ${jacobian}; it is centred away from the mode of the density it approximates (run optimize with jacobian: ${jacobian})`);
    }
    return checkLength(dim, Float64Array.from(mode.unconstrained));
  }
  // Unconstrained coordinates: a Float64Array (for a model: plain arrays are node values, as in a JointDistributionSequential's), or any numbers for a flat target.
  if (mode instanceof Float64Array || (unconstrain === undefined && (ArrayBuffer.isView(mode) || Array.isArray(mode)))) {
    return checkLength(dim, Float64Array.from(mode as ArrayLike<number>, Number));
  }
  if (unconstrain === undefined) fail('type', FN, 'mode', 'must be an optimize result or unconstrained coordinates for a flat target', mode);
  return unconstrain(mode);
}

function checkLength(dim: number, x: Float64Array): Float64Array {
  if (x.length !== dim) fail('range', FN, 'mode', `must have dim = ${dim} unconstrained coordinates; got ${x.length}`, x.length);
  if (!x.every(Number.isFinite)) fail('range', FN, 'mode', 'must be finite', Array.from(x));
  return x;
}

function isOptimizeResult(x: unknown): x is OptimizeResult {
  return typeof x === 'object' && x !== null && (x as OptimizeResult).unconstrained instanceof Float64Array && typeof (x as OptimizeResult).reason === 'string';
}

/** (LLᵀ)⁻¹ from the lower Cholesky factor L: columns of L⁻¹ by forward substitution, then L⁻ᵀL⁻¹. */
function inverseFromCholesky(l: Float64Array, n: number): Float64Array {
  const li = new Float64Array(n * n);
  for (let c = 0; c < n; c++) {
    for (let i = c; i < n; i++) {
      let t = i === c ? 1 : 0;
      for (let k = c; k < i; k++) t -= l[i * n + k]! * li[k * n + c]!;
      li[i * n + c] = t / l[i * n + i]!;
    }
  }
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let t = 0;
      for (let k = i; k < n; k++) t += li[k * n + i]! * li[k * n + j]!;
      out[i * n + j] = t; out[j * n + i] = t;
    }
  }
  return out;
}
