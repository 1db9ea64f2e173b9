/**
 * The passes over `dim` doubles of a NUTS transition (for `nuts-chain.ts`: the leapfrog's kicks
 * and drift, the kinetic energy, the no-U-turn joins, the momentum draw), in two implementations
 * with the same bits: WebAssembly SIMD (wasm/nuts-loops.wat) and the JavaScript below, which
 * defines the arithmetic (the wasm functions perform the same operations in the same order;
 * test/mcmc/nuts-loops.test.ts compares them). At D = 10 a JavaScript loop over six typed arrays
 * costs about five times the wasm one: every access is bounds-checked and nothing is vectorised.
 *
 * A chain keeps all its arrays in the numbered slots of its {@link ChainLoops}: with wasm they
 * are views on the chain's region of a memory shared with other chains (see `Arena`), sized once
 * (never grown, so no view is ever detached).
 */
import { decodeBase64, wasmActive } from '../../../src/prng/wasm.js';
import { NUTS_LOOPS_WASM_BASE64 } from './nuts-loops.wasm.js';
import { noUTurnStan } from '../u-turn.js';

/** The arrays of a chain are numbered slots (`array(k)`); the loops take slot numbers. */
export interface ChainLoops {
  /** Slot k's array of `dim` doubles (zeroed at first). */
  array(k: number): Float64Array;
  /**
   * The first half of a diagonal-metric leapfrog step: tp = p + half·g (the half kick), then
   * the drift tq = q + (eps·m)·tp.
   */
  kickDrift(q: number, p: number, g: number, tq: number, tp: number, m: number, eps: number, half: number): void;
  /**
   * The second half kick in place, p = p + half·g, its velocity m·p and the sum Σ p·(m·p) (twice
   * the kinetic energy, returned): p is also written to `pOut` and the velocity to `psOut`.
   */
  kickEnergy(p: number, g: number, m: number, pOut: number, psOut: number, half: number): number;
  /**
   * Joins two adjacent pieces of a trajectory, A then B (in integration order): writes
   * ρ = ρ_A + ρ_B and returns Stan's generalized no-U-turn criterion (p♯_beg·ρ > 0 and
   * p♯_end·ρ > 0, `mcmc/nuts/u-turn.ts`'s `noUTurnStan`) over the whole, and over A extended by
   * B's first point and B extended by A's last point — the seam checks that catch U-turns a
   * merge would otherwise hide.
   */
  join(rho: number, rhoA: number, rhoB: number, sharpBeg: number, sharpEnd: number,
    pAEnd: number, sharpAEnd: number, pBBeg: number, sharpBBeg: number): boolean;
  /**
   * {@link join} for two single leaves (p₁ then p₂, velocities v₁, v₂): the halves' sums are the
   * leaves' momenta, so both seam sums equal ρ = p₁ + p₂ and the six products are two, v₂·ρ and
   * v₁·ρ, with the same bits.
   */
  joinLeaves(rho: number, p1: number, p2: number, v1: number, v2: number): boolean;
  /**
   * A fresh momentum for the diagonal metric from standard normals z: p = z / √m, its velocity
   * v = m·p, and Σ p·v (twice the kinetic energy, returned), as `metric.ts`'s `DiagonalMetric`.
   */
  momentum(z: number, m: number, p: number, v: number): number;
  /** Copies p into p1 and p2 and v into v1. */
  spread(p: number, v: number, p1: number, p2: number, v1: number): void;
}

