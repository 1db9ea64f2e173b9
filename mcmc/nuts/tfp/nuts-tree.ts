/**
 * One NUTS trajectory for a batch of chains, as TFP's iterative `NoUTurnSampler`: repeated tree
 * doublings in a random direction per chain, multinomial sampling of the candidate (progressive
 * and uniform within a subtree, biased towards the new subtree at each doubling), the
 * generalized U-turn criterion (Betancourt 2017, appendix A) checked inside every subtree at the
 * leaves that close a sub-subtree and over the whole trajectory after each doubling, and a
 * divergence when the energy error exceeds `maxEnergyDiff` (or is NaN).
 *
 * In named parts, as BlackJAX's `trajectory.py`, `termination.py` and `proposal.py`:
 * {@link nutsTrajectory} doubles; `buildSubtree` integrates one subtree leaf by leaf;
 * `checkpointMax`/`checkpointMin` index the checkpoints (`writeCheckpoint`) that
 * `isIterativeTurning` tests a leaf against; `sampleLeaf` is the progressive sampling inside a
 * subtree; `mergeSubtree` the biased sampling between subtrees and the U-turn test over the whole
 * trajectory. The metric (kinetic energy, velocity, U-turn inner product) is `metric.ts`'s.
 *
 * Chains that stop (U-turn, divergence) are masked: their positions stop moving and nothing about
 * them changes, while the others keep doubling. The random draws are still made for every chain
 * at every doubling and leaf, so a chain's draws do not depend on when the others stop.
 *
 * Speed (issue 7: a tree leaf costs little beyond its gradient): every buffer lives in a
 * workspace reused across trajectories of the same shape (kept by the kernel in a
 * {@link NutsWorkspaces}; no module-level state); seeds stay raw key words (the implementation's
 * `split`, `bits` and fused uniform paths, no KeyArray objects); the leaves' position arrays,
 * which the target sees, are fresh views carved from shared chunks (Float64Arrays of more than 64
 * bytes are slow to allocate and load the garbage collector).
 */
import type { Modes } from '../../../src/config.js';
import type { PrngImpl } from '../../../src/random/impl.js';
import { KeyArray } from '../../../src/random/key-array.js';
import { uniformData } from '../../../src/random/uniform.js';
import type { FloatDType } from '../../../src/tensor/dtype.js';
import { leapfrogInPlace, leapfrogTfpInPlace, type PhasePoint } from '../../internal/leapfrog.js';
import { type BatchMetric, PreconditionedBatchMetric } from '../../internal/metric.js';
import type { NutsWorkspaces, Workspace } from './nuts-workspace.js';
import type { Geometry } from '../../internal/geometry.js';
import type { FlatFn, StepRejections } from '../../internal/target.js';
import { logaddexpScalar } from '../../../src/tensor/ops/elementwise.js';
import { detExp, detLog, detLog1p } from '../../../src/math/index.js';
import { noUTurnTfp } from '../u-turn.js';

/** The trajectory settings (NoUTurnSampler's options of the same names). */
export interface NutsSettings {
  readonly maxTreeDepth: number;
  readonly maxEnergyDiff: number;
  readonly unrolledLeapfrogSteps: number;
}

/** What one trajectory gives, per chain (vectors per part). */
export interface NutsOutcome {
  readonly x: Float64Array[];
  readonly grad: Float64Array[];
  readonly lp: Float64Array;
  /** The chosen point's negative Hamiltonian, log p(x) − ½ Σ invMass·p². */
  readonly energy: Float64Array;
  /** log of the mean of min(1, exp(ΔH)) over the leapfrog steps taken before stopping. */
  readonly logAcceptRatio: Float64Array;
  readonly leapfrogs: Int32Array;
  readonly isAccepted: Uint8Array;
  readonly reachMaxDepth: Uint8Array;
  readonly hasDivergence: Uint8Array;
}

