/**
 * The integrators behind `odeRk45` and `odeRosenbrock23`, over flat arrays, with optional
 * forward sensitivities.
 *
 * Error control is on the states only (Stan's coupled system controls the sensitivities too):
 * the step sequence is then a function of the states alone, so a solve with sensitivities takes
 * exactly the steps of the solve without them and returns the same bits for the states. The
 * sensitivities ∂y/∂(y0, θ) are integrated with the same steps and stages after each step is
 * accepted; for the explicit Dormand–Prince pairs this is the exact derivative of the computed
 * solution at fixed step sizes (Runge–Kutta commutes with linearisation), for the Rosenbrock
 * method a second-order approximation of it (the method is a W-method: the sensitivity block
 * uses the states' W matrix).
 *
 * Steps land on every output time (the last step before one is shortened to reach it), so the
 * solution there is a step's own value, with no interpolation (Boost's `integrate_times`, which
 * Stan uses, steps past and interpolates with the dense output).
 */
import { detPow } from '../math/pow.js';
import type { RhsEval } from './rhs.js';

/**
 * The error a failed solve throws: too many steps, a step size that underflowed, or a state (or
 * error estimate) that is not finite. Not a TypeError, so a sampler rejects the proposal
 * (mcmc/internal/rejections.ts) as Stan does for its ODE solvers' domain errors.
 *
 * @example
 * // y′ = y from y = 1 to t = 1000 in at most 10 steps: more than maxNumSteps.
 * try { odeRk45((t, y) => y, [1], 0, [1000], [], { maxNumSteps: 10 }); } catch (e) { e instanceof OdeError; } // true
 */
export class OdeError extends Error {
  override readonly name = 'OdeError';
}

/** Everything a solve needs besides y0 and θ. */
export interface OdeSetup {
  readonly fn: string;
  readonly n: number;
  readonly p: number;
  readonly t0: number;
  readonly ts: Float64Array;
  readonly relativeTolerance: number;
  readonly absoluteTolerance: number;
  readonly maxNumSteps: number;
}

/** What a solve with sensitivities accumulates: Σₖ Σᵢ g[k, i]·∂y(tₖ)ᵢ/∂(y0, θ) into gy0 and gTheta (each when non-null). */
export interface SensitivityRequest {
  readonly g: ArrayLike<number>;
  readonly gy0: Float64Array | null;
  readonly gTheta: Float64Array | null;
}

/** Consecutive rejected steps after which a solve fails (Boost's failed-step checker allows 500). */
const MAX_REJECTS = 500;

/** The next step size `h` after the `rejects`-th rejected step in a row at t; an OdeError past MAX_REJECTS. */
function rejectStep(fn: string, rejects: number, t: number, h: number): number {
  if (rejects > MAX_REJECTS) throw new OdeError(`${fn}: ${MAX_REJECTS} rejected steps in a row at t = ${fmt(t)}`);
  return h;
}

/** Stan's ode_rk45 starts with this step (its `integrate_times` call). */
const FIRST_STEP = 0.1;

/** The columns of the sensitivity matrix S (column c at S[c·n … c·n + n)): y0's n, then θ's p, each when asked for. */
interface Columns {
  readonly m: number;
  /** For column c, the index of θ it is the sensitivity to, or −1 for a y0 column. */
  readonly param: Int32Array;
}

function columns(setup: OdeSetup, sens: SensitivityRequest): Columns {
  const param: number[] = [];
  if (sens.gy0 !== null) for (let j = 0; j < setup.n; j++) param.push(-1);
  if (sens.gTheta !== null) for (let k = 0; k < setup.p; k++) param.push(k);
  return { m: param.length, param: Int32Array.from(param) };
}

/** S at t0: the identity for the y0 columns, zero for the θ columns. */
function initialS(n: number, cols: Columns): Float64Array {
  const s = new Float64Array(n * cols.m);
  for (let c = 0; c < cols.m; c++) if (cols.param[c]! < 0) s[c * n + c] = 1;
  return s;
}

/** dS = J·S + B for every column (B: ∂f/∂θ's column for a θ column, 0 for a y0 column), S read at s[sOff …]. */
function sensRhs(n: number, p: number, cols: Columns, jy: Float64Array, jp: Float64Array, s: Float64Array, out: Float64Array): void {
  for (let c = 0; c < cols.m; c++) {
    const k = cols.param[c]!, o = c * n;
    for (let i = 0; i < n; i++) {
      let v = k >= 0 ? jp[i * p + k]! : 0;
      for (let j = 0; j < n; j++) v += jy[i * n + j]! * s[o + j]!;
      out[o + i] = v;
    }
  }
}

