/**
 * `pathfinder`: multi-path Pathfinder (Zhang, Carpenter, Gelman & Vehtari, "Pathfinder: parallel
 * quasi-Newton variational inference", JMLR 23(306), 2022), with Stan 2.33's defaults. Each path
 * runs L-BFGS from its own start, builds at every iterate the normal approximation whose
 * covariance is the L-BFGS inverse Hessian (diagonal + low rank, the paper's Alg. 4), estimates
 * its ELBO by Monte Carlo and keeps the best; the paths' draws are pooled and resampled by
 * Pareto-smoothed importance sampling. Written from the paper, Stan's documented behaviour and a
 * reading of Stan's `services/pathfinder/single.hpp` (its history and curvature rules; no code copied).
 */
import { checkBoolean, checkCount, checkFinite, checkOptions, checkPositiveInteger, fail } from '../src/checks.js';
import type { FlatTarget } from '../src/compile/flat-target.js';
import type { KeyArray } from '../src/random/key-array.js';
import { normal } from '../src/random/normal.js';
import { foldIn, sanitizeSeed, splitSeed } from '../src/samplers/seeds.js';
import { cholesky, householderQr } from '../src/tensor/linalg-kernels.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { FlatModel } from '../distributions/joint/flat-model.js';
import type { JointDistribution } from '../distributions/joint/joint-distribution.js';
import type { JointDistributionPinned } from '../distributions/joint/joint-distribution-pinned.js';
import type { PartialValues, Struct, StructKind } from '../distributions/joint/values.js';
import { providePathfinderStarts, type PathfinderRun } from '../mcmc/internal/init.js';
import { whyNotFinite } from '../mcmc/internal/locate-failure.js';
import { isProgrammingError } from '../mcmc/internal/rejections.js';
import { psisImportance } from './importance.js';
import { minimize, Objective, type MinimizeSettings } from './minimize.js';
import { optimizeSettings, type OptimizeOptions } from './optimize.js';
import { problem, start, type Problem } from './problem.js';
import { detLog } from '../src/math/index.js';

const FN = 'pathfinder';
const LOG_2PI = detLog(2 * Math.PI);
/**
 * Stan's curvature test (`check_curve` in services/pathfinder/single.hpp): the diagonal is updated
 * from a pair (s, y) only when sᵀy > 0 and ‖y‖²/sᵀy ≤ 1e12. Every pair enters the history.
 */
const CURVATURE_MAX = 1e12;

/**
 * Pathfinder's options. The start (`init`, `initRadius`; each path's uniform start drawn from its
 * own key), `seed` (path p uses `splitSeed(seed, { n: numPaths })[p]`, so the result is a pure
 * function of it) and the L-BFGS tolerances are `optimize`'s, with CmdStan's names and defaults.
 */
export interface PathfinderOptions extends Pick<OptimizeOptions, 'init' | 'initRadius' | 'seed' | 'initAlpha' | 'tolObj' | 'tolRelObj' | 'tolGrad' | 'tolRelGrad' | 'tolParam'> {
  /** Values for observed nodes (a model only). */
  readonly pins?: PartialValues;
  /** Independent L-BFGS paths (default 4). */
  readonly numPaths?: number;
  /** Draws returned (default 1000); each path also gives this many candidates to the resampling. */
  readonly draws?: number;
  /** Monte-Carlo draws per ELBO estimate (default 25). */
  readonly numElboDraws?: number;
  /** L-BFGS history, and the rank (÷ 2) of the approximations' low-rank part (default 5). */
  readonly historySize?: number;
  /**
   * Pool the paths' candidates and resample `draws` of them with Pareto-smoothed importance
   * weights (default true). With false, every path's candidates are returned (numPaths × draws):
   * `numPaths: 1, psisResample: false` is Stan's single-path Pathfinder.
   */
  readonly psisResample?: boolean;
  /** Most L-BFGS iterations per path (default 1000, CmdStan's `max_lbfgs_iters`). */
  readonly maxLbfgsIters?: number;
}

