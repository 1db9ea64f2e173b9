/**
 * `advi`: automatic differentiation variational inference (Kucukelbir, Tran, Ranganath, Gelman
 * and Blei, JMLR 18(14), 2017) as Stan's `variational` method does it — a Gaussian in the
 * unconstrained space (mean-field or full-rank), fitted by stochastic gradient ascent on the ELBO
 * with reparameterised Monte-Carlo gradients and Stan's adaptive step-size sequence; its draws
 * mapped to constrained space with `logP`, `logQ` and PSIS's Pareto k̂ (Yao, Vehtari, Simpson and
 * Gelman 2018) to judge it.
 */
import { checkBoolean, checkFinite, checkOneOf, checkOptions, checkPositiveInteger, fail, MAX_SIZE } from '../src/checks.js';
import { getModes, type Modes } from '../src/config.js';
import { detExp, detLog } from '../src/math/index.js';
import type { FlatTarget } from '../src/compile/flat-target.js';
import type { KeyArray } from '../src/random/key-array.js';
import { normalFill } from '../src/random/normal.js';
import { foldIn, sanitizeSeed, type Seed } from '../src/samplers/seeds.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { JointDistribution } from '../distributions/joint/joint-distribution.js';
import type { JointDistributionPinned } from '../distributions/joint/joint-distribution-pinned.js';
import type { PartialValues, Struct, StructKind } from '../distributions/joint/values.js';
import { paretoKThreshold } from '../mcmc/diagnostics/internal/psis.js';
import { classifyFailure, isProgrammingError } from '../mcmc/internal/rejections.js';
import { psisImportance } from './importance.js';
import { problem, start, type OptimizeInit, type Problem } from './problem.js';

const FN = 'advi';
// Deterministic exp/log (src/math): the same bits on every JavaScript engine, as the draws promise.
const LOG_2PI = detLog(2 * Math.PI);
/** Stan's eta grid, tried from the largest down during adaptation. */
const ETA_SEQUENCE = [100, 10, 1, 0.1, 0.01] as const;
/** Stan's step-size sequence constants: τ, and the weights of the running average s_k. */
const TAU = 1, PRE = 0.9, POST = 0.1;
/** Stan's limit of failed gradient draws per iteration, as a multiple of `gradSamples`. */
const GRAD_RETRIES = 10;

export type AdviReason = 'mean ELBO converged' | 'median ELBO converged' | 'mean and median ELBO converged' | 'maximum number of iterations reached';

export interface AdviOptions {
  /** Values for observed nodes (a model only). */
  readonly pins?: PartialValues;
  /** `'meanfield'` (default: independent normals, μ and ω = log σ) or `'fullrank'` (μ and a lower-triangular L, Σ = LLᵀ). */
  readonly algorithm?: 'meanfield' | 'fullrank';
  /** Monte-Carlo draws per gradient of the ELBO (default 1). */
  readonly gradSamples?: number;
  /** Monte-Carlo draws per estimate of the ELBO (default 100). */
  readonly elboSamples?: number;
  /** Step-size scale η: given, it is used as is (and `adaptEngaged: true` is an error); omitted, it is adapted, or 1 with `adaptEngaged: false`. */
  readonly eta?: number;
  /** Choose η from {100, 10, 1, 0.1, 0.01} by a short trial of each (default true when `eta` is omitted). */
  readonly adaptEngaged?: boolean;
  /** Iterations per η tried during adaptation (default 50). */
  readonly adaptIter?: number;
  /** Stop when the mean or the median of the recent relative ELBO changes falls below this (default 0.01). */
  readonly tolRelObj?: number;
  /** Estimate the ELBO (and test convergence) every this many iterations (default 100). */
  readonly evalElbo?: number;
  /** Maximum iterations of stochastic gradient ascent (default 10000). */
  readonly iter?: number;
  /** Draws from the fitted approximation (default 1000). */
  readonly outputDraws?: number;
  /**
   * Resample the output draws with Pareto-smoothed importance weights exp(logP − logQ) (Yao et
   * al. 2018; `pathfinder`'s option): `outputDraws` draws with replacement from as many candidates,
   * which corrects the approximation where k̂ ≤ 0.7 (default false: the approximation's own draws,
   * as Stan's, with their weights in `logWeights`).
   */
  readonly psisResample?: boolean;
  /** Use the sticking-the-landing gradient (Roeder, Wu and Duvenaud 2017): lower variance near the optimum (default false, Stan's estimator). */
  readonly stickingTheLanding?: boolean;
  /**
   * The mean's start: constrained values of every unpinned node (a model), unconstrained
   * coordinates (a flat target), `'prior'` or `'median'` (a model), or `'uniform'` (default:
   * Stan's uniform(−R, R) on the unconstrained space, R = `initRadius`, from the seed). The scale
   * starts at 1 (ω = 0, L = I), as Stan's.
   */
  readonly init?: OptimizeInit;
  /** R of the uniform start (default 2, Stan's). */
  readonly initRadius?: number;
  /** Seed of everything random (start, gradients, ELBO estimates, draws): the result is a pure function of it. */
  readonly seed?: Seed;
}

