/**
 * One chain of Stan's NUTS on Float64Arrays: multinomial sampling from the trajectory, biased
 * progressive sampling between subtrees at the top and uniform progressive sampling inside
 * them, the generalized no-U-turn criterion checked across each merged tree and across the
 * seams between its halves (Stan ≥ 2.23, `base_nuts.hpp`), a diagonal or dense metric (`metric.ts`),
 * and Stan's step-size initialization heuristic.
 *
 * Everything lives in buffers allocated by the constructor: a leapfrog step, a leaf and a merge
 * allocate nothing, so a transition costs the gradients plus a few passes over `dim` doubles
 * per leaf. Those passes run in WebAssembly when it is available (`nuts-loops.ts`, the same
 * bits as its JavaScript). The log density is any `(x, grad) => log p(x)` over unconstrained
 * coordinates (a compiled log density's `logDensityGradient`), so no tensor is touched.
 *
 * Randomness comes from a {@link ChainRandom}: the caller begins a new stream for each
 * transition, so a chain's draws are a pure function of its key and nothing else.
 */
import type { Modes } from '../../../src/config.js';
import { detExp, detLog, detLog1p } from '../../../src/math/index.js';
import type { PrngImpl } from '../../../src/random/impl.js';
import { KeyArray } from '../../../src/random/key-array.js';
import { normalFromUnit } from '../../../src/random/normal-fill.js';
import { uniformUnit } from '../../../src/random/uniform.js';
import { DenseMetric, DiagonalMetric, type Metric } from '../../internal/metric.js';
import { chainLoops, type ChainLoops } from './nuts-loops.js';
import { isProgrammingError } from '../../internal/rejections.js';

/** A log density and its gradient: returns log p(x) and writes ∂ log p/∂x into `grad`. */
export type LogDensityGradient = (x: Float64Array, grad: Float64Array) => number;

/** Uniforms drawn per sub-key: enough for a typical tree's merges in one draw. */
const UNIFORM_BLOCK = 32;

/**
 * The random numbers of one chain. `begin(t)` starts transition t's stream, the key
 * `foldIn(key, t)`; within it, draws use sub-keys `foldIn(·, 0)`, `foldIn(·, 1)`, … in the
 * order they are asked for: a momentum draw or a vector of uniforms takes one sub-key, single
 * uniforms come in blocks of 32 per sub-key. Keys and buffers are written in place through the
 * PRNG record, so a transition allocates nothing.
 */
export class ChainRandom {
  private readonly impl: PrngImpl;
  private readonly key: Uint32Array;
  private readonly stream: Uint32Array;
  private sub = 0;
  private readonly block = new Float64Array(UNIFORM_BLOCK);
  private readonly blockKey: Uint32Array;
  /** The sub-key of a momentum or uniforms draw. */
  private readonly subKey: Uint32Array;
  private pos = UNIFORM_BLOCK;

  constructor(key: KeyArray, private readonly modes: Modes) {
    this.impl = key.impl;
    this.key = key.data;
    const words = key.data.length;
    this.stream = new Uint32Array(words);
    this.blockKey = new Uint32Array(words);
    this.subKey = new Uint32Array(words);
  }

  /** Starts stream t. */
  begin(t: number): void {
    this.impl.foldIn(this.key, t, this.modes, this.stream);
    this.sub = 0;
    this.pos = UNIFORM_BLOCK;
  }

  /** Fills `out` with uniforms in [0, 1) from the next sub-key (JAX's float64 uniform bits). */
  uniforms(out: Float64Array): void {
    this.fill(this.impl.foldIn(this.stream, this.sub++, this.modes, this.subKey), out);
  }

  private fill(k: Uint32Array, out: Float64Array): void {
    if (this.impl.uniformFloat64 !== undefined) this.impl.uniformFloat64(k, out, this.modes);
    else out.set(uniformUnit(new KeyArray(this.impl, k, []), out.length, 'float64', this.modes));
  }