/** The JavaScript loops (the definition; also used without WebAssembly). */
class JsLoops implements ChainLoops {
  private readonly a: Float64Array[];
  constructor(count: number, dim: number) {
    this.a = Array.from({ length: count }, () => new Float64Array(dim));
  }
  array(k: number): Float64Array { return this.a[k]!; }
  kickDrift(qk: number, pk: number, gk: number, tqk: number, tpk: number, mk: number, eps: number, half: number): void {
    const a = this.a, q = a[qk]!, p = a[pk]!, g = a[gk]!, tq = a[tqk]!, tp = a[tpk]!, m = a[mk]!;
    for (let i = 0; i < q.length; i++) { const pi = p[i]! + half * g[i]!; tp[i] = pi; tq[i] = q[i]! + eps * m[i]! * pi; }
  }
  kickEnergy(pk: number, gk: number, mk: number, pOutk: number, psOutk: number, half: number): number {
    const a = this.a, p = a[pk]!, g = a[gk]!, m = a[mk]!, pOut = a[pOutk]!, psOut = a[psOutk]!;
    let kin = 0;
    for (let i = 0; i < p.length; i++) {
      const pi = p[i]! + half * g[i]!, ps = m[i]! * pi;
      p[i] = pi; kin += pi * ps; pOut[i] = pi; psOut[i] = ps;
    }
    return kin;
  }
  join(rhok: number, rhoAk: number, rhoBk: number, sharpBegk: number, sharpEndk: number,
    pAEndk: number, sharpAEndk: number, pBBegk: number, sharpBBegk: number): boolean {
    const x = this.a, rho = x[rhok]!, rhoA = x[rhoAk]!, rhoB = x[rhoBk]!, sharpBeg = x[sharpBegk]!, sharpEnd = x[sharpEndk]!;
    const pAEnd = x[pAEndk]!, sharpAEnd = x[sharpAEndk]!, pBBeg = x[pBBegk]!, sharpBBeg = x[sharpBBegk]!;
    let a = 0, b = 0, c1 = 0, c2 = 0, d1 = 0, d2 = 0;
    for (let i = 0; i < rho.length; i++) {
      const ra = rhoA[i]!, rb = rhoB[i]!, r = ra + rb;
      rho[i] = r;
      a += sharpEnd[i]! * r; b += sharpBeg[i]! * r;
      const e1 = ra + pBBeg[i]!; c1 += sharpBBeg[i]! * e1; c2 += sharpBeg[i]! * e1;
      const e2 = rb + pAEnd[i]!; d1 += sharpEnd[i]! * e2; d2 += sharpAEnd[i]! * e2;
    }
    return noUTurnStan(a, b) && noUTurnStan(c1, c2) && noUTurnStan(d1, d2);
  }
  joinLeaves(rhok: number, p1k: number, p2k: number, v1k: number, v2k: number): boolean {
    const x = this.a, rho = x[rhok]!, p1 = x[p1k]!, p2 = x[p2k]!, v1 = x[v1k]!, v2 = x[v2k]!;
    let a = 0, b = 0;
    for (let i = 0; i < rho.length; i++) {
      const r = p1[i]! + p2[i]!;
      rho[i] = r;
      a += v2[i]! * r; b += v1[i]! * r;
    }
    return noUTurnStan(b, a);
  }
  momentum(zk: number, mk: number, pk: number, vk: number): number {
    const a = this.a, z = a[zk]!, m = a[mk]!, p = a[pk]!, v = a[vk]!;
    let s = 0;
    for (let i = 0; i < p.length; i++) { const pi = z[i]! / Math.sqrt(m[i]!), vi = m[i]! * pi; p[i] = pi; v[i] = vi; s += pi * vi; }
    return s;
  }
  spread(pk: number, vk: number, p1k: number, p2k: number, v1k: number): void {
    const a = this.a, p = a[pk]!, v = a[vk]!, p1 = a[p1k]!, p2 = a[p2k]!, v1 = a[v1k]!;
    for (let i = 0; i < p.length; i++) { const pi = p[i]!; p1[i] = pi; p2[i] = pi; v1[i] = v[i]!; }
  }
}

interface LoopExports {
  kick_drift(q: number, p: number, g: number, tq: number, tp: number, m: number, eps: number, half: number, n: number): void;
  kick_energy(p: number, g: number, m: number, pOut: number, psOut: number, half: number, n: number, sum: number): void;
  join(rho: number, rhoA: number, rhoB: number, sBeg: number, sEnd: number, pAEnd: number, sAEnd: number, pBBeg: number, sBBeg: number, n: number): number;
  join_leaves(rho: number, p1: number, p2: number, v1: number, v2: number, n: number): number;
  momentum(z: number, m: number, p: number, v: number, n: number, sum: number): void;
  spread(p: number, v: number, p1: number, p2: number, v1: number, n: number): void;
}

