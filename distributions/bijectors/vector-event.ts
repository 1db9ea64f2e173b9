/** Shape helpers of the bijectors that map vectors to vectors one entry longer (SoftmaxCentered, SumToZero). */
import { fail } from '../../src/checks.js';
import type { Tensor } from '../../src/tensor/tensor.js';

/** The length of `t`'s last axis; a RangeError naming `fn` and `arg` for a scalar. */
export function vectorLength(fn: string, arg: string, t: Tensor): number {
  if (t.ndim < 1) fail('range', fn, arg, 'must have at least one dimension (a vector event)', t.ndim === 0 ? t.item() : t);
  return t.shape[t.ndim - 1]!;
}

/** `shape` with its last entry changed by `delta` (±1): the event shape through such a bijector. */
export function lastDimShifted(fn: string, shape: readonly number[], delta: 1 | -1): number[] {
  const s = [...shape];
  if (s.length === 0) fail('range', fn, 'shape', 'must have rank at least 1', shape);
  if (delta < 0 && s[s.length - 1]! < 1) fail('range', fn, 'shape', 'must have rank at least 1 and a nonzero last dimension', shape);
  s[s.length - 1]! += delta;
  return s;
}