  /** A uniform in [0, 1): the next of the current block's (computed one at a time when the PRNG can, since few are used). */
  uniform(): number {
    const impl = this.impl;
    if (this.pos === UNIFORM_BLOCK) {
      impl.foldIn(this.stream, this.sub++, this.modes, this.blockKey);
      this.pos = 0;
      if (impl.uniformFloat64At === undefined) this.fill(this.blockKey, this.block);
    }
    const j = this.pos++;
    return impl.uniformFloat64At === undefined ? this.block[j]! : impl.uniformFloat64At(this.blockKey, j, UNIFORM_BLOCK, this.modes);
  }

  /** Fills `out` with standard normals from the next sub-key (the uniforms mapped by the deterministic √2·erfinv(2u − 1), fused when the PRNG can). */
  normals(out: Float64Array): void {
    const impl = this.impl, k = impl.foldIn(this.stream, this.sub++, this.modes, this.subKey);
    if (impl.normalFloat64 !== undefined) { impl.normalFloat64(k, out, this.modes); return; }
    this.fill(k, out);
    normalFromUnit(out);
  }
}

/**
 * A point of the trajectory: position, momentum, gradient of the log density, log density and
 * Hamiltonian. Points live in a pool and are never copied: a leapfrog step writes a fresh point,
 * and the trajectory's ends, the draw and the subtrees' proposals hold points by reference
 * (`refs` counts the holders; a point with none goes back to the pool).
 */
class Point {
  readonly q: Float64Array;
  readonly p: Float64Array;
  readonly g: Float64Array;
  lp = 0;
  h = 0;
  refs = 0;
  /** The slots of q, p and g are k, k + 1 and k + 2 (the loops take slot numbers). */
  constructor(loops: ChainLoops, readonly k: number) {
    this.q = loops.array(k);
    this.p = loops.array(k + 1);
    this.g = loops.array(k + 2);
  }
}

/** The locals of one level of the tree recursion (a subtree of depth ≥ 2 and its two halves): six slots from k. */
class Level {
  readonly pInitEnd: number;
  readonly pSharpInitEnd: number;
  readonly rhoInit: number;
  readonly pFinalBeg: number;
  readonly pSharpFinalBeg: number;
  readonly rhoFinal: number;
  constructor(k: number) {
    this.pInitEnd = k;
    this.pSharpInitEnd = k + 1;
    this.rhoInit = k + 2;
    this.pFinalBeg = k + 3;
    this.pSharpFinalBeg = k + 4;
    this.rhoFinal = k + 5;
  }
}

// The chain's fixed slots (see NutsChain's constructor): the inverse metric, the velocity and
// noise scratch, then the trajectory's momentum sum and its parts' (RHO), and the momenta and
// velocities at the four ends of its backward and forward parts (swapped as the tree grows).
const INV_METRIC = 0, VEL = 1, NOISE = 2, RHO = 3, RHO_FWD = 4, RHO_BCK = 5;
const P_FWD_FWD = 6, P_FWD_BCK = 7, P_BCK_FWD = 8, P_BCK_BCK = 9;
const PS_FWD_FWD = 10, PS_FWD_BCK = 11, PS_BCK_FWD = 12, PS_BCK_BCK = 13;
const SLOTS = 14;

/**
 * A Hamiltonian with NaN counted as +∞ (Stan's convention). Written 1 / 0: V8 loads the global
 * `Infinity` generically in a branch that never ran, and the Hamiltonian would then be boxed (an
 * allocation at every leaf).
 */
const nanToInf = (h: number): number => (h === h ? h : 1 / 0);

/**
 * log(e^a + e^b) and the share e^b / (e^a + e^b) of b, from one exp and one log1p: the log sum
 * of weights of a merged tree and the probability of taking its new part's draw. Stan computes
 * the same two numbers as `log_sum_exp` and `exp(b − log_sum_exp)`. In place: a = w[0] and
 * b = w[1] become the two results (slots rather than arguments: V8 allocates a box for each
 * double passed to a call it does not inline, and this one is not always inlined).
 */
