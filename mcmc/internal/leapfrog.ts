/**
 * The leapfrog (velocity Verlet) integrator over flat Float64Array state parts, as TFP's
 * `SimpleLeapfrogIntegrator`: for each step, a half kick `p += ½ε·∇log p(x)`, a drift
 * `x += (ε·m)·p` (the metric's drift, `metric.ts`), a new gradient, and another half kick. Step
 * sizes are per element (per part, broadcast; NUTS folds a per-chain direction into their sign);
 * the metric is diagonal, per element or identity. The only allocation per step is the new
 * position arrays, which the target receives (wrapped as tensors unless it is compiled), and
 * whatever the target itself allocates.
 */
import { newArray } from './target.js';
import type { BatchMetric } from './metric.js';
import type { Geometry } from './geometry.js';
import type { FlatFn } from './target.js';

/** A point in phase space: positions, momenta, and the target's log density and gradient at the positions. */
export interface PhasePoint {
  readonly x: Float64Array[];
  readonly p: Float64Array[];
  readonly grad: Float64Array[];
  readonly lp: Float64Array;
}

/** A phase point whose fields `leapfrogInPlace` updates: momenta in place, the rest replaced. */
export interface MutablePhasePoint {
  x: Float64Array[];
  p: Float64Array[];
  grad: Float64Array[];
  lp: Float64Array;
}

/**
 * `numSteps` leapfrog steps from `start` (which is not modified). With `active` (one flag per
 * chain), inactive chains keep their positions and momenta; the target is still evaluated on
 * the whole batch, as their log densities are per chain.
 *
 * A non-finite gradient or log density is carried along (positions and momenta become NaN);
 * the caller treats it as a divergence.
 *
 * @param eps per part, one step size per element (negative to integrate backwards).
 * @param metric the diagonal metric (per part, one inverse mass per element, or the identity).
 * @param alloc makes the fresh arrays of each step (as in `leapfrogInPlace`).
 * @example
 * const end = leapfrog(target, { x, p, grad, lp }, eps, identityMetric(geometry), 10, geometry);
 */
export function leapfrog(
  target: FlatFn, start: PhasePoint, eps: readonly Float64Array[], metric: BatchMetric,
  numSteps: number, g: Geometry, active?: Uint8Array, alloc: (n: number) => Float64Array = newArray,
): PhasePoint {
  const pt: MutablePhasePoint = { x: start.x, p: start.p.map((a) => new Float64Array(a)), grad: start.grad, lp: start.lp };
  leapfrogInPlace(target, pt, eps, metric, numSteps, g, active, alloc);
  return pt;
}

const CHUNK = 4096;

/**
 * Fresh arrays for the leapfrog steps: views carved once each from shared chunks (never handed
 * out twice, so an array the target has seen is never written again). Arrays of more than 64
 * bytes are slow to allocate one by one; small ones (8 doubles or fewer) are cheaper to allocate
 * than a view, and large ones get their own buffer.
 */
export class FreshArrays {
  private chunk = new Float64Array(0);
  private off = 0;
  /** A Float64Array of n doubles that no one else holds (its contents are arbitrary). */
  readonly take = (n: number): Float64Array => {
    if (n <= 8 || n > CHUNK >> 3) return new Float64Array(n);
    if (this.off + n > this.chunk.length) { this.chunk = new Float64Array(CHUNK); this.off = 0; }
    return this.chunk.subarray(this.off, (this.off += n));
  };
}

/**
 * Copies of `arrays`, in order, as views into one fresh buffer: what a kernel returns from arrays
 * carved out of shared chunks (one allocation, and the results keep no chunk alive).
 */
export function inOneBuffer(arrays: readonly Float64Array[]): Float64Array[] {
  let n = 0;
  for (const a of arrays) n += a.length;
  const buf = new Float64Array(n), out = new Array<Float64Array>(arrays.length);
  for (let i = 0, off = 0; i < arrays.length; i++) {
    const a = arrays[i]!, o = buf.subarray(off, (off += a.length));
    o.set(a);
    out[i] = o;
  }
  return out;
}

/**
 * `leapfrog` that updates `pt` itself: its momentum arrays in place, and `x`, `grad` and `lp`
 * replaced by the new arrays (fresh position arrays each step, never written after the target
 * has seen them). For the NUTS leaves, where a copy per step would cost more than the step.
 * `alloc(n)` makes each new position array (zeroed or not: every element is written), and a
 * compiled target's log density and gradient arrays; NUTS passes views carved once each from
 * shared chunks, as arrays of more than 64 bytes are slow to allocate.
 */
