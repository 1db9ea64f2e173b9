/**
 * The loops of a NUTS leaf and merge over `dim` doubles (for `nuts-chain.ts`), in two
 * implementations with the same bits: WebAssembly SIMD (wasm/nuts-loops.wat) over the chain's own
 * memory, and the JavaScript below, which defines the arithmetic (the wasm functions perform the
 * same operations in the same order; test/mcmc/nuts-loops.test.ts compares them). At D = 10 a
 * JavaScript loop over six typed arrays costs about five times the wasm one: every access is
 * bounds-checked and nothing is vectorised.
 *
 * A chain keeps all its arrays in the numbered slots of its {@link ChainLoops}: with wasm they
 * are views on one memory made for the chain, sized once (never grown, so no view is ever
 * detached).
 */
import { decodeBase64, wasmActive } from '../../src/prng/wasm.js';
import { NUTS_LOOPS_WASM_BASE64 } from './nuts-loops.wasm.js';

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
   * p♯_end·ρ > 0) over the whole, and over A extended by B's first point and B extended by A's
   * last point — the seam checks that catch U-turns a merge would otherwise hide.
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
    return a > 0 && b > 0 && c1 > 0 && c2 > 0 && d1 > 0 && d2 > 0;
  }
  joinLeaves(rhok: number, p1k: number, p2k: number, v1k: number, v2k: number): boolean {
    const x = this.a, rho = x[rhok]!, p1 = x[p1k]!, p2 = x[p2k]!, v1 = x[v1k]!, v2 = x[v2k]!;
    let a = 0, b = 0;
    for (let i = 0; i < rho.length; i++) {
      const r = p1[i]! + p2[i]!;
      rho[i] = r;
      a += v2[i]! * r; b += v1[i]! * r;
    }
    return a > 0 && b > 0;
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
 * The wasm loops over one chain's memory: slot k is the `dim` doubles at byte k·`slot` (slot a
 * multiple of 16, so every array is 16-byte aligned), and a sum comes back in the double after
 * the last slot. Slot numbers become byte offsets here: reading a typed array's `byteOffset` is a
 * runtime call in V8 (~15 ns).
 */
class WasmLoops implements ChainLoops {
  private readonly a: Float64Array[];
  private readonly sum: Float64Array;
  constructor(private readonly ex: LoopExports, buffer: ArrayBuffer, private readonly count: number, private readonly dim: number, private readonly slot: number) {
    this.a = Array.from({ length: count }, (_, k) => new Float64Array(buffer, k * slot, dim));
    this.sum = new Float64Array(buffer, count * slot, 1);
  }
  array(k: number): Float64Array { return this.a[k]!; }
  kickDrift(q: number, p: number, g: number, tq: number, tp: number, m: number, eps: number, half: number): void {
    const s = this.slot;
    this.ex.kick_drift(q * s, p * s, g * s, tq * s, tp * s, m * s, eps, half, this.dim);
  }
  kickEnergy(p: number, g: number, m: number, pOut: number, psOut: number, half: number): number {
    const s = this.slot;
    this.ex.kick_energy(p * s, g * s, m * s, pOut * s, psOut * s, half, this.dim, this.count * s);
    return this.sum[0]!;
  }
  join(rho: number, rhoA: number, rhoB: number, sharpBeg: number, sharpEnd: number,
    pAEnd: number, sharpAEnd: number, pBBeg: number, sharpBBeg: number): boolean {
    const s = this.slot;
    return this.ex.join(rho * s, rhoA * s, rhoB * s, sharpBeg * s, sharpEnd * s, pAEnd * s, sharpAEnd * s, pBBeg * s, sharpBBeg * s, this.dim) !== 0;
  }
  joinLeaves(rho: number, p1: number, p2: number, v1: number, v2: number): boolean {
    const s = this.slot;
    return this.ex.join_leaves(rho * s, p1 * s, p2 * s, v1 * s, v2 * s, this.dim) !== 0;
  }
  momentum(z: number, m: number, p: number, v: number): number {
    const s = this.slot;
    this.ex.momentum(z * s, m * s, p * s, v * s, this.dim, this.count * s);
    return this.sum[0]!;
  }
  spread(p: number, v: number, p1: number, p2: number, v1: number): void {
    const s = this.slot;
    this.ex.spread(p * s, v * s, p1 * s, p2 * s, v1 * s, this.dim);
  }
}

/** The compiled loops module: undefined until first asked for, null where it cannot be compiled synchronously. */
let compiled: WebAssembly.Module | null | undefined;

function loopsModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try { compiled = new WebAssembly.Module(decodeBase64(NUTS_LOOPS_WASM_BASE64)); } catch { compiled = null; }
  }
  return compiled;
}

/**
 * The loops for a chain of `count` arrays of `dim` doubles: wasm over a memory of their own when
 * the WebAssembly kernels are active (`setWasmEnabled`), else JavaScript. Both give the same bits.
 */
export function chainLoops(count: number, dim: number, useWasm = wasmActive()): ChainLoops {
  const slot = 8 * (dim + (dim & 1));
  const pages = Math.ceil((count * slot + 8) / 65536);
  if (useWasm && pages <= 32768) {
    const mod = loopsModule();
    if (mod !== null) {
      try {
        const memory = new WebAssembly.Memory({ initial: Math.max(pages, 1) });
        const ex = new WebAssembly.Instance(mod, { env: { memory } }).exports as unknown as LoopExports;
        return new WasmLoops(ex, memory.buffer, count, dim, slot);
      } catch { /* no memory of that size here: the JavaScript loops */ }
    }
  }
  return new JsLoops(count, dim);
}
