/**
 * What `MultivariateNormalTriL` and `MultivariateNormalDiag` share (TFP's
 * `MultivariateNormalLinearOperator`): the distribution of Y = loc + S·X with X ~ N(0, Iₖ) and
 * a scale operator S (lower-triangular or diagonal) supplied by the subclass. The sampler, the
 * log density, the entropy, the mean and mode and the KL divergence between any two of them are
 * written once here against a small scale interface (matvec, solve, log|det|, dense).
 *
 * Seed use, as TFP on JAX (`Sample(Normal(zeros(batch), 1), [k])` under `Shift(loc) ∘
 * ScaleMatvec(S)`): the seed is used as given, `samplers.normal([n, k, ...batch])`, whose axis
 * k is then moved last (Sample's transpose) before y = loc + S·z.
 */
import { fail } from '../../src/checks.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { normal as samplersNormal } from '../../src/samplers/normal.js';
import { broadcastShapes } from '../../src/tensor/broadcast.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { kernelFactory } from '../../src/tensor/lowering.js';
import { zeros } from '../../src/tensor/ops/create.js';
import { add, div, mul, square, sub } from '../../src/tensor/ops/elementwise.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { broadcastTo, transpose } from '../../src/tensor/ops/shape.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { Bijector } from '../bijectors/bijector.js';
import { Identity } from '../bijectors/identity.js';
import { Distribution } from '../distribution.js';
import { fusedMap } from './fused.js';
import { registerKL } from '../kl.js';
import { detLog } from '../../src/math/index.js';

const LOG_2PI = detLog(2 * Math.PI);
// logProb's scalar function for the constant c = (k/2)·log 2π, made by a named factory (sent to workers as the name and c), and its constant partials.
const logProbOf = kernelFactory('MultivariateNormal.logProb#f', (c: number) => (q: number, l: number) => -0.5 * q - l - c);
const logProbPartials = (out: Float64Array): void => { out[0] = -0.5; out[1] = -1; };

/**
 * The number `v` as a scalar tensor of `t`'s float dtype (so float32 parameters stay float32).
 * @example
 * scalarLike(0.5, tensor([1], 'float32')).dtype; // 'float32'
 */
export function scalarLike(v: number, t: Tensor): Tensor {
  return t.dtype === 'float32' ? new Tensor(Float32Array.of(v), [], 'float32') : new Tensor(Float64Array.of(v), [], 'float64');
}

/**
 * The base of the multivariate normals: density
 * exp(−½‖S⁻¹(x − loc)‖²) / ((2π)^(k/2)·|det S|) on ℝᵏ, covariance S·Sᵀ.
 * Subclasses set `eventSize` and implement the scale interface below.
 */
export abstract class MultivariateNormalLinearOperator extends Distribution<FloatDType> {
  /** The mean vector as given (`undefined`: zero). */
  readonly loc: Tensor | undefined;

  constructor(className: string, options: object) {
    super(className, options, true);
    this.loc = this.params.loc;
  }

  /**
   * k, the dimension of the event.
   * @example
   * new MultivariateNormalDiag({ scaleDiag: [1, 2, 3] }).eventSize; // 3
   */
  abstract get eventSize(): number;
  /**
   * True when S is diagonal (the KL then uses the ratio of the diagonals, as TFP).
   * @example
   * new MultivariateNormalTriL({ loc: [0, 0] }).isDiagonal; // true (identity scale)
   */
  abstract get isDiagonal(): boolean;
  /**
   * S·z for z of shape [..., k] (batch dims broadcast).
   * @example
   * new MultivariateNormalDiag({ scaleDiag: [1, 2] }).scaleMatvec(tensor([1, 1])); // → [1, 2]
   */
  abstract scaleMatvec(z: Tensor): Tensor;
  /**
   * S⁻¹·v for v of shape [..., k].
   * @example
   * new MultivariateNormalTriL({ scaleTril: [[2, 0], [1, 1]] }).scaleSolve(tensor([2, 2])); // → [1, 1]
   */
  abstract scaleSolve(v: Tensor): Tensor;
  /**
   * S⁻¹·M for M of shape [..., k, m].
   * @example
   * new MultivariateNormalDiag({ scaleDiag: [2, 4] }).scaleSolveMatrix(eye(2)); // → [[0.5, 0], [0, 0.25]]
   */
  abstract scaleSolveMatrix(m: Tensor): Tensor;
  /**
   * log|det S|, of shape S's batch shape.
   * @example
   * new MultivariateNormalDiag({ scaleDiag: [2, 4] }).scaleLogAbsDet(); // → log 8
   */
  abstract scaleLogAbsDet(): Tensor;
  /**
   * S as a dense matrix [..., k, k].
   * @example
   * new MultivariateNormalDiag({ scaleDiag: [2, 4] }).scaleDense(); // → [[2, 0], [0, 4]]
   */
  abstract scaleDense(): Tensor;
  /**
   * The diagonal of S, [..., k].
   * @example
   * new MultivariateNormalTriL({ scaleTril: [[2, 0], [1, 3]] }).scaleDiagPart(); // → [2, 3]
   */
  abstract scaleDiagPart(): Tensor;

