/**
 * The metric of Hamiltonian dynamics (BlackJAX's `gaussian_euclidean`), in one place: how a
 * momentum is drawn, its velocity and its kinetic energy, for every gradient-based sampler.
 *
 * With inverse metric M⁻¹ (the estimated posterior covariance, diagonal `m` or dense `Σ = LLᵀ`):
 *
 * | | diagonal | dense |
 * |---|---|---|
 * | momentum p ~ N(0, M), from standard normals z | `z / √m` | `L⁻ᵀ z` |
 * | velocity M⁻¹p | `m·p` | `Σ p` |
 * | kinetic energy ½ pᵀM⁻¹p | `½ Σ p·(m·p)` | `½ Σ p·(Σp)` |
 * | leapfrog drift | `x + (ε·m)·p` | `x + ε·(Σp)` |
 *
 * Two shapes of the same thing:
 * - {@link Metric} (`DiagonalMetric`, `DenseMetric`): one chain's flat coordinates, for the
 *   per-chain engine (`nuts-chain.ts`). That engine keeps its leaf and leapfrog loops fused and
 *   specialised per metric kind (a call per element would cost); they compute exactly the
 *   expressions above.
 * - {@link BatchMetric}: a diagonal metric over a batch of chains' state parts (chains leading,
 *   `null` for an identity part), for TFP's tensor kernels (HMC, NUTS, MALA), built from their
 *   public `inverseMassDiag`.
 *
 * The arithmetic order is part of the definition (draws are pinned bit for bit): the drift
 * multiplies ε by m first, and TFP's NUTS sums its kinetic energy and U-turn dot products as the
 * inner product ⟨a, b⟩ = Σ (a·b)·m ({@link BatchMetric.innerProduct}), while HMC sums ½ Σ p·(m·p)
 * part by part ({@link BatchMetric.kineticEnergy}).
 */
import { fail } from '../../src/checks.js';
import { detLog } from '../../src/math/index.js';
import type { Modes } from '../../src/config.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { normalData } from '../../src/random/normal.js';
import { broadcastData } from '../../src/tensor/broadcast.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { InverseMassDiag } from './kernel-results.js';
import type { Geometry } from './geometry.js';
import { noUTurnTfp } from '../nuts/u-turn.js';

/** One chain's metric over `dim` flat coordinates (the per-chain engine's). */
export interface Metric {
  readonly kind: 'diagonal' | 'dense';
  readonly dim: number;
  /** Writes p ~ N(0, M) into `p`, from the standard normals `z`. */
  sampleMomentum(z: Float64Array, p: Float64Array): void;
  /** Writes the velocity M⁻¹p into `v`. */
  velocity(p: Float64Array, v: Float64Array): void;
  /** ½ pᵀM⁻¹p; leaves the velocity M⁻¹p in `v`. */
  kineticEnergy(p: Float64Array, v: Float64Array): number;
}

/**
 * A diagonal metric (Stan's `diag_e`): the inverse metric's diagonal `invMass` (the estimated
 * posterior variances), identity until it is written.
 * @example
 * const m = new DiagonalMetric(Float64Array.of(4, 0.25));
 * const p = new Float64Array(2), v = new Float64Array(2);
 * m.sampleMomentum(Float64Array.of(1, 1), p);   // p = [0.5, 2]
 * m.kineticEnergy(p, v);                          // 1: v = [2, 0.5]
 */
export class DiagonalMetric implements Metric {
  readonly kind = 'diagonal';
  readonly dim: number;
  /** The inverse metric's diagonal, written in place by adaptation. */
  readonly invMass: Float64Array;
  constructor(invMass: Float64Array) {
    this.invMass = invMass;
    this.dim = invMass.length;
  }
  sampleMomentum(z: Float64Array, p: Float64Array): void {
    const m = this.invMass;
    for (let i = 0; i < p.length; i++) p[i] = z[i]! / Math.sqrt(m[i]!);
  }
  velocity(p: Float64Array, v: Float64Array): void {
    const m = this.invMass;
    for (let i = 0; i < p.length; i++) v[i] = m[i]! * p[i]!;
  }
  kineticEnergy(p: Float64Array, v: Float64Array): number {
    const m = this.invMass;
    let s = 0;
    for (let i = 0; i < p.length; i++) { const vi = m[i]! * p[i]!; v[i] = vi; s += p[i]! * vi; }
    return 0.5 * s;
  }
}