/** One ELBO estimate of the ascent (Stan's progress table): the relative change's rolling mean and median over the last few. */
export interface AdviElboRow {
  readonly iter: number;
  readonly elbo: number;
  readonly relMean: number;
  readonly relMedian: number;
}

/** Log densities that failed at Monte-Carlo draws (each redrawn, Stan's rule), by phase. */
export interface AdviFailures {
  /** During η adaptation (expected when a large η overshoots; not warned about). */
  readonly adaptation: number;
  /** At gradient draws of the ascent. */
  readonly gradient: number;
  /** At ELBO draws of the ascent. */
  readonly elbo: number;
  /** At the output draws (their logP is −∞). */
  readonly draws: number;
}

/** Stan's η search: the start's ELBO and each trial's. */
export interface AdviAdaptation {
  readonly elboInit: number;
  readonly trials: readonly { readonly eta: number; readonly elbo: number }[];
}

export interface AdviResult<P = Record<string, Tensor> | Tensor[]> {
  /** Draws from the approximation, constrained, `[draws, 1, ...event]` per node (for a flat target: per coordinate, `[draws, 1]`). */
  readonly draws: P;
  /** The draws in unconstrained coordinates, row-major `[draws, dim]`. */
  readonly unconstrained: Float64Array;
  /** The approximation's mean μ mapped to constrained space, draws-shaped `[1, 1, ...event]` (Stan's first output row). */
  readonly mean: P;
  /** The log density (with the log-Jacobian) at each draw, `[draws, 1]`; −∞ where it fails. */
  readonly logP: Tensor;
  /** The approximation's log density at each draw (normalised), `[draws, 1]`. */
  readonly logQ: Tensor;
  /** Pareto k̂ of logP − logQ (PSIS): above ~0.7 the approximation is unreliable (Yao et al. 2018). */
  readonly paretoK: number;
  /**
   * The draws' Pareto-smoothed importance log weights, normalised, `[draws, 1]`: weighted means
   * Σ exp(logWeights)·f(draw) correct the approximation (as `psisResample` does by resampling;
   * then the weights are equal, −log(outputDraws)).
   */
  readonly logWeights: Tensor;
  /** `'meanfield'` or `'fullrank'`. */
  readonly algorithm: 'meanfield' | 'fullrank';
  /** The fitted mean, unconstrained. */
  readonly mu: Float64Array;
  /** Mean-field only: log standard deviations, unconstrained. */
  readonly omega?: Float64Array;
  /** Full-rank only: the Cholesky factor of the covariance, row-major dim × dim, lower-triangular (its diagonal may be negative, as Stan's). */
  readonly L?: Float64Array;
  /** The approximation's covariance (row-major dim × dim): diag(e^{2ω}) or LLᵀ. */
  readonly covariance: Float64Array;
  /** Every ELBO estimate of the ascent, with the relative change's rolling mean and median. */
  readonly elboHistory: readonly AdviElboRow[];
  /** η used. */
  readonly eta: number;
  /** The adaptation (undefined when η was given): the ELBO at the start, and each η tried with the ELBO it reached (−∞ when it diverged). */
  readonly adaptation: AdviAdaptation | undefined;
  /** True when the relative ELBO change fell below `tolRelObj` (not the iteration limit). */
  readonly converged: boolean;
  readonly reason: AdviReason;
  /** Iterations of the ascent (adaptation not included). */
  readonly iterations: number;
  /** Gradient evaluations, adaptation and failed draws included. */
  readonly gradientEvaluations: number;
  /** Log-density evaluations without gradient (ELBO estimates and the output draws). */
  readonly logDensityEvaluations: number;
  readonly failures: AdviFailures;
  readonly warnings: readonly string[];
}