/** Copies chain c's elements of every part from `src` to `dst` (a plain loop: no subarray views). */
function copyChain(dst: readonly Float64Array[], src: readonly Float64Array[], c: number, g: Geometry): void {
  for (let k = 0; k < dst.length; k++) {
    const e = g.eventSizes[k]!, d = dst[k]!, a = src[k]!;
    for (let i = c * e, end = i + e; i < end; i++) d[i] = a[i]!;
  }
}

const SCALAR: readonly number[] = Object.freeze([]);

/** Number of set bits of a non-negative 32-bit integer. */
function popcount(n: number): number {
  let c = 0;
  for (let v = n; v !== 0; v &= v - 1) c++;
  return c;
}

/** `dst` = words [from, from + dst.length) of `src`. */
function setWords(dst: Uint32Array, src: Uint32Array, from: number): void {
  for (let i = 0; i < dst.length; i++) dst[i] = src[from + i]!;
}

/**
 * `[dsts…] = split(key, dsts.length)` on raw words, as `splitKeys` without its KeyArray objects
 * (the same words; a leaf must stay cheap); a `null` destination drops that key.
 */
function splitInto(t: Trajectory, key: Uint32Array, ...dsts: (Uint32Array | null)[]): void {
  const words = t.impl.split(key, dsts.length, t.modes), kw = t.ws.kw;
  for (let i = 0; i < dsts.length; i++) { const d = dsts[i]; if (d) setWords(d, words, i * kw); }
}

/** What every part of one trajectory reads: the workspace, the target and the fixed settings. */
interface Trajectory {
  readonly ws: Workspace;
  readonly target: FlatFn;
  readonly g: Geometry;
  readonly metric: BatchMetric;
  readonly s: NutsSettings;
  readonly impl: PrngImpl;
  readonly dtype: FloatDType;
  readonly modes: Modes;
  /** The step's failures of the target (noted for the chains active at each evaluation). */
  readonly rejections: StepRejections | undefined;
}

/** `uniform(key, [C])` in [0, 1) of the state's dtype (a reused buffer when the implementation has the fused path). */
function uniforms(t: Trajectory, key: Uint32Array): Float64Array | Float32Array {
  const { ws, impl, dtype, modes } = t;
  if (dtype === 'float64' && impl.uniformFloat64) { impl.uniformFloat64(key, ws.u64, modes); return ws.u64; }
  if (dtype === 'float32' && impl.uniformFloat32) { impl.uniformFloat32(key, ws.u32, modes); return ws.u32; }
  return uniformData(new KeyArray(impl, key.slice(), SCALAR), ws.C, dtype, 0, 1, modes);
}

// ---- checkpoints (BlackJAX's `_leaf_idx_to_ckpt_idxs`) ----

/**
 * The checkpoint slot of leaf n (0-based within its subtree): leaves that start a sub-subtree
 * (even n) write slot `checkpointMax(n)`; an odd leaf is checked against slots
 * `checkpointMin(n) … checkpointMax(n)`, the sub-subtrees it closes.
 */
function checkpointMax(n: number): number {
  return popcount(n >>> 1);
}

/** The first slot an odd leaf n is checked against: one per trailing one bit of n (the sub-subtrees it closes). */
function checkpointMin(n: number): number {
  let trailing = 0;
  for (let v = n; v & 1; v >>>= 1) trailing++;
  return checkpointMax(n) - trailing + 1;
}

/** Checkpoints the current leaf in slot `idx`: its velocity (`ws.vel`) and the momentum sum before it. */
function writeCheckpoint(ws: Workspace, idx: number): void {
  if (ws.ckptVel[idx] === undefined) { ws.ckptVel[idx] = ws.cum.map((a) => new Float64Array(a.length)); ws.ckptCum[idx] = ws.cum.map((a) => new Float64Array(a.length)); }
  const sv = ws.ckptVel[idx]!, sc = ws.ckptCum[idx]!;
  for (let k = 0; k < ws.cum.length; k++) { sc[k]!.set(ws.cum[k]!); sv[k]!.set(ws.vel[k]!); }
}