/** One path: its L-BFGS run and its best approximation. */
export interface PathfinderPath {
  /** The best ELBO along the path (−∞ for a dropped path). */
  readonly elbo: number;
  /** L-BFGS iterations, and the iteration whose approximation was kept (0 when dropped). */
  readonly iterations: number;
  readonly bestIteration: number;
  /** Why L-BFGS stopped (Stan's words). */
  readonly reason: string;
  /** Gradient evaluations (L-BFGS) and log density evaluations (ELBO and output draws). */
  readonly gradientEvaluations: number;
  readonly logDensityEvaluations: number;
  /** The kept approximation's mean and the diagonal of its covariance (unconstrained); empty when dropped. */
  readonly mean: Float64Array;
  readonly variance: Float64Array;
  /** Why the path was dropped, or undefined. */
  readonly dropped: string | undefined;
}

export interface PathfinderResult<P = Record<string, Tensor> | Tensor[]> {
  /** Draws, constrained, `[draws, 1, ...event]` per node (as `laplace`'s). */
  readonly draws: P;
  /** The draws in unconstrained coordinates, row-major `[draws, dim]`. */
  readonly unconstrained: Float64Array;
  /** The log density (with the log-Jacobian) at each draw, `[draws, 1]`; −∞ where it fails. */
  readonly logP: Tensor;
  /** The log density of the approximation that drew it (normalised), `[draws, 1]`. */
  readonly logQ: Tensor;
  /** Pareto k̂ of logP − logQ over all candidates (PSIS). */
  readonly paretoK: number;
  /** The best ELBO per path (−∞ for a dropped path). */
  readonly elbo: Float64Array;
  /** Gradient evaluations of all paths (see `paths` for each path's). */
  readonly gradientEvaluations: number;
  /** Log density evaluations (no gradient) of all paths: the ELBO estimates and the output draws. */
  readonly logDensityEvaluations: number;
  readonly paths: readonly PathfinderPath[];
  readonly warnings: readonly string[];
}

/** The flat problem a run needs: the target and a start per path key. */
interface PathfinderProblem {
  readonly target: FlatTarget;
  readonly dim: number;
  start(key: KeyArray): Float64Array;
}

interface PathfinderSettings {
  readonly numPaths: number;
  /** Candidates per path. */
  readonly draws: number;
  readonly numElboDraws: number;
  readonly lbfgs: MinimizeSettings;
}

/** What the paths give: all candidates, pooled, with their logP/logQ. */
interface Pooled {
  readonly xs: Float64Array;
  readonly logP: Float64Array;
  readonly logQ: Float64Array;
  readonly paths: PathfinderPath[];
  readonly warnings: string[];
}

/**
 * Multi-path Pathfinder, as Stan 2.33's `pathfinder` method: `numPaths` L-BFGS runs (each from
 * its own start, a pure function of its key `splitSeed(seed, { n: numPaths })[p]`) on the
 * unconstrained density with the log-Jacobian. At every iterate the normal approximation
 * N(x + H∇log p(x), H), H the L-BFGS inverse Hessian (diagonal from Gilbert–Lemaréchal updates
 * plus the rank-2·`historySize` correction from the last pairs; Stan's rule: a pair failing the
 * curvature test sᵀy > 0, ‖y‖²/sᵀy ≤ 1e12 stays in the history but does not update the diagonal), is scored
 * by its ELBO from `numElboDraws` draws; each path keeps its best, draws `draws` candidates from
 * it (its ELBO draws reused), and the candidates of all paths are resampled with
 * Pareto-smoothed importance weights exp(logP − logQ). A log density failure at a draw makes its
 * logP −∞ (weight 0); a path whose L-BFGS makes no step, or whose every approximation fails, is
 * dropped with a warning.
 *
 * @param model a joint distribution (observed nodes in `pins`), a pinned one, or a
 *   {@link FlatTarget} used as given.
 * @throws TypeError/RangeError naming the option for bad options; RangeError when every path
 *   fails, or no start has a finite log density and gradient.
 * @example
 * import { JointDistributionNamed, Normal, HalfNormal, Sample } from 'stochax/distributions';
 * import { pathfinder } from 'stochax/optimize';
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 10 }),
 *   sigma: new HalfNormal({ scale: 1 }),
 *   y: ({ mu, sigma }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
 * });
 * const fit = pathfinder(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0 });
 * fit.draws.mu.shape;          // [1000, 1]
 * fit.gradientEvaluations;     // 58: the four L-BFGS runs' (NUTS's 4 × 2000 transitions take thousands)
 */
