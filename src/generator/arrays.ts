/**
 * The Generator's methods on arrays: `choice`, `shuffle` (in place), `permuted` and
 * `permutation`, checked here under NumPy's names and drawn by the cores of JAX's
 * `random.choice` and `random.permutation`.
 */
import { checkAxis, checkBoolean, checkCount, checkInteger, checkOptions, fail } from '../checks.js';
import { getModes } from '../config.js';
import { choiceData, choiceProbabilities } from '../random/choice.js';
import { permutationData } from '../random/permutation.js';
import type { DType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor, tensorFrom } from '../tensor/tensor.js';
import { checkSize, result, type Scalar, type SizeLike } from './args.js';
import { BasicMethods } from './basic.js';

/** Options of `choice` (NumPy's keyword arguments). */
export interface ChoiceOptions {
  /** Sample with replacement (default true). */
  replace?: boolean;
  /** Probabilities of the entries of `a` along `axis`: non-negative, summing to 1. */
  p?: readonly number[] | Tensor;
  /** The axis of `a` to choose along (default 0). */
  axis?: number;
}

/** A typed array (no DataView). */
type TypedArray = Exclude<ArrayBufferView, DataView>;

/** `Generator` methods on arrays (see `Generator`). */
export class ArrayMethods extends BasicMethods {
  /**
   * A random sample from `a` (NumPy's `Generator.choice`, argument order `a, size`, options
   * `replace`, `p`, `axis`): `random.choice(key(), a, size, { replace, p, axis })`. With `a` an
   * integer n, samples are from [0, n) in the default int dtype; otherwise slices of `a` along
   * `axis`. The result has shape `a.shape[:axis] + size + a.shape[axis+1:]`; with `size` omitted
   * and a 1-D `a` (or an integer), one value as a JS scalar.
   *
   * As in NumPy, `p` must sum to 1 (within √eps of its dtype), and sampling without replacement
   * needs at least `size` entries with non-zero probability. (NumPy's `shuffle` option is not
   * offered: the order of a sample without replacement is always random.)
   *
   * @throws RangeError for an empty population, bad probabilities, or too many draws without replacement.
   * @example
   * rng.choice(5, [3]);                               // → Tensor int64 [3] (x64 mode)
   * rng.choice(['a', 'b'].length);                    // 0n or 1n
   * rng.choice(3, [10], { p: [0.2, 0.3, 0.5] });
   * rng.choice(tensor([[1, 2], [3, 4], [5, 6]]), 2, { replace: false }); // → two rows
   */
  choice(a: number | Tensor | readonly unknown[], size: number | readonly number[], options?: ChoiceOptions): Tensor;
  choice(a: number | Tensor | readonly unknown[], size?: SizeLike, options?: ChoiceOptions): Scalar | Tensor;
  choice(a: number | Tensor | readonly unknown[], size?: SizeLike, options?: ChoiceOptions): Scalar | Tensor {
    const fn = 'Generator.choice';
    const s = checkSize(fn, size);
    const opts = checkOptions(fn, options, ['replace', 'p', 'axis']);
    this.single(fn);
    const replace = opts.replace === undefined ? true : checkBoolean(fn, 'replace', opts.replace);
    const draws = sizeOf(s ?? []);
    let n: number, axis = 0;
    let from: number | Tensor;
    if (typeof a === 'number') {
      n = checkInteger(fn, 'a', a);
      if (n < 0 || (n === 0 && draws > 0)) fail('range', fn, 'a', 'must be a positive integer (or an array) to choose from', a);
      from = n;
    } else {
      const t = tensorFrom(fn, 'a', a);
      if (t.ndim === 0) fail('range', fn, 'a', 'must be an integer or an array of at least 1 dimension', a);
      axis = checkAxis(fn, 'axis', opts.axis ?? 0, t.ndim);
      n = t.shape[axis]!;
      if (n === 0 && draws > 0) fail('range', fn, 'a', 'must have entries to choose from along `axis`', a);
      from = t;
    }
    if (opts.p !== undefined) checkProbabilities(fn, opts.p, n, replace, draws);
    if (!replace && draws > n) fail('range', fn, 'size', `asks for ${draws} draws without replacement from ${n} entries`, s);
    const modes = getModes();
    if (typeof from === 'number' && opts.axis !== undefined) checkAxis(fn, 'axis', opts.axis, 1);
    // Without replacement all of [0, n) is shuffled, so it must fit one array.
    if (draws > 0 && !replace && typeof from === 'number') checkCount(fn, 'a', n);
    const p = draws > 0 && opts.p !== undefined ? choiceProbabilities(fn, opts.p, n, modes) : undefined;
    const t = this.draw(fn, (k) => choiceData(k, from, s ?? [], axis, replace, p, modes));
    return result(t, s) as Scalar | Tensor;
  }