function mergeWeights(w: Float64Array): void {
  const a = w[0]!, b = w[1]!;
  if (a === -Infinity || b === -Infinity) { w[0] = a === -Infinity ? b : a; w[1] = a === -Infinity ? 1 : 0; return; }
  const d = b - a;
  if (d !== d) { w[0] = Infinity; w[1] = 0; return; }   // both +∞
  const t = detExp(-Math.abs(d));
  w[0] = (d > 0 ? b : a) + detLog1p(t);
  w[1] = d > 0 ? 1 / (1 + t) : t / (1 + t);
}

export interface NutsChainOptions {
  readonly maxTreeDepth: number;
  /** `'dense'` for a dense metric (Stan's `dense_e`); diagonal by default. */
  readonly metric?: 'diagonal' | 'dense';
  /** An energy error above this makes the transition divergent (Stan's `max_deltaH`, 1000). */
  readonly maxEnergyDiff: number;
  /**
   * Told of every rejected proposal (see `NutsChain.failures`): the error the log density threw
   * (`threw` true) or, when it returned, the non-finite log density or gradient at `q`. The arrays
   * are the chain's scratch: copy what you keep.
   */
  readonly onReject?: (threw: boolean, error: unknown, lp: number, q: Float64Array, grad: Float64Array) => void;
}

/**
 * A NUTS chain: its position (`q`, with the log density `lp` and its gradient), step size and
 * inverse metric, its random numbers (begin a new stream of `rng` before each `transition` or
 * `initStepSize`), and the statistics of its last transition.
 */
export class NutsChain {
  readonly dim: number;
  /** The metric: momentum draws, velocities and kinetic energies. */
  readonly metric: Metric;
  /** The diagonal inverse metric (the estimated posterior variances after adaptation; `metric.invMass` when diagonal); unused with a dense metric. */
  readonly invMetric: Float64Array;
  /**
   * The dense metric, or null for the diagonal one. The momentum, leapfrog and leaf code branch
   * on it once: the diagonal metric's passes are the fused loops of `nuts-loops.ts` (a metric call
   * per element would cost), computing `metric.ts`'s momentum z/√m, velocity m·p, drift
   * x + (ε·m)·p and kinetic energy ½ Σ p·(m·p).
   */
  readonly dense: DenseMetric | null;
  /** Scratch for the velocity M⁻¹p. */
  private readonly vel: Float64Array;
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
  /**
   * Proposals rejected because the log density threw or gave a non-finite value or gradient, in
   * transitions and step-size heuristics alike, since the caller last reset it (Stan's "the current
   * Metropolis proposal is about to be rejected"). Such a point is a divergent leaf: its subtree
   * stops and it never becomes the draw, so the chain's position is never a failed point.
   */
  failures = 0;
  /** The error the log density just threw (read by `rejected`, right after the evaluation). */
  private thrown: unknown = undefined;
  private threw = false;
  private readonly onReject: NutsChainOptions['onReject'];

  /** The chain's position, with its gradient and log density (its momentum is scratch): the last draw. */
  private cur: Point;
  /** The ends of the trajectory: the points the next leapfrog step forward or backward starts from. */
  private fwd: Point;
  private bck: Point;
  /**
   * Every point: at most the draw, the two ends, one pending proposal per level of the tree and
   * the point being written are held at once (maxTreeDepth + 3). `free[0..nFree)` are unheld.
   */
  private readonly points: Point[];
  private readonly free: Point[];
  private nFree = 0;
  private readonly noise: Float64Array;
  private readonly levels: Level[];
  private readonly maxTreeDepth: number;
  private readonly maxEnergyDiff: number;
  // Scratch of the recursion: the last subtree's proposal (one reference held) and log sum of weights, the running sum, merge weights.
  private propOut: Point;
  private lswOut = 0;
  private sumMetroProb = 0;
  private eps = 0;
  private h0 = 0;
  private readonly merge = new Float64Array(2);
  /** The leaf and merge loops, and the memory of every array above. */
  private readonly loops: ChainLoops;

