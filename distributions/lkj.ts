import { checkBoolean, checkNonNegativeInteger, fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { broadcastData } from '../src/tensor/broadcast.js';
import { floatKind, floatStorage, isTracked, numbers, result, tracing, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { kernelFactory, type Flat, type Lowering } from '../src/tensor/lowering.js';
import { eye, zerosLike } from '../src/tensor/ops/create.js';
import { add, clip, div, log, mul, stopGradient, sub } from '../src/tensor/ops/elementwise.js';
import { cholesky, logDet } from '../src/tensor/ops/linalg.js';
import { matmul } from '../src/tensor/ops/matmul.js';
import { sum } from '../src/tensor/ops/reduce.js';
import { broadcastTo, reshape, transpose } from '../src/tensor/ops/shape.js';
import { digamma as digammaScalar, lgamma as lgammaScalar } from '../src/tensor/special/gamma.js';
import { Tensor } from '../src/tensor/tensor.js';
import { Bijector } from './bijectors/bijector.js';
import { Chain } from './bijectors/chain.js';
import { CorrelationCholesky } from './bijectors/correlation-cholesky.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { positive, type Constraint } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { sampleLkj } from './internal/lkj-onion.js';
import { detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';
import { sizeOf } from '../src/tensor/shapes.js';

export interface LKJOptions extends DistributionOptions {
  /** D, the size of the correlation matrices (a non-negative integer; D ≤ 1 gives the 1×1 or empty matrix). */
  readonly dimension: number;
  /** η > 0; the density is proportional to det(X)^(η−1) (η = 1: uniform over correlation matrices). */
  readonly concentration: TensorLike;
  /** Sample and evaluate Cholesky factors L of the correlation matrices instead (default false). */
  readonly inputOutputCholesky?: boolean;
}

const LOG_PI = detLog(Math.PI);
const TOL = 1e-6;

/**
 * The LKJ distribution on D×D correlation matrices (TFP's `tfd.LKJ`, Lewandowski, Kurowicka &
 * Joe 2009): density det(X)^(η−1) / Z(η) on symmetric positive-definite X with unit diagonal,
 * log Z = Σₖ₌₁^(D−1) [lnΓ(η + (D−1−k)/2) − lnΓ(η + (D−1)/2)] + ¼·D(D−1)·log π (TFP's
 * normalizer, the differences computed without cancellation for large η). Batch shape:
 * `concentration`'s shape; event shape [D, D].
 *
 * Sampling is TFP's vectorised onion method with its seeds (`internal/lkj-onion.ts`): salt
 * `'sample_lkj'` splits the seed in two, one for the Beta draws (salt `'beta'`, two log-space
 * gammas) and one for the row directions (Rademacher sign, an angle, then normals).
 * Not reparameterized (as TFP).
 *
 * `logProb` = (η − 1)·log|det X| − log Z(η), differentiable in X (∂ = (η − 1)·X⁻ᵀ, via an LU
 * factorization, TFP's `slogdet`) and η; −∞ where X is not positive definite. With `inputOutputCholesky` the
 * value is a factor L and log det X = 2 Σ log Lᵢᵢ (−∞ unless diag L > 0) — TFP's warning
 * applies: that is not the density of L. Deviations from TFP: `validateArgs` requires η > 0 (TFP
 * requires η ≥ 1, although the sampler and density are valid for η > 0) and also checks Cholesky
 * inputs (lower-triangular, positive diagonal, unit rows); `variance()` is added (off-diagonal
 * entries have variance 1/(2η + D − 1), the diagonal 0).
 * `defaultEventSpaceBijector()` is TFP's Chain([clip to [−1, 1], CholeskyOuterProduct,
 * CorrelationCholesky]) (CorrelationCholesky alone for Cholesky inputs).
 *
 * @throws TypeError for a non-integer `dimension`, a non-boolean `inputOutputCholesky` or a bad
 *   `concentration`; RangeError for a negative `dimension`, with `validateArgs` for η ≤ 0 and, in
 *   `logProb`, for a value that is not a correlation matrix (entries in [−1, 1], unit diagonal
 *   and symmetry within 1e-6, positive definite), and for a value whose last two dimensions are
 *   not [D, D].
 * @example
 * const d = new LKJ({ dimension: 3, concentration: 1.5 });
 * const x = d.sample([2, 3], { seed: 42 }); // → Tensor float64 [2, 3, 3, 3]
 * d.logProb(x);                              // → Tensor float64 [2, 3]
 * d.mean().toArray();                        // the 3×3 identity
 */
export class LKJ extends Distribution<FloatDType> {
  static override readonly optionNames = ['dimension', 'inputOutputCholesky'];
  static override readonly parameterProperties = {
    concentration: { constraint: positive },
  };
  readonly dimension: number;
  readonly concentration: Tensor;
  readonly inputOutputCholesky: boolean;

  constructor(options: LKJOptions) {
    super('LKJ', options, false);
    this.dimension = checkNonNegativeInteger('LKJ', 'dimension', options.dimension);
    this.inputOutputCholesky = options.inputOutputCholesky === undefined ? false : checkBoolean('LKJ', 'inputOutputCholesky', options.inputOutputCholesky);
    this.concentration = this.param('concentration');
  }

  override get eventShape(): readonly number[] { return [this.dimension, this.dimension]; }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const conc = broadcastData(this.fn, 'concentration', this.concentration, this.batchShape) as ArrayLike<number>;
    return sampleLkj(n, this.dimension, conc, this.batchShape, this.inputOutputCholesky, seed, this.dtype);
  }

  protected override get support(): Constraint {
    return this.inputOutputCholesky ? correlationCholeskyFactor : correlationMatrix;
  }

  protected override logProbImpl(x: Tensor): Tensor {
    const [logdet, valid] = this.inputOutputCholesky ? choleskyLogDet(x) : logAbsDet(x);
    const D = this.dimension;
    return fusedMap('LKJ.logProb', [['log det', logdet], ['concentration', this.concentration], ['valid', valid]], logProbOf(D), logProbPartialsOf(D));
  }

  /**
   * log Z(η), of shape `batchShape`; differentiable in η.
   * @example
   * new LKJ({ dimension: 2, concentration: 1 }).logNormalization(); // → log 2 (uniform on (−1, 1))
   */
  logNormalization(): Tensor {
    const D = this.dimension;
    return fusedMap('LKJ.logNormalization', [['concentration', this.concentration]], logNormalizerOf(D), dLogNormalizerOf(D));
  }

  protected override meanImpl(): Tensor {
    return broadcastTo(eye(this.dimension, this.dimension, 0, this.dtype), [...this.batchShape, ...this.eventShape]);
  }
  protected override varianceImpl(): Tensor {
    if (this.inputOutputCholesky) this.notImplemented('variance (of Cholesky factors)');
    const D = this.dimension, batch = this.batchShape;
    const v = broadcastTo(div(1, add(mul(2, this.concentration), D - 1)), batch);
    return mul(reshape(v, [...batch, 1, 1]), sub(1, eye(D, D, 0, this.dtype)));
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector {
    const cc = new CorrelationCholesky({ validateArgs: this.validateArgs });
    if (this.inputOutputCholesky) return cc;
    return new Chain({ bijectors: [new ClipByValue(), new CholeskyOuterProduct({ validateArgs: this.validateArgs }), cc], validateArgs: this.validateArgs });
  }
}

/**
 * log Z(η) = Σₖ₌₁^(D−1) [lnΓ(η + (D−1−k)/2) − lnΓ(η + (D−1)/2)] + ¼·D(D−1)·log π (TFP's `_log_normalization`;
 * also CholeskyLKJ's).
 * @example
 * logNormalizer(2, 1); // → log 2
 */
export function logNormalizer(D: number, eta: number): number {
  let s = 0.25 * D * (D - 1) * LOG_PI;
  for (let k = 1; k < D; k++) s += logGammaDifference(k / 2, eta + (D - 1 - k) / 2);
  return s;
}

// The scalar functions of the fused nodes, made per dimension by named factories (a compiled model sends them to workers as the name and D).
const logProbOf = kernelFactory('LKJ.logProb#f', (D: number) => (ld: number, eta: number, ok: number) => (ok ? (eta - 1) * ld - logNormalizer(D, eta) : -Infinity));
const logProbPartialsOf = kernelFactory('LKJ.logProb#partials', (D: number) => (out: Float64Array, ld: number, eta: number) => { out[0] = eta - 1; out[1] = ld - dLogNormalizer(D, eta); });
/**
 * η ↦ log Z(η) for dimension D, as a portable scalar function (also CholeskyLKJ's).
 * @example
 * logNormalizerOf(2)(1); // → log 2
 */
export const logNormalizerOf = kernelFactory('LKJ.logNormalization#f', (D: number) => (eta: number) => logNormalizer(D, eta));
/**
 * The partial of {@link logNormalizerOf}, written into out[0].
 * @example
 * const out = new Float64Array(1); dLogNormalizerOf(2)(out, 1); // out[0] = ψ(1) − ψ(1.5)
 */
export const dLogNormalizerOf = kernelFactory('LKJ.logNormalization#partials', (D: number) => (out: Float64Array, eta: number) => { out[0] = dLogNormalizer(D, eta); });

/**
 * ∂ log Z / ∂η = Σₖ [ψ(η + (D−1−k)/2) − ψ(η + (D−1)/2)].
 * @example
 * dLogNormalizer(2, 1); // → ψ(1) − ψ(1.5) = −(2 − 2 log 2)
 */
export function dLogNormalizer(D: number, eta: number): number {
  let g = 0;
  for (let k = 1; k < D; k++) g += digammaScalar(eta + (D - 1 - k) / 2) - digammaScalar(eta + (D - 1) / 2);
  return g;
}

/**
 * lnΓ(b) − lnΓ(a + b) (TFP's `log_gamma_difference`): for b ≥ 16 from Stirling's series,
 * −(b − ½)·log1p(a/b) − a·log(a + b) + a + c(b) − c(a + b) with c the series' correction, so
 * large concentrations keep full relative accuracy.
 * @example
 * logGammaDifference(0.5, 1e8); // ≈ −½·log(1e8) + 1/(8e8) = −9.2103403707
 */
export function logGammaDifference(a: number, b: number): number {
  if (!(b >= 16)) return lgammaScalar(b) - lgammaScalar(a + b);
  const c = (z: number) => { const r = 1 / (z * z); return (1 / 12 - r * (1 / 360 - r * (1 / 1260 - r / 1680))) / z; };
  return -(b - 0.5) * detLog1p(a / b) - a * detLog(a + b) + a + (c(b) - c(a + b));
}

/**
 * log|det X| of each matrix of x [..., D, D] by LU with partial pivoting (one tape node, ∂ = X⁻ᵀ),
 * and whether X is positive definite (a node without gradient, so a compiled program recomputes
 * it from X). Both lowerings run `luLogDet`; the log det's backward solves with the factors its
 * forward left in scratch.
 */
function logAbsDet(x: Tensor): [Tensor, Tensor] {
  const D = x.shape[x.ndim - 1]!, batch = x.shape.slice(0, -2);
  const count = sizeOf(batch), kind = floatKind(x);
  const lu = new Float64Array(count * D * D), piv = new Int32Array(count * D), col = new Float64Array(D);
  const out = floatStorage(kind, count), ok = floatStorage(kind, count);
  const xv = numbers(x);
  luLogDet(xv, count, D, lu, piv, out, ok);
  const tracked = isTracked(x), traced = tracing();
  const op: Lowering | string = !traced ? 'LKJ.logAbsDet' : logAbsDetLowering(count, D);
  const value = result(out, batch, [x], !tracked ? null : (g) => {
    const gx = new Float64Array(x.size);
    logAbsDetGrad(lu, piv, count, D, g, col, gx);
    return [gx];
  }, undefined, op);
  return [value, result(ok, batch, [x], null, undefined, traced ? positiveDefiniteLowering(count, D) : 'LKJ.positiveDefinite')];
}

/** logAbsDet's compiled kernel: the backward pass solves with the factors its forward pass left in its scratch. */
const logAbsDetLowering = kernelFactory('LKJ.logAbsDet', (count: number, D: number): Lowering => {
  const lu = new Float64Array(count * D * D), piv = new Int32Array(count * D), col = new Float64Array(D);
  return {
    name: 'LKJ.logAbsDet',
    forward(ins, o) { luLogDet(ins[0]!, count, D, lu, piv, o, null); },
    backward(g, _ins, _o, parts) { if (parts[0]) logAbsDetGrad(lu, piv, count, D, g, col, parts[0]); },
  };
});

/** logAbsDet's validity flag as a compiled kernel (no gradient). */
const positiveDefiniteLowering = kernelFactory('LKJ.positiveDefinite', (count: number, D: number): Lowering => {
  const lu = new Float64Array(count * D * D), piv = new Int32Array(count * D), ld = new Float64Array(count);
  return { name: 'LKJ.positiveDefinite', forward(ins, o) { luLogDet(ins[0]!, count, D, lu, piv, ld, o); } };
});

/**
 * LU with partial pivoting of each of the `count` D×D matrices at `xv` into `lu` and `piv`:
 * log|det X| into `out` and, unless null, 1 into `ok` where det X > 0 and X is positive definite
 * (else 0).
 */
function luLogDet(xv: ArrayLike<number>, count: number, D: number, lu: Float64Array, piv: Int32Array, out: Flat, ok: Flat | null): void {
  const DD = D * D;
  for (let i = 0; i < lu.length; i++) lu[i] = xv[i]!;
  for (let q = 0; q < count; q++) {
    let sign = 1, s = 0;
    const o = q * DD;
    for (let c = 0; c < D; c++) {
      let p = c;
      for (let r = c + 1; r < D; r++) if (Math.abs(lu[o + r * D + c]!) > Math.abs(lu[o + p * D + c]!)) p = r;
      piv[q * D + c] = p;
      if (p !== c) { sign = -sign; for (let j = 0; j < D; j++) { const t = lu[o + c * D + j]!; lu[o + c * D + j] = lu[o + p * D + j]!; lu[o + p * D + j] = t; } }
      const d = lu[o + c * D + c]!;
      if (d < 0) sign = -sign;
      s += detLog(Math.abs(d));
      for (let r = c + 1; r < D; r++) {
        const f = (lu[o + r * D + c]! /= d);
        for (let j = c + 1; j < D; j++) lu[o + r * D + j]! -= f * lu[o + c * D + j]!;
      }
    }
    out[q] = s;
    if (ok) ok[q] = sign > 0 && Number.isFinite(s) && isPositiveDefinite(xv, o, D) ? 1 : 0;
  }
}

/** g · ∂ log|det X| / ∂X = g · X⁻ᵀ for each matrix, from its LU factors, into `gx` (`col`: D scratch). */
function logAbsDetGrad(lu: Float64Array, piv: Int32Array, count: number, D: number, g: Float64Array, col: Float64Array, gx: Float64Array): void {
  const DD = D * D;
  for (let q = 0; q < count; q++) {
    const o = q * DD;
    for (let c = 0; c < D; c++) {
      // Column c of X⁻¹: P·X = L·U, so solve L·U·col = P·e_c.
      col.fill(0); col[c] = 1;
      for (let i = 0; i < D; i++) { const p = piv[q * D + i]!; const t = col[i]!; col[i] = col[p]!; col[p] = t; }
      for (let i = 0; i < D; i++) for (let j = 0; j < i; j++) col[i]! -= lu[o + i * D + j]! * col[j]!;
      for (let i = D - 1; i >= 0; i--) { for (let j = i + 1; j < D; j++) col[i]! -= lu[o + i * D + j]! * col[j]!; col[i]! /= lu[o + i * D + i]!; }
      // (X⁻ᵀ)[r, c'] = (X⁻¹)[c', r]: column c of X⁻¹ is row c of X⁻ᵀ.
      for (let r = 0; r < D; r++) gx[o + c * D + r] = g[q]! * col[r]!;
    }
  }
}

/** Whether the symmetric part of the D×D matrix at `v[o…]` has a Cholesky factor (is positive definite). */
function isPositiveDefinite(v: ArrayLike<number>, o: number, D: number): boolean {
  const l = new Float64Array(D * D);
  for (let j = 0; j < D; j++) {
    for (let i = j; i < D; i++) {
      let s = 0.5 * (v[o + i * D + j]! + v[o + j * D + i]!);
      for (let k = 0; k < j; k++) s -= l[i * D + k]! * l[j * D + k]!;
      if (i === j) { if (!(s > 0)) return false; l[j * D + j] = Math.sqrt(s); } else l[i * D + j] = s / l[j * D + j]!;
    }
  }
  return true;
}

/** 2 Σ log Lᵢᵢ of each factor (TFP's Cholesky-form log det), and whether every Lᵢᵢ > 0. */
function choleskyLogDet(x: Tensor): [Tensor, Tensor] {
  const D = x.shape[x.ndim - 1]!, batch = x.shape.slice(0, -2), count = sizeOf(batch);
  const ok = floatStorage(floatKind(x), count);
  positiveDiagonal(numbers(x), count, D, ok);
  const op: Lowering | string = !tracing() ? 'LKJ.positiveDiagonal' : positiveDiagonalLowering(count, D);
  return [logDet(x), result(ok, batch, [x], null, undefined, op)];
}

/** 1 into ok[q] where every diagonal entry of the q-th D×D factor is positive, else 0. */
function positiveDiagonal(xv: ArrayLike<number>, count: number, D: number, ok: Flat): void {
  for (let q = 0; q < count; q++) {
    ok[q] = 1;
    for (let i = 0; i < D; i++) if (!(xv[q * D * D + i * (D + 1)]! > 0)) ok[q] = 0;
  }
}

const positiveDiagonalLowering = kernelFactory('LKJ.positiveDiagonal', (count: number, D: number): Lowering => (
  { name: 'LKJ.positiveDiagonal', forward: (ins, o) => positiveDiagonal(ins[0]!, count, D, o) }));

/** Symmetric, unit diagonal, entries in [−1, 1] (within 1e-6), positive definite: what `validateArgs` checks on LKJ values. */
const correlationMatrix: Constraint = {
  what: 'must be a correlation matrix',
  check(fn, arg, t) {
    const D = t.shape[t.ndim - 1]!, v = numbers(t);
    for (let o = 0, m = 0; o < v.length; o += D * D, m++) {
      for (let i = 0; i < D; i++) {
        for (let j = 0; j < D; j++) {
          const e = v[o + i * D + j]!, at = `entry [${i}, ${j}] of matrix ${m}`;
          if (!(Math.abs(e) <= 1)) fail('range', fn, arg, `must have correlations in [−1, 1] (${at} is ${e})`, e);
          if (i === j && !(Math.abs(e - 1) <= TOL)) fail('range', fn, arg, `must have a unit diagonal (${at} is ${e})`, e);
          if (!(Math.abs(e - v[o + j * D + i]!) <= TOL)) fail('range', fn, arg, `must be symmetric (${at} is ${e}, its transpose ${v[o + j * D + i]})`, e);
        }
      }
      if (!isPositiveDefinite(v, o, D)) fail('range', fn, arg, `must be positive definite (matrix ${m} is not)`, t.shape);
    }
  },
};

/**
 * Lower-triangular, positive diagonal, unit rows (within 1e-6): the Cholesky factor of a correlation
 * matrix (LKJ's and CholeskyLKJ's support under `validateArgs`).
 * @example
 * correlationCholeskyFactor.check('CholeskyLKJ.logProb', 'value', tensor([[1, 0], [0.6, 0.8]])); // passes
 */
export const correlationCholeskyFactor: Constraint = {
  what: 'must be the Cholesky factor of a correlation matrix',
  check(fn, arg, t) {
    const D = t.shape[t.ndim - 1]!, v = numbers(t);
    for (let o = 0, m = 0; o < v.length; o += D * D, m++) {
      for (let i = 0; i < D; i++) {
        let s = 0;
        for (let j = 0; j < D; j++) {
          const e = v[o + i * D + j]!;
          if (j > i && e !== 0) fail('range', fn, arg, `must be lower-triangular (entry [${i}, ${j}] of matrix ${m} is ${e})`, e);
          s += e * e;
        }
        if (!(v[o + i * (D + 1)]! > 0)) fail('range', fn, arg, `must have a positive diagonal (entry [${i}, ${i}] of matrix ${m} is ${v[o + i * (D + 1)]})`, v[o + i * (D + 1)]);
        if (!(Math.abs(Math.sqrt(s) - 1) <= TOL)) fail('range', fn, arg, `must have unit rows (row ${i} of matrix ${m} has norm ${Math.sqrt(s)})`, Math.sqrt(s));
      }
    }
  },
};

/**
 * y = L·Lᵀ (TFP's `tfb.CholeskyOuterProduct`, used only inside LKJ's event-space bijector):
 * fldj = D·log 2 + Σᵢ (D − i)·log Lᵢᵢ (0-based i), the inverse is `cholesky`.
 */
class CholeskyOuterProduct extends Bijector {
  readonly forwardMinEventNdims = 2;
  constructor(options?: { validateArgs?: boolean }) { super('CholeskyOuterProduct', options); }
  protected forwardImpl(x: Tensor): Tensor {
    const nd = x.ndim;
    return matmul(x, transpose(x, [...Array.from({ length: nd - 2 }, (_, i) => i), nd - 1, nd - 2]));
  }
  protected inverseImpl(y: Tensor): Tensor { return cholesky(y); }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    const D = x.shape[x.ndim - 1]!;
    const w = new Tensor(Float64Array.from({ length: D }, (_, i) => D - i), [D], 'float64');
    const diag = sum(mul(x, eye(D, D, 0, x.dtype)), -1);
    return add(D * Math.LN2, sum(mul(w, log(diag)), -1));
  }
}

/** Clips to [−1, 1] with an identity gradient and a zero log-det-Jacobian (TFP's `_ClipByValue` inside LKJ). */
class ClipByValue extends Bijector {
  readonly forwardMinEventNdims = 0;
  override readonly isConstantJacobian = true;
  constructor() { super('ClipByValue', undefined); }
  protected forwardImpl(x: Tensor): Tensor { return add(x, stopGradient(sub(clip(x, -1, 1), x))); }
  protected inverseImpl(y: Tensor): Tensor { return y; }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor { return zerosLike(x); }
}
brand(LKJ, 'LKJ');   // recognised across copies of stochax (src/brand.ts)