/**
 * The wasm loops of one chain, over its region of an arena's memory: slot k is the `dim` doubles
 * at byte base + k·`slot` (`slot` a multiple of 16, so every array is 16-byte aligned), and a sum
 * comes back in the double after the last slot. Slot numbers become byte offsets here: reading a
 * typed array's `byteOffset` is a runtime call in V8 (~15 ns).
 */
class WasmLoops implements ChainLoops {
  private readonly a: Float64Array[];
  private readonly sum: Float64Array;
  private readonly ex: LoopExports;
  /** Where the sum comes back. */
  private readonly at: number;
  constructor(arena: Arena, private readonly base: number, count: number, private readonly dim: number, private readonly slot: number) {
    this.ex = arena.ex;
    this.at = base + count * slot;
    this.a = Array.from({ length: count }, (_, k) => new Float64Array(arena.buffer, base + k * slot, dim));
    this.sum = new Float64Array(arena.buffer, this.at, 1);
  }
  array(k: number): Float64Array { return this.a[k]!; }
  kickDrift(q: number, p: number, g: number, tq: number, tp: number, m: number, eps: number, half: number): void {
    const s = this.slot, b = this.base;
    this.ex.kick_drift(b + q * s, b + p * s, b + g * s, b + tq * s, b + tp * s, b + m * s, eps, half, this.dim);
  }
  kickEnergy(p: number, g: number, m: number, pOut: number, psOut: number, half: number): number {
    const s = this.slot, b = this.base;
    this.ex.kick_energy(b + p * s, b + g * s, b + m * s, b + pOut * s, b + psOut * s, half, this.dim, this.at);
    return this.sum[0]!;
  }
  join(rho: number, rhoA: number, rhoB: number, sharpBeg: number, sharpEnd: number,
    pAEnd: number, sharpAEnd: number, pBBeg: number, sharpBBeg: number): boolean {
    const s = this.slot, b = this.base;
    return this.ex.join(b + rho * s, b + rhoA * s, b + rhoB * s, b + sharpBeg * s, b + sharpEnd * s, b + pAEnd * s,
      b + sharpAEnd * s, b + pBBeg * s, b + sharpBBeg * s, this.dim) !== 0;
  }
  joinLeaves(rho: number, p1: number, p2: number, v1: number, v2: number): boolean {
    const s = this.slot, b = this.base;
    return this.ex.join_leaves(b + rho * s, b + p1 * s, b + p2 * s, b + v1 * s, b + v2 * s, this.dim) !== 0;
  }
  momentum(z: number, m: number, p: number, v: number): number {
    const s = this.slot, b = this.base;
    this.ex.momentum(b + z * s, b + m * s, b + p * s, b + v * s, this.dim, this.at);
    return this.sum[0]!;
  }
  spread(p: number, v: number, p1: number, p2: number, v1: number): void {
    const s = this.slot, b = this.base;
    this.ex.spread(b + p * s, b + v * s, b + p1 * s, b + p2 * s, b + v1 * s, this.dim);
  }
}

/**
 * One instance of the loops module over one memory, shared by the chains placed in it. Sharing
 * matters: V8 calls a wasm function fast only from a call site that has seen that one function
 * object, and every instance has its own, so chains with an instance each (four per
 * `windowedAdaptiveNuts` call, new ones at every call) would send every call through V8's
 * generic JS-to-wasm wrapper. `free` lists the free byte ranges as [start, end) pairs in order.
 */
interface Arena {
  readonly ex: LoopExports;
  readonly buffer: ArrayBuffer;
  readonly free: number[];
  /** Regions in use. */
  live: number;
}