  constructor(private readonly f: LogDensityGradient, dim: number, readonly rng: ChainRandom, options: NutsChainOptions) {
    this.dim = dim;
    this.maxTreeDepth = options.maxTreeDepth;
    this.maxEnergyDiff = options.maxEnergyDiff;
    this.onReject = options.onReject;
    const nPoints = options.maxTreeDepth + 3, nLevels = options.maxTreeDepth + 1;
    // Slots: INV_METRIC, VEL, NOISE, the trajectory's sums and ends (RHO…), the points, the levels.
    const loops = this.loops = chainLoops(SLOTS + 3 * nPoints + 6 * nLevels, dim);
    this.invMetric = loops.array(INV_METRIC).fill(1);
    this.dense = options.metric === 'dense' ? new DenseMetric(dim) : null;
    this.metric = this.dense ?? new DiagonalMetric(this.invMetric);
    this.vel = loops.array(VEL);
    this.noise = loops.array(NOISE);
    this.points = Array.from({ length: nPoints }, (_, j) => new Point(loops, SLOTS + 3 * j));
    this.free = this.points.slice();
    this.cur = this.fwd = this.bck = this.propOut = this.points[0]!;
    this.freeAllButCur();
    this.levels = Array.from({ length: nLevels }, (_, j) => new Level(SLOTS + 3 * nPoints + 6 * j));
  }

  /** The position (read-only; `setPosition` moves it). */
  get q(): Float64Array { return this.cur.q; }
  /** The log density at the position. */
  get lp(): number { return this.cur.lp; }
  /** Its gradient (read-only). */
  get grad(): Float64Array { return this.cur.g; }

  /** Moves the chain to `x` (copied) and evaluates the log density there; returns it. */
  setPosition(x: ArrayLike<number>): number {
    const c = this.cur;
    for (let i = 0; i < this.dim; i++) c.q[i] = x[i]!;
    c.lp = this.f(c.q, c.g);
    return c.lp;
  }

  /** Moves the chain to `x` with its known log density `lp` and gradient `grad` (copied; no evaluation): a returned state resumed. */
  restorePosition(x: ArrayLike<number>, lp: number, grad: ArrayLike<number>): void {
    const c = this.cur;
    c.q.set(x); c.g.set(grad); c.lp = lp;
  }

  /** Returns every point but the position to the pool (between transitions nothing else is held). */
  private freeAllButCur(): void {
    let n = 0;
    for (const z of this.points) if (z !== this.cur) this.free[n++] = z;
    this.nFree = n;
  }

  /** Drops one reference to `z`. */
  private release(z: Point): void {
    if (--z.refs === 0) this.free[this.nFree++] = z;
  }

  /**
   * Uniform progressive sampling between the two halves of a subtree, the first's proposal `init`
   * and log sum of weights in merge[0], the second's in `propOut` and `lswOut` (each proposal
   * holding one reference): leaves the subtree's in `propOut` and `lswOut`, the second half's
   * proposal taken with probability its share of the weight (one uniform).
   */
  private mergeHalves(init: Point): void {
    const w = this.merge, final = this.propOut;
    w[1] = this.lswOut;
    mergeWeights(w);
    this.lswOut = w[0]!;
    if (this.rng.uniform() < w[1]!) this.release(init);
    else { this.release(final); this.propOut = init; }
  }