  override get eventShape(): readonly number[] { return [this.eventSize]; }

  /** Checks that `loc`'s last dimension is k (or 1, which broadcasts), naming both shapes. */
  protected checkLocEventSize(scaleName: string, scaleShape: readonly number[]): void {
    const k = this.eventSize, loc = this.loc;
    if (loc === undefined) return;
    const kl = loc.shape[loc.ndim - 1]!;
    if (kl !== k && kl !== 1) {
      fail('range', this.fn, 'loc', `has event size ${kl} but \`${scaleName}\` [${scaleShape.join(', ')}] has event size ${k}; the shapes of \`loc\` [${loc.shape.join(', ')}] and \`${scaleName}\` do not match`, loc.shape);
    }
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const batch = this.batchShape, k = this.eventSize;
    const z = samplersNormal([n, k, ...batch], { seed, dtype: this.dtype });
    const perm = [0, ...batch.map((_, i) => i + 2), 1];
    const y = this.scaleMatvec(transpose(z, perm));
    return this.loc === undefined ? y : add(y, this.loc);
  }

  protected override logProbImpl(x: Tensor): Tensor {
    const z = this.scaleSolve(this.loc === undefined ? x : sub(x, this.loc));
    const c = 0.5 * this.eventSize * LOG_2PI;
    return fusedMap(`${this.fn}.logProb`, [['‖S⁻¹(x − loc)‖²', sum(square(z), -1)], ['log|det S|', this.scaleLogAbsDet()]], logProbOf(c), logProbPartials);
  }

  private full(): number[] { return [...this.batchShape, this.eventSize]; }

  protected override meanImpl(): Tensor {
    return this.loc === undefined ? zeros(this.full(), this.dtype) : broadcastTo(this.loc, this.full());
  }
  protected override modeImpl(): Tensor { return this.meanImpl(); }
  protected override entropyImpl(): Tensor {
    const l = this.scaleLogAbsDet();
    return broadcastTo(add(l, scalarLike(0.5 * this.eventSize * (1 + LOG_2PI), l)), this.batchShape);
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Identity({ validateArgs: this.validateArgs }); }
}

/**
 * KL(a ‖ b) = log|det Sb| − log|det Sa| + ½(−k + ‖Sb⁻¹Sa‖²_F + ‖Sb⁻¹(μb − μa)‖²), TFP's
 * `_kl_brute_force`; for two diagonal scales ‖Sb⁻¹Sa‖²_F is Σ(σa/σb)².
 */
registerKL(MultivariateNormalLinearOperator, MultivariateNormalLinearOperator, (a, b) => {
  const fn = `${a.constructor.name}.klDivergence`;
  if (a.eventSize !== b.eventSize) {
    fail('range', fn, 'other', `has event shape [${b.eventSize}] but this distribution has event shape [${a.eventSize}]`, b.eventShape);
  }
  const batch = broadcastShapes(fn, [['batchShape', a.batchShape], ['other.batchShape', b.batchShape]]);
  const frob = a.isDiagonal && b.isDiagonal
    ? sum(square(div(a.scaleDiagPart(), b.scaleDiagPart())), -1)
    : sum(square(b.scaleSolveMatrix(a.scaleDense())), [-2, -1]);
  const quad = sum(square(b.scaleSolve(sub(b.mean(), a.mean()))), -1);
  const half = mul(0.5, add(sub(frob, a.eventSize), quad));
  return broadcastTo(add(sub(b.scaleLogAbsDet(), a.scaleLogAbsDet()), half), batch);
});