/**
 * ADVI as Stan's `variational` method runs it, with its names' camelCase and its defaults. The
 * approximation is a Gaussian in the unconstrained space (the model's log density with the
 * log-Jacobian): mean-field N(μ, diag(e^{2ω})) or full-rank N(μ, LLᵀ), starting at σ = 1 (ω = 0,
 * L = I) around the start. Each iteration draws `gradSamples` standard normals ε, takes the
 * gradient of log p at μ + σε (or μ + Lε) and forms the reparameterised gradient of the ELBO, the
 * entropy's part analytic (or, with `stickingTheLanding`, the path derivative of log p − log q).
 * Steps follow Stan's sequence η·i^(−1/2)/(τ + √s_k), s_k = 0.9·s_{k−1} + 0.1·g_k² element-wise
 * (s_1 = g_1²), τ = 1. With adaptation, each η of {100, 10, 1, 0.1, 0.01} runs `adaptIter`
 * iterations from the start and the first whose ELBO is worse than the previous η's (when that one
 * beat the start's) picks the previous one. Every `evalElbo` iterations the ELBO is estimated from
 * `elboSamples` draws; the relative change |(ELBO_prev − ELBO)/ELBO| joins a circular buffer of
 * max(⌊0.1·iter/evalElbo⌋, 2) entries, and the run stops when its mean or median is below
 * `tolRelObj`.
 *
 * A draw where the log density (or gradient) throws or is not finite is redrawn and counted
 * (Stan's rule: up to 10·`gradSamples` failures per gradient and `elboSamples` per ELBO estimate);
 * the run fails only when a gradient or an ELBO estimate never succeeds, or the parameters
 * diverge. Keys: the start from `foldIn(seed, 'init')`, adaptation from `foldIn(seed, 'adapt')`,
 * the ascent's iteration i from `foldIn(foldIn(seed, 'grad'), i)`, its ELBO estimates from
 * `foldIn(foldIn(seed, 'elbo'), i)`, the output from `foldIn(seed, 'draws')` (and, with
 * `psisResample`, its resampling from `foldIn(seed, 'psis')`). Every output draw comes with its
 * Pareto-smoothed importance log weight (`logWeights`), so PSIS-corrected estimates need no rerun.
 *
 * @param model a joint distribution (observed nodes in `pins`), a pinned one, or a
 *   {@link FlatTarget} used as given (it should include any log-Jacobian).
 * @throws TypeError/RangeError naming the option for bad options; RangeError when no start is
 *   finite, when the ELBO cannot be estimated at the start, when no η of the grid ends above the
 *   start's ELBO in adaptation (Stan's "All proposed step-sizes failed", which also happens when
 *   the start is already about as good as a Gaussian gets), or when the ascent diverges (give a
 *   smaller `eta`).
 * @example
 * import { JointDistributionNamed, Normal, HalfNormal, Sample } from 'stochax/distributions';
 * import { advi } from 'stochax/optimize';
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 10 }),
 *   sigma: new HalfNormal({ scale: 1 }),
 *   y: ({ mu, sigma }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
 * });
 * const fit = advi(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0 });
 * fit.draws.mu.shape;     // [1000, 1]
 * fit.reason;             // e.g. 'mean ELBO converged'
 * fit.paretoK;            // above 0.7: do not trust the approximation's tails
 * const corrected = advi(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0, psisResample: true });
 * corrected.draws.mu.shape;   // [1000, 1]: resampled by PSIS weights (useful where k̂ ≤ 0.7)
 */
