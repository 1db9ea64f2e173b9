import { checkBoolean, fail } from '../../src/checks.js';
import { zeros } from '../../src/tensor/ops/create.js';
import { concat, gather, reshape } from '../../src/tensor/ops/shape.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { brand } from '../../src/brand.js';

export interface FillTriangularOptions extends BijectorOptions {
  /** Fill the upper triangle instead of the lower one (default false). */
  readonly upper?: boolean;
}

/** The matrix size n with n(n+1)/2 = m, or −1 when m is not a triangular number. */
export function triangularSize(m: number): number {
  const n = Math.round((Math.sqrt(8 * m + 1) - 1) / 2);
  return (n * (n + 1)) / 2 === m ? n : -1;
}

/**
 * TFP's fill order as index maps for an n×n matrix: `src[p]` is the index into x of matrix
 * entry p = i·n + j (or m, meaning 0, outside the triangle), and `pos[k]` the entry that holds
 * x[k]. TFP builds the lower triangle from `concat(x[n:], reverse(x))` reshaped to n×n (the
 * upper one from `concat(x, reverse(x[n:]))`) and zeroes the other triangle.
 */
export function fillTriangularIndices(n: number, upper: boolean): { src: Int32Array; pos: Int32Array } {
  const m = (n * (n + 1)) / 2, src = new Int32Array(n * n), pos = new Int32Array(m);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const p = i * n + j;
      if (upper ? j < i : j > i) { src[p] = m; continue; }
      const k = upper ? (p < m ? p : 2 * m - 1 - p) : (p < m - n ? n + p : m - 1 - (p - (m - n)));
      src[p] = k;
      pos[k] = p;
    }
  }
  return { src, pos };
}

/**
 * Fills a triangular matrix from a vector (TFP's `tfb.FillTriangular`): [..., n(n+1)/2] →
 * [..., n, n] in TFP's clockwise-spiral order, so the result equals TFP's element for element:
 * `forward([1, 2, 3, 4, 5, 6])` is [[4, 0, 0], [6, 5, 0], [3, 2, 1]] (lower) or
 * [[1, 2, 3], [0, 5, 6], [0, 0, 4]] (`upper`). `inverse` reads the triangle back (entries of the
 * other triangle are ignored). `forwardMinEventNdims` 1, `inverseMinEventNdims` 2.
 *
 * log-det-Jacobian 0: the map is a permutation of the coordinates onto the triangle's n(n+1)/2
 * free entries (TFP's convention: the Jacobian restricted to those entries).
 *
 * @throws TypeError for a non-boolean `upper`; RangeError when the last dimension of x is not a
 *   triangular number, or y is not a batch of square matrices.
 * @example
 * new FillTriangular().forward([1, 2, 3]); // → Tensor float64 [2, 2]: [[3, 0], [2, 1]]
 * new FillTriangular().inverse([[3, 0], [2, 1]]); // → Tensor float64 [3]: [1, 2, 3]
 */
export class FillTriangular extends Bijector {
  static override readonly optionNames = ['upper'];
  readonly forwardMinEventNdims = 1;
  override readonly isConstantJacobian = true;
  readonly upper: boolean;
  constructor(options?: FillTriangularOptions) {
    super('FillTriangular', options);
    this.upper = options?.upper === undefined ? false : checkBoolean('FillTriangular', 'upper', options.upper);
  }
  override get inverseMinEventNdims(): number { return 2; }
  protected forwardImpl(x: Tensor): Tensor {
    const n = this.matrixSize(`${this.name}.forward`, 'x', x);
    const { src } = fillTriangularIndices(n, this.upper);
    const lead = x.shape.slice(0, -1);
    const padded = concat([x, zeros([...lead, 1], x.dtype === 'float32' ? 'float32' : 'float64')], -1);
    return reshape(gather(padded, tensor(src), -1), [...lead, n, n]);
  }
  protected inverseImpl(y: Tensor): Tensor {
    const n = squareSize(`${this.name}.inverse`, 'y', y);
    const { pos } = fillTriangularIndices(n, this.upper);
    return gather(reshape(y, [...y.shape.slice(0, -2), n * n]), tensor(pos), -1);
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    this.matrixSize(`${this.name}.forwardLogDetJacobian`, 'x', x);
    return zeros([]);
  }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor {
    squareSize(`${this.name}.inverseLogDetJacobian`, 'y', y);
    return zeros([]);
  }
  override forwardEventShape(shape: readonly number[]): number[] {
    const fn = `${this.name}.forwardEventShape`;
    const m = shape[shape.length - 1];
    const n = m === undefined ? -1 : triangularSize(m);
    if (n < 0) fail('range', fn, 'shape', 'must end in a triangular number n(n+1)/2', shape);
    return [...shape.slice(0, -1), n, n];
  }
  override inverseEventShape(shape: readonly number[]): number[] {
    const n = shape[shape.length - 1];
    if (shape.length < 2 || shape[shape.length - 2] !== n) fail('range', `${this.name}.inverseEventShape`, 'shape', 'must end in a square [n, n]', shape);
    return [...shape.slice(0, -2), (n! * (n! + 1)) / 2];
  }
  private matrixSize(fn: string, arg: string, x: Tensor): number {
    if (x.ndim < 1) fail('range', fn, arg, 'must have at least one dimension (a vector event)', x.item());
    const m = x.shape[x.ndim - 1]!, n = triangularSize(m);
    if (n < 0) fail('range', fn, arg, `must have a last dimension n(n+1)/2 (1, 3, 6, 10, …); got shape [${x.shape.join(', ')}]`, x);
    return n;
  }
}

/** n for y of shape [..., n, n]; throws naming `arg` otherwise. */
export function squareSize(fn: string, arg: string, y: Tensor): number {
  const n = y.shape[y.ndim - 1];
  if (y.ndim < 2 || y.shape[y.ndim - 2] !== n) fail('range', fn, arg, `must be a (batch of) square matrices [..., n, n]; got shape [${y.shape.join(', ')}]`, y);
  return n!;
}
brand(FillTriangular, 'bijectors.FillTriangular');   // recognised across copies of stochax (src/brand.ts)
