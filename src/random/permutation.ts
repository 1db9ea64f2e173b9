import { checkAxis, checkBoolean, checkCount, checkOptions, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import { allocate, type DType, type IntDType, type TensorData } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor, tensor } from '../tensor/tensor.js';
import { checkKey, type KeyArray } from './key-array.js';
import { shuffleData } from './shuffle.js';

/** The default integer dtype: int64 in x64 mode, int32 in x32 mode (JAX's `int`). */
export function defaultIntDtype(modes: Modes): IntDType {
  return modes.x64 ? 'int64' : 'int32';
}

/** `[0, 1, ..., n-1]` in the default integer dtype. */
export function arangeData(n: number, modes: Modes): TensorData {
  const out = allocate(defaultIntDtype(modes), n);
  if (out instanceof BigInt64Array) for (let i = 0; i < n; i++) out[i] = BigInt(i);
  else for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** Flat integer indices from integer storage (bigints included). */
export function indexList(data: TensorData): number[] {
  return Array.from(data as ArrayLike<number | bigint>, Number);
}

/**
 * `x` with index `ind[j]` of `axis` at position j: shape `x.shape[:axis] + indShape +
 * x.shape[axis+1:]` (`jnp.take`).
 */
export function takeAlong(x: Tensor, ind: readonly number[], indShape: readonly number[], axis: number): Tensor {
  const length = x.shape[axis]!;
  const inner = sizeOf(x.shape.slice(axis + 1));
  const outer = sizeOf(x.shape.slice(0, axis));
  const out = allocate(x.dtype, outer * ind.length * inner);
  let p = 0;
  for (let o = 0; o < outer; o++) {
    for (const j of ind) {
      const base = (o * length + j) * inner;
      for (let i = 0; i < inner; i++) out[p++] = x.data[base + i]! as never;
    }
  }
  return new Tensor(out, [...x.shape.slice(0, axis), ...indShape, ...x.shape.slice(axis + 1)], x.dtype);
}

/** Converts `x` to a tensor of rank ≥ 1 or throws naming `fn`. */
export function checkArrayArg(fn: string, arg: string, x: unknown): Tensor {
  if (!(x instanceof Tensor) && !Array.isArray(x) && !ArrayBuffer.isView(x)) {
    fail('type', fn, arg, 'must be a non-negative integer, an array or a Tensor', x);
  }
  const t = tensor(x);
  if (t.ndim === 0) fail('range', fn, arg, 'must be at least 1-dimensional (or an integer)', x);
  return t;
}

/**
 * A random permutation (`jax.random.permutation`), bit-exact with JAX 0.10.2: TF's sort-based
 * shuffle with ⌈3·ln(n)/ln(2³²−1)⌉ rounds, each `key, sub = split(key)` and a stable sort by
 * 32-bit keys from `sub`.
 *
 * - `x` an integer n: a shuffled `[0, n)` in the default int dtype (int64 in x64 mode).
 * - `x` an array or Tensor: its slices along `axis` shuffled together, or, with
 *   `independent: true`, each lane along `axis` shuffled on its own.
 *
 * @example
 * random.permutation(random.key(0), 5);                      // → Tensor int64 [5]
 * random.permutation(random.key(0), tensor([[1, 2], [3, 4]]), { axis: 1 });
 */
export function permutation(
  key: KeyArray, x: number | Tensor | readonly unknown[], options?: { axis?: number; independent?: boolean },
): Tensor {
  const fn = 'random.permutation';
  checkKey(fn, 'key', key);
  const opts = checkOptions(fn, options, ['axis', 'independent']);
  const independent = opts.independent === undefined ? false : checkBoolean(fn, 'independent', opts.independent);
  const modes = getModes();
  if (typeof x === 'number') {
    const n = checkCount(fn, 'x', x);
    if (opts.axis !== undefined) checkAxis(fn, 'axis', opts.axis, 1);
    return permutationData(key, n, 0, false, modes);
  }
  const t = checkArrayArg(fn, 'x', x);
  return permutationData(key, t, checkAxis(fn, 'axis', opts.axis ?? 0, t.ndim), independent, modes);
}

/**
 * The core of `permutation` (and of the Generator's `permutation`, `permuted` and `shuffle`),
 * for checked arguments: `x` a count (a shuffled range in the default int dtype) or a tensor of
 * rank ≥ 1 with `axis` in range.
 */
export function permutationData(key: KeyArray, x: number | Tensor, axis: number, independent: boolean, modes: Modes): Tensor {
  if (typeof x === 'number') {
    return new Tensor(shuffleData(key, arangeData(x, modes), [x], 0, modes) as TensorData, [x], defaultIntDtype(modes) as DType);
  }
  if (independent || x.ndim === 1) return new Tensor(shuffleData(key, x.data, x.shape, axis, modes), x.shape, x.dtype);
  const n = x.shape[axis]!;
  const ind = indexList(shuffleData(key, arangeData(n, modes), [n], 0, modes));
  return takeAlong(x, ind, [n], axis);
}