export function pathfinder<K extends StructKind>(model: JointDistribution<K> | JointDistributionPinned<K>, options?: PathfinderOptions): PathfinderResult<Struct<K, Tensor>>;
export function pathfinder(model: FlatTarget, options?: PathfinderOptions): PathfinderResult<Record<string, Tensor>>;
export function pathfinder(model: JointDistribution<StructKind> | JointDistributionPinned<StructKind> | FlatTarget, options: PathfinderOptions = {}): PathfinderResult {
  const o = checkOptions(FN, options, ['pins', 'numPaths', 'draws', 'numElboDraws', 'historySize', 'psisResample', 'init', 'initRadius', 'seed',
    'initAlpha', 'tolObj', 'tolRelObj', 'tolGrad', 'tolRelGrad', 'tolParam', 'maxLbfgsIters']);
  const numPaths = count('numPaths', o.numPaths, 4);
  const nDraws = count('draws', o.draws, 1000);
  const numElboDraws = count('numElboDraws', o.numElboDraws, 25);
  const psisResample = checkBoolean(FN, 'psisResample', o.psisResample ?? true);
  const maxIters = o.maxLbfgsIters === undefined ? 1000 : checkPositiveInteger(FN, 'maxLbfgsIters', o.maxLbfgsIters);
  const { maxLbfgsIters: _m, pins: _p, numPaths: _n, draws: _d, numElboDraws: _e, psisResample: _r, init: _i, initRadius: _ir, seed: _s, ...tolerances } = o;
  const lbfgs = optimizeSettings(FN, { ...tolerances, algorithm: 'lbfgs', iter: maxIters });
  const radius = o.initRadius === undefined ? 2 : positiveFinite('initRadius', o.initRadius);
  const seed = sanitizeSeed(o.seed);
  const p = problem(FN, model, o.pins, undefined, true);
  const pooled = runPaths(FN, { target: p.target, dim: p.dim, start: (key) => start(FN, p, o.init, key, radius) },
    { numPaths, draws: nDraws, numElboDraws, lbfgs }, seed);
  return finish(p, pooled, nDraws, psisResample, seed);
}

function count(arg: string, v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  const n = checkCount(FN, arg, v);
  if (n < 1) fail('range', FN, arg, 'must be at least 1', n);
  return n;
}

function positiveFinite(arg: string, v: unknown): number {
  const x = checkFinite(FN, arg, v);
  if (!(x > 0)) fail('range', FN, arg, 'must be positive and finite', v);
  return x;
}

/** Runs every path and pools the candidates of those that were not dropped; all dropped is an error. */
function runPaths(fn: string, pp: PathfinderProblem, s: PathfinderSettings, seed: KeyArray): Pooled {
  const keys = splitSeed(seed, { n: s.numPaths });
  const warnings: string[] = [];
  const runs = keys.map((key, i) => {
    const r = singlePath(pp, s, key);
    if (r.path.dropped !== undefined) warnings.push(`${fn}: path ${i} dropped: ${r.path.dropped}`);
    for (const f of r.failures) warnings.push(`${fn}: path ${i}: ${f}`);
    return r;
  });
  const kept = runs.filter((r) => r.path.dropped === undefined);
  if (kept.length === 0) {
    return fail('range', fn, 'model', `every one of the ${s.numPaths} Pathfinder paths failed (${runs.map((r, i) => `path ${i}: ${r.path.dropped}`).join('; ')}). Check the model and its pins, or give \`init\``, s.numPaths);
  }
  const n = pp.dim, per = s.draws, total = kept.length * per;
  const xs = new Float64Array(total * n), logP = new Float64Array(total), logQ = new Float64Array(total);
  kept.forEach((r, j) => { xs.set(r.xs, j * per * n); logP.set(r.logP, j * per); logQ.set(r.logQ, j * per); });
  return { xs, logP, logQ, paths: runs.map((r) => r.path), warnings };
}