  /**
   * Fresh momentum p ~ N(0, M) at the position; returns the Hamiltonian −log p + ½ pᵀ M⁻¹ p (+∞
   * for NaN, Stan's convention) and leaves the velocity M⁻¹p in `vel`.
   */
  private drawMomentum(): number {
    const cur = this.cur, u = this.noise;
    this.rng.normals(u);
    if (this.dense === null) return nanToInf(0.5 * this.loops.momentum(NOISE, INV_METRIC, cur.k + 1, VEL) - cur.lp);
    this.metric.sampleMomentum(u, cur.p);
    return nanToInf(this.metric.kineticEnergy(cur.p, this.vel) - cur.lp);
  }

  /**
   * The first half of a leapfrog step of size `sign`·`eps` from `z` into `to`: half kick, drift,
   * gradient. The caller does the second half kick. (The step size is not an argument: V8 boxes
   * a double passed to a call it does not inline.)
   */
  private kickDrift(z: Point, to: Point, sign: number): void {
    const eps = sign * this.eps;
    const q = z.q, p = z.p, g = z.g, tq = to.q, tp = to.p, half = 0.5 * eps, dense = this.dense;
    if (dense === null) this.loops.kickDrift(z.k, z.k + 1, z.k + 2, to.k, to.k + 1, INV_METRIC, eps, half);   // the diagonal drift x + (ε·m)·p
    else {
      const v = this.vel;
      for (let i = 0; i < q.length; i++) tp[i] = p[i]! + half * g[i]!;
      dense.velocity(tp, v);
      for (let i = 0; i < q.length; i++) tq[i] = q[i]! + eps * v[i]!;
    }
    to.lp = this.evaluate(tq, to.g);
  }

  /**
   * The log density at a proposal: an exception becomes NaN (the caller's Hamiltonian check then
   * calls `rejected`), except a programming error (TypeError, ReferenceError, SyntaxError), which
   * no proposal can cause and which propagates.
   */
  private evaluate(q: Float64Array, g: Float64Array): number {
    try {
      return this.f(q, g);
    } catch (e) {
      if (isProgrammingError(e)) throw e;
      this.thrown = e; this.threw = true;
      return Number.NaN;
    }
  }

  /**
   * Called when a proposal's Hamiltonian `h` is not finite: if the log density threw there, or
   * its value (even +∞) or a gradient entry is not finite, the proposal is rejected (counted,
   * reported, and its Hamiltonian +∞, so its leaf is divergent); otherwise (a kinetic energy that
   * overflowed) it is an ordinary divergence and `h` is returned.
   */
  private rejected(z: Point, h: number): number {
    const threw = this.threw, error = this.thrown;
    if (threw) { this.threw = false; this.thrown = undefined; }
    else {
      const lp = z.lp, g = z.g;
      let finite = lp - lp === 0;
      for (let i = 0; finite && i < g.length; i++) finite = g[i]! - g[i]! === 0;
      if (finite) return h;
    }
    this.failures++;
    this.onReject?.(threw, error, z.lp, z.q, z.g);
    return Infinity;
  }

