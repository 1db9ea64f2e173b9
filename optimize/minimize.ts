/**
 * The mode finders on a flat target: Stan's BFGS/L-BFGS (`stan/optimization/bfgs.hpp`: quasi-Newton
 * direction, a line search for the strong Wolfe conditions, and its six termination tests) and
 * Stan's Newton (finite-difference Hessian made negative definite, step halving). Written from the
 * algorithms' descriptions (Nocedal & Wright, Numerical Optimization, 2nd ed., §3.5, §6.1, §7.2)
 * and Stan's documented behaviour. Everything here minimises f = −log p on Float64Arrays.
 */
import type { FlatTarget } from '../src/compile/flat-target.js';
import { symmetricEigen } from '../src/tensor/linalg-kernels.js';
import { fdHessian } from './hessian.js';

/** CmdStan's optimisation settings (its names, camelCased). */
export interface MinimizeSettings {
  readonly algorithm: 'lbfgs' | 'bfgs' | 'newton';
  readonly initAlpha: number;
  readonly tolObj: number;
  readonly tolRelObj: number;
  readonly tolGrad: number;
  readonly tolRelGrad: number;
  readonly tolParam: number;
  readonly historySize: number;
  readonly iter: number;
}

/** What a run found: the last accepted point, and why it stopped. */
export interface MinimizeOutcome {
  readonly x: Float64Array;
  /** log p at `x` (not −log p). */
  readonly logDensity: number;
  readonly iterations: number;
  readonly gradientEvaluations: number;
  readonly converged: boolean;
  readonly reason: string;
  /** Failures of the log density met on the way (each kind once, with a count). */
  readonly failures: readonly string[];
}

/** Stan's reasons, word for word, so users can search for them. */
export const REASONS = {
  absObj: 'Convergence detected: absolute change in objective function was below tolerance',
  relObj: 'Convergence detected: relative change in objective function was below tolerance',
  absGrad: 'Convergence detected: gradient norm is below tolerance',
  relGrad: 'Convergence detected: relative gradient magnitude is below tolerance',
  absParam: 'Convergence detected: absolute parameter change was below tolerance',
  maxIter: 'Maximum number of iterations hit, may not be at an optima',
  lineSearch: 'Line search failed to achieve a sufficient decrease, no more progress can be made',
  newton: 'Convergence detected: the log density rose by less than 1e-8 in a Newton step',
} as const;

const EPS = Number.EPSILON;
/** Stan's line-search constants (`LSOptions`): sufficient decrease c1, curvature c2, smallest step, iterations, retries after a failed evaluation. */
const C1 = 1e-4, C2 = 0.9, MIN_ALPHA = 1e-12, MAX_LS_ITERS = 20, MAX_LS_RESTARTS = 10;
/** Stan's `fScale`: the relative tests divide by max(|f|, 1). */
const F_SCALE = 1;

/**
 * The objective f = −log p and its gradient, with evaluations counted and failures (an exception
 * or a non-finite value or gradient) turned into `false`, remembered by message.
 */
export class Objective {
  gradientEvaluations = 0;
  private readonly failed = new Map<string, number>();
  constructor(readonly target: FlatTarget) {}

