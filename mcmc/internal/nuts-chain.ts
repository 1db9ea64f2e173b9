/**
 * One chain of Stan's NUTS on Float64Arrays: multinomial sampling from the trajectory, biased
 * progressive sampling between subtrees at the top and uniform progressive sampling inside
 * them, the generalized no-U-turn criterion checked across each merged tree and across the
 * seams between its halves (Stan ≥ 2.23, `base_nuts.hpp`), a diagonal metric, and Stan's
 * step-size initialization heuristic.
 *
 * Everything lives in buffers allocated by the constructor: a leapfrog step, a leaf and a merge
 * allocate nothing, so a transition costs the gradients plus a few passes over `dim` doubles
 * per leaf. The log density is any `(x, grad) => log p(x)` over unconstrained coordinates (a
 * compiled log density's `logDensityGradient`), so no tensor is touched.
 *
 * Randomness comes from a {@link ChainRandom}: the caller begins it with one key per
 * transition, so a chain's draws are a pure function of its key and nothing else.
 */
import type { Modes } from '../../src/config.js';
import { KeyArray } from '../../src/random/key-array.js';
import { normalData } from '../../src/random/normal.js';
import { uniformUnit } from '../../src/random/uniform.js';

/** A log density and its gradient: returns log p(x) and writes ∂ log p/∂x into `grad`. */
export type LogDensityGradient = (x: Float64Array, grad: Float64Array) => number;

/** Uniforms drawn per sub-key: enough for a typical tree's merges in one draw. */
const UNIFORM_BLOCK = 16;

/**
 * The random numbers of one transition, drawn from sub-keys `foldIn(key, 0)`, `foldIn(key, 1)`, …
 * in the order they are asked for: a momentum draw or a vector of uniforms takes one sub-key,
 * single uniforms come in blocks of 16 per sub-key. Begin it with the transition's key before each use.
 */
export class ChainRandom {
  private key: KeyArray | undefined;
  private sub = 0;
  private block: Float64Array = new Float64Array(0);
  private pos = 0;

  constructor(private readonly modes: Modes) {}

  begin(key: KeyArray): void {
    this.key = key;
    this.sub = 0;
    this.pos = this.block.length;
  }

  private next(): KeyArray {
    const key = this.key!;
    return new KeyArray(key.impl, key.impl.foldIn(key.data, this.sub++, this.modes), []);
  }

  /** A uniform in [0, 1). */
  uniform(): number {
    if (this.pos === this.block.length) {
      this.block = uniformUnit(this.next(), UNIFORM_BLOCK, 'float64', this.modes) as Float64Array;
      this.pos = 0;
    }
    return this.block[this.pos++]!;
  }

  /** Fills `out` with uniforms in [0, 1) (one sub-key). */
  uniforms(out: Float64Array): void {
    out.set(uniformUnit(this.next(), out.length, 'float64', this.modes));
  }

  /** Fills `out` with standard normals (one sub-key). */
  normals(out: Float64Array): void {
    out.set(normalData(this.next(), out.length, 'float64', this.modes));
  }
}

/** Position, momentum, gradient and log density of one point in phase space. */
class Point {
  readonly q: Float64Array;
  readonly p: Float64Array;
  readonly g: Float64Array;
  lp = 0;
  constructor(dim: number) {
    this.q = new Float64Array(dim);
    this.p = new Float64Array(dim);
    this.g = new Float64Array(dim);
  }
  copyFrom(o: Point): void {
    const q = this.q, p = this.p, g = this.g, oq = o.q, op = o.p, og = o.g;
    for (let i = 0; i < q.length; i++) { q[i] = oq[i]!; p[i] = op[i]!; g[i] = og[i]!; }
    this.lp = o.lp;
  }
}

/** The locals of one level of the tree recursion (a subtree of depth ≥ 1 and its two halves). */
class Level {
  readonly pInitEnd: Float64Array;
  readonly pSharpInitEnd: Float64Array;
  readonly rhoInit: Float64Array;
  readonly zFinal: Point;
  readonly pFinalBeg: Float64Array;
  readonly pSharpFinalBeg: Float64Array;
  readonly rhoFinal: Float64Array;
  constructor(dim: number) {
    this.pInitEnd = new Float64Array(dim);
    this.pSharpInitEnd = new Float64Array(dim);
    this.rhoInit = new Float64Array(dim);
    this.zFinal = new Point(dim);
    this.pFinalBeg = new Float64Array(dim);
    this.pSharpFinalBeg = new Float64Array(dim);
    this.rhoFinal = new Float64Array(dim);
  }
}