  /**
   * Shuffles `x` in place along `axis` (NumPy's `Generator.shuffle`): the order of
   * `random.permutation(key(), x, { axis })`. `x` may be a Tensor (any axis) or a plain JS array
   * or typed array (axis 0 only, as NumPy allows only axis 0 for sequences); the elements of a
   * JS array can be anything. Returns nothing, as NumPy does.
   *
   * @throws TypeError for other kinds of `x`; RangeError for a bad axis or a 0-d Tensor.
   * @example
   * const deck = Array.from({ length: 52 }, (_, i) => i);
   * rng.shuffle(deck);                       // deck is now shuffled
   * rng.shuffle(t, { axis: 1 });             // columns of a Tensor, in place
   */
  shuffle(x: Tensor | unknown[] | TypedArray, options?: { axis?: number }): void {
    const fn = 'Generator.shuffle';
    const opts = checkOptions(fn, options, ['axis']);
    this.single(fn);
    if (x instanceof Tensor) {
      if (x.ndim === 0) fail('range', fn, 'x', 'must have at least 1 dimension', x);
      const axis = checkAxis(fn, 'axis', opts.axis ?? 0, x.ndim);
      const out = this.draw(fn, (k, modes) => permutationData(k, x, axis, false, modes));
      (x.data as unknown as { set(a: ArrayLike<unknown>): void }).set(out.data as ArrayLike<unknown>);
      return;
    }
    if (!Array.isArray(x) && !(ArrayBuffer.isView(x) && !(x instanceof DataView))) {
      fail('type', fn, 'x', 'must be a Tensor, an array or a typed array', x);
    }
    if (opts.axis !== undefined && opts.axis !== 0) fail('range', fn, 'axis', 'must be 0 for a JS array (other axes need a Tensor)', opts.axis);
    const seq = x as unknown as { length: number; [i: number]: unknown; slice(): ArrayLike<unknown> };
    const n = seq.length;
    checkCount(fn, 'x', n);   // random.permutation's limit on a range
    const order = this.draw(fn, (k, modes) => permutationData(k, n, 0, false, modes));
    const old = seq.slice();
    for (let j = 0; j < n; j++) seq[j] = old[Number(order.data[j])];
  }

  /**
   * A copy of `x` with each lane along `axis` shuffled independently (NumPy's
   * `Generator.permuted`): `random.permutation(key(), x, { axis, independent: true })`. Without
   * `axis`, the flattened array is shuffled and reshaped back.
   *
   * @throws TypeError for an `x` that is not an array or Tensor; RangeError for a bad axis.
   * @example
   * rng.permuted(tensor([[1, 2, 3], [4, 5, 6]]), { axis: 1 }); // each row shuffled on its own
   * rng.permuted([1, 2, 3, 4]);                                // → Tensor float64 [4]
   */
  permuted(x: Tensor | readonly unknown[], options?: { axis?: number }): Tensor {
    const fn = 'Generator.permuted';
    const opts = checkOptions(fn, options, ['axis']);
    this.single(fn);
    const t = x instanceof Tensor ? x : Array.isArray(x) ? tensorFrom(fn, 'x', x) : fail('type', fn, 'x', 'must be an array or a Tensor', x);
    if (opts.axis === undefined) {
      if (t.size === 0 || t.ndim === 0) return this.draw(fn, () => new Tensor(t.data.slice() as Tensor['data'], t.shape, t.dtype as DType));
      const flat = t.reshape([t.size]);
      return this.draw(fn, (k, modes) => permutationData(k, flat, 0, true, modes).reshape(t.shape));
    }
    const axis = checkAxis(fn, 'axis', opts.axis, Math.max(t.ndim, 1));
    if (t.ndim === 0) fail('range', fn, 'x', 'must be at least 1-dimensional (or an integer)', x);   // random.permutation's check
    return this.draw(fn, (k, modes) => permutationData(k, t, axis, true, modes));
  }