/** Adds Σᵢ g[k·n + i]·S[c][i] to the request's gradient for every column c. */
function accumulate(n: number, cols: Columns, sens: SensitivityRequest, k: number, s: Float64Array): void {
  let yCol = 0;
  for (let c = 0; c < cols.m; c++) {
    let v = 0;
    for (let i = 0; i < n; i++) v += sens.g[k * n + i]! * s[c * n + i]!;
    const q = cols.param[c]!;
    if (q < 0) sens.gy0![yCol++] += v;
    else sens.gTheta![q] += v;
  }
}

function finite(y: Float64Array): boolean {
  let z = 0;
  for (let i = 0; i < y.length; i++) z += y[i]! - y[i]!;
  return z === 0;
}

const fmt = (x: number) => String(x);

// Dormand–Prince 5(4) tableau (Dormand & Prince 1980).
const C2 = 1 / 5, C3 = 3 / 10, C4 = 4 / 5, C5 = 8 / 9;
const A21 = 1 / 5;
const A31 = 3 / 40, A32 = 9 / 40;
const A41 = 44 / 45, A42 = -56 / 15, A43 = 32 / 9;
const A51 = 19372 / 6561, A52 = -25360 / 2187, A53 = 64448 / 6561, A54 = -212 / 729;
const A61 = 9017 / 3168, A62 = -355 / 33, A63 = 46732 / 5247, A64 = 49 / 176, A65 = -5103 / 18656;
const B1 = 35 / 384, B3 = 500 / 1113, B4 = 125 / 192, B5 = -2187 / 6784, B6 = 11 / 84;
// b − b̂ (fifth- minus fourth-order weights), the local error estimate's weights.
const E1 = 71 / 57600, E3 = -71 / 16695, E4 = 71 / 1920, E5 = -17253 / 339200, E6 = 22 / 525, E7 = -1 / 40;
/** The tableau's nodes and rows as arrays, for the sensitivity stages. */
const DP_C = [0, C2, C3, C4, C5, 1];
const DP_A: readonly (readonly number[])[] = [[], [A21], [A31, A32], [A41, A42, A43], [A51, A52, A53, A54], [A61, A62, A63, A64, A65]];

/**
 * Dormand–Prince 5(4) from (t0, y0) to every output time, writing y(tₖ) into out[k·n …]; with
 * `sens`, also the vector–Jacobian product of the solution. Boost odeint's step control (as
 * Stan's ode_rk45): error ratio max |errᵢ| / (atol + rtol·(|yᵢ| + h·|y′ᵢ|)); a rejected step
 * shrinks by max(0.9·err^(−1/3), 0.2), an accepted one with err < 1/2 grows by 0.9·err^(−1/5)
 * (err floored at 5⁻⁵, so at most 5×).
 */
