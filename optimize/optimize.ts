/**
 * `optimize`: the posterior mode (or maximum-likelihood point) by CmdStan's `optimize` method —
 * L-BFGS by default, dense BFGS or Newton on request — in the unconstrained space, reported
 * constrained.
 */
import { checkBoolean, checkFinite, checkOneOf, checkOptions, checkPositiveInteger, fail } from '../src/checks.js';
import type { FlatTarget } from '../src/compile/flat-target.js';
import { sanitizeSeed, type Seed } from '../src/samplers/seeds.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { JointDistribution } from '../distributions/joint/joint-distribution.js';
import type { JointDistributionPinned } from '../distributions/joint/joint-distribution-pinned.js';
import type { PartialValues, Struct, StructKind } from '../distributions/joint/values.js';
import { minimize, Objective, type MinimizeSettings } from './minimize.js';
import { problem, start, type OptimizeInit } from './problem.js';

const FN = 'optimize';

export interface OptimizeOptions {
  /** Values for observed nodes (a model only). */
  readonly pins?: PartialValues;
  /**
   * Include the log-Jacobian of the constraining transforms (default false, Stan's default: the
   * mode of p(θ) in the constrained space — the MAP estimate). `true` gives the mode of the
   * unconstrained density (Stan's `jacobian=1`, the centre of `laplace`'s approximation).
   */
  readonly jacobian?: boolean;
  /** `'lbfgs'` (default), `'bfgs'` (dense inverse Hessian) or `'newton'` (finite-difference Hessian; small models). */
  readonly algorithm?: 'lbfgs' | 'bfgs' | 'newton';
  /**
   * Start: constrained values of every unpinned node (a model), unconstrained coordinates (a flat
   * target), `'prior'` or `'median'` (a model), or `'uniform'` (default: Stan's uniform(−R, R) on
   * the unconstrained space, R = `initRadius`, from the seed, retried until finite).
   */
  readonly init?: OptimizeInit;
  /** R of the uniform start (default 2, Stan's). */
  readonly initRadius?: number;
  /** Seed of the uniform start (results are a pure function of it). */
  readonly seed?: Seed;
  /** First line-search step (default 1e-3). */
  readonly initAlpha?: number;
  /** Absolute change in log density to stop at (default 1e-12). */
  readonly tolObj?: number;
  /** Relative change in log density to stop at, in units of machine epsilon (default 1e4). */
  readonly tolRelObj?: number;
  /** Gradient norm to stop at (default 1e-8). */
  readonly tolGrad?: number;
  /** Relative gradient gᵀH⁻¹g / max(|log p|, 1) to stop at, in units of machine epsilon (default 1e7). */
  readonly tolRelGrad?: number;
  /** Step length to stop at (default 1e-8). */
  readonly tolParam?: number;
  /** L-BFGS history (default 5). */
  readonly historySize?: number;
  /** Maximum iterations (default 2000). */
  readonly iter?: number;
}

export interface OptimizeResult<P = Record<string, Tensor> | Tensor[]> {
  /**
   * The optimum, constrained, draws-shaped: each node's value with a leading `[1, 1]`
   * (draws × chains), so `summary` and ArviZ-layout code accept it (`params.mu.item()` reads a
   * scalar node). For a flat target: each coordinate by `paramNames`, `[1, 1]`.
   */
  readonly params: P;
  /** The optimum in unconstrained coordinates (the flat target's order). */
  readonly unconstrained: Float64Array;
  /** The log density there (with the log-Jacobian when `jacobian`; as the flat target gives it). */
  readonly logDensity: number;
  readonly iterations: number;
  /** Gradient evaluations, the initial point's included (line searches and finite differences too). */
  readonly gradientEvaluations: number;
  /** True when a convergence test stopped the run (not the iteration limit or a failed line search). */
  readonly converged: boolean;
  /** Which test stopped it, in Stan's words. */
  readonly reason: string;
  /** The algorithm and `jacobian` setting used (`laplace` checks the latter). */
  readonly algorithm: 'lbfgs' | 'bfgs' | 'newton';
  readonly jacobian: boolean;
  /** Non-convergence, failures of the log density on the way, running on the tape. */
  readonly warnings: readonly string[];
}