/** The result from the pooled candidates: PSIS resampling (or all candidates), constrained draws, warnings. */
function finish(p: Problem, pooled: Pooled, nDraws: number, psisResample: boolean, seed: KeyArray): PathfinderResult {
  const { paretoK, pick } = psisImportance(pooled.logP, pooled.logQ, psisResample ? nDraws : undefined, foldIn(seed, 'psis'));
  const n = p.dim, m = pick === undefined ? pooled.logP.length : pick.length;
  const at = (s: number) => (pick === undefined ? s : pick[s]!);
  const xs = new Float64Array(m * n), logP = new Float64Array(m), logQ = new Float64Array(m);
  for (let s = 0; s < m; s++) {
    const k = at(s);
    xs.set(pooled.xs.subarray(k * n, (k + 1) * n), s * n);
    logP[s] = pooled.logP[k]!; logQ[s] = pooled.logQ[k]!;
  }
  const warnings = [...p.notes, ...pooled.warnings];
  const failed = pooled.logP.reduce((c, v) => c + (v === -Infinity ? 1 : 0), 0);
  if (failed > 0) warnings.push(`${FN}: the log density failed (an exception or a non-finite value) at ${failed} of ${pooled.logP.length} candidate draws; their logP is −∞ (importance weight 0)`);
  if (!(paretoK <= 0.7)) warnings.push(`${FN}: Pareto k̂ = ${Number.isFinite(paretoK) ? paretoK.toFixed(2) : paretoK} > 0.7: importance resampling could not correct the approximation, which may be poor (Stan's warning); check the draws against NUTS`);
  const paths = pooled.paths;
  return {
    draws: p.draws(m, (s) => xs.subarray(s * n, (s + 1) * n)),
    unconstrained: xs,
    logP: new Tensor(logP, [m, 1], 'float64'),
    logQ: new Tensor(logQ, [m, 1], 'float64'),
    paretoK,
    elbo: Float64Array.from(paths, (q) => q.elbo),
    gradientEvaluations: paths.reduce((t, q) => t + q.gradientEvaluations, 0),
    logDensityEvaluations: paths.reduce((t, q) => t + q.logDensityEvaluations, 0),
    paths,
    warnings,
  };
}

// ---- one path ------------------------------------------------------------------------------

interface PathRun {
  readonly path: PathfinderPath;
  readonly xs: Float64Array;
  readonly logP: Float64Array;
  readonly logQ: Float64Array;
  readonly failures: readonly string[];
}

/**
 * Single-path Pathfinder (the paper's Alg. 1): L-BFGS from the path's start, recording the
 * iterates and gradients; at each iterate l ≥ 1 the pair (s, y) passes the curvature test or is
 * skipped, the diagonal is updated (Alg. 3), the approximation built (Alg. 4) and its ELBO
 * estimated with draws keyed `foldIn(foldIn(key, 'elbo'), l)`. The best approximation's ELBO
 * draws are kept and `draws − numElboDraws` more drawn (key `foldIn(key, 'draws')`).
 */
function singlePath(pp: PathfinderProblem, s: PathfinderSettings, key: KeyArray): PathRun {
  const n = pp.dim;
  const x0 = pp.start(key);
  const obj = new Objective(pp.target);
  const xsPath: Float64Array[] = [], gsPath: Float64Array[] = [];
  const out = minimize(obj, x0, s.lbfgs, (x, g) => { xsPath.push(Float64Array.from(x)); gsPath.push(Float64Array.from(g)); });
  const hist = new History(n, s.lbfgs.historySize);
  const elboKey = foldIn(key, 'elbo');
  let evals = 0, best: { elbo: number; l: number; approx: Approximation; draws: Drawn } | undefined;
  const density = (x: Float64Array): number => { evals++; return logDensityAt(pp.target, x); };
  for (let l = 1; l < xsPath.length; l++) {
    hist.add(xsPath[l]!, xsPath[l - 1]!, gsPath[l]!, gsPath[l - 1]!);
    const approx = hist.approximation(xsPath[l]!, gsPath[l]!);
    if (approx === undefined) continue;
    const drawn = approx.draw(foldIn(elboKey, l), s.numElboDraws, density);
    const elbo = meanOf(drawn.logP.map((v, i) => v - drawn.logQ[i]!));
    if (!Number.isNaN(elbo) && elbo > (best?.elbo ?? -Infinity)) best = { elbo, l, approx, draws: drawn };
  }
  const failures = out.failures;
  const pathInfo = { iterations: out.iterations, reason: out.reason, gradientEvaluations: obj.gradientEvaluations };
  if (best === undefined) {
    const why = xsPath.length < 2 ? `L-BFGS made no step (${out.reason})` : `the ELBO was −∞ or not a number at every one of its ${xsPath.length - 1} approximations (the log density failed at their draws, or they were not positive definite)`;
    return {
      path: { ...pathInfo, elbo: -Infinity, bestIteration: 0, logDensityEvaluations: evals, mean: new Float64Array(0), variance: new Float64Array(0), dropped: why },
      xs: new Float64Array(0), logP: new Float64Array(0), logQ: new Float64Array(0), failures,
    };
  }
  // The output: the best approximation's ELBO draws, then fresh ones (or the first `draws` of them).
  const k = Math.min(s.draws, s.numElboDraws), more = s.draws - k;
  const extra = more > 0 ? best.approx.draw(foldIn(key, 'draws'), more, density) : undefined;
  const xs = new Float64Array(s.draws * n), logP = new Float64Array(s.draws), logQ = new Float64Array(s.draws);
  xs.set(best.draws.xs.subarray(0, k * n)); logP.set(best.draws.logP.subarray(0, k)); logQ.set(best.draws.logQ.subarray(0, k));
  if (extra !== undefined) { xs.set(extra.xs, k * n); logP.set(extra.logP, k); logQ.set(extra.logQ, k); }
  return {
    path: { ...pathInfo, elbo: best.elbo, bestIteration: best.l, logDensityEvaluations: evals, mean: best.approx.mean, variance: best.approx.variance(), dropped: undefined },
    xs, logP, logQ, failures,
  };
}