  /** One NUTS transition from the position, which becomes the draw; the statistics are set. */
  transition(): void {
    const rng = this.rng, cur = this.cur;
    this.eps = this.stepSize;
    const h0 = this.drawMomentum();
    this.h0 = h0;
    cur.h = h0;
    cur.refs = 3;                // both ends and the draw
    this.fwd = cur; this.bck = cur;
    let sample = cur;
    // The trajectory's momentum sum and the momenta and velocities at the ends of its backward
    // and forward parts. When a subtree is added, the trajectory so far becomes one part by
    // swapping buffers (slots; each swapped out is rewritten before it is read again), so only
    // the trajectory's own ends start with the initial momentum.
    let rho = RHO, rhoFwd = RHO_FWD, rhoBck = RHO_BCK;
    let pFF = P_FWD_FWD, pFB = P_FWD_BCK, pBF = P_BCK_FWD, pBB = P_BCK_BCK;
    let pSFF = PS_FWD_FWD, pSFB = PS_FWD_BCK, pSBF = PS_BCK_FWD, pSBB = PS_BCK_BCK;
    const loops = this.loops;
    loops.spread(cur.k + 1, VEL, pFF, pBB, pSFF);   // drawMomentum left the velocity in VEL
    loops.spread(cur.k + 1, VEL, rho, rho, pSBB);
    let logSumWeight = 0;        // log(exp(H0 − H0))
    this.sumMetroProb = 0;
    this.nSteps = 0;
    this.depth = 0;
    this.divergent = false;
    this.moved = false;
    while (this.depth < this.maxTreeDepth) {
      let valid: boolean, t: number;
      if (rng.uniform() > 0.5) {           // extend forward: the trajectory so far is the backward part
        t = rhoBck; rhoBck = rho; rho = t;
        t = pBF; pBF = pFF; pFF = t;
        t = pSBF; pSBF = pSFF; pSFF = t;
        valid = this.buildTree(this.depth, pSFB, pSFF, rhoFwd, pFB, pFF, 1);
      } else {                             // extend backward
        t = rhoFwd; rhoFwd = rho; rho = t;
        t = pFB; pFB = pBB; pBB = t;
        t = pSFB; pSFB = pSBB; pSBB = t;
        valid = this.buildTree(this.depth, pSBF, pSBB, rhoBck, pBF, pBB, -1);
      }
      if (!valid) break;
      this.depth++;
      // Biased progressive sampling: a heavier new subtree always takes the draw.
      const lswSubtree = this.lswOut, proposal = this.propOut;
      if (lswSubtree > logSumWeight || rng.uniform() < detExp(lswSubtree - logSumWeight)) {
        this.release(sample); sample = proposal; this.moved = true;
      } else this.release(proposal);
      const w = this.merge;
      w[0] = logSumWeight; w[1] = lswSubtree;
      mergeWeights(w);
      logSumWeight = w[0]!;
      if (!loops.join(rho, rhoBck, rhoFwd, pSBB, pSFF, pBF, pSBF, pFB, pSFB)) break;
    }
    this.cur = sample;
    this.freeAllButCur();        // whatever the tree still held (a stopped subtree's points)
    this.acceptStat = this.sumMetroProb / this.nSteps;
    this.energy = sample.h;
  }

  /**
   * Builds a subtree of 2^depth leapfrog steps in direction `sign` from that end of the
   * trajectory (Stan's `build_tree`): writes the sum of its momenta into slot `rho` and the
   * momenta and sharp momenta at its two ends, leaves its multinomial draw in `propOut` and its
   * log sum of weights in `lswOut`. False when it diverged or made a U-turn (the caller then stops).
   */
  private buildTree(depth: number, pSharpBeg: number, pSharpEnd: number, rho: number,
    pBeg: number, pEnd: number, sign: number): boolean {
    if (depth === 0) {           // one leaf: its momentum is both ends and the sum
      const ok = this.leaf(sign, pBeg, pSharpBeg);
      this.loops.spread(pBeg, pSharpBeg, pEnd, rho, pSharpEnd);
      return ok;
    }
    if (depth === 1) {
      // Two leaves, each end written once: the halves' sums and inner ends are the leaves' own
      // momenta (joinLeaves).
      if (!this.leaf(sign, pBeg, pSharpBeg)) return false;
      const first = this.propOut, lswFirst = this.lswOut;
      if (!this.leaf(sign, pEnd, pSharpEnd)) return false;
      this.merge[0] = lswFirst;
      this.mergeHalves(first);
      return this.loops.joinLeaves(rho, pBeg, pEnd, pSharpBeg, pSharpEnd);
    }
    const L = this.levels[depth]!;
    if (!this.buildTree(depth - 1, pSharpBeg, L.pSharpInitEnd, L.rhoInit, pBeg, L.pInitEnd, sign)) return false;
    const init = this.propOut, lswInit = this.lswOut;
    if (!this.buildTree(depth - 1, L.pSharpFinalBeg, pSharpEnd, L.rhoFinal, L.pFinalBeg, pEnd, sign)) return false;
    this.merge[0] = lswInit;
    this.mergeHalves(init);
    return this.loops.join(rho, L.rhoInit, L.rhoFinal, pSharpBeg, pSharpEnd, L.pInitEnd, L.pSharpInitEnd, L.pFinalBeg, L.pSharpFinalBeg);
  }

