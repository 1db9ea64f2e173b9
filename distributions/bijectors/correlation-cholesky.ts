import { fail } from '../../src/checks.js';
import { numbers } from '../../src/tensor/core.js';
import { ones, zeros } from '../../src/tensor/ops/create.js';
import { div, log, log1p, mul, neg, sqrt, square } from '../../src/tensor/ops/elementwise.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { concat, gather, reshape } from '../../src/tensor/ops/shape.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { fillTriangularIndices, squareSize, triangularSize } from './fill-triangular.js';
import { diagPart } from './transform-diagonal.js';
import { brand } from '../../src/brand.js';

/** Row-norm tolerance of `inverse`'s validateArgs check. */
const NORM_TOL = 1e-6;

/**
 * Index maps for n×n factors from m = n(n−1)/2 reals: `src[p]` picks matrix entry p = i·n + j
 * from [x, 0, 1] (index m means 0, m + 1 means 1), `pos[k]` is the entry holding x[k], and
 * `row[k]` its row's diagonal entry. The strictly lower triangle is TFP's FillTriangular of x
 * placed at rows 1…n−1, columns 0…n−2.
 */
function indices(n: number): { src: Int32Array; pos: Int32Array; row: Int32Array } {
  const m = (n * (n - 1)) / 2, src = new Int32Array(n * n).fill(m), pos = new Int32Array(m), row = new Int32Array(m);
  const inner = fillTriangularIndices(n - 1, false);
  for (let i = 0; i < n; i++) src[i * (n + 1)] = m + 1;
  for (let a = 0; a < n - 1; a++) {
    for (let b = 0; b <= a; b++) {
      const k = inner.src[a * (n - 1) + b]!, p = (a + 1) * n + b;
      src[p] = k; pos[k] = p; row[k] = (a + 1) * (n + 1);
    }
  }
  return { src, pos, row };
}

/**
 * Unconstrained reals [..., n(n−1)/2] → Cholesky factors of n×n correlation matrices [..., n, n]
 * (TFP's `tfb.CorrelationCholesky`), the default event-space bijector of CholeskyLKJ. x fills
 * the strictly lower triangle of a unit-diagonal matrix in FillTriangular's order, and each row
 * is divided by its Euclidean norm sᵢ = √(1 + Σⱼ<ᵢ xᵢⱼ²), so L has unit rows and Lᵢᵢ = 1/sᵢ > 0.
 * `forwardMinEventNdims` 1, `inverseMinEventNdims` 2.
 *
 * log-det-Jacobian (TFP's): row i (0-based) maps its i free reals onto the open unit ball with
 * |det J| = sᵢ^−(i+2), so fldj = −½ Σᵢ (i+2)·log(1 + Σⱼ xᵢⱼ²) = Σᵢ (i+2)·log Lᵢᵢ: the Jacobian
 * of x ↦ the strictly lower entries of L (the free coordinates; the diagonal is determined).
 *
 * @param options.validateArgs - check in `inverse` that y is lower triangular with a positive
 *   diagonal and unit rows (within 1e-6).
 * @throws RangeError when the last dimension of x is not n(n−1)/2 (0, 1, 3, 6, …), y is not a
 *   batch of square matrices, or (with `validateArgs`) y is not a correlation Cholesky factor.
 * @example
 * new CorrelationCholesky().forward([2, 2, 1]);
 * // → Tensor float64 [3, 3]: [[1, 0, 0], [0.7071, 0.7071, 0], [0.6667, 0.6667, 0.3333]]
 * new CorrelationCholesky().forwardEventShape([3]); // → [3, 3]
 */