/** log p at x, −∞ where it throws (a numerical failure, by the rejection rule) or is not finite. */
function logDensityAt(target: FlatTarget, x: Float64Array): number {
  let lp: number;
  try { lp = target.logDensity(x); } catch (e) {
    if (isProgrammingError(e)) throw e;
    return -Infinity;
  }
  return Number.isFinite(lp) ? lp : -Infinity;
}

function meanOf(a: Float64Array): number {
  let t = 0;
  for (const v of a) t += v;
  return t / a.length;
}

interface Drawn { readonly xs: Float64Array; readonly logP: Float64Array; readonly logQ: Float64Array }

/**
 * The L-BFGS history as Pathfinder uses it, by Stan's rules (services/pathfinder/single.hpp since
 * 2.33): the last `size` pairs (s, y), every one of them (gradients of f = −log p, so y is the
 * change in ∇f), and the diagonal α of the initial inverse Hessian, updated from α = 1 (the
 * paper's Alg. 3, Gilbert & Lemaréchal's diagonal BFGS update) only at pairs that pass the
 * curvature test sᵀy > 0, ‖y‖²/sᵀy ≤ 1e12. (The paper's version instead drops a failing pair from
 * the history too; after a Wolfe line search sᵀy > 0 always, so the two differ only at near-flat
 * steps.) Exported for the tests (the secant condition, dense = low rank, the curvature rule).
 */
export class History {
  private readonly s: Float64Array[] = [];
  private readonly y: Float64Array[] = [];
  private readonly alpha: Float64Array;
  constructor(private readonly n: number, private readonly size: number) { this.alpha = new Float64Array(n).fill(1); }

  /** A copy of the diagonal α (for the tests). */
  diagonal(): Float64Array { return Float64Array.from(this.alpha); }