// ---- U-turn test (BlackJAX's `iterative_uturn_numpyro`) ----

/**
 * Whether chain c's current leaf makes a U-turn with any of the sub-subtrees it closes (slots
 * `idxMin … idxMax`): for each, ρ = the momentum sum from the checkpointed leaf to this one must
 * point along both ends' velocities (ρ·v ≥ 0 at each end). Stops at the first U-turn.
 */
function isIterativeTurning(ws: Workspace, g: Geometry, c: number, idxMin: number, idxMax: number, perPart: boolean): boolean {
  if (perPart) return isIterativeTurningPerPart(ws, g, c, idxMin, idxMax);
  for (let slot = idxMin; slot <= idxMax; slot++) {
    const vl = ws.ckptVel[slot]!, cl = ws.ckptCum[slot]!;
    let dl = 0, dr = 0;
    for (let k = 0; k < ws.cum.length; k++) {
      const e = g.eventSizes[k]!, ck = ws.cum[k]!, clk = cl[k]!, vlk = vl[k]!, vk = ws.vel[k]!;
      for (let i = c * e, end = i + e; i < end; i++) {
        const rho = ck[i]! - clk[i]!;
        dl += rho * vlk[i]!;
        dr += rho * vk[i]!;
      }
    }
    if (!noUTurnTfp(dl, dr)) return true;
  }
  return false;
}

/**
 * `isIterativeTurning` with each inner product summed part by part and the parts then added
 * (TFP's `has_not_u_turn`), for the preconditioned sampler.
 */
function isIterativeTurningPerPart(ws: Workspace, g: Geometry, c: number, idxMin: number, idxMax: number): boolean {
  for (let slot = idxMin; slot <= idxMax; slot++) {
    const vl = ws.ckptVel[slot]!, cl = ws.ckptCum[slot]!;
    let dl = 0, dr = 0;
    for (let k = 0; k < ws.cum.length; k++) {
      const e = g.eventSizes[k]!, ck = ws.cum[k]!, clk = cl[k]!, vlk = vl[k]!, vk = ws.vel[k]!;
      let tl = 0, tr = 0;
      for (let i = c * e, end = i + e; i < end; i++) {
        const rho = ck[i]! - clk[i]!;
        tl += rho * vlk[i]!;
        tr += rho * vk[i]!;
      }
      dl += tl; dr += tr;
    }
    if (!noUTurnTfp(dl, dr)) return true;
  }
  return false;
}

// ---- leaf sampling (progressive, uniform within a subtree) ----

/**
 * Adds chain c's current leaf to its subtree: its energy error and divergence, and the leaf
 * taken as the subtree's candidate with probability weight(leaf) / weight(subtree so far + leaf)
 * (`u` a uniform in [0, 1)). Deactivates the chain when the leaf diverged or made a U-turn.
 */
function sampleLeaf(t: Trajectory, c: number, u: number): void {
  const { ws, g, metric } = t;
  const next = ws.cur, sub = ws.sub;
  ws.subLeapfrogs[c]!++;
  let energy = next.lp[c]! - metric.chainKineticEnergy(next.p, c);
  // A failure at any point of this leaf (with unrolled leapfrog steps, maybe not its last) diverges.
  if (Number.isNaN(energy) || (t.rejections !== undefined && t.rejections.count[c] !== 0)) energy = -Infinity;
  const diff = energy - ws.initEnergy[c]!;
  const notDivergent = -diff < t.s.maxEnergyDiff;
  const weight = logaddexpScalar(sub.weight[c]!, diff);
  if (detLog1p(-u) <= diff - weight) {
    copyChain(sub.x, next.x, c, g); copyChain(sub.grad, next.grad, c, g);
    sub.lp[c] = next.lp[c]!; sub.energy[c] = energy;
  }
  sub.weight[c] = weight;
  if (!notDivergent) ws.notDivergence[c] = 0;
  else ws.subEnergyDiffSum[c] += detExp(Math.min(diff, 0));
  ws.active[c] = notDivergent && ws.noUturn[c] ? 1 : 0;
}

