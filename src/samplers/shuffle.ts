import { checkOptions, fail } from '../checks.js';
import { getModes } from '../config.js';
import { permutation } from '../random/permutation.js';
import { Tensor, tensor } from '../tensor/tensor.js';
import { sanitize, type Seed } from './seeds.js';

/**
 * `value` with its slices along axis 0 in a random order (TFP's `samplers.shuffle`).
 * Implemented as `random.permutation(key, value)` (axis 0, slices kept whole), so the order is
 * JAX's permutation, bit for bit. TFP instead draws uniform sort keys of length `shape[0]` and
 * argsorts them; both are uniform over orderings, but the orders differ.
 *
 * @param value an array, typed array or Tensor of rank ≥ 1; not modified.
 * @throws TypeError for a bad seed or a `value` that is not an array; RangeError for a scalar.
 * @example
 * samplers.shuffle([1, 2, 3, 4], { seed: 0 });          // → Tensor float64 [4], a reordering
 * samplers.shuffle(tensor([[1, 2], [3, 4]]), { seed: 0 }); // rows reordered, each kept whole
 */
export function shuffle(value: Tensor | readonly unknown[] | ArrayLike<number>, options?: { seed?: Seed }): Tensor {
  const fn = 'samplers.shuffle';
  if (!(value instanceof Tensor) && !Array.isArray(value) && !(ArrayBuffer.isView(value) && !(value instanceof DataView))) {
    fail('type', fn, 'value', 'must be an array, a typed array or a Tensor', value);
  }
  const t = tensor(value);
  if (t.ndim === 0) fail('range', fn, 'value', 'must be at least 1-dimensional', value);
  const opts = checkOptions(fn, options, ['seed']);
  const key = sanitize(fn, opts.seed, undefined, getModes());
  return permutation(key, t);
}