  add(x: Float64Array, xPrev: Float64Array, g: Float64Array, gPrev: Float64Array): void {
    const n = this.n, s = new Float64Array(n), y = new Float64Array(n);
    for (let i = 0; i < n; i++) { s[i] = x[i]! - xPrev[i]!; y[i] = g[i]! - gPrev[i]!; }
    // Stan's rule since 2.33: the low-rank history keeps every pair, the newest `size` of them;
    // only the diagonal's update is gated by the curvature test.
    if (this.s.length === this.size) { this.s.shift(); this.y.shift(); }
    this.s.push(s); this.y.push(y);
    const sy = dot(s, y);
    if (!(sy > 0 && dot(y, y) / sy <= CURVATURE_MAX)) return;
    // α ← diag of the BFGS update of the Hessian c·diag(1/α), c = yᵀαy / yᵀs (Alg. 3).
    const a = this.alpha;
    let yay = 0, sas = 0;
    for (let i = 0; i < n; i++) { yay += y[i]! * a[i]! * y[i]!; sas += s[i]! * s[i]! / a[i]!; }
    const next = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const sa = s[i]! / a[i]!;
      next[i] = 1 / (yay / (sy * a[i]!) + y[i]! * y[i]! / sy - (yay / sy) * sa * sa / sas);
    }
    // A rounding-broken update (non-positive or non-finite) keeps the old diagonal.
    if (next.every((v) => v > 0 && Number.isFinite(v))) a.set(next);
  }

  /**
   * The normal approximation at x (gradient of f there `g`): covariance H = diag(α) + βγβᵀ
   * (Byrd, Nocedal & Schnabel's compact inverse BFGS matrix: β = [diag(α)Y, S],
   * γ = [[0, −R⁻¹], [−R⁻ᵀ, R⁻ᵀ(D + YᵀαY)R⁻¹]], R the upper triangle of SᵀY, D its diagonal) and
   * mean x − H·g. Undefined when H is not positive definite.
   */
  approximation(x: Float64Array, g: Float64Array, lowRank = 2 * this.s.length < this.n): Approximation | undefined {
    const n = this.n, m = this.s.length, k = 2 * m, a = this.alpha;
    const S = this.s, Y = this.y;
    // R⁻¹ (upper triangular, m×m) by back-substitution, column by column.
    const R = new Float64Array(m * m), Ri = new Float64Array(m * m);
    for (let i = 0; i < m; i++) for (let j = i; j < m; j++) R[i * m + j] = dot(S[i]!, Y[j]!);
    for (let c = 0; c < m; c++) {
      for (let i = c; i >= 0; i--) {
        let t = i === c ? 1 : 0;
        for (let j = i + 1; j <= c; j++) t -= R[i * m + j]! * Ri[j * m + c]!;
        Ri[i * m + c] = t / R[i * m + i]!;
      }
    }
    // M = D + YᵀαY; lower-right block R⁻ᵀ M R⁻¹.
    const M = new Float64Array(m * m);
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) {
        let t = i === j ? R[i * m + i]! : 0;
        for (let q = 0; q < n; q++) t += Y[i]![q]! * a[q]! * Y[j]![q]!;
        M[i * m + j] = t;
      }
    }
    const gamma = new Float64Array(k * k);
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) {
        gamma[i * k + m + j] = -Ri[i * m + j]!;
        gamma[(m + j) * k + i] = -Ri[i * m + j]!;
        let t = 0;
        for (let p = 0; p < m; p++) for (let q = 0; q < m; q++) t += Ri[p * m + i]! * M[p * m + q]! * Ri[q * m + j]!;
        gamma[(m + i) * k + m + j] = t;
      }
    }
    // β (n×k): columns αy_j, then s_j.
    const beta = new Float64Array(n * k);
    for (let q = 0; q < n; q++) {
      for (let j = 0; j < m; j++) { beta[q * k + j] = a[q]! * Y[j]![q]!; beta[q * k + m + j] = S[j]![q]!; }
    }
    const bgb = (u: Float64Array, v: Float64Array): number => {   // uᵀβγβᵀv
      const bu = new Float64Array(k), bv = new Float64Array(k);
      for (let q = 0; q < n; q++) for (let j = 0; j < k; j++) { bu[j] = bu[j]! + beta[q * k + j]! * u[q]!; bv[j] = bv[j]! + beta[q * k + j]! * v[q]!; }
      let t = 0;
      for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) t += bu[i]! * gamma[i * k + j]! * bv[j]!;
      return t;
    };
    // Mean x − Hg with Hg = αg + βγβᵀg.
    const btg = new Float64Array(k);
    for (let q = 0; q < n; q++) for (let j = 0; j < k; j++) btg[j] = btg[j]! + beta[q * k + j]! * g[q]!;
    const gbtg = new Float64Array(k);
    for (let i = 0; i < k; i++) { let t = 0; for (let j = 0; j < k; j++) t += gamma[i * k + j]! * btg[j]!; gbtg[i] = t; }
    const mean = new Float64Array(n);
    for (let q = 0; q < n; q++) {
      let t = a[q]! * g[q]!;
      for (let j = 0; j < k; j++) t += beta[q * k + j]! * gbtg[j]!;
      mean[q] = x[q]! - t;
    }
    if (!mean.every(Number.isFinite)) return undefined;
    if (!lowRank) {
      // Dense: H itself, Cholesky-factored.
      const H = new Float64Array(n * n), e = new Float64Array(n), f = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        e.fill(0); e[i] = 1;
        for (let j = 0; j <= i; j++) {
          f.fill(0); f[j] = 1;
          const v = (i === j ? a[i]! : 0) + bgb(e, f);
          H[i * n + j] = v; H[j * n + i] = v;
        }
      }
      const L = cholesky(H, n);
      if (L === null) return undefined;
      return new DenseApproximation(mean, L, n);
    }
    // Low rank: diag(α)^(−1/2)β = QR̃, then chol(I + R̃γR̃ᵀ) = L̃ (the paper's Alg. 4).
    const sqrtA = a.map(Math.sqrt);
    const B = new Float64Array(n * k);
    for (let q = 0; q < n; q++) for (let j = 0; j < k; j++) B[q * k + j] = beta[q * k + j]! / sqrtA[q]!;
    let Q: Float64Array = new Float64Array(0), Lt: Float64Array = new Float64Array(0);
    if (k > 0) {
      Q = householderQr(B, n, k).q;
      const Rt = new Float64Array(k * k);   // R̃ = QᵀB
      for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) { let t = 0; for (let q = 0; q < n; q++) t += Q[q * k + i]! * B[q * k + j]!; Rt[i * k + j] = t; }
      const I = new Float64Array(k * k);
      for (let i = 0; i < k; i++) {
        for (let j = 0; j < k; j++) {
          let t = i === j ? 1 : 0;
          for (let p = 0; p < k; p++) for (let r = 0; r < k; r++) t += Rt[i * k + p]! * gamma[p * k + r]! * Rt[j * k + r]!;
          I[i * k + j] = t;
        }
      }
      for (let i = 0; i < k; i++) for (let j = 0; j < i; j++) { const v = 0.5 * (I[i * k + j]! + I[j * k + i]!); I[i * k + j] = v; I[j * k + i] = v; }
      const L = cholesky(I, k);
      if (L === null) return undefined;
      Lt = L;
    }
    return new LowRankApproximation(mean, sqrtA, Q, Lt, n, k);
  }
}