/** The arenas, newest last; a new one (twice the last, at least 1 MiB) when no free range fits. Memories are never grown: that would detach every view. */
const arenas: Arena[] = [];
const MIN_ARENA = 1 << 20;

/** The compiled loops module: undefined until first asked for, null where it cannot be compiled synchronously. */
let compiled: WebAssembly.Module | null | undefined;

function loopsModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try { compiled = new WebAssembly.Module(decodeBase64(NUTS_LOOPS_WASM_BASE64)); } catch { compiled = null; }
  }
  return compiled;
}

/** First fit: the start of `bytes` taken from the arena's free ranges, or −1. */
function take(a: Arena, bytes: number): number {
  const f = a.free;
  for (let i = 0; i < f.length; i += 2) {
    if (f[i + 1]! - f[i]! < bytes) continue;
    const at = f[i]!;
    if (f[i + 1]! - at === bytes) f.splice(i, 2); else f[i] = at + bytes;
    a.live++;
    return at;
  }
  return -1;
}

/** Returns [at, at + bytes) to the arena's free ranges (merged with its neighbours); an empty arena that is not the newest is dropped. */
function give(a: Arena, at: number, bytes: number): void {
  const f = a.free;
  let i = 0;
  while (i < f.length && f[i]! < at) i += 2;
  f.splice(i, 0, at, at + bytes);
  if (i + 2 < f.length && f[i + 1] === f[i + 2]) f.splice(i + 1, 2);
  if (i > 0 && f[i - 1] === f[i]) f.splice(i - 1, 2);
  if (--a.live === 0 && a !== arenas[arenas.length - 1]) arenas.splice(arenas.indexOf(a), 1);
}

/**
 * A region is given back when its chain's loops and every view on it are garbage: a view the
 * chain handed out (its position, say) must never see the region reused while it is reachable.
 */
const holders = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry<{ arena: Arena; at: number; bytes: number; refs: number }>((r) => { if (--r.refs === 0) give(r.arena, r.at, r.bytes); })
  : null;

/** A zeroed region of `bytes` (a multiple of 16) in an arena, making a new arena when none has room; null when no memory can be had. */
function place(bytes: number): [Arena, number] | null {
  for (let i = arenas.length - 1; i >= 0; i--) {
    const a = arenas[i]!, at = take(a, bytes);
    if (at >= 0) { new Uint8Array(a.buffer, at, bytes).fill(0); return [a, at]; }
  }
  const mod = loopsModule();
  if (mod === null) return null;
  const last = arenas[arenas.length - 1];
  const size = Math.ceil(Math.max(bytes, last === undefined ? MIN_ARENA : 2 * last.buffer.byteLength) / 65536) * 65536;
  if (size > 2 ** 31) return null;
  try {
    const memory = new WebAssembly.Memory({ initial: size / 65536 });
    const ex = new WebAssembly.Instance(mod, { env: { memory } }).exports as unknown as LoopExports;
    const a: Arena = { ex, buffer: memory.buffer, free: [0, size], live: 0 };
    arenas.push(a);
    return [a, take(a, bytes)];
  } catch {
    return null;                                 // no memory of that size here
  }
}

/**
 * The loops for a chain of `count` arrays of `dim` doubles: wasm, over a region of a shared
 * memory, when the WebAssembly kernels are active (`setWasmEnabled`), else JavaScript. Both give
 * the same bits.
 */
export function chainLoops(count: number, dim: number, useWasm = wasmActive()): ChainLoops {
  const slot = 8 * (dim + (dim & 1)), bytes = count * slot + 16;
  const placed = useWasm ? place(bytes) : null;
  if (placed === null) return new JsLoops(count, dim);
  const [arena, at] = placed;
  const loops = new WasmLoops(arena, at, count, dim, slot);
  if (holders !== null) {
    const token = { arena, at, bytes, refs: count + 1 };
    holders.register(loops, token);
    for (let k = 0; k < count; k++) holders.register(loops.array(k), token);
  }
  return loops;
}