export function leapfrogInPlace(
  target: FlatFn, pt: MutablePhasePoint, eps: readonly Float64Array[], metric: BatchMetric,
  numSteps: number, g: Geometry, active?: Uint8Array, alloc: (n: number) => Float64Array = newArray,
): void {
  const n = pt.x.length, invMass = metric.invMass;
  const p = pt.p;
  let x = pt.x, grad = pt.grad;
  for (let s = 0; s < numSteps; s++) {
    const xn = new Array<Float64Array>(n);
    for (let k = 0; k < n; k++) {
      const pk = p[k]!, gk = grad[k]!, ek = eps[k]!, xk = x[k]!, m = invMass[k];
      const out = alloc(xk.length);
      // Kick and the metric's drift x + (ε·m)·p, fused in one pass (m = 1 for an identity part).
      if (active === undefined) {
        if (m) for (let i = 0; i < xk.length; i++) { const pi = pk[i]! + 0.5 * ek[i]! * gk[i]!; pk[i] = pi; out[i] = xk[i]! + ek[i]! * m[i]! * pi; }
        else for (let i = 0; i < xk.length; i++) { const pi = pk[i]! + 0.5 * ek[i]! * gk[i]!; pk[i] = pi; out[i] = xk[i]! + ek[i]! * pi; }
      } else {
        const e = g.eventSizes[k]!;
        for (let c = 0, i = 0; c < g.numChains; c++) {
          const end = i + e;
          if (active[c] === 0) { for (; i < end; i++) out[i] = xk[i]!; continue; }
          for (; i < end; i++) { const pi = pk[i]! + 0.5 * ek[i]! * gk[i]!; pk[i] = pi; out[i] = xk[i]! + ek[i]! * (m ? m[i]! : 1) * pi; }
        }
      }
      xn[k] = out;
    }
    const r = target(xn, alloc);
    x = xn; grad = r.grad; pt.lp = r.lp;
    for (let k = 0; k < n; k++) {
      const pk = p[k]!, gk = grad[k]!, ek = eps[k]!;
      if (active === undefined) {
        for (let i = 0; i < pk.length; i++) pk[i] = pk[i]! + 0.5 * ek[i]! * gk[i]!;
      } else {
        const e = g.eventSizes[k]!;
        for (let c = 0, i = 0; c < g.numChains; c++) {
          const end = i + e;
          if (active[c] === 0) { i = end; continue; }
          for (; i < end; i++) pk[i] = pk[i]! + 0.5 * ek[i]! * gk[i]!;
        }
      }
    }
  }
  pt.x = x; pt.grad = grad;
}

/**
 * `leapfrogInPlace` in the arithmetic of TFP's `SimpleLeapfrogIntegrator` with a kinetic energy
 * function (as `PreconditionedNoUTurnSampler` calls it): a half kick `p + (½ε)·∇`, then per step
 * the drift `x + ε·v(p)` with the metric's velocity v, a new gradient and a full kick `p + ε·∇`,
 * and at the end the half kick taken back, `p − (½ε)·∇`. The same integrator as
 * `leapfrogInPlace` (which kicks twice by ½ε and drifts by `(ε·m)·p`) up to rounding.
 * Inactive chains (`active[c] = 0`) keep their positions and momenta.
 */
export function leapfrogTfpInPlace(
  target: FlatFn, pt: MutablePhasePoint, eps: readonly Float64Array[], metric: BatchMetric,
  numSteps: number, g: Geometry, active?: Uint8Array, alloc: (n: number) => Float64Array = newArray,
): void {
  const n = pt.x.length, p = pt.p;
  const on = (k: number, i: number): boolean => active === undefined || active[Math.floor(i / g.eventSizes[k]!)] !== 0;
  const kick = (grad: readonly Float64Array[], scale: number): void => {
    for (let k = 0; k < n; k++) {
      const pk = p[k]!, gk = grad[k]!, ek = eps[k]!;
      for (let i = 0; i < pk.length; i++) if (on(k, i)) pk[i] = scale === -0.5 ? pk[i]! - (0.5 * ek[i]!) * gk[i]! : pk[i]! + (scale * ek[i]!) * gk[i]!;
    }
  };
  let x = pt.x, grad = pt.grad;
  const v = p.map((a) => new Float64Array(a.length));
  kick(grad, 0.5);
  for (let s = 0; s < numSteps; s++) {
    metric.velocity(p, v);
    const xn = new Array<Float64Array>(n);
    for (let k = 0; k < n; k++) {
      const xk = x[k]!, vk = v[k]!, ek = eps[k]!, out = alloc(xk.length);
      for (let i = 0; i < xk.length; i++) out[i] = on(k, i) ? xk[i]! + ek[i]! * vk[i]! : xk[i]!;
      xn[k] = out;
    }
    const r = target(xn, alloc);
    x = xn; grad = r.grad; pt.lp = r.lp;
    kick(grad, 1);
  }
  kick(grad, -0.5);
  pt.x = x; pt.grad = grad;
}