const copy = (to: Float64Array, from: Float64Array): void => { for (let i = 0; i < to.length; i++) to[i] = from[i]!; };
const dot = (a: Float64Array, b: Float64Array): number => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!; return s; };
/** a · (b + c), without forming b + c. */
const dotSum = (a: Float64Array, b: Float64Array, c: Float64Array): number => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i]! * (b[i]! + c[i]!); return s; };
/** log(e^a + e^b) (Stan's `log_sum_exp`). */
function logSumExp(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  if (a === Infinity && b === Infinity) return Infinity;
  const m = a > b ? a : b;
  return m + Math.log1p(Math.exp(-Math.abs(a - b)));
}

export interface NutsChainOptions {
  readonly maxTreeDepth: number;
  /** An energy error above this makes the transition divergent (Stan's `max_deltaH`, 1000). */
  readonly maxEnergyDiff: number;
}

/**
 * A NUTS chain: its current point (`z`), step size and inverse metric, its random numbers
 * (begin `rng` with a fresh key before each `transition` or `initStepSize`), and the statistics
 * of its last transition. `setPosition` evaluates the density at a point; `transition` moves the
 * chain; `initStepSize` runs Stan's heuristic for the current point and metric.
 */
export class NutsChain {
  readonly dim: number;
  /** The diagonal inverse metric (the estimated posterior variances after adaptation). */
  readonly invMetric: Float64Array;
  stepSize = 1;

  // Statistics of the last transition (Stan's sampler params).
  acceptStat = 0;
  nSteps = 0;
  depth = 0;
  divergent = false;
  /** Whether the draw is a new point (a subtree's proposal was taken). */
  moved = false;
  /** The Hamiltonian at the draw. */
  energy = 0;

  readonly z: Point;
  private readonly fwd: Point;
  private readonly bck: Point;
  private readonly sample: Point;
  private readonly propose: Point;
  private readonly start: Point;
  private readonly noise: Float64Array;
  private readonly rho: Float64Array;
  private readonly rhoFwd: Float64Array;
  private readonly rhoBck: Float64Array;
  private readonly pFwdFwd: Float64Array;
  private readonly pSharpFwdFwd: Float64Array;
  private readonly pFwdBck: Float64Array;
  private readonly pSharpFwdBck: Float64Array;
  private readonly pBckFwd: Float64Array;
  private readonly pSharpBckFwd: Float64Array;
  private readonly pBckBck: Float64Array;
  private readonly pSharpBckBck: Float64Array;
  private readonly levels: Level[];
  private readonly maxTreeDepth: number;
  private readonly maxEnergyDiff: number;
  // Scratch of the recursion: the last subtree's log sum of weights, the running sums.
  private lswOut = 0;
  private sumMetroProb = 0;
  private eps = 0;
  private h0 = 0;

  constructor(private readonly f: LogDensityGradient, dim: number, readonly rng: ChainRandom, options: NutsChainOptions) {
    this.dim = dim;
    this.maxTreeDepth = options.maxTreeDepth;
    this.maxEnergyDiff = options.maxEnergyDiff;
    this.invMetric = new Float64Array(dim).fill(1);
    const v = () => new Float64Array(dim);
    this.z = new Point(dim);
    this.fwd = new Point(dim);
    this.bck = new Point(dim);
    this.sample = new Point(dim);
    this.propose = new Point(dim);
    this.start = new Point(dim);
    this.noise = v();
    this.rho = v(); this.rhoFwd = v(); this.rhoBck = v();
    this.pFwdFwd = v(); this.pSharpFwdFwd = v(); this.pFwdBck = v(); this.pSharpFwdBck = v();
    this.pBckFwd = v(); this.pSharpBckFwd = v(); this.pBckBck = v(); this.pSharpBckBck = v();
    this.levels = Array.from({ length: options.maxTreeDepth + 1 }, () => new Level(dim));
  }

  /** Moves the chain to `x` (copied) and evaluates the log density there; returns it. */
  setPosition(x: ArrayLike<number>): number {
    const z = this.z;
    for (let i = 0; i < this.dim; i++) z.q[i] = x[i]!;
    z.lp = this.f(z.q, z.g);
    return z.lp;
  }

  /** The kinetic energy ½ pᵀ M⁻¹ p. */
  private kinetic(p: Float64Array): number {
    const m = this.invMetric;
    let s = 0;
    for (let i = 0; i < p.length; i++) s += p[i]! * m[i]! * p[i]!;
    return 0.5 * s;
  }