/**
 * A dense metric (Stan's `dense_e`): the inverse metric Σ (the estimated posterior covariance)
 * and its Cholesky factor L (Σ = L Lᵀ), identity until {@link DenseMetric.set}. Velocity Σp;
 * momentum p = L⁻ᵀz from standard normals z, so p ~ N(0, Σ⁻¹). O(dim²) per velocity.
 * @example
 * const m = new DenseMetric(2);
 * m.set(Float64Array.of(2, 1, 1, 2), 'example');   // Σ = [[2, 1], [1, 2]]
 */
export class DenseMetric implements Metric {
  readonly kind = 'dense';
  /** Σ, row-major `dim × dim`. */
  readonly cov: Float64Array;
  private readonly chol: Float64Array;
  constructor(readonly dim: number) {
    this.cov = new Float64Array(dim * dim);
    this.chol = new Float64Array(dim * dim);
    for (let i = 0; i < dim; i++) { this.cov[i * dim + i] = 1; this.chol[i * dim + i] = 1; }
  }
  /**
   * Sets Σ (row-major, symmetric positive definite) and factors it.
   * @throws RangeError naming `fn` when Σ is not positive definite.
   */
  set(cov: Float64Array, fn: string): void {
    const n = this.dim, L = this.chol;
    this.cov.set(cov);
    L.fill(0);
    for (let j = 0; j < n; j++) {
      let d = cov[j * n + j]!;
      for (let k = 0; k < j; k++) d -= L[j * n + k]! * L[j * n + k]!;
      if (!(d > 0)) throw new RangeError(`${fn}: the adapted dense metric is not positive definite (the warm-up draws are degenerate); use metric: 'diagonal'`);
      const ljj = Math.sqrt(d);
      L[j * n + j] = ljj;
      for (let i = j + 1; i < n; i++) {
        let s = cov[i * n + j]!;
        for (let k = 0; k < j; k++) s -= L[i * n + k]! * L[j * n + k]!;
        L[i * n + j] = s / ljj;
      }
    }
  }
  /** p = L⁻ᵀ z (back substitution). */
  sampleMomentum(z: Float64Array, p: Float64Array): void {
    const n = this.dim, L = this.chol;
    for (let i = n - 1; i >= 0; i--) {
      let s = z[i]!;
      for (let j = i + 1; j < n; j++) s -= L[j * n + i]! * p[j]!;
      p[i] = s / L[i * n + i]!;
    }
  }
  /** v = Σ p. */
  velocity(p: Float64Array, v: Float64Array): void {
    const n = this.dim, c = this.cov;
    for (let i = 0; i < n; i++) { let s = 0; for (let j = 0; j < n; j++) s += c[i * n + j]! * p[j]!; v[i] = s; }
  }
  kineticEnergy(p: Float64Array, v: Float64Array): number {
    this.velocity(p, v);
    let s = 0;
    for (let i = 0; i < p.length; i++) s += p[i]! * v[i]!;
    return 0.5 * s;
  }
}

/**
 * A diagonal metric over a batch of chains' flat state parts (each part's chain dims leading, as
 * in `Geometry`): per part, one inverse mass per element, or `null` for the identity. What the
 * tensor kernels (HMC, NUTS, MALA) integrate, draw and measure with; {@link diagonalMetric} builds
 * it from their `inverseMassDiag`. Read-only once built (kernels cache it between steps).
 */
