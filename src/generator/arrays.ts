/**
 * The Generator's methods on arrays: `choice`, `shuffle` (in place), `permuted` and
 * `permutation`, checked here under NumPy's names and drawn by the cores of JAX's
 * `random.choice` and `random.permutation`. Each function takes the generator's `State` and is
 * the body of the `Generator` method of the same name (documented there).
 */
import { checkAxis, checkBoolean, checkCount, checkInteger, checkOptions, fail } from '../checks.js';
import { getModes } from '../config.js';
import { choiceData, choiceProbabilities } from '../random/choice.js';
import { permutationData } from '../random/permutation.js';
import type { DType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor, tensorFrom } from '../tensor/tensor.js';
import { checkSize, result, type Scalar, type SizeLike } from './args.js';
import { draw, single, type State } from './core.js';

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
export type TypedArray = Exclude<ArrayBufferView, DataView>;

export function choice(st: State, a: number | Tensor | readonly unknown[], size?: SizeLike, options?: ChoiceOptions): Scalar | Tensor {
  const fn = 'Generator.choice';
  const s = checkSize(fn, size);
  const opts = checkOptions(fn, options, ['replace', 'p', 'axis']);
  single(st, fn);
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
  const t = draw(st, fn, (k) => choiceData(k, from, s ?? [], axis, replace, p, modes));
  return result(t, s) as Scalar | Tensor;
}

export function shuffle(st: State, x: Tensor | unknown[] | TypedArray, options?: { axis?: number }): void {
  const fn = 'Generator.shuffle';
  const opts = checkOptions(fn, options, ['axis']);
  single(st, fn);
  if (x instanceof Tensor) {
    if (x.ndim === 0) fail('range', fn, 'x', 'must have at least 1 dimension', x);
    const axis = checkAxis(fn, 'axis', opts.axis ?? 0, x.ndim);
    const out = draw(st, fn, (k, modes) => permutationData(k, x, axis, false, modes));
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
  const order = draw(st, fn, (k, modes) => permutationData(k, n, 0, false, modes));
  const old = seq.slice();
  for (let j = 0; j < n; j++) seq[j] = old[Number(order.data[j])];
}

export function permuted(st: State, x: Tensor | readonly unknown[], options?: { axis?: number }): Tensor {
  const fn = 'Generator.permuted';
  const opts = checkOptions(fn, options, ['axis']);
  single(st, fn);
  const t = x instanceof Tensor ? x : Array.isArray(x) ? tensorFrom(fn, 'x', x) : fail('type', fn, 'x', 'must be an array or a Tensor', x);
  if (opts.axis === undefined) {
    if (t.size === 0 || t.ndim === 0) return draw(st, fn, () => new Tensor(t.data.slice() as Tensor['data'], t.shape, t.dtype as DType));
    const flat = t.reshape([t.size]);
    return draw(st, fn, (k, modes) => permutationData(k, flat, 0, true, modes).reshape(t.shape));
  }
  const axis = checkAxis(fn, 'axis', opts.axis, Math.max(t.ndim, 1));
  if (t.ndim === 0) fail('range', fn, 'x', 'must be at least 1-dimensional (or an integer)', x);   // random.permutation's check
  return draw(st, fn, (k, modes) => permutationData(k, t, axis, true, modes));
}

export function permutation(st: State, x: number | Tensor | readonly unknown[], options?: { axis?: number }): Tensor {
  const fn = 'Generator.permutation';
  const opts = checkOptions(fn, options, ['axis']);
  single(st, fn);
  if (typeof x === 'number') {
    if (opts.axis !== undefined) checkAxis(fn, 'axis', opts.axis, 1);
    checkInteger(fn, 'x', x);
    if (x < 0) fail('range', fn, 'x', 'must be a non-negative integer', x);
    checkCount(fn, 'x', x);   // random.permutation's limit on a range
    return draw(st, fn, (k, modes) => permutationData(k, x, 0, false, modes));
  }
  const t = x instanceof Tensor ? x : Array.isArray(x) ? tensorFrom(fn, 'x', x) : fail('type', fn, 'x', 'must be an integer, an array or a Tensor', x);
  if (t.ndim === 0) fail('range', fn, 'x', 'must have at least 1 dimension (or be an integer)', x);
  const axis = checkAxis(fn, 'axis', opts.axis ?? 0, t.ndim);
  return draw(st, fn, (k, modes) => permutationData(k, t, axis, false, modes));
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