  /** f and ∇f at x into `g`; false (and f, g unspecified) when the log density fails there. */
  eval(x: Float64Array, g: Float64Array): number | undefined {
    this.gradientEvaluations++;
    let lp: number;
    try {
      lp = this.target.logDensityGradient(x, g);
    } catch (e) {
      this.note(`the log density threw: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
    if (!Number.isFinite(lp)) { this.note(`the log density was ${lp}`); return undefined; }
    for (let i = 0; i < g.length; i++) {
      if (!Number.isFinite(g[i]!)) { this.note(`the gradient was not finite in ${this.target.paramNames[i] ?? `coordinate ${i}`}`); return undefined; }
      g[i] = -g[i]!;
    }
    return -lp;
  }

  private note(message: string): void {
    this.failed.set(message, (this.failed.get(message) ?? 0) + 1);
  }

  /** One line per kind of failure: "the log density threw: … (3 points)". */
  failures(): string[] {
    return [...this.failed].map(([m, n]) => `${m} (${n} point${n === 1 ? '' : 's'}; the step was shrunk)`);
  }
}

/**
 * Called at the start and after every accepted (L-)BFGS step with the point, the gradient of
 * f = −log p there and f; the arrays are reused, so copy what you keep (Pathfinder records the path).
 */
export type OnIterate = (x: Float64Array, gradF: Float64Array, f: number) => void;

/** Runs the chosen algorithm from `x0` (where the objective must be finite); `onIterate` sees the quasi-Newton path. */
export function minimize(obj: Objective, x0: Float64Array, s: MinimizeSettings, onIterate?: OnIterate): MinimizeOutcome {
  return s.algorithm === 'newton' ? newton(obj, x0, s) : quasiNewton(obj, x0, s, onIterate);
}

// ---- quasi-Newton updates ----------------------------------------------------------------

/** An inverse-Hessian approximation H: `update` adds the pair (s, y); `direction` writes p = −H·g. */
interface QuasiNewtonUpdate {
  /** Adds (s, y); with `reset`, drops the history first and returns B0 = yᵀy / sᵀy (Stan's scaling), else 1. */
  update(y: Float64Array, s: Float64Array, reset: boolean): number;
  direction(p: Float64Array, g: Float64Array): void;
}

/** Limited-memory BFGS: the last `m` pairs, two-loop recursion, H₀ = (sᵀy / yᵀy)·I from the newest pair. */
class LbfgsUpdate implements QuasiNewtonUpdate {
  private readonly s: Float64Array[] = [];
  private readonly y: Float64Array[] = [];
  private readonly rho: number[] = [];
  private gamma = 1;
  private readonly alpha: Float64Array;
  constructor(private readonly m: number) { this.alpha = new Float64Array(m); }

  update(y: Float64Array, s: Float64Array, reset: boolean): number {
    const sy = dot(s, y), yy = dot(y, y);
    const b0 = reset ? yy / sy : 1;
    if (reset) { this.s.length = 0; this.y.length = 0; this.rho.length = 0; }
    // A pair with sᵀy ≤ 0 would make H indefinite (the Wolfe curvature test rules it out, rounding may not).
    if (!(sy > 0) || !Number.isFinite(sy / yy)) return Number.isFinite(b0) && b0 > 0 ? b0 : 1;
    if (this.s.length === this.m) { this.s.shift(); this.y.shift(); this.rho.shift(); }
    this.s.push(Float64Array.from(s)); this.y.push(Float64Array.from(y)); this.rho.push(1 / sy);
    this.gamma = sy / yy;
    return b0;
  }

  direction(p: Float64Array, g: Float64Array): void {
    const k = this.s.length, n = p.length;
    for (let i = 0; i < n; i++) p[i] = -g[i]!;
    for (let j = k - 1; j >= 0; j--) {
      const a = this.rho[j]! * dot(this.s[j]!, p);
      this.alpha[j] = a;
      axpy(-a, this.y[j]!, p);
    }
    for (let i = 0; i < n; i++) p[i] = p[i]! * this.gamma;
    for (let j = 0; j < k; j++) {
      const b = this.rho[j]! * dot(this.y[j]!, p);
      axpy(this.alpha[j]! - b, this.s[j]!, p);
    }
  }
}

/** Dense BFGS on the inverse Hessian: H ← (I − ρsyᵀ)H(I − ρysᵀ) + ρssᵀ, H₀ = (sᵀy / yᵀy)·I at a reset. */
class BfgsUpdate implements QuasiNewtonUpdate {
  private readonly h: Float64Array;
  private readonly hy: Float64Array;
  constructor(private readonly n: number) {
    this.h = new Float64Array(n * n);
    this.hy = new Float64Array(n);
    for (let i = 0; i < n; i++) this.h[i * n + i] = 1;
  }

  update(y: Float64Array, s: Float64Array, reset: boolean): number {
    const n = this.n, h = this.h, hy = this.hy;
    const sy = dot(s, y), yy = dot(y, y);
    const b0 = reset ? yy / sy : 1;
    if (!(sy > 0) || !Number.isFinite(sy / yy)) return Number.isFinite(b0) && b0 > 0 ? b0 : 1;
    if (reset) { h.fill(0); for (let i = 0; i < n; i++) h[i * n + i] = 1 / b0; }
    const rho = 1 / sy;
    // Expanded form: H + (ρ + ρ²·yᵀHy)·ssᵀ − ρ(Hy·sᵀ + s·(Hy)ᵀ), with H symmetric.
    for (let i = 0; i < n; i++) { let t = 0; for (let j = 0; j < n; j++) t += h[i * n + j]! * y[j]!; hy[i] = t; }
    const yhy = dot(y, hy), c = rho + rho * rho * yhy;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) h[i * n + j] = h[i * n + j]! + c * s[i]! * s[j]! - rho * (hy[i]! * s[j]! + s[i]! * hy[j]!);
    }
    return b0;
  }

  direction(p: Float64Array, g: Float64Array): void {
    const n = this.n, h = this.h;
    for (let i = 0; i < n; i++) { let t = 0; for (let j = 0; j < n; j++) t -= h[i * n + j]! * g[j]!; p[i] = t; }
  }
}

// ---- line search ---------------------------------------------------------------------------

/** A point on the line x0 + α·p with its objective, gradient and slope gᵀp. */
interface LinePoint { alpha: number; f: number; slope: number }

/**
 * Finds α with f(x0 + αp) ≤ f0 + c1·α·f0′ and |f′(α)| ≤ c2·|f0′| (the strong Wolfe conditions):
 * Nocedal & Wright's Algorithm 3.5 (bracketing, ×10 per step as Stan does) and 3.6 (zoom by
 * safeguarded cubic interpolation, bisection every fifth step). A failed evaluation moves the
 * trial point halfway back towards the last good one. On success x1, g1 hold the point and the
 * return is its α and f; undefined when no such step was found.
 */
function wolfeLineSearch(
  obj: Objective, x0: Float64Array, f0: number, g0: Float64Array, p: Float64Array, alphaInit: number,
  x1: Float64Array, g1: Float64Array,
): { alpha: number; f: number } | undefined {
  const slope0 = dot(g0, p);
  if (!(slope0 < 0)) return undefined;   // not a descent direction
  const at = (alpha: number): LinePoint | undefined => {
    for (let i = 0; i < x0.length; i++) x1[i] = x0[i]! + alpha * p[i]!;
    const f = obj.eval(x1, g1);
    return f === undefined ? undefined : { alpha, f, slope: dot(g1, p) };
  };
  let prev: LinePoint = { alpha: 0, f: f0, slope: slope0 };
  let alpha = alphaInit, restarts = 0;
  for (let it = 0; it < MAX_LS_ITERS;) {
    const cur = at(alpha);
    if (cur === undefined) {
      if (++restarts > MAX_LS_RESTARTS) return undefined;
      alpha = 0.5 * (prev.alpha + alpha);
      continue;
    }
    restarts = 0;
    if (cur.f > f0 + C1 * cur.alpha * slope0 || (it > 0 && cur.f >= prev.f)) return zoom(at, f0, slope0, prev, cur);
    if (Math.abs(cur.slope) <= -C2 * slope0) return cur;
    if (cur.slope >= 0) return zoom(at, f0, slope0, cur, prev);
    prev = cur;
    alpha *= 10;
    it++;
  }
  return undefined;
}

/** Nocedal & Wright's zoom between `lo` (satisfies sufficient decrease, lowest f so far) and `hi`; x1, g1 are left at the returned point. */
function zoom(at: (alpha: number) => LinePoint | undefined, f0: number, slope0: number, lo: LinePoint, hi: LinePoint): { alpha: number; f: number } | undefined {
  for (let it = 1; it <= 10 * MAX_LS_ITERS; it++) {
    if (Math.abs(lo.alpha - hi.alpha) < 1e-16) return undefined;
    let alpha: number;
    const a = Math.min(lo.alpha, hi.alpha), b = Math.max(lo.alpha, hi.alpha), w = b - a;
    if (it % 5 === 0) alpha = 0.5 * (a + b);
    else {
      // Minimiser of the cubic through both ends' values and slopes (N&W eq. 3.59), kept 1% inside.
      const d1 = lo.slope + hi.slope - 3 * (lo.f - hi.f) / (lo.alpha - hi.alpha);
      let d2 = Math.sqrt(d1 * d1 - lo.slope * hi.slope);
      if (hi.alpha < lo.alpha) d2 = -d2;
      alpha = hi.alpha - (hi.alpha - lo.alpha) * (hi.slope + d2 - d1) / (hi.slope - lo.slope + 2 * d2);
      if (!(alpha > a + 0.01 * w && alpha < b - 0.01 * w)) alpha = 0.5 * (a + b);
    }
    let cur = at(alpha);
    while (cur === undefined) {
      // Failed evaluation: move halfway towards the nearer end of the bracket (Stan's rule).
      alpha = 0.5 * (alpha + a);
      if (Math.abs(alpha - a) < 1e-16) return undefined;
      cur = at(alpha);
    }
    if (cur.f > f0 + C1 * cur.alpha * slope0 || cur.f >= lo.f) hi = cur;
    else {
      if (Math.abs(cur.slope) <= -C2 * slope0) return cur;
      if (cur.slope * (hi.alpha - lo.alpha) >= 0) hi = lo;
      lo = cur;
    }
  }
  return undefined;
}

/**
 * The minimiser on [lo, hi] of the cubic c with c(0) = 0, c′(0) = df0, c(x1) = f1, c′(x1) = df1
 * (the previous line's model; Stan's first guess for the next step is 1.01 times it, capped at 1).
 */
function cubicMinimizer(df0: number, x1: number, f1: number, df1: number, lo: number, hi: number): number {
  // c(x) = df0·x + c2·x²/2 + c3·x³/6 fitted to the four conditions.
  const c3 = (-12 * f1 + 6 * x1 * (df0 + df1)) / (x1 * x1 * x1);
  const c2 = -(4 * df0 + 2 * df1) / x1 + 6 * f1 / (x1 * x1);
  const c = (x: number) => x * (x * (x * c3 / 3 + c2) / 2 + df0);
  let best = lo, bestF = c(lo);
  const consider = (x: number) => { if (x > lo && x < hi) { const v = c(x); if (v < bestF) { best = x; bestF = v; } } };
  if (c(hi) < bestF) { best = hi; bestF = c(hi); }
  const disc = Math.sqrt(c2 * c2 - 2 * df0 * c3);
  consider(-(c2 + disc) / c3);
  consider(-(c2 - disc) / c3);
  return best;
}

// ---- BFGS / L-BFGS -------------------------------------------------------------------------

function quasiNewton(obj: Objective, x0: Float64Array, s: MinimizeSettings, onIterate: OnIterate | undefined): MinimizeOutcome {
  const n = x0.length;
  const qn: QuasiNewtonUpdate = s.algorithm === 'bfgs' ? new BfgsUpdate(n) : new LbfgsUpdate(s.historySize);
  let x = Float64Array.from(x0), g = new Float64Array(n);
  let xNew = new Float64Array(n), gNew = new Float64Array(n);
  const p = new Float64Array(n), pPrev = new Float64Array(n), sk = new Float64Array(n), yk = new Float64Array(n);
  const f0 = obj.eval(x, g);
  if (f0 === undefined) throw new RangeError('optimize: the log density is not finite at the initial point');
  let f = f0, fPrev = f0, gPrevDotPPrev = 0, alphaPrev = 0;
  onIterate?.(x, g, f);
  for (let i = 0; i < n; i++) p[i] = -g[i]!;
  const done = (iterations: number, converged: boolean, reason: string): MinimizeOutcome =>
    ({ x, logDensity: -f, iterations, gradientEvaluations: obj.gradientEvaluations, converged, reason, failures: obj.failures() });
  if (norm(g) === 0) return done(0, true, REASONS.absGrad);
  for (let it = 1; ; it++) {
    let reset = it === 1 ? 1 : 0;
    let found: { alpha: number; f: number } | undefined;
    for (;;) {
      if (reset > 0) for (let i = 0; i < n; i++) p[i] = -g[i]!;
      const guess = it > 1 && reset !== 2
        ? Math.min(1, 1.01 * cubicMinimizer(gPrevDotPPrev, alphaPrev, f - fPrev, dot(g, pPrev), MIN_ALPHA, 1))
        : s.initAlpha;
      const alpha0 = guess > 0 && Number.isFinite(guess) ? guess : s.initAlpha;   // a degenerate cubic (overflow) gives NaN
      found = wolfeLineSearch(obj, x, f, g, p, alpha0, xNew, gNew);
      if (found !== undefined) break;
      if (reset > 0) return done(it, false, REASONS.lineSearch);
      reset = 2;   // the quasi-Newton direction failed: try steepest descent once more
    }
    for (let i = 0; i < n; i++) { sk[i] = xNew[i]! - x[i]!; yk[i] = gNew[i]! - g[i]!; }
    gPrevDotPPrev = dot(g, p);
    pPrev.set(p);
    fPrev = f; f = found.f;
    [x, xNew] = [xNew, x];
    [g, gNew] = [gNew, g];
    onIterate?.(x, g, f);
    const gradNorm = norm(g), stepNorm = norm(sk);
    if (reset > 0) {
      // After a reset the step was along −g, unscaled: express it in the scaled direction (Stan's bookkeeping).
      const b0 = qn.update(yk, sk, true);
      for (let i = 0; i < n; i++) pPrev[i] = pPrev[i]! / b0;
      gPrevDotPPrev /= b0;
      alphaPrev = found.alpha * b0;
    } else {
      qn.update(yk, sk, false);
      alphaPrev = found.alpha;
    }
    qn.direction(p, g);
    if (Math.abs(fPrev - f) < s.tolObj) return done(it, true, REASONS.absObj);
    if (gradNorm < s.tolGrad) return done(it, true, REASONS.absGrad);
    if (stepNorm < s.tolParam) return done(it, true, REASONS.absParam);
    if (it >= s.iter) return done(it, false, REASONS.maxIter);
    const scale = Math.max(Math.abs(fPrev), Math.abs(f), F_SCALE);
    if (Math.abs(fPrev - f) / scale < s.tolRelObj * EPS) return done(it, true, REASONS.relObj);
    if (-dot(p, g) / Math.max(Math.abs(f), F_SCALE) < s.tolRelGrad * EPS) return done(it, true, REASONS.relGrad);
  }
}

// ---- Newton --------------------------------------------------------------------------------

/**
 * Stan's Newton: the Hessian by finite differences of the gradient, its eigenvalues replaced by
 * −|λ| so the step goes uphill in log p, then the step halved (from 1) until log p does not
 * fall; stops when log p rises by less than 1e-8 (or after `iter` steps).
 */
function newton(obj: Objective, x0: Float64Array, s: MinimizeSettings): MinimizeOutcome {
  const n = x0.length;
  let x = Float64Array.from(x0), trial = new Float64Array(n);
  const g = new Float64Array(n), step = new Float64Array(n), proj = new Float64Array(n);
  const f0 = obj.eval(x, g);
  if (f0 === undefined) throw new RangeError('optimize: the log density is not finite at the initial point');
  let f = f0;
  const done = (iterations: number, converged: boolean, reason: string): MinimizeOutcome =>
    ({ x, logDensity: -f, iterations, gradientEvaluations: obj.gradientEvaluations, converged, reason, failures: obj.failures() });
  for (let it = 1; ; it++) {
    // Hessian of f = −log p (positive definite near a maximum of log p).
    const h = fdHessian((y, grad) => obj.eval(y, grad), x);
    if (h === undefined) return done(it - 1, false, 'The Hessian could not be computed: the log density failed near the current point');
    const { values, vectors } = symmetricEigen(h, n);
    // step = −V·diag(1/|λ|)·Vᵀ·g: a descent direction for f whatever the curvature's sign.
    for (let k = 0; k < n; k++) { let t = 0; for (let i = 0; i < n; i++) t += vectors[i * n + k]! * g[i]!; proj[k] = t / Math.max(Math.abs(values[k]!), 1e-300); }
    for (let i = 0; i < n; i++) { let t = 0; for (let k = 0; k < n; k++) t -= vectors[i * n + k]! * proj[k]!; step[i] = t; }
    let size = 2, fNew = Infinity;
    const gTrial = new Float64Array(n);
    while (!(fNew <= f)) {
      size *= 0.5;
      if (size < 1e-50) break;
      for (let i = 0; i < n; i++) trial[i] = x[i]! + size * step[i]!;
      fNew = obj.eval(trial, gTrial) ?? Infinity;
    }
    if (!(fNew <= f)) return done(it, true, REASONS.newton);
    [x, trial] = [trial, x];
    g.set(gTrial);
    const rise = f - fNew;
    f = fNew;
    if (rise <= 1e-8) return done(it, true, REASONS.newton);
    if (it >= s.iter) return done(it, false, REASONS.maxIter);
  }
}

// ---- small vector helpers ------------------------------------------------------------------

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let t = 0;
  for (let i = 0; i < a.length; i++) t += a[i]! * b[i]!;
  return t;
}

function axpy(a: number, x: ArrayLike<number>, y: Float64Array): void {
  for (let i = 0; i < y.length; i++) y[i] = y[i]! + a * x[i]!;
}

function norm(a: ArrayLike<number>): number {
  return Math.sqrt(dot(a, a));
}