export function solveDopri5(setup: OdeSetup, rhs: RhsEval, y0: ArrayLike<number>, theta: ArrayLike<number>, out: Float64Array, sens: SensitivityRequest | null, log: StepLog | null = null): void {
  const { fn, n, p, ts } = setup;
  const rtol = setup.relativeTolerance, atol = setup.absoluteTolerance;
  rhs.setTheta(theta);
  const y = Float64Array.from(y0), yNew = new Float64Array(n);
  const k1 = new Float64Array(n), k2 = new Float64Array(n), k3 = new Float64Array(n), k4 = new Float64Array(n);
  const k5 = new Float64Array(n), k6 = new Float64Array(n), k7 = new Float64Array(n);
  const stageY = [y, new Float64Array(n), new Float64Array(n), new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  const cols = sens === null ? null : columns(setup, sens);
  const m = cols === null ? 0 : cols.m;
  const s = cols === null ? null : initialS(n, cols);
  const sTmp = new Float64Array(n * m), sK = Array.from({ length: 6 }, () => new Float64Array(n * m));
  const fv = new Float64Array(n), jy = new Float64Array(n * n), jp = new Float64Array(n * p);
  let t = setup.t0;
  if (!finite(y)) throw new OdeError(`${fn}: the initial state is not finite`);
  rhs.f(t, y, 0, k1, 0);
  let h = FIRST_STEP;
  for (let k = 0; k < ts.length; k++) {
    const tOut = ts[k]!;
    let steps = 0, rejects = 0;
    while (t < tOut) {
      if (++steps > setup.maxNumSteps) throw new OdeError(`${fn}: more than maxNumSteps = ${setup.maxNumSteps} steps between t = ${fmt(k === 0 ? setup.t0 : ts[k - 1]!)} and t = ${fmt(tOut)} (the ODE may be stiff: try odeRosenbrock23)`);
      const landing = h >= tOut - t;
      const hs = landing ? tOut - t : h;
      if (t + hs === t) throw new OdeError(`${fn}: the step size underflowed at t = ${fmt(t)}`);
      const Y2 = stageY[1]!, Y3 = stageY[2]!, Y4 = stageY[3]!, Y5 = stageY[4]!, Y6 = stageY[5]!;
      for (let i = 0; i < n; i++) Y2[i] = y[i]! + hs * (A21 * k1[i]!);
      rhs.f(t + C2 * hs, Y2, 0, k2, 0);
      for (let i = 0; i < n; i++) Y3[i] = y[i]! + hs * (A31 * k1[i]! + A32 * k2[i]!);
      rhs.f(t + C3 * hs, Y3, 0, k3, 0);
      for (let i = 0; i < n; i++) Y4[i] = y[i]! + hs * (A41 * k1[i]! + A42 * k2[i]! + A43 * k3[i]!);
      rhs.f(t + C4 * hs, Y4, 0, k4, 0);
      for (let i = 0; i < n; i++) Y5[i] = y[i]! + hs * (A51 * k1[i]! + A52 * k2[i]! + A53 * k3[i]! + A54 * k4[i]!);
      rhs.f(t + C5 * hs, Y5, 0, k5, 0);
      for (let i = 0; i < n; i++) Y6[i] = y[i]! + hs * (A61 * k1[i]! + A62 * k2[i]! + A63 * k3[i]! + A64 * k4[i]! + A65 * k5[i]!);
      const tNew = landing ? tOut : t + hs;
      rhs.f(t + hs, Y6, 0, k6, 0);
      for (let i = 0; i < n; i++) yNew[i] = y[i]! + hs * (B1 * k1[i]! + B3 * k3[i]! + B4 * k4[i]! + B5 * k5[i]! + B6 * k6[i]!);
      rhs.f(t + hs, yNew, 0, k7, 0);
      let err = 0;
      for (let i = 0; i < n; i++) {
        const e = hs * (E1 * k1[i]! + E3 * k3[i]! + E4 * k4[i]! + E5 * k5[i]! + E6 * k6[i]! + E7 * k7[i]!);
        const r = Math.abs(e) / (atol + rtol * (Math.abs(y[i]!) + hs * Math.abs(k1[i]!)));
        if (r > err || r !== r) err = r;
      }
      if (err !== err || !finite(yNew)) throw new OdeError(`${fn}: the state is not finite near t = ${fmt(t)}`);
      if (err > 1) {
        h = rejectStep(fn, ++rejects, t, hs * Math.max(0.9 * detPow(err, -1 / 3), 0.2));
        continue;
      }
      rejects = 0;
      if (s !== null) dopriSensitivityStep(fn, rhs, n, p, cols!, t, hs, stageY, 0, s, sTmp, sK, fv, jy, jp);
      if (log !== null) log.push(t, hs, tNew >= tOut ? k : -1, stageY);
      t = tNew;
      y.set(yNew);
      k1.set(k7);
      let hNext = hs;
      if (err < 0.5) hNext = hs * 0.9 * detPow(Math.max(err, 1 / 3125), -1 / 5);
      // A step shortened to land on an output time does not shrink the next one.
      h = landing && hNext < h ? h : hNext;
    }
    for (let i = 0; i < n; i++) out[k * n + i] = y[i]!;
    if (s !== null) accumulate(n, cols!, sens!, k, s);
  }
}

/**
 * One accepted step's sensitivity stages over its stage states (stageY[j], or the log's flat
 * record at offset `off` when stageY is a Float64Array): K_j = J(Y_j)·S_j + B(Y_j),
 * S_j = S + h·Σ a_jl·K_l, then S ← S + h·Σ b_j·K_j.
 */
function dopriSensitivityStep(fn: string, rhs: RhsEval, n: number, p: number, cols: Columns, t: number, hs: number,
  stageY: readonly Float64Array[] | Float64Array, off: number, s: Float64Array, sTmp: Float64Array, sK: readonly Float64Array[],
  fv: Float64Array, jy: Float64Array, jp: Float64Array): void {
  const m = cols.m;
  for (let j = 0; j < 6; j++) {
    const aj = DP_A[j]!;
    for (let q = 0; q < n * m; q++) {
      let v = 0;
      for (let l = 0; l < aj.length; l++) v += aj[l]! * sK[l]![q]!;
      sTmp[q] = j === 0 ? s[q]! : s[q]! + hs * v;
    }
    if (stageY instanceof Float64Array) rhs.jacobian(t + DP_C[j]! * hs, stageY, off + j * n, fv, jy, jp, null);
    else rhs.jacobian(t + DP_C[j]! * hs, stageY[j]!, 0, fv, jy, jp, null);
    sensRhs(n, p, cols, jy, jp, sTmp, sK[j]!);
  }
  for (let q = 0; q < n * m; q++) s[q] = s[q]! + hs * (B1 * sK[0]![q]! + B3 * sK[2]![q]! + B4 * sK[3]![q]! + B5 * sK[4]![q]! + B6 * sK[5]![q]!);
  if (!finite(s)) throw new OdeError(`${fn}: the sensitivities are not finite near t = ${fmt(t)}`);
}

/**
 * The accepted steps of a Dormand–Prince solve without sensitivities (time, step, the output
 * index it lands on or −1, and its six stage states), so that the gradient at the same point
 * walks them backwards ({@link adjointDopri5}) instead of solving for the states again.
 */
export class StepLog {
  data = new Float64Array(0);
  length = 0;
  constructor(readonly n: number) {}
  get stride(): number { return 3 + 6 * this.n; }
  clear(): void { this.length = 0; }
  push(t: number, hs: number, k: number, stageY: readonly Float64Array[]): void {
    const w = this.stride, n = this.n;
    if ((this.length + 1) * w > this.data.length) { const d = new Float64Array(Math.max(64 * w, 2 * this.data.length)); d.set(this.data); this.data = d; }
    const o = this.length * w, d = this.data;
    d[o] = t; d[o + 1] = hs; d[o + 2] = k;
    // A loop, not TypedArray.set: for a few states set's call costs more than the copy (4% of a Lotka–Volterra gradient).
    for (let j = 0; j < 6; j++) { const y = stageY[j]!, at = o + 3 + j * n; for (let i = 0; i < n; i++) d[at + i] = y[i]!; }
    this.length++;
  }
}

/**
 * The vector–Jacobian product of the solve `log` recorded at (y0, θ), by the discrete adjoint of
 * its Dormand–Prince steps: the exact derivative of the computed solution at the logged step
 * sizes (what forward sensitivities give, up to rounding), one reverse pass of f per stage
 * (6 per step, whatever the numbers of states and parameters; forward sensitivities take n per
 * stage). Steps are walked backwards; ȳ gathers g at each output time, and for a step
 * y′ = y + h·Σ bⱼKⱼ, Kⱼ = f(Yⱼ), Yⱼ = y + h·Σ aⱼₗKₗ: K̄ⱼ = h·bⱼ·ȳ′ + h·Σₘ₍>ⱼ₎ aₘⱼ·Ȳₘ,
 * Ȳⱼ = K̄ⱼᵀ∂f/∂y, θ̄ += K̄ⱼᵀ∂f/∂θ, ȳ = ȳ′ + Σ Ȳⱼ.
 */
export function adjointDopri5(setup: OdeSetup, rhs: RhsEval, log: StepLog, theta: ArrayLike<number>, sens: SensitivityRequest): void {
  const { fn, n, p } = setup;
  rhs.setTheta(theta);
  const yBar = new Float64Array(n), kBar = Array.from({ length: 6 }, () => new Float64Array(n));
  const B = [B1, 0, B3, B4, B5, B6];
  const w = log.stride, d = log.data, g = sens.g, gTheta = sens.gTheta;
  for (let r = log.length - 1; r >= 0; r--) {
    const o = r * w, t = d[o]!, hs = d[o + 1]!, k = d[o + 2]!;
    if (k >= 0) for (let i = 0; i < n; i++) yBar[i] = yBar[i]! + g[k * n + i]!;
    for (let j = 0; j < 6; j++) { const kb = kBar[j]!, c = hs * B[j]!; for (let i = 0; i < n; i++) kb[i] = c * yBar[i]!; }
    for (let j = 5; j >= 0; j--) {
      const gr = rhs.vjp(t + DP_C[j]! * hs, d, o + 3 + j * n, kBar[j]!);
      const aj = DP_A[j]!;
      for (let i = 0; i < n; i++) {
        const yb = gr[1 + i]!;
        yBar[i] = yBar[i]! + yb;
        for (let l = 0; l < aj.length; l++) kBar[l]![i] = kBar[l]![i]! + hs * aj[l]! * yb;
      }
      if (gTheta !== null) for (let q = 0; q < p; q++) gTheta[q] = gTheta[q]! + gr[1 + n + q]!;
    }
    if (!finite(yBar)) throw new OdeError(`${fn}: the adjoint is not finite near t = ${fmt(t)}`);
  }
  if (sens.gy0 !== null) for (let i = 0; i < n; i++) sens.gy0[i] = sens.gy0[i]! + yBar[i]!;
}

/** LU factors of an n×n matrix with partial pivoting, in place; false when a pivot is 0. */
function luFactor(n: number, a: Float64Array, piv: Int32Array): boolean {
  for (let c = 0; c < n; c++) {
    let best = c, big = Math.abs(a[c * n + c]!);
    for (let r = c + 1; r < n; r++) { const v = Math.abs(a[r * n + c]!); if (v > big) { big = v; best = r; } }
    piv[c] = best;
    if (!(big > 0)) return false;
    if (best !== c) for (let j = 0; j < n; j++) { const u = a[c * n + j]!; a[c * n + j] = a[best * n + j]!; a[best * n + j] = u; }
    const d = a[c * n + c]!;
    for (let r = c + 1; r < n; r++) {
      const l = a[r * n + c]! / d;
      a[r * n + c] = l;
      if (l !== 0) for (let j = c + 1; j < n; j++) a[r * n + j] = a[r * n + j]! - l * a[c * n + j]!;
    }
  }
  return true;
}

/** x ← A⁻¹x from {@link luFactor}'s factors, x at x[off …]. */
function luSolve(n: number, lu: Float64Array, piv: Int32Array, x: Float64Array, off: number): void {
  for (let c = 0; c < n; c++) {
    const pc = piv[c]!;
    if (pc !== c) { const u = x[off + c]!; x[off + c] = x[off + pc]!; x[off + pc] = u; }
    const v = x[off + c]!;
    for (let r = c + 1; r < n; r++) x[off + r] = x[off + r]! - lu[r * n + c]! * v;
  }
  for (let r = n - 1; r >= 0; r--) {
    let v = x[off + r]!;
    for (let j = r + 1; j < n; j++) v -= lu[r * n + j]! * x[off + j]!;
    x[off + r] = v / lu[r * n + r]!;
  }
}

/** 1/(2 + √2) and 6 + √2: the Rosenbrock 2(3) pair's constants (Shampine & Reichelt 1997). */
const RD = 1 / (2 + Math.SQRT2), E32 = 6 + Math.SQRT2;

/**
 * The L-stable Rosenbrock 2(3) pair of MATLAB's ode23s (Shampine & Reichelt, "The MATLAB ODE
 * Suite", 1997; a W-method of Wolfbrandt's, second order for any W) with the Jacobian from the
 * tracer: W = I − h·d·J(tₙ, yₙ), one LU per step, the third stage for the error estimate only.
 * Error ratio max |errᵢ| / (atol + rtol·max(|yᵢ|, |y_newᵢ|)); steps change by
 * 0.9·err^(−1/3), within [0.2, 5].
 */
export function solveRosenbrock23(setup: OdeSetup, rhs: RhsEval, y0: ArrayLike<number>, theta: ArrayLike<number>, out: Float64Array, sens: SensitivityRequest | null): void {
  const { fn, n, p, ts } = setup;
  const rtol = setup.relativeTolerance, atol = setup.absoluteTolerance;
  rhs.setTheta(theta);
  const y = Float64Array.from(y0), yNew = new Float64Array(n), y1 = new Float64Array(n);
  const f0 = new Float64Array(n), f1 = new Float64Array(n), f2 = new Float64Array(n);
  const k1 = new Float64Array(n), k2 = new Float64Array(n), k3 = new Float64Array(n);
  const jy = new Float64Array(n * n), jp = new Float64Array(n * p), ft = new Float64Array(n);
  const w = new Float64Array(n * n), piv = new Int32Array(n);
  const cols = sens === null ? null : columns(setup, sens);
  const m = cols === null ? 0 : cols.m;
  const s = cols === null ? null : initialS(n, cols);
  const ks1 = new Float64Array(n * m), ks2 = new Float64Array(n * m), sTmp = new Float64Array(n * m), fs = new Float64Array(n * m);
  const jy1 = new Float64Array(n * n), jp1 = new Float64Array(n * p), fv = new Float64Array(n);
  let t = setup.t0;
  if (!finite(y)) throw new OdeError(`${fn}: the initial state is not finite`);
  let h = FIRST_STEP;
  let fresh = false;   // whether jy, jp, ft, f0 are at (t, y)
  for (let k = 0; k < ts.length; k++) {
    const tOut = ts[k]!;
    let steps = 0, rejects = 0;
    while (t < tOut) {
      if (++steps > setup.maxNumSteps) throw new OdeError(`${fn}: more than maxNumSteps = ${setup.maxNumSteps} steps between t = ${fmt(k === 0 ? setup.t0 : ts[k - 1]!)} and t = ${fmt(tOut)}`);
      const landing = h >= tOut - t;
      const hs = landing ? tOut - t : h;
      if (t + hs === t) throw new OdeError(`${fn}: the step size underflowed at t = ${fmt(t)}`);
      if (!fresh) { rhs.jacobian(t, y, 0, f0, jy, jp, ft); fresh = true; }
      const hd = hs * RD;
      for (let q = 0; q < n * n; q++) w[q] = -hd * jy[q]!;
      for (let i = 0; i < n; i++) w[i * n + i] = 1 + w[i * n + i]!;
      if (!luFactor(n, w, piv)) {
        h = rejectStep(fn, ++rejects, t, hs * 0.5);
        continue;
      }
      for (let i = 0; i < n; i++) k1[i] = f0[i]! + hd * ft[i]!;
      luSolve(n, w, piv, k1, 0);
      for (let i = 0; i < n; i++) y1[i] = y[i]! + 0.5 * hs * k1[i]!;
      rhs.f(t + 0.5 * hs, y1, 0, f1, 0);
      for (let i = 0; i < n; i++) k2[i] = f1[i]! - k1[i]!;
      luSolve(n, w, piv, k2, 0);
      for (let i = 0; i < n; i++) { k2[i] = k2[i]! + k1[i]!; yNew[i] = y[i]! + hs * k2[i]!; }
      const tNew = landing ? tOut : t + hs;
      rhs.f(t + hs, yNew, 0, f2, 0);
      for (let i = 0; i < n; i++) k3[i] = f2[i]! - E32 * (k2[i]! - f1[i]!) - 2 * (k1[i]! - f0[i]!) + hd * ft[i]!;
      luSolve(n, w, piv, k3, 0);
      let err = 0;
      for (let i = 0; i < n; i++) {
        const e = (hs / 6) * (k1[i]! - 2 * k2[i]! + k3[i]!);
        const r = Math.abs(e) / (atol + rtol * Math.max(Math.abs(y[i]!), Math.abs(yNew[i]!)));
        if (r > err || r !== r) err = r;
      }
      if (err !== err || !finite(yNew)) throw new OdeError(`${fn}: the state is not finite near t = ${fmt(t)}`);
      if (err > 1) {
        h = rejectStep(fn, ++rejects, t, hs * Math.max(0.9 * detPow(err, -1 / 3), 0.2));
        continue;
      }
      rejects = 0;
      if (s !== null) {
        // The same W-method on dS/dt = J·S + B with the states' W (T = 0 for the sensitivity block).
        sensRhs(n, p, cols!, jy, jp, s, ks1);
        for (let c = 0; c < m; c++) luSolve(n, w, piv, ks1, c * n);
        for (let q = 0; q < n * m; q++) sTmp[q] = s[q]! + 0.5 * hs * ks1[q]!;
        rhs.jacobian(t + 0.5 * hs, y1, 0, fv, jy1, jp1, null);
        sensRhs(n, p, cols!, jy1, jp1, sTmp, fs);
        for (let q = 0; q < n * m; q++) ks2[q] = fs[q]! - ks1[q]!;
        for (let c = 0; c < m; c++) luSolve(n, w, piv, ks2, c * n);
        for (let q = 0; q < n * m; q++) s[q] = s[q]! + hs * (ks2[q]! + ks1[q]!);
        if (!finite(s)) throw new OdeError(`${fn}: the sensitivities are not finite near t = ${fmt(t)}`);
      }
      t = tNew;
      y.set(yNew);
      fresh = false;
      const hNext = err === 0 ? 5 * hs : hs * Math.min(5, 0.9 * detPow(err, -1 / 3));
      h = landing && hNext < h ? h : hNext;
    }
    for (let i = 0; i < n; i++) out[k * n + i] = y[i]!;
    if (s !== null) accumulate(n, cols!, sens!, k, s);
  }
}