  /**
   * A randomly permuted range or copy (NumPy's `Generator.permutation`): for an integer n,
   * `[0, n)` shuffled (default int dtype); for an array, its slices along `axis` shuffled
   * together. `random.permutation(key(), x, { axis })`.
   *
   * @throws TypeError/RangeError for a negative or fractional n, a bad axis or a 0-d array.
   * @example
   * rng.permutation(10);                                 // → Tensor int64 [10] (x64 mode)
   * rng.permutation(tensor([[1, 2], [3, 4]]), { axis: 1 }); // columns permuted
   */
  permutation(x: number | Tensor | readonly unknown[], options?: { axis?: number }): Tensor {
    const fn = 'Generator.permutation';
    const opts = checkOptions(fn, options, ['axis']);
    this.single(fn);
    if (typeof x === 'number') {
      if (opts.axis !== undefined) checkAxis(fn, 'axis', opts.axis, 1);
      checkInteger(fn, 'x', x);
      if (x < 0) fail('range', fn, 'x', 'must be a non-negative integer', x);
      checkCount(fn, 'x', x);   // random.permutation's limit on a range
      return this.draw(fn, (k, modes) => permutationData(k, x, 0, false, modes));
    }
    const t = x instanceof Tensor ? x : Array.isArray(x) ? tensorFrom(fn, 'x', x) : fail('type', fn, 'x', 'must be an integer, an array or a Tensor', x);
    if (t.ndim === 0) fail('range', fn, 'x', 'must have at least 1 dimension (or be an integer)', x);
    const axis = checkAxis(fn, 'axis', opts.axis ?? 0, t.ndim);
    return this.draw(fn, (k, modes) => permutationData(k, t, axis, false, modes));
  }
}

/** NumPy's checks on `p`: 1-D of length n, entries in [0, 1], summing to 1, enough non-zero entries. */
function checkProbabilities(fn: string, p: unknown, n: number, replace: boolean, draws: number): void {
  let vals: ArrayLike<number>;
  let eps = 2 ** -52;
  if (p instanceof Tensor) {
    if (p.dtype !== 'float32' && p.dtype !== 'float64') fail('type', fn, 'p', 'must be a float Tensor or an array of numbers', `a ${p.dtype} tensor`);
    if (p.ndim !== 1) fail('range', fn, 'p', 'must be 1-dimensional', `shape [${p.shape.join(', ')}]`);
    if (p.dtype === 'float32') eps = 2 ** -23;
    vals = p.data as Float64Array | Float32Array;
  } else if (Array.isArray(p)) {
    if (p.some((v) => typeof v !== 'number')) fail('type', fn, 'p', 'must be an array of numbers', p);
    vals = p as number[];
  } else {
    fail('type', fn, 'p', 'must be an array of numbers or a float Tensor', p);
  }
  if (vals.length !== n) fail('range', fn, 'p', `must have ${n} entries, one per entry of \`a\``, `${vals.length} entries`);
  let sum = 0, nonZero = 0;
  for (let i = 0; i < vals.length; i++) {
    const v = vals[i]!;
    if (!(v >= 0 && v <= 1)) fail('range', fn, 'p', 'must hold probabilities in [0, 1]', v);
    sum += v;
    if (v > 0) nonZero++;
  }
  if (!(Math.abs(sum - 1) <= Math.sqrt(eps))) fail('range', fn, 'p', 'must sum to 1', sum);
  if (!replace && draws > nonZero) fail('range', fn, 'p', `has ${nonZero} non-zero entries, fewer than the ${draws} draws without replacement`, p);
}