export function advi<K extends StructKind>(model: JointDistribution<K> | JointDistributionPinned<K>, options?: AdviOptions): AdviResult<Struct<K, Tensor>>;
export function advi(model: FlatTarget, options?: AdviOptions): AdviResult<Record<string, Tensor>>;
export function advi(model: JointDistribution<StructKind> | JointDistributionPinned<StructKind> | FlatTarget, options: AdviOptions = {}): AdviResult {
  const o = checkOptions(FN, options, ['pins', 'algorithm', 'gradSamples', 'elboSamples', 'eta', 'adaptEngaged', 'adaptIter', 'tolRelObj', 'evalElbo', 'iter', 'outputDraws', 'psisResample', 'stickingTheLanding', 'init', 'initRadius', 'seed']);
  const algorithm = checkOneOf(FN, 'algorithm', o.algorithm ?? 'meanfield', ['meanfield', 'fullrank']);
  const count = (arg: keyof AdviOptions, dflt: number) => o[arg] === undefined ? dflt : checkPositiveInteger(FN, arg, o[arg]);
  const gradSamples = count('gradSamples', 1), elboSamples = count('elboSamples', 100), adaptIter = count('adaptIter', 50);
  const evalElbo = count('evalElbo', 100), iter = count('iter', 10000), outputDraws = count('outputDraws', 1000);
  const tolRelObj = positive('tolRelObj', o.tolRelObj, 0.01);
  const radius = positive('initRadius', o.initRadius, 2);
  const stl = checkBoolean(FN, 'stickingTheLanding', o.stickingTheLanding ?? false);
  const psisResample = checkBoolean(FN, 'psisResample', o.psisResample ?? false);
  const adaptEngaged = checkBoolean(FN, 'adaptEngaged', o.adaptEngaged ?? o.eta === undefined);
  if (adaptEngaged && o.eta !== undefined) fail('range', FN, 'eta', 'must not be given with `adaptEngaged: true` (adaptation chooses η); give one or the other', o.eta);
  const eta0 = positive('eta', o.eta, 1);
  const seed = sanitizeSeed(o.seed);
  const modes = getModes();

  const p = problem(FN, model, o.pins, undefined, true);
  const mu0 = start(FN, p, o.init, seed, radius);
  const fam = algorithm === 'meanfield' ? meanField(p.dim) : fullRank(p.dim);
  const run = new Run(p, fam, gradSamples, elboSamples, stl, modes);
  const warnings: string[] = [...p.notes];

  let eta = eta0;
  let adaptation: AdviAdaptation | undefined;
  if (adaptEngaged) ({ eta, adaptation } = run.adaptEta(mu0, adaptIter, foldIn(seed, 'adapt')));
  const sga = run.ascend(fam.init(mu0), eta, tolRelObj, iter, evalElbo, foldIn(seed, 'grad'), foldIn(seed, 'elbo'));
  warnings.push(...sga.warnings);

  // The output: draws μ + σε (or μ + Lε) with their log densities under p and q.
  const d = p.dim, theta = sga.theta;
  if (outputDraws * d > MAX_SIZE) fail('range', FN, 'outputDraws', `asks for ${outputDraws} × ${d} = ${outputDraws * d} numbers, more than the limit of ${MAX_SIZE}`, outputDraws);
  const eps = new Float64Array(outputDraws * d);
  normalFill(foldIn(seed, 'draws'), eps, modes);
  const xs = new Float64Array(outputDraws * d), logP = new Float64Array(outputDraws), logQ = new Float64Array(outputDraws);
  const logNorm = -0.5 * d * LOG_2PI - fam.logDetScale(theta);
  run.phase = 'draws';
  for (let s = 0; s < outputDraws; s++) {
    const e = eps.subarray(s * d, (s + 1) * d), x = xs.subarray(s * d, (s + 1) * d);
    fam.transform(theta, e, x);
    let ee = 0;
    for (let i = 0; i < d; i++) ee += e[i]! * e[i]!;
    logQ[s] = -0.5 * ee + logNorm;
    logP[s] = run.logDensity(x) ?? -Infinity;
  }
  const drawFailures = run.failures.draws;
  if (drawFailures > 0) warnings.push(`${FN}: the log density failed (an exception or a non-finite value) at ${drawFailures} of ${outputDraws} output draws; their logP is −∞`);
  const failures: AdviFailures = { ...run.failures };
  const during = failures.gradient + failures.elbo;
  if (during > 0) warnings.push(`${FN}: the log density failed at ${during} Monte-Carlo draws of the ascent (${failures.gradient} for gradients, ${failures.elbo} for ELBO estimates); each was redrawn (Stan's rule), which biases the fit toward where the model is finite. First: ${run.firstFailure()}`);
  const imp = psisImportance(logP, logQ, psisResample ? outputDraws : undefined, foldIn(seed, 'psis'));
  const paretoK = imp.paretoK;
  let logWeights = imp.logWeights;
  if (imp.pick !== undefined) {
    // Candidate pick[s] becomes draw s; the weights are then equal.
    const cx = xs.slice(), cp = logP.slice(), cq = logQ.slice();
    imp.pick.forEach((k, s) => { xs.set(cx.subarray(k * d, (k + 1) * d), s * d); logP[s] = cp[k]!; logQ[s] = cq[k]!; });
    logWeights = new Float64Array(outputDraws).fill(-detLog(outputDraws));
  }
  // The sample-size-dependent threshold laplace uses (Vehtari et al. 2024); 0.7 from 2154 draws on.
  const goodK = paretoKThreshold(outputDraws);
  if (!(paretoK <= goodK)) warnings.push(`${FN}: Pareto k̂ = ${Number.isFinite(paretoK) ? paretoK.toFixed(2) : paretoK} > ${goodK.toFixed(2)}: the approximation is unreliable (Yao et al. 2018); do not use its draws as posterior draws (run NUTS), or try 'fullrank', or reparameterise`);
  const mu = Float64Array.from(theta.subarray(0, d));
  return {
    draws: p.draws(outputDraws, (s) => xs.subarray(s * d, (s + 1) * d)),
    unconstrained: xs,
    mean: p.draws(1, () => mu),
    logP: new Tensor(logP, [outputDraws, 1], 'float64'),
    logQ: new Tensor(logQ, [outputDraws, 1], 'float64'),
    logWeights: new Tensor(logWeights, [outputDraws, 1], 'float64'),
    paretoK, algorithm, mu,
    ...(algorithm === 'meanfield' ? { omega: Float64Array.from(theta.subarray(d)) } : { L: fam.lowerFactor(theta) }),
    covariance: fam.covariance(theta),
    elboHistory: sga.history, eta, adaptation,
    converged: sga.reason !== 'maximum number of iterations reached',
    reason: sga.reason, iterations: sga.iterations,
    gradientEvaluations: run.gradientEvaluations, logDensityEvaluations: run.logDensityEvaluations,
    failures, warnings,
  };
}