  /** The Hamiltonian −log p + ½ pᵀ M⁻¹ p of z, +∞ for NaN (Stan's convention). */
  private hamiltonian(z: Point): number {
    const h = this.kinetic(z.p) - z.lp;
    return h === h ? h : Infinity;
  }

  /** Fresh momentum p ~ N(0, M) for z. */
  private drawMomentum(): void {
    const p = this.z.p, m = this.invMetric, u = this.noise;
    this.rng.normals(u);
    for (let i = 0; i < p.length; i++) p[i] = u[i]! / Math.sqrt(m[i]!);
  }

  /** One leapfrog step of size `eps` (signed) from z, in place. */
  private leapfrog(eps: number): void {
    const z = this.z, q = z.q, p = z.p, g = z.g, m = this.invMetric, half = 0.5 * eps;
    for (let i = 0; i < q.length; i++) { p[i] = p[i]! + half * g[i]!; q[i] = q[i]! + eps * m[i]! * p[i]!; }
    z.lp = this.f(q, g);
    for (let i = 0; i < p.length; i++) p[i] = p[i]! + half * g[i]!;
  }

  /** One NUTS transition from z; z becomes the draw and the statistics are set. */
  transition(): void {
    const z = this.z, m = this.invMetric, rng = this.rng;
    this.eps = this.stepSize;
    this.drawMomentum();
    const h0 = this.hamiltonian(z);
    this.h0 = h0;
    this.fwd.copyFrom(z); this.bck.copyFrom(z); this.sample.copyFrom(z);
    const p = z.p;
    for (let i = 0; i < p.length; i++) {
      const ps = m[i]! * p[i]!;
      this.pFwdFwd[i] = p[i]!; this.pFwdBck[i] = p[i]!; this.pBckFwd[i] = p[i]!; this.pBckBck[i] = p[i]!;
      this.pSharpFwdFwd[i] = ps; this.pSharpFwdBck[i] = ps; this.pSharpBckFwd[i] = ps; this.pSharpBckBck[i] = ps;
      this.rho[i] = p[i]!;
    }
    let logSumWeight = 0;        // log(exp(H0 − H0))
    this.sumMetroProb = 0;
    this.nSteps = 0;
    this.depth = 0;
    this.divergent = false;
    this.moved = false;
    const rho = this.rho, rhoFwd = this.rhoFwd, rhoBck = this.rhoBck;
    while (this.depth < this.maxTreeDepth) {
      let valid: boolean;
      if (rng.uniform() > 0.5) {           // extend forward: the trajectory so far is the backward part
        z.copyFrom(this.fwd);
        copy(rhoBck, rho); rhoFwd.fill(0);
        copy(this.pBckFwd, this.pFwdFwd); copy(this.pSharpBckFwd, this.pSharpFwdFwd);
        valid = this.buildTree(this.depth, this.propose, this.pSharpFwdBck, this.pSharpFwdFwd, rhoFwd, this.pFwdBck, this.pFwdFwd, 1);
        this.fwd.copyFrom(z);
      } else {                             // extend backward
        z.copyFrom(this.bck);
        copy(rhoFwd, rho); rhoBck.fill(0);
        copy(this.pFwdBck, this.pBckBck); copy(this.pSharpFwdBck, this.pSharpBckBck);
        valid = this.buildTree(this.depth, this.propose, this.pSharpBckFwd, this.pSharpBckBck, rhoBck, this.pBckFwd, this.pBckBck, -1);
        this.bck.copyFrom(z);
      }
      if (!valid) break;
      this.depth++;
      const lswSubtree = this.lswOut;
      // Biased progressive sampling: a heavier new subtree always takes the draw.
      if (lswSubtree > logSumWeight || rng.uniform() < Math.exp(lswSubtree - logSumWeight)) { this.sample.copyFrom(this.propose); this.moved = true; }
      logSumWeight = logSumExp(logSumWeight, lswSubtree);
      for (let i = 0; i < rho.length; i++) rho[i] = rhoBck[i]! + rhoFwd[i]!;
      // The criterion over the whole trajectory and across the seam between its two parts.
      const persist = dot(this.pSharpFwdFwd, rho) > 0 && dot(this.pSharpBckBck, rho) > 0
        && dotSum(this.pSharpFwdBck, rhoBck, this.pFwdBck) > 0 && dotSum(this.pSharpBckBck, rhoBck, this.pFwdBck) > 0
        && dotSum(this.pSharpFwdFwd, rhoFwd, this.pBckFwd) > 0 && dotSum(this.pSharpBckFwd, rhoFwd, this.pBckFwd) > 0;
      if (!persist) break;
    }
    this.acceptStat = this.sumMetroProb / this.nSteps;
    z.copyFrom(this.sample);
    this.energy = this.hamiltonian(z);
  }