export class BatchMetric {
  constructor(readonly invMass: readonly (Float64Array | null)[], readonly g: Geometry) {}

  /** Standard-normal draws, one key per part (each of the part's shape and dtype), scaled to p = z / √m. */
  sampleMomentum(keys: readonly KeyArray[], modes: Modes): Float64Array[] {
    return this.g.partShapes.map((shape, k) => {
      const size = sizeOf(shape);
      const z = normalData(keys[k]!, size, this.g.dtypes[k]!, modes);
      const p = z instanceof Float64Array ? z : Float64Array.from(z);
      const m = this.invMass[k];
      if (m) for (let i = 0; i < size; i++) p[i] = p[i]! / Math.sqrt(m[i]!);
      return p;
    });
  }

  /** Kinetic energy per chain, ½ Σ p·(m·p) over each chain's elements, summed part by part (HMC's order). */
  kineticEnergy(p: readonly Float64Array[]): Float64Array {
    const g = this.g, out = new Float64Array(g.numChains);
    for (let k = 0; k < p.length; k++) {
      const pk = p[k]!, m = this.invMass[k], e = g.eventSizes[k]!;
      for (let c = 0, i = 0; c < g.numChains; c++) {
        let s = 0;
        const end = i + e;
        if (m) for (; i < end; i++) s += m[i]! * pk[i]! * pk[i]!;
        else for (; i < end; i++) s += pk[i]! * pk[i]!;
        out[c] += 0.5 * s;
      }
    }
    return out;
  }

  /** Writes the velocity m·p of every chain into `v` (per part). */
  velocity(p: readonly Float64Array[], v: readonly Float64Array[]): void {
    for (let k = 0; k < p.length; k++) {
      const pk = p[k]!, m = this.invMass[k], vk = v[k]!;
      if (m) for (let i = 0; i < pk.length; i++) vk[i] = m[i]! * pk[i]!;
      else vk.set(pk);
    }
  }

  /** Chain c's inner product under the inverse metric, ⟨a, b⟩ = Σ (a·b)·m over its elements of every part. */
  innerProduct(a: readonly Float64Array[], b: readonly Float64Array[], c: number): number {
    let s = 0;
    for (let k = 0; k < a.length; k++) {
      const e = this.g.eventSizes[k]!, ak = a[k]!, bk = b[k]!, mk = this.invMass[k];
      for (let i = c * e, end = i + e; i < end; i++) s += ak[i]! * bk[i]! * (mk ? mk[i]! : 1);
    }
    return s;
  }

  /** Chain c's kinetic energy ½⟨p, p⟩ (NUTS's order). */
  chainKineticEnergy(p: readonly Float64Array[], c: number): number {
    return 0.5 * this.innerProduct(p, p, c);
  }

  /**
   * The no-U-turn criterion across a trajectory for chain c (BlackJAX's `check_turning`): false
   * while the momentum sum `pSum` points along both ends' velocities (⟨pSum, p⟩ ≥ 0 at each end).
   */
  isTurning(pLeft: readonly Float64Array[], pRight: readonly Float64Array[], pSum: readonly Float64Array[], c: number): boolean {
    return !noUTurnTfp(this.innerProduct(pSum, pLeft, c), this.innerProduct(pSum, pRight, c));
  }
}

/**
 * The tensor kernels' metric from their `inverseMassDiag` option: each part's Tensor broadcast
 * (NumPy rules) to one positive finite value per element, `undefined` parts the identity.
 *
 * @throws TypeError/RangeError naming `inverseMassDiag` (and `fn`) for a bad value or shape.
 * @example
 * diagonalMetric('NoUTurnSampler', [tensor([1, 4])], g).invMass;   // [Float64Array [1, 4, 1, 4, …]] per chain
 */
export function diagonalMetric(fn: string, inverseMassDiag: InverseMassDiag, g: Geometry): BatchMetric {
  return new BatchMetric(expandInverseMass(fn, inverseMassDiag, g), g);
}