/**
 * A Gaussian family on ℝ^dim, its parameters θ in one Float64Array: μ first, then ω (mean-field)
 * or L's lower triangle row by row (full-rank), so the step-size sequence is one loop over θ.
 */
interface Family {
  readonly size: number;
  /** θ at the start: μ = mu0, σ = 1. */
  init(mu0: Float64Array): Float64Array;
  /** x = μ + σ∘ε (or μ + Lε). */
  transform(theta: Float64Array, eps: Float64Array, x: Float64Array): void;
  /** Adds one draw's contribution to the gradient (g = ∇log p at x; `stl`: minus ∇_x log q with θ held fixed). */
  accumulate(theta: Float64Array, g: Float64Array, eps: Float64Array, grad: Float64Array, stl: boolean): void;
  /** Averages over n draws and adds the entropy's gradient (unless `stl`). */
  finish(theta: Float64Array, grad: Float64Array, n: number, stl: boolean): void;
  /** Σ log σ_i (or Σ log|L_ii|): log det of the scale. */
  logDetScale(theta: Float64Array): number;
  covariance(theta: Float64Array): Float64Array;
  lowerFactor(theta: Float64Array): Float64Array;
}

function meanField(d: number): Family {
  return {
    size: 2 * d,
    init(mu0) { const t = new Float64Array(2 * d); t.set(mu0); return t; },
    transform(theta, eps, x) { for (let i = 0; i < d; i++) x[i] = theta[i]! + detExp(theta[d + i]!) * eps[i]!; },
    accumulate(theta, g, eps, grad, stl) {
      for (let i = 0; i < d; i++) {
        // ∇_x log q = −ε/σ: the path derivative of log p − log q.
        const gi = stl ? g[i]! + eps[i]! / detExp(theta[d + i]!) : g[i]!;
        grad[i] = grad[i]! + gi;
        grad[d + i] = grad[d + i]! + gi * eps[i]!;
      }
    },
    finish(theta, grad, n, stl) {
      for (let i = 0; i < d; i++) {
        grad[i] = grad[i]! / n;
        grad[d + i] = (grad[d + i]! / n) * detExp(theta[d + i]!) + (stl ? 0 : 1);
      }
    },
    logDetScale(theta) { let s = 0; for (let i = 0; i < d; i++) s += theta[d + i]!; return s; },
    covariance(theta) { const c = new Float64Array(d * d); for (let i = 0; i < d; i++) c[i * d + i] = detExp(2 * theta[d + i]!); return c; },
    lowerFactor(theta) { const l = new Float64Array(d * d); for (let i = 0; i < d; i++) l[i * d + i] = detExp(theta[d + i]!); return l; },
  };
}