  /**
   * Builds a subtree of 2^depth leapfrog steps in direction `sign` from z (Stan's `build_tree`):
   * adds its momenta to `rho`, writes the momenta and sharp momenta at its two ends, leaves its
   * multinomial draw in `propose` and its log sum of weights in `lswOut`. False when it diverged
   * or made a U-turn (the caller then stops).
   */
  private buildTree(depth: number, propose: Point, pSharpBeg: Float64Array, pSharpEnd: Float64Array, rho: Float64Array,
    pBeg: Float64Array, pEnd: Float64Array, sign: number): boolean {
    if (depth === 0) {
      const z = this.z, m = this.invMetric;
      this.leapfrog(sign * this.eps);
      this.nSteps++;
      const h = this.hamiltonian(z);
      const w = this.h0 - h;
      if (-w > this.maxEnergyDiff) this.divergent = true;
      this.lswOut = w;
      this.sumMetroProb += w > 0 ? 1 : Math.exp(w);
      propose.copyFrom(z);
      const p = z.p;
      for (let i = 0; i < p.length; i++) {
        const pi = p[i]!, ps = m[i]! * pi;
        pSharpBeg[i] = ps; pSharpEnd[i] = ps; rho[i] = rho[i]! + pi; pBeg[i] = pi; pEnd[i] = pi;
      }
      return !this.divergent;
    }
    const L = this.levels[depth]!;
    L.rhoInit.fill(0);
    if (!this.buildTree(depth - 1, propose, pSharpBeg, L.pSharpInitEnd, L.rhoInit, pBeg, L.pInitEnd, sign)) return false;
    const lswInit = this.lswOut;
    L.rhoFinal.fill(0);
    if (!this.buildTree(depth - 1, L.zFinal, L.pSharpFinalBeg, pSharpEnd, L.rhoFinal, L.pFinalBeg, pEnd, sign)) return false;
    const lswFinal = this.lswOut;
    const lswSubtree = logSumExp(lswInit, lswFinal);
    // Uniform progressive sampling between the halves.
    if (lswFinal > lswSubtree || this.rng.uniform() < Math.exp(lswFinal - lswSubtree)) propose.copyFrom(L.zFinal);
    const rhoInit = L.rhoInit, rhoFinal = L.rhoFinal;
    let a = 0, b = 0;
    for (let i = 0; i < rho.length; i++) {
      const s = rhoInit[i]! + rhoFinal[i]!;
      rho[i] = rho[i]! + s;
      a += pSharpEnd[i]! * s; b += pSharpBeg[i]! * s;
    }
    this.lswOut = lswSubtree;
    return a > 0 && b > 0
      && dotSum(pSharpBeg, rhoInit, L.pFinalBeg) > 0 && dotSum(L.pSharpFinalBeg, rhoInit, L.pFinalBeg) > 0
      && dotSum(pSharpEnd, rhoFinal, L.pInitEnd) > 0 && dotSum(L.pSharpInitEnd, rhoFinal, L.pInitEnd) > 0;
  }

  /**
   * Stan's step-size heuristic at the current point and metric: double (or halve) the step size
   * until one leapfrog step's acceptance probability crosses 0.8, each trial from the current
   * position with fresh momentum. z is left where it was.
   * @throws RangeError (naming `fn`) when the step size passes 1e7 (an improper posterior) or underflows to 0.
   */
  initStepSize(fn: string): void {
    if (this.stepSize === 0 || this.stepSize > 1e7) return;
    const z = this.z;
    this.start.copyFrom(z);
    const LOG_08 = Math.log(0.8);
    let direction = 0;
    for (;;) {
      z.copyFrom(this.start);
      this.drawMomentum();
      const h0 = this.hamiltonian(z);
      this.leapfrog(this.stepSize);
      const deltaH = h0 - this.hamiltonian(z);
      if (direction === 0) { direction = deltaH > LOG_08 ? 1 : -1; continue; }
      if (direction === 1 ? !(deltaH > LOG_08) : !(deltaH < LOG_08)) break;
      this.stepSize = direction === 1 ? 2 * this.stepSize : 0.5 * this.stepSize;
      if (this.stepSize > 1e7) throw new RangeError(`${fn}: the step size grew past 1e7 while initializing it: the posterior looks improper; check the model`);
      if (this.stepSize === 0) throw new RangeError(`${fn}: no step size is small enough: the log density may not be continuous`);
    }
    z.copyFrom(this.start);
  }
}