/** The identity metric over `g`'s parts (momenta are standard normals). */
export function identityMetric(g: Geometry): BatchMetric {
  return new BatchMetric(new Array<null>(g.partShapes.length).fill(null), g);
}

/**
 * Inverse mass diagonals expanded to one positive finite value per element of each part, or
 * `null` for an identity part.
 *
 * @throws TypeError/RangeError naming `inverseMassDiag` for a bad value or shape.
 */
export function expandInverseMass(fn: string, m: InverseMassDiag, g: Geometry): (Float64Array | null)[] {
  const n = g.partShapes.length;
  if (m === undefined) return new Array<null>(n).fill(null);
  if (m instanceof Tensor && n > 1) fail('range', fn, 'inverseMassDiag', `must be an array with one entry per state part (${n})`, m);
  const list = m instanceof Tensor ? [m] : m;
  if (!Array.isArray(list) || list.length !== n) fail('range', fn, 'inverseMassDiag', `must be an array with one entry per state part (${n})`, m);
  return list.map((t, k) => {
    if (t === undefined) return null;
    if (!(t instanceof Tensor)) fail('type', fn, `inverseMassDiag[${k}]`, 'must be a Tensor or undefined', t);
    const out = Float64Array.from(broadcastData(fn, `inverseMassDiag[${k}]`, t, g.partShapes[k]!) as ArrayLike<number>);
    for (let i = 0; i < out.length; i++) if (!(out[i]! > 0 && out[i]! < Infinity)) fail('range', fn, `inverseMassDiag[${k}]`, 'must be positive and finite', out[i]);
    return out;
  });
}

/** Checks an inverse mass diagonal option's kind (values and shapes are checked against the state later). */
export function checkInverseMassOption(fn: string, m: unknown): InverseMassDiag {
  if (m === undefined || m instanceof Tensor) return m;
  if (Array.isArray(m) && m.every((t) => t === undefined || t instanceof Tensor)) return m as InverseMassDiag;
  return fail('type', fn, 'inverseMassDiag', 'must be a Tensor, undefined, or an array of them (one per state part)', m);
}

/** ½·log(2π), as TFP's `Normal` writes it (`0.5 * np.log(2. * np.pi)`). */
const HALF_LOG_TWO_PI = 0.9189385332046727;

/**
 * TFP's preconditioning momentum distribution (`preconditioning_utils.make_momentum_distribution`:
 * per part a `MultivariateNormalPrecisionFactorLinearOperator` with precision factor s = √m,
 * m the inverse mass, i.e. the estimated variance) in the arithmetic of
 * `tfp.experimental.mcmc.PreconditionedNoUTurnSampler` on JAX, where the kinetic energy is the
 * distribution's negative log density and the velocity its gradient:
 *
 * - momentum p = z·(1/s) from standard normals z ({@link PreconditionedBatchMetric.sampleMomentumFrom});
 * - kinetic energy K(p) = −Σ_parts (Σ_i (−½·(s·p)² − ½log 2π) + Σ_i log s), the sums in element
 *   order per chain, parts added to 0 in order (normalising constants included: they cancel in
 *   energy differences but not in their rounding);
 * - velocity ∂K/∂p = s·(s·p) (autodiff's order, not m·p);
 * - U-turn inner products Σ_parts Σ_i (a·v), part by part.
 *
 * The identity parts (m absent) have s = 1 and log s = 0 exactly. Verified against TFP's own
 * functions on random variances: equal bits for K and the velocity (K needs log s, and so
 * inherits `detLog`'s rounding where XLA's log differs in the last bit).
 */
export class PreconditionedBatchMetric extends BatchMetric {
  /** √m per part (null: identity). */
  readonly sqrtInvMass: readonly (Float64Array | null)[];
  /** Σ_i log √m per part and chain (0 for identity parts). */
  private readonly logDet: readonly Float64Array[];