function fullRank(d: number): Family {
  // L's entry (i, j), j ≤ i, sits at d + i(i+1)/2 + j.
  const at = (i: number, j: number) => d + (i * (i + 1)) / 2 + j;
  const v = new Float64Array(d);
  return {
    size: d + (d * (d + 1)) / 2,
    init(mu0) { const t = new Float64Array(d + (d * (d + 1)) / 2); t.set(mu0); for (let i = 0; i < d; i++) t[at(i, i)] = 1; return t; },
    transform(theta, eps, x) {
      for (let i = 0; i < d; i++) {
        let s = theta[i]!;
        const row = at(i, 0);
        for (let j = 0; j <= i; j++) s += theta[row + j]! * eps[j]!;
        x[i] = s;
      }
    },
    accumulate(theta, g, eps, grad, stl) {
      if (stl) {
        // ∇_x log q = −L⁻ᵀε: back-substitution with Lᵀ (upper-triangular).
        for (let i = d - 1; i >= 0; i--) {
          let s = eps[i]!;
          for (let k = i + 1; k < d; k++) s -= theta[at(k, i)]! * v[k]!;
          v[i] = s / theta[at(i, i)]!;
        }
      }
      for (let i = 0; i < d; i++) {
        const gi = stl ? g[i]! + v[i]! : g[i]!;
        grad[i] = grad[i]! + gi;
        const row = at(i, 0);
        for (let j = 0; j <= i; j++) grad[row + j] = grad[row + j]! + gi * eps[j]!;
      }
    },
    finish(theta, grad, n, stl) {
      for (let k = 0; k < grad.length; k++) grad[k] = grad[k]! / n;
      if (!stl) for (let i = 0; i < d; i++) grad[at(i, i)] = grad[at(i, i)]! + 1 / theta[at(i, i)]!;
    },
    // Stan's entropy skips a zero diagonal entry; log|L_ii| otherwise.
    logDetScale(theta) { let s = 0; for (let i = 0; i < d; i++) { const a = Math.abs(theta[at(i, i)]!); if (a !== 0) s += detLog(a); } return s; },
    covariance(theta) {
      const c = new Float64Array(d * d);
      for (let i = 0; i < d; i++) {
        for (let j = 0; j <= i; j++) {
          let s = 0;
          for (let k = 0; k <= j; k++) s += theta[at(i, k)]! * theta[at(j, k)]!;
          c[i * d + j] = s; c[j * d + i] = s;
        }
      }
      return c;
    },
    lowerFactor(theta) { const l = new Float64Array(d * d); for (let i = 0; i < d; i++) for (let j = 0; j <= i; j++) l[i * d + j] = theta[at(i, j)]!; return l; },
  };
}

/** Fresh standard normals for the attempts of one estimate: attempt a is row a mod n of block ⌊a/n⌋, block b drawn with `foldIn(key, b)`. */
class Draws {
  private block = -1;
  private readonly buf: Float64Array;
  constructor(private readonly key: KeyArray, private readonly n: number, private readonly d: number, private readonly modes: Modes) {
    this.buf = new Float64Array(n * d);
  }
  row(a: number): Float64Array {
    const b = Math.floor(a / this.n);
    if (b !== this.block) { normalFill(b === 0 ? this.key : foldIn(this.key, b), this.buf, this.modes); this.block = b; }
    const r = a % this.n;
    return this.buf.subarray(r * this.d, (r + 1) * this.d);
  }
}

interface Ascent {
  readonly theta: Float64Array;
  readonly history: AdviElboRow[];
  readonly reason: AdviReason;
  readonly iterations: number;
  readonly warnings: string[];
}

/** One run's state: the problem, the family, counters and the failures seen. */
class Run {
  gradientEvaluations = 0;
  logDensityEvaluations = 0;
  readonly failures = { adaptation: 0, gradient: 0, elbo: 0, draws: 0 };
  phase: 'adaptation' | 'gradient' | 'elbo' | 'draws' = 'adaptation';
  private first: { message: string; x: Float64Array } | undefined;
  private readonly d: number;
  private readonly x: Float64Array;
  private readonly g: Float64Array;

  constructor(private readonly p: Problem, private readonly fam: Family, private readonly gradSamples: number, private readonly elboSamples: number, private readonly stl: boolean, private readonly modes: Modes) {
    this.d = p.dim;
    this.x = new Float64Array(this.d);
    this.g = new Float64Array(this.d);
  }

  /** The log density at x, or undefined where it throws or is not finite (a programming error propagates). */
  logDensity(x: Float64Array): number | undefined {
    this.logDensityEvaluations++;
    let lp: number;
    try { lp = this.p.target.logDensity(x); } catch (e) {
      if (isProgrammingError(e)) throw e;
      return this.failed(true, e, NaN, x);
    }
    return Number.isFinite(lp) ? lp : this.failed(false, undefined, lp, x);
  }

  private failed(threw: boolean, error: unknown, lp: number, x: Float64Array): undefined {
    this.failures[this.phase]++;
    if (this.first === undefined && (this.phase === 'gradient' || this.phase === 'elbo')) this.first = { message: classifyFailure(threw, error, lp).message, x: Float64Array.from(x) };
    return undefined;
  }

  /** The first failure of the ascent, and where in the model it came from. */
  firstFailure(): string {
    if (this.first === undefined) return '';
    let where = '';
    try { where = this.p.why(this.first.x); } catch { where = ''; }
    return `${this.first.message}${where === '' ? '' : ` (${where})`}`;
  }