/**
 * The mode of a model's density by CmdStan's `optimize` (same names, defaults and convergence
 * tests): L-BFGS with a line search satisfying the strong Wolfe conditions, on the unconstrained
 * space; the point is reported constrained. A failure of the log density during a line search
 * (an exception, or a non-finite value or gradient) shrinks the step; non-convergence (the
 * iteration limit, a line search that finds no decrease) is `converged: false` and a warning.
 *
 * @param model a joint distribution (observed nodes in `pins`), a pinned one, or a
 *   {@link FlatTarget} (e.g. `compileLogDensity`'s result, or a user's own) used as given.
 * @throws TypeError/RangeError naming the option for bad options; RangeError when no start has a
 *   finite log density and gradient.
 * @example
 * import { JointDistributionNamed, Normal, HalfNormal, Sample } from 'stochax/distributions';
 * import { optimize } from 'stochax/optimize';
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 10 }),
 *   sigma: new HalfNormal({ scale: 1 }),
 *   y: ({ mu, sigma }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
 * });
 * const fit = optimize(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0 });
 * fit.params.mu.item();   // the MAP estimate of mu
 * fit.converged;          // true; fit.reason says which test stopped it
 */
export function optimize<K extends StructKind>(model: JointDistribution<K> | JointDistributionPinned<K>, options?: OptimizeOptions): OptimizeResult<Struct<K, Tensor>>;
export function optimize(model: FlatTarget, options?: OptimizeOptions): OptimizeResult<Record<string, Tensor>>;
export function optimize(model: JointDistribution<StructKind> | JointDistributionPinned<StructKind> | FlatTarget, options: OptimizeOptions = {}): OptimizeResult {
  const o = checkOptions(FN, options, ['pins', 'jacobian', 'algorithm', 'init', 'initRadius', 'seed', 'initAlpha', 'tolObj', 'tolRelObj', 'tolGrad', 'tolRelGrad', 'tolParam', 'historySize', 'iter']);
  const settings = optimizeSettings(FN, o);
  if (o.jacobian !== undefined) checkBoolean(FN, 'jacobian', o.jacobian);
  const radius = positive(FN, 'initRadius', o.initRadius, 2);
  const seed = sanitizeSeed(o.seed);
  const p = problem(FN, model, o.pins, o.jacobian, false);
  const x0 = start(FN, p, o.init, seed, radius);
  const out = minimize(new Objective(p.target), x0, settings);
  const warnings = [...p.notes];
  if (!out.converged) warnings.push(`${FN}: did not converge: ${out.reason} (after ${out.iterations} iterations); the point returned is the best found. Try more \`iter\`, another start (\`seed\`, \`init\`), or another \`algorithm\``);
  if (out.failures.length > 0) warnings.push(...out.failures.map((f) => `${FN}: ${f}`));
  return {
    params: p.draws(1, () => out.x),
    unconstrained: out.x,
    logDensity: out.logDensity,
    iterations: out.iterations,
    gradientEvaluations: out.gradientEvaluations,
    converged: out.converged,
    reason: out.reason,
    algorithm: settings.algorithm,
    jacobian: p.model === undefined ? false : o.jacobian ?? false,
    warnings,
  };
}

/** The algorithm and tolerances from the options, checked, with CmdStan's defaults. */
export function optimizeSettings(fn: string, o: OptimizeOptions): MinimizeSettings {
  const algorithm = checkOneOf(fn, 'algorithm', o.algorithm ?? 'lbfgs', ['lbfgs', 'bfgs', 'newton']);
  return {
    algorithm,
    initAlpha: positive(fn, 'initAlpha', o.initAlpha, 1e-3),
    tolObj: nonNegative(fn, 'tolObj', o.tolObj, 1e-12),
    tolRelObj: nonNegative(fn, 'tolRelObj', o.tolRelObj, 1e4),
    tolGrad: nonNegative(fn, 'tolGrad', o.tolGrad, 1e-8),
    tolRelGrad: nonNegative(fn, 'tolRelGrad', o.tolRelGrad, 1e7),
    tolParam: nonNegative(fn, 'tolParam', o.tolParam, 1e-8),
    historySize: o.historySize === undefined ? 5 : checkPositiveInteger(fn, 'historySize', o.historySize),
    iter: o.iter === undefined ? 2000 : checkPositiveInteger(fn, 'iter', o.iter),
  };
}

function positive(fn: string, arg: string, v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  const x = checkFinite(fn, arg, v);
  if (!(x > 0)) fail('range', fn, arg, 'must be positive and finite', v);
  return x;
}

function nonNegative(fn: string, arg: string, v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  const x = checkFinite(fn, arg, v);
  if (!(x >= 0)) fail('range', fn, arg, 'must be non-negative and finite', v);
  return x;
}