// ---- one subtree ----

/**
 * Builds the subtree of 2^depth leaves from `ws.from` for the chains in `continueTree`, in the
 * direction folded into `ws.signed`: leaf by leaf, a leapfrog step, the checkpoint or U-turn test,
 * and leaf sampling; chains stop (`ws.active` = 0) at a divergence or U-turn. Each leaf splits
 * `[leafAcceptSeed, next]` from `ws.leafKey`.
 */
function buildSubtree(t: Trajectory, depth: number, continueTree: Uint8Array): void {
  const { ws, g, metric } = t;
  const { from, sub, cum, cur, active, noUturn } = ws;
  const C = ws.C, nParts = cum.length, preconditioned = metric instanceof PreconditionedBatchMetric;
  active.set(continueTree);
  for (let k = 0; k < nParts; k++) { sub.x[k]!.set(from.x[k]!); sub.grad[k]!.set(from.grad[k]!); cum[k]!.fill(0); }
  sub.lp.set(from.lp);
  sub.weight.fill(-Infinity);
  for (let c = 0; c < C; c++) sub.energy[c] = from.lp[c]! - metric.chainKineticEnergy(from.p, c);
  ws.subLeapfrogs.fill(0);
  ws.subEnergyDiffSum.fill(0);
  cur.x = from.x; cur.grad = from.grad; cur.lp = from.lp;
  const nLeaves = 2 ** depth;
  for (let n = 0; n < nLeaves; n++) {
    let anyActive = false;
    for (let c = 0; c < C; c++) if (active[c]) { anyActive = true; break; }
    if (!anyActive) break;
    splitInto(t, ws.leafKey, ws.leafAcceptKey, ws.leafKey);   // [leafAcceptSeed, next] = split(leafSeed)
    (preconditioned ? leapfrogTfpInPlace : leapfrogInPlace)(t.target, cur, ws.signed, metric, t.s.unrolledLeapfrogSteps, g, active, ws.fresh.take);
    metric.velocity(cur.p, ws.vel);
    if (n % 2 === 0) writeCheckpoint(ws, checkpointMax(n));
    for (let k = 0; k < nParts; k++) { const a = cum[k]!, p = cur.p[k]!; for (let i = 0; i < a.length; i++) a[i] = a[i]! + p[i]!; }
    noUturn.fill(1);
    if (n % 2 === 1) {
      const idxMin = checkpointMin(n), idxMax = checkpointMax(n);
      for (let c = 0; c < C; c++) if (active[c] && isIterativeTurning(ws, g, c, idxMin, idxMax, preconditioned)) noUturn[c] = 0;
    }
    const u = uniforms(t, ws.leafAcceptKey);
    for (let c = 0; c < C; c++) if (active[c]) sampleLeaf(t, c, u[c]!);
  }
}

// ---- subtree merge (biased progressive sampling) and the trajectory's U-turn test ----

/**
 * Merges chain c's new subtree into its trajectory: the subtree's candidate replaces the
 * trajectory's with probability min(1, weight(subtree) / weight(trajectory)) (`u` uniform; never
 * when the subtree stopped early), the trajectory's end in this direction moves to the subtree's
 * end, and the chain continues unless the subtree stopped or the whole trajectory makes a U-turn.
 */