/** A normal approximation: its mean, draws with their logQ and logP, and its marginal variances. */
export abstract class Approximation {
  constructor(readonly mean: Float64Array, protected readonly n: number) {}
  /** x = mean + A·u for u standard normal; returns Σ log|diag| of A (½ log det of the covariance). */
  protected abstract transform(u: Float64Array, x: Float64Array): void;
  protected abstract halfLogDet(): number;
  abstract variance(): Float64Array;

  draw(key: KeyArray, count: number, density: (x: Float64Array) => number): Drawn {
    const n = this.n;
    const z = normal(key, [count, n], { dtype: 'float64' }).data as Float64Array;
    const xs = new Float64Array(count * n), logP = new Float64Array(count), logQ = new Float64Array(count);
    const hl = this.halfLogDet();
    for (let d = 0; d < count; d++) {
      const u = z.subarray(d * n, (d + 1) * n), x = xs.subarray(d * n, (d + 1) * n);
      this.transform(u, x);
      logQ[d] = -0.5 * (n * LOG_2PI + dot(u, u)) - hl;
      logP[d] = density(x);
    }
    return { xs, logP, logQ };
  }
}

/** N(mean, LLᵀ) with L the dense Cholesky factor (when 2·history ≥ dim). */
class DenseApproximation extends Approximation {
  constructor(mean: Float64Array, private readonly L: Float64Array, n: number) { super(mean, n); }
  protected transform(u: Float64Array, x: Float64Array): void {
    const n = this.n, L = this.L;
    for (let i = 0; i < n; i++) { let t = this.mean[i]!; for (let j = 0; j <= i; j++) t += L[i * n + j]! * u[j]!; x[i] = t; }
  }
  protected halfLogDet(): number { let t = 0; for (let i = 0; i < this.n; i++) t += detLog(this.L[i * this.n + i]!); return t; }
  variance(): Float64Array {
    const n = this.n, L = this.L;
    return Float64Array.from({ length: n }, (_, i) => { let t = 0; for (let j = 0; j <= i; j++) t += L[i * n + j]! ** 2; return t; });
  }
}