  constructor(invMass: readonly (Float64Array | null)[], g: Geometry) {
    super(invMass, g);
    this.sqrtInvMass = invMass.map((m) => (m ? m.map((v) => Math.sqrt(v)) : null));
    this.logDet = this.sqrtInvMass.map((s, k) => {
      const e = g.eventSizes[k]!, out = new Float64Array(g.numChains);
      if (s) for (let c = 0; c < g.numChains; c++) { let t = 0; for (let i = c * e, end = i + e; i < end; i++) t += detLog(s[i]!); out[c] = t; }
      return out;
    });
  }

  /**
   * Momenta from standard normals: `z[k]` holds part k's draws in TFP's layout, event-major
   * (`[eventSize, numChains]`: the batch-broadcast momentum distribution draws the chains last);
   * p[c, i] = z[i, c]·(1/s[c, i]).
   */
  sampleMomentumFrom(z: readonly (Float64Array | Float32Array)[]): Float64Array[] {
    const g = this.g, C = g.numChains;
    return z.map((zk, k) => {
      const e = g.eventSizes[k]!, s = this.sqrtInvMass[k], p = new Float64Array(C * e);
      for (let c = 0; c < C; c++) {
        for (let i = 0; i < e; i++) {
          const v = zk[i * C + c]!;
          p[c * e + i] = s ? v * (1 / s[c * e + i]!) : v;
        }
      }
      return p;
    });
  }

  override chainKineticEnergy(p: readonly Float64Array[], c: number): number {
    let total = 0;
    for (let k = 0; k < p.length; k++) {
      const e = this.g.eventSizes[k]!, pk = p[k]!, s = this.sqrtInvMass[k];
      let t = 0;
      for (let i = c * e, end = i + e; i < end; i++) {
        const y = s ? s[i]! * pk[i]! : pk[i]!;
        t += -0.5 * (y * y) - HALF_LOG_TWO_PI;
      }
      total += t + this.logDet[k]![c]!;
    }
    return -total;
  }

  override velocity(p: readonly Float64Array[], v: readonly Float64Array[]): void {
    for (let k = 0; k < p.length; k++) {
      const pk = p[k]!, s = this.sqrtInvMass[k], vk = v[k]!;
      if (s) for (let i = 0; i < pk.length; i++) vk[i] = s[i]! * (s[i]! * pk[i]!);
      else vk.set(pk);
    }
  }

  /** Chain c's Σ_parts Σ_i a·b (b a velocity), part by part, as TFP's `has_not_u_turn`. */
  dot(a: readonly Float64Array[], b: readonly Float64Array[], c: number): number {
    let total = 0;
    for (let k = 0; k < a.length; k++) {
      const e = this.g.eventSizes[k]!, ak = a[k]!, bk = b[k]!;
      let t = 0;
      for (let i = c * e, end = i + e; i < end; i++) t += ak[i]! * bk[i]!;
      total += t;
    }
    return total;
  }

  /** The velocity of chain c's momentum at element i of part k. */
  private velocityAt(pk: Float64Array, k: number, i: number): number {
    const s = this.sqrtInvMass[k];
    return s ? s[i]! * (s[i]! * pk[i]!) : pk[i]!;
  }

  override isTurning(pLeft: readonly Float64Array[], pRight: readonly Float64Array[], pSum: readonly Float64Array[], c: number): boolean {
    let left = 0, right = 0;
    for (let k = 0; k < pSum.length; k++) {
      const e = this.g.eventSizes[k]!, sk = pSum[k]!, lk = pLeft[k]!, rk = pRight[k]!;
      let tl = 0, tr = 0;
      for (let i = c * e, end = i + e; i < end; i++) {
        tl += sk[i]! * this.velocityAt(lk, k, i);
        tr += sk[i]! * this.velocityAt(rk, k, i);
      }
      left += tl; right += tr;
    }
    return !noUTurnTfp(left, right);
  }
}