function mergeSubtree(t: Trajectory, c: number, u: number, continueTree: Uint8Array, leapfrogs: Int32Array, isAccepted: Uint8Array): void {
  const { ws, g, metric } = t;
  const { cand, sub, cur, active } = ws;
  ws.energyDiffSum[c] += ws.subEnergyDiffSum[c]!;
  leapfrogs[c] += ws.subLeapfrogs[c]!;
  const treeWeight = active[c] ? sub.weight[c]! : -Infinity;
  let thresh = treeWeight - cand.weight[c]!;
  if (Number.isNaN(thresh)) thresh = 0;
  const choose = active[c] === 1 && detLog1p(-u) <= thresh;
  if (choose) {
    copyChain(cand.x, sub.x, c, g); copyChain(cand.grad, sub.grad, c, g);
    cand.lp[c] = sub.lp[c]!; cand.energy[c] = sub.energy[c]!;
    isAccepted[c] = 1;
  }
  cand.weight[c] = logaddexpScalar(treeWeight, cand.weight[c]!);
  const end = ws.direction[c] ? ws.right : ws.left;
  copyChain(end.x, cur.x, c, g); copyChain(end.p, cur.p, c, g); copyChain(end.grad, cur.grad, c, g);
  end.lp[c] = cur.lp[c]!;
  for (let k = 0; k < ws.momentumSum.length; k++) {
    const e = g.eventSizes[k]!, ms = ws.momentumSum[k]!, ck = ws.cum[k]!;
    for (let i = c * e, stop = i + e; i < stop; i++) ms[i] = ms[i]! + ck[i]!;
  }
  continueTree[c] = active[c] && !metric.isTurning(ws.left.p, ws.right.p, ws.momentumSum, c) ? 1 : 0;
}

// ---- the trajectory ----

/** Starts the trajectory at `start`: both ends, the candidate and the momentum sum there. */
function beginTrajectory(t: Trajectory, start: PhasePoint): void {
  const { ws, metric } = t;
  const { initEnergy, left, right, cand, momentumSum } = ws;
  for (let c = 0; c < ws.C; c++) initEnergy[c] = start.lp[c]! - metric.chainKineticEnergy(start.p, c);
  for (const pt of [left, right]) {
    for (let k = 0; k < start.x.length; k++) { pt.x[k]!.set(start.x[k]!); pt.p[k]!.set(start.p[k]!); pt.grad[k]!.set(start.grad[k]!); }
    pt.lp.set(start.lp);
  }
  for (let k = 0; k < start.x.length; k++) { cand.x[k]!.set(start.x[k]!); cand.grad[k]!.set(start.grad[k]!); momentumSum[k]!.set(start.p[k]!); }
  cand.lp.set(start.lp);
  cand.energy.set(initEnergy);
  cand.weight.fill(0);
  ws.energyDiffSum.fill(0);
  ws.notDivergence.fill(1);
}

/**
 * Splits the doubling's seeds from the loop seed, draws each chain's direction, signs the step
 * sizes with it, and starts the subtree (`ws.from`) at the trajectory's end in that direction.
 */
function beginDoubling(t: Trajectory, eps: readonly Float64Array[]): void {
  const { ws, g, impl, modes } = t;
  const C = ws.C, direction = ws.direction;
  // [dirSeed, subtreeSeed, acceptSeed, nextSeed] = split(loopSeed, 4).
  splitInto(t, ws.loopKey, ws.dirKey, ws.leafKey, ws.acceptKey, ws.loopKey);
  // randint(dirSeed, [C], 0, 2) (int32): JAX's two-key form splits dirSeed in two and draws
  // 32 bits from each; with span 2 the first key's multiplier (2^16 mod 2)² mod 2 is 0, so the
  // result is the second key's bits mod 2.
  splitInto(t, ws.dirKey, null, ws.dirBitsKey);
  const dirBits = impl.bits(ws.dirBitsKey, 32, C, modes);
  for (let c = 0; c < C; c++) direction[c] = dirBits[c]! & 1;
  for (let k = 0; k < eps.length; k++) {
    const e = g.eventSizes[k]!, src = eps[k]!, dst = ws.signed[k]!;
    for (let c = 0, i = 0; c < C; c++) {
      const sign = direction[c] ? 1 : -1;
      for (const end = i + e; i < end; i++) dst[i] = sign * src[i]!;
    }
  }
  const from = ws.from;
  for (let c = 0; c < C; c++) {
    const end = direction[c] ? ws.right : ws.left;
    copyChain(from.x, end.x, c, g); copyChain(from.p, end.p, c, g); copyChain(from.grad, end.grad, c, g);
    from.lp[c] = end.lp[c]!;
  }
}