/** N(mean, diag(√α)(I + Q(L̃L̃ᵀ − I)Qᵀ)diag(√α)): x = mean + √α ⊙ (u + Q(L̃ − I)Qᵀu). */
class LowRankApproximation extends Approximation {
  constructor(mean: Float64Array, private readonly sqrtA: Float64Array, private readonly Q: Float64Array, private readonly L: Float64Array, n: number, private readonly k: number) { super(mean, n); }
  protected transform(u: Float64Array, x: Float64Array): void {
    const n = this.n, k = this.k, Q = this.Q, L = this.L;
    const v = new Float64Array(k), w = new Float64Array(k);
    for (let q = 0; q < n; q++) for (let j = 0; j < k; j++) v[j] = v[j]! + Q[q * k + j]! * u[q]!;
    for (let i = 0; i < k; i++) { let t = -v[i]!; for (let j = 0; j <= i; j++) t += L[i * k + j]! * v[j]!; w[i] = t; }
    for (let q = 0; q < n; q++) {
      let t = u[q]!;
      for (let j = 0; j < k; j++) t += Q[q * k + j]! * w[j]!;
      x[q] = this.mean[q]! + this.sqrtA[q]! * t;
    }
  }
  protected halfLogDet(): number {
    let t = 0;
    for (let q = 0; q < this.n; q++) t += detLog(this.sqrtA[q]!);
    for (let i = 0; i < this.k; i++) t += detLog(this.L[i * this.k + i]!);
    return t;
  }
  variance(): Float64Array {
    // diag: α_q (1 + Σ_ij Q_qi (L̃L̃ᵀ − I)_ij Q_qj).
    const n = this.n, k = this.k, Q = this.Q, L = this.L;
    const C = new Float64Array(k * k);
    for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) { let t = i === j ? -1 : 0; for (let p = 0; p <= Math.min(i, j); p++) t += L[i * k + p]! * L[j * k + p]!; C[i * k + j] = t; }
    return Float64Array.from({ length: n }, (_, q) => {
      let t = 1;
      for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) t += Q[q * k + i]! * C[i * k + j]! * Q[q * k + j]!;
      return this.sqrtA[q]! ** 2 * t;
    });
  }
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let t = 0;
  for (let i = 0; i < a.length; i++) t += a[i]! * b[i]!;
  return t;
}

// ---- init: 'pathfinder' and initInvMetric: 'pathfinder' for windowedAdaptiveNuts ---------------

/**
 * The sampler's Pathfinder run (registered with mcmc/internal/init.ts, which cannot import this
 * layer), on the sampler's own target and run once, when first asked: `pathfinder(target, { seed:
 * foldIn(seed, 'pathfinder'), draws: max(nChains, 100) })` (a pure function of the run's seed; few
 * draws, as each costs a log density evaluation). Chain c starts at its draw c; the initial
 * inverse metric is the diagonal of the covariance of the equal-weight mixture of the paths' best
 * approximations (Σ_p (σ²_p + (μ_p − μ̄)²)/P), which needs no importance weights — on a funnel PSIS
 * leaves a handful of distinct draws, whose variance would be a poor metric.
 */
function pathfinderStarts(fn: string, m: FlatModel, target: FlatTarget, nChains: number, seed: KeyArray): PathfinderRun {
  const n = target.dim;
  let run: { xs: Float64Array; invMetric: Float64Array } | undefined;
  const get = () => {
    if (run !== undefined) return run;
    const key = foldIn(seed, 'pathfinder');
    const p: Problem = { target, dim: n, model: undefined, notes: [], draws: () => [], why: (x) => whyNotFinite(m, target, x) };
    const per = Math.max(nChains, 100);
    const pooled = runPaths(fn, { target, dim: n, start: (k) => start(fn, p, undefined, k, 2) },
      { numPaths: 4, draws: per, numElboDraws: 25, lbfgs: optimizeSettings(fn, { algorithm: 'lbfgs', iter: 1000 }) }, key);
    const { pick } = psisImportance(pooled.logP, pooled.logQ, per, foldIn(key, 'psis'));
    const xs = new Float64Array(nChains * n);
    for (let i = 0; i < nChains; i++) xs.set(pooled.xs.subarray(pick![i]! * n, (pick![i]! + 1) * n), i * n);
    run = { xs, invMetric: mixtureVariance(pooled.paths.filter((q) => q.dropped === undefined), n) };
    return run;
  };
  return {
    start: (c) => get().xs.slice(c * n, (c + 1) * n),
    invMetric: () => get().invMetric.slice(),
  };
}

/** The marginal variances of the equal-weight mixture of the paths' normal approximations; a coordinate that is not positive and finite gets 1 (the identity's). */
function mixtureVariance(paths: readonly PathfinderPath[], n: number): Float64Array {
  const P = paths.length, out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let m = 0, v = 0;
    for (const q of paths) m += q.mean[i]! / P;
    for (const q of paths) v += (q.variance[i]! + (q.mean[i]! - m) ** 2) / P;   // about the mixture's mean: no cancellation
    out[i] = v > 0 && Number.isFinite(v) ? v : 1;
  }
  return out;
}

providePathfinderStarts(pathfinderStarts);