  /**
   * The ELBO's gradient into `grad` from `gradSamples` successful draws (key `key`), or false
   * when 10·`gradSamples` draws failed (Stan's limit).
   */
  gradient(theta: Float64Array, key: KeyArray, grad: Float64Array): boolean {
    const { d, x, g, fam } = this;
    grad.fill(0);
    const draws = new Draws(key, this.gradSamples, d, this.modes);
    let dropped = 0;
    for (let a = 0, ok = 0; ok < this.gradSamples; a++) {
      const eps = draws.row(a);
      fam.transform(theta, eps, x);
      this.gradientEvaluations++;
      let lp: number, threw = false, error: unknown;
      try { lp = this.p.target.logDensityGradient(x, g); } catch (e) {
        if (isProgrammingError(e)) throw e;
        threw = true; error = e; lp = NaN;
      }
      if (!threw && Number.isFinite(lp) && allFinite(g)) {
        fam.accumulate(theta, g, eps, grad, this.stl);
        ok++;
      } else {
        this.failed(threw, error, lp, x);
        if (++dropped >= GRAD_RETRIES * this.gradSamples) return false;
      }
    }
    fam.finish(theta, grad, this.gradSamples, this.stl);
    return allFinite(grad);
  }

  /** The ELBO: the mean log density over `elboSamples` successful draws plus the entropy; undefined when `elboSamples` draws failed (Stan's limit). */
  elbo(theta: Float64Array, key: KeyArray): number | undefined {
    const { d, x, fam } = this;
    const n = this.elboSamples;
    const draws = new Draws(key, n, d, this.modes);
    let sum = 0, dropped = 0;
    for (let a = 0, ok = 0; ok < n; a++) {
      fam.transform(theta, draws.row(a), x);
      const lp = this.logDensity(x);
      if (lp === undefined) {
        if (++dropped >= n) return undefined;
      } else { sum += lp; ok++; }
    }
    const value = sum / n + 0.5 * d * (1 + LOG_2PI) + fam.logDetScale(theta);
    return Number.isNaN(value) ? undefined : value;
  }

  /**
   * Stan's `adapt_eta`: from the start, each η of {100, 10, 1, 0.1, 0.01} for `adaptIter`
   * iterations (a failed gradient counts as zero, a diverged run as ELBO −∞); stop at the first
   * η whose ELBO is below the previous η's while that one beat the start's, and take the previous.
   */
  adaptEta(mu0: Float64Array, adaptIter: number, key: KeyArray): { eta: number; adaptation: AdviAdaptation } {
    this.phase = 'adaptation';
    const theta0 = this.fam.init(mu0);
    const elboInit = this.elbo(theta0, foldIn(key, 'elbo'));
    if (elboInit === undefined) fail('range', FN, 'model', `gives no ELBO estimate at the start: its log density failed at ${this.elboSamples} draws around it (${this.firstAdaptFailure(theta0)}). The model may be ill-conditioned or misspecified; try another \`init\` or \`seed\``, Array.from(mu0));
    const grad = new Float64Array(this.fam.size), hist = new Float64Array(this.fam.size);
    const trials: { eta: number; elbo: number }[] = [];
    const done = (eta: number) => ({ eta, adaptation: { elboInit, trials } });
    let elboBest = -Number.MAX_VALUE, etaBest = 0;
    for (let e = 0; e < ETA_SEQUENCE.length; e++) {
      const eta = ETA_SEQUENCE[e]!;
      const tk = foldIn(key, e), gk = foldIn(tk, 'grad');
      const theta = Float64Array.from(theta0);
      hist.fill(0);
      let diverged = false;
      for (let t = 1; t <= adaptIter && !diverged; t++) {
        if (!this.gradient(theta, foldIn(gk, t), grad)) grad.fill(0);
        diverged = !step(theta, grad, hist, eta, t);
      }
      const elbo = diverged ? undefined : this.elbo(theta, foldIn(tk, 'elbo'));
      const value = elbo ?? -Number.MAX_VALUE;
      trials.push({ eta, elbo: elbo ?? -Infinity });
      if (value < elboBest && elboBest > elboInit) return done(etaBest);
      if (e < ETA_SEQUENCE.length - 1) { elboBest = value; etaBest = eta; }
      else if (value > elboInit) return done(eta);
    }
    return fail('range', FN, 'model', `defeats every step size: η = ${ETA_SEQUENCE.join(', ')} each diverged or ended below the start's ELBO (${elboInit.toPrecision(6)}) in adaptation. The model may be ill-conditioned or misspecified; try \`eta\` smaller than 0.01 with \`adaptEngaged: false\`, or another \`init\``, ETA_SEQUENCE);
  }

  private firstAdaptFailure(theta0: Float64Array): string {
    this.fam.transform(theta0, new Float64Array(this.d), this.x);
    try { return `at the start itself, ${this.p.why(this.x)}`; } catch { return 'no reason found'; }
  }