export class CorrelationCholesky extends Bijector {
  readonly forwardMinEventNdims = 1;
  constructor(options?: BijectorOptions) { super('CorrelationCholesky', options); }
  override get inverseMinEventNdims(): number { return 2; }
  protected forwardImpl(x: Tensor): Tensor {
    const n = matrixSize(`${this.name}.forward`, x);
    const lead = x.shape.slice(0, -1), kind = x.dtype === 'float32' ? 'float32' : 'float64';
    const padded = concat([x, zeros([...lead, 1], kind), ones([...lead, 1], kind)], -1);
    const u = reshape(gather(padded, tensor(indices(n).src), -1), [...lead, n, n]);
    return div(u, sqrt(sum(square(u), -1, true)));
  }
  protected inverseImpl(y: Tensor): Tensor {
    const fn = `${this.name}.inverse`;
    const n = squareSize(fn, 'y', y);
    if (this.validateArgs) checkFactor(fn, y, n);
    const { pos, row } = indices(n);
    const flat = reshape(y, [...y.shape.slice(0, -2), n * n]);
    return div(gather(flat, tensor(pos), -1), gather(flat, tensor(row), -1));
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    const n = matrixSize(`${this.name}.forwardLogDetJacobian`, x);
    const lead = x.shape.slice(0, -1);
    // Rows of the strictly lower part (zeros elsewhere): r_i = Σ_j x_ij², log L_ii = −½ log1p(r_i).
    const m = x.shape[x.ndim - 1]!, src = indices(n).src.map((k) => Math.min(k, m));
    const padded = concat([x, zeros([...lead, 1], x.dtype === 'float32' ? 'float32' : 'float64')], -1);
    const r = sum(square(reshape(gather(padded, tensor(src), -1), [...lead, n, n])), -1);
    const w = tensor(Float64Array.from({ length: n }, (_, i) => i + 2));
    return mul(-0.5, sum(mul(w, log1p(r)), -1));
  }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor {
    const fn = `${this.name}.inverseLogDetJacobian`;
    const n = squareSize(fn, 'y', y);
    if (this.validateArgs) checkFactor(fn, y, n);
    const w = tensor(Float64Array.from({ length: n }, (_, i) => i + 2));
    return neg(sum(mul(w, log(diagPart(fn, 'y', y))), -1));
  }
  override forwardEventShape(shape: readonly number[]): number[] {
    const m = shape[shape.length - 1];
    const n = m === undefined ? -1 : triangularSize(m) + 1;
    if (n < 1) fail('range', `${this.name}.forwardEventShape`, 'shape', 'must end in n(n−1)/2 (0, 1, 3, 6, …)', shape);
    return [...shape.slice(0, -1), n, n];
  }
  override inverseEventShape(shape: readonly number[]): number[] {
    const n = shape[shape.length - 1];
    if (shape.length < 2 || shape[shape.length - 2] !== n || n! < 1) fail('range', `${this.name}.inverseEventShape`, 'shape', 'must end in a square [n, n] with n ≥ 1', shape);
    return [...shape.slice(0, -2), (n! * (n! - 1)) / 2];
  }
}

function matrixSize(fn: string, x: Tensor): number {
  if (x.ndim < 1) fail('range', fn, 'x', 'must have at least one dimension (a vector event)', x.item());
  const m = x.shape[x.ndim - 1]!, k = triangularSize(m);
  if (k < 0) fail('range', fn, 'x', `must have a last dimension n(n−1)/2 (0, 1, 3, 6, …); got shape [${x.shape.join(', ')}]`, x);
  return k + 1;
}

function checkFactor(fn: string, y: Tensor, n: number): void {
  const v = numbers(y);
  for (let o = 0; o < v.length; o += n * n) {
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) {
        const e = v[o + i * n + j]!;
        if (j > i && e !== 0) fail('range', fn, `y[${o + i * n + j}]`, 'must be 0 (above the diagonal of a lower-triangular factor)', e);
        s += e * e;
      }
      const d = v[o + i * (n + 1)]!;
      if (!(d > 0)) fail('range', fn, `y[${o + i * (n + 1)}]`, 'must be positive (a diagonal entry)', d);
      if (!(Math.abs(Math.sqrt(s) - 1) <= NORM_TOL)) fail('range', fn, 'y', `must have rows of unit norm (row ${i} of matrix ${o / (n * n)} has norm ${Math.sqrt(s)})`, Math.sqrt(s));
    }
  }
}
brand(CorrelationCholesky, 'bijectors.CorrelationCholesky');   // recognised across copies of stochax (src/brand.ts)
