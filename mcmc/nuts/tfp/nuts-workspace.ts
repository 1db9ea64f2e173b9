/**
 * The buffers of a tensor NUTS trajectory (`nuts-tree.ts`): one {@link Workspace} per shape (part
 * sizes, chains, key words), allocated in one arena, and {@link NutsWorkspaces}, the spare a
 * kernel keeps between its trajectories (no module-level state, so kernels never share buffers).
 */
import { FreshArrays, type MutablePhasePoint, type PhasePoint } from '../../internal/leapfrog.js';

/** A mutable per-chain copy of positions, gradients, log density and energy. */
export interface Candidate { x: Float64Array[]; grad: Float64Array[]; lp: Float64Array; energy: Float64Array; weight: Float64Array }

/** Every buffer of a trajectory, for one shape (part sizes, chains, key words). */
export interface Workspace {
  readonly sizes: readonly number[];
  readonly C: number;
  readonly kw: number;
  /** Doubles in the arena (decides whether the workspace is kept). */
  readonly arenaSize: number;
  readonly initEnergy: Float64Array;
  readonly energyDiffSum: Float64Array;
  readonly left: MutablePhasePoint;
  readonly right: MutablePhasePoint;
  readonly cand: Candidate;
  readonly momentumSum: Float64Array[];
  readonly signed: Float64Array[];
  /** The subtree's starting point (arena views; the leaves replace `cur`'s arrays, not these). */
  readonly from: PhasePoint;
  /** The subtree's moving end: momenta in place (`from.p`), the rest replaced leaf by leaf. */
  readonly cur: MutablePhasePoint;
  readonly sub: Candidate;
  readonly cum: Float64Array[];
  /** The velocity at the current leaf. */
  readonly vel: Float64Array[];
  readonly subEnergyDiffSum: Float64Array;
  readonly subLeapfrogs: Int32Array;
  readonly active: Uint8Array;
  readonly notDivergence: Uint8Array;
  readonly noUturn: Uint8Array;
  readonly direction: Uint8Array;
  readonly u64: Float64Array;
  readonly u32: Float32Array;
  /** Key words: the loop seed, the doubling's direction, subtree (then leaf) and accept seeds, a leaf's accept seed, the direction's second split. */
  readonly loopKey: Uint32Array;
  readonly dirKey: Uint32Array;
  readonly leafKey: Uint32Array;
  readonly acceptKey: Uint32Array;
  readonly leafAcceptKey: Uint32Array;
  readonly dirBitsKey: Uint32Array;
  /** Per sub-subtree slot: the velocity at its first leaf and the momentum sum before it. */
  readonly ckptVel: Float64Array[][];
  readonly ckptCum: Float64Array[][];
  readonly fresh: FreshArrays;
}

function makeWorkspace(sizes: readonly number[], C: number, kw: number): Workspace {
  const S = sizes.reduce((a, b) => a + b, 0);
  // initEnergy, energyDiffSum, subEnergyDiffSum (3C); left, right, from (3·(3S + C)); cand, sub
  // (2·(2S + 3C)); momentumSum, signed, cum, vel (4S).
  const arenaSize = 17 * S + 12 * C;
  const arena = new Float64Array(arenaSize);
  let off = 0;
  const take = (n: number): Float64Array => arena.subarray(off, (off += n));
  const parts = (): Float64Array[] => sizes.map(take);
  const point = (): MutablePhasePoint => ({ x: parts(), p: parts(), grad: parts(), lp: take(C) });
  const candidate = (): Candidate => ({ x: parts(), grad: parts(), lp: take(C), energy: take(C), weight: take(C) });
  const initEnergy = take(C), energyDiffSum = take(C), subEnergyDiffSum = take(C);
  const left = point(), right = point(), from = point();
  const ws: Workspace = {
    sizes: [...sizes], C, kw, arenaSize,
    initEnergy, energyDiffSum, subEnergyDiffSum, left, right, from,
    cur: { x: from.x, p: from.p, grad: from.grad, lp: from.lp },
    cand: candidate(), sub: candidate(),
    momentumSum: parts(), signed: parts(), cum: parts(), vel: parts(),
    subLeapfrogs: new Int32Array(C), active: new Uint8Array(C), notDivergence: new Uint8Array(C),
    noUturn: new Uint8Array(C), direction: new Uint8Array(C), u64: new Float64Array(C), u32: new Float32Array(C),
    loopKey: new Uint32Array(kw), dirKey: new Uint32Array(kw), leafKey: new Uint32Array(kw), acceptKey: new Uint32Array(kw),
    leafAcceptKey: new Uint32Array(kw), dirBitsKey: new Uint32Array(kw),
    ckptVel: [], ckptCum: [], fresh: new FreshArrays(),
  };
  if (off !== arena.length) throw new Error('nutsTrajectory: internal buffer layout is wrong');
  return ws;
}

/** Workspaces with arenas of at most this many doubles are kept for the next trajectory. */
const SPARE_MAX = 1 << 16;

/**
 * The workspace a NUTS kernel keeps between trajectories: one spare, taken for the length of a
 * trajectory (so a target that itself runs NUTS with the same kernel gets a fresh one) and kept
 * for the next trajectory of the same shape when it is small (large ones are cheap to allocate
 * next to their trajectory, and would pin memory).
 */
export class NutsWorkspaces {
  private spare: Workspace | null = null;

  /** A workspace for part sizes `sizes`, `C` chains and `kw` key words, reused when the spare fits. */
  take(sizes: readonly number[], C: number, kw: number): Workspace {
    const ws = this.spare;
    this.spare = null;
    if (ws !== null && ws.C === C && ws.kw === kw && ws.sizes.length === sizes.length && ws.sizes.every((v, k) => v === sizes[k])) return ws;
    return makeWorkspace(sizes, C, kw);
  }

  /** Returns a workspace after its trajectory. */
  keep(ws: Workspace): void {
    if (ws.arenaSize <= SPARE_MAX) this.spare = ws;
  }
}