/** The results, in one fresh buffer: positions, gradients, log density, energy, log accept ratio. */
function outcome(t: Trajectory, leapfrogs: Int32Array, isAccepted: Uint8Array, continueTree: Uint8Array): NutsOutcome {
  const { ws } = t;
  const { cand, C } = ws;
  const S = ws.sizes.reduce((a, b) => a + b, 0);
  const outBuf = new Float64Array(2 * S + 3 * C);
  let off = 0;
  const take = (n: number): Float64Array => outBuf.subarray(off, (off += n));
  const x = cand.x.map((a) => { const o = take(a.length); o.set(a); return o; });
  const grad = cand.grad.map((a) => { const o = take(a.length); o.set(a); return o; });
  const lp = take(C), energy = take(C), logAcceptRatio = take(C);
  lp.set(cand.lp); energy.set(cand.energy);
  const hasDivergence = new Uint8Array(C);
  for (let c = 0; c < C; c++) {
    logAcceptRatio[c] = detLog(ws.energyDiffSum[c]! / leapfrogs[c]!);
    hasDivergence[c] = ws.notDivergence[c] ? 0 : 1;
    leapfrogs[c] = leapfrogs[c]! * t.s.unrolledLeapfrogSteps;
  }
  return { x, grad, lp, energy, logAcceptRatio, leapfrogs, isAccepted, reachMaxDepth: continueTree, hasDivergence };
}

/**
 * Runs one NUTS trajectory from `start` (momentum already drawn from `metric`) with the loop seed
 * `seed`. Each doubling splits `[dirSeed, subtreeSeed, acceptSeed, nextSeed]`; each leaf of a
 * subtree splits `[leafAcceptSeed, next]` from the subtree seed. `workspaces` keeps the buffers
 * between calls. A leaf at which the target failed (its log density reads −∞) is a divergence;
 * `rejections` notes the failures of the chains still active at it.
 */
export function nutsTrajectory(
  target: FlatFn, g: Geometry, start: PhasePoint, eps: readonly Float64Array[], metric: BatchMetric,
  seed: KeyArray, s: NutsSettings, modes: Modes, workspaces: NutsWorkspaces, rejections?: StepRejections,
): NutsOutcome {
  const C = g.numChains;
  const impl = seed.impl;
  const ws = workspaces.take(start.x.map((a) => a.length), C, impl.keyWords);
  // Failures count for the chains still building their trajectory (a finished chain is still
  // evaluated at its last point, which may be the failing one).
  const f = rejections === undefined ? target : rejections.track(target, ws.active);
  const t: Trajectory = { ws, target: f, g, metric, s, impl, dtype: g.dtypes[0]!, modes, rejections };
  beginTrajectory(t, start);
  const leapfrogs = new Int32Array(C);
  const isAccepted = new Uint8Array(C);
  const continueTree = new Uint8Array(C).fill(1);
  setWords(ws.loopKey, seed.data, 0);
  for (let depth = 0; depth < s.maxTreeDepth; depth++) {
    let any = false;
    for (let c = 0; c < C; c++) if (continueTree[c]) { any = true; break; }
    if (!any) break;
    beginDoubling(t, eps);
    buildSubtree(t, depth, continueTree);
    const u = uniforms(t, ws.acceptKey);
    // A chain that stopped before this doubling changes nothing.
    for (let c = 0; c < C; c++) if (continueTree[c]) mergeSubtree(t, c, u[c]!, continueTree, leapfrogs, isAccepted);
  }
  const out = outcome(t, leapfrogs, isAccepted, continueTree);
  workspaces.keep(ws);
  return out;
}