  /**
   * One leapfrog step from the trajectory's end in direction `sign`, a tree's leaf: a fresh point
   * that becomes that end and the leaf's proposal (`propOut`); writes its momentum into slot
   * `pOut`, its velocity into slot `pSharpOut` and its log weight H0 − H into `lswOut`. False
   * when it diverged.
   */
  private leaf(sign: number, pOut: number, pSharpOut: number): boolean {
    const from = sign > 0 ? this.fwd : this.bck, z = this.free[--this.nFree]!;
    const half = 0.5 * sign * this.eps;
    this.kickDrift(from, z, sign);
    this.nSteps++;
    const p = z.p, g = z.g, dense = this.dense;
    let kin = 0;
    if (dense === null) kin = this.loops.kickEnergy(z.k + 1, z.k + 2, INV_METRIC, pOut, pSharpOut, half);   // the velocity m·p
    else {
      const v = this.vel, po = this.loops.array(pOut), pso = this.loops.array(pSharpOut);
      for (let i = 0; i < p.length; i++) p[i] = p[i]! + half * g[i]!;
      dense.velocity(p, v);
      for (let i = 0; i < p.length; i++) { const pi = p[i]!, ps = v[i]!; kin += pi * ps; po[i] = pi; pso[i] = ps; }
    }
    let h = nanToInf(0.5 * kin - z.lp);
    if (!(h < Infinity && h > -Infinity)) h = this.rejected(z, h);
    const w = this.h0 - h;
    if (-w > this.maxEnergyDiff) this.divergent = true;
    this.lswOut = w;
    this.sumMetroProb += w > 0 ? 1 : detExp(w);
    z.h = h;
    z.refs = 2;                  // the new end and the leaf's proposal
    if (sign > 0) this.fwd = z; else this.bck = z;
    this.release(from);
    this.propOut = z;
    return !this.divergent;
  }

  /**
   * Stan's step-size heuristic at the current position and metric: double (or halve) the step
   * size until one leapfrog step's acceptance probability crosses 0.8, each trial from the
   * position with fresh momentum. The position is left where it was.
   * @throws RangeError (naming `fn`) when the step size passes 1e7 (an improper posterior) or underflows to 0.
   */
  initStepSize(fn: string): void {
    if (this.stepSize === 0 || this.stepSize > 1e7) return;
    const LOG_08 = detLog(0.8), z = this.free[this.nFree - 1]!;   // a free point as scratch (not taken: nothing else runs meanwhile)
    let direction = 0;
    for (;;) {
      const h0 = this.drawMomentum();
      this.eps = this.stepSize;
      this.kickDrift(this.cur, z, 1);
      const half = 0.5 * this.stepSize, p = z.p, g = z.g;
      for (let i = 0; i < p.length; i++) p[i] = p[i]! + half * g[i]!;
      let h = nanToInf(this.metric.kineticEnergy(p, this.vel) - z.lp);
      if (!(h < Infinity && h > -Infinity)) h = this.rejected(z, h);
      const deltaH = h0 - h;
      if (direction === 0) { direction = deltaH > LOG_08 ? 1 : -1; continue; }
      if (direction === 1 ? !(deltaH > LOG_08) : !(deltaH < LOG_08)) break;
      this.stepSize = direction === 1 ? 2 * this.stepSize : 0.5 * this.stepSize;
      if (this.stepSize > 1e7) throw new RangeError(`${fn}: the step size grew past 1e7 while initializing it: the posterior looks improper; check the model`);
      if (this.stepSize === 0) throw new RangeError(`${fn}: no step size is small enough: the log density may not be continuous`);
    }
  }
}