  /** Stan's `stochastic_gradient_ascent` from θ with step-size scale η. */
  ascend(theta: Float64Array, eta: number, tolRelObj: number, iter: number, evalElbo: number, gradKey: KeyArray, elboKey: KeyArray): Ascent {
    const grad = new Float64Array(this.fam.size), hist = new Float64Array(this.fam.size);
    const cbSize = Math.trunc(Math.max(0.1 * iter / evalElbo, 2));
    const diffs: number[] = [];
    const history: AdviElboRow[] = [];
    const warnings: string[] = [];
    let elbo = 0, elboBest = -Number.MAX_VALUE, diverging = 0;
    for (let t = 1; ; t++) {
      this.phase = 'gradient';
      if (!this.gradient(theta, foldIn(gradKey, t), grad)) {
        fail('range', FN, 'model', `gives no finite ELBO gradient at iteration ${t} (its log density or gradient failed at ${GRAD_RETRIES * this.gradSamples} draws, or the gradient overflowed; first failure: ${this.firstFailure() || 'none'}); the model may be ill-conditioned or misspecified, or η = ${eta} too large`, eta);
      }
      if (!step(theta, grad, hist, eta, t)) fail('range', FN, 'eta', `is too large: the variational parameters diverged at iteration ${t}; give a smaller \`eta\` (with \`adaptEngaged: false\`)`, eta);
      if (t % evalElbo === 0) {
        this.phase = 'elbo';
        const prev = elbo;
        const next = this.elbo(theta, foldIn(elboKey, t));
        if (next === undefined) fail('range', FN, 'model', `gives no ELBO estimate at iteration ${t}: its log density failed at ${this.elboSamples} draws (${this.firstFailure()}); the model may be ill-conditioned or misspecified`, t);
        elbo = next;
        if (elbo > elboBest) elboBest = elbo;
        if (diffs.length === cbSize) diffs.shift();
        diffs.push(Math.abs((prev - elbo) / elbo));
        const relMean = diffs.reduce((s, v) => s + v, 0) / diffs.length;
        const relMedian = [...diffs].sort((a, b) => a - b)[diffs.length >> 1]!;
        history.push({ iter: t, elbo, relMean, relMedian });
        const mean = relMean < tolRelObj, median = relMedian < tolRelObj;
        if (t > 10 * evalElbo && (relMean > 0.5 || relMedian > 0.5)) diverging++;
        if (mean || median) {
          if (Math.abs((elboBest - elbo) / elbo) > 0.05) warnings.push(`${FN}: the ELBO at an earlier iteration (${elboBest.toPrecision(6)}) is larger than at convergence (${elbo.toPrecision(6)}): the approximation may not have reached a good optimum (Stan's informational message); try a smaller \`tolRelObj\``);
          if (diverging > 0) warnings.push(diverges(diverging));
          return { theta, history, reason: mean && median ? 'mean and median ELBO converged' : mean ? 'mean ELBO converged' : 'median ELBO converged', iterations: t, warnings };
        }
      }
      if (t === iter) {
        if (diverging > 0) warnings.push(diverges(diverging));
        warnings.push(`${FN}: the maximum number of iterations (${iter}) was reached without the relative ELBO change falling below tolRelObj = ${tolRelObj}; the approximation may not have converged and is not guaranteed to be meaningful. Try more \`iter\`, a larger \`tolRelObj\`, or \`stickingTheLanding\``);
        return { theta, history, reason: 'maximum number of iterations reached', iterations: t, warnings };
      }
    }
  }
}

function diverges(n: number): string {
  return `${FN}: at ${n} ELBO estimate(s) after the first 10 the relative change's mean or median was above 0.5 (Stan's "MAY BE DIVERGING... INSPECT ELBO"); inspect \`elboHistory\``;
}

/**
 * One step of Stan's sequence in place: s = g² (t = 1) or 0.9s + 0.1g², θ += η/√t · g/(τ + √s).
 * False when θ is no longer finite (diverged).
 */
function step(theta: Float64Array, grad: Float64Array, hist: Float64Array, eta: number, t: number): boolean {
  const scaled = eta / Math.sqrt(t);
  let ok = true;
  for (let k = 0; k < theta.length; k++) {
    const g = grad[k]!;
    const s = t === 1 ? hist[k]! + g * g : PRE * hist[k]! + POST * g * g;
    hist[k] = s;
    const v = theta[k]! + scaled * g / (TAU + Math.sqrt(s));
    theta[k] = v;
    if (!Number.isFinite(v)) ok = false;
  }
  return ok;
}

function allFinite(a: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i]!)) return false;
  return true;
}

function positive(arg: string, v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  const x = checkFinite(FN, arg, v);
  if (!(x > 0)) fail('range', FN, arg, 'must be positive and finite', v);
  return x;
}
