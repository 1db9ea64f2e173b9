import type { Modes } from '../config.js';
import { allocate, dtypeOfData, type TensorData } from '../tensor/dtype.js';
import { splitKeys, type KeyArray } from './key-array.js';
import { detLog } from '../math/index.js';
import { sizeOf } from '../tensor/shapes.js';

/** Sort rounds of JAX's shuffle: ceil(3·ln(max(1, n)) / ln(2^32 − 1)), for n values in all. */
export function shuffleRounds(n: number): number {
  return Math.ceil((3 * detLog(Math.max(1, n))) / detLog(4294967295));
}

/** Lane positions `[0, L)` ordered by `sortKeys` with ties kept in place (a stable sort). */
function stableOrder(sortKeys: ArrayLike<number>, length: number): Uint32Array {
  const order = new Uint32Array(length);
  if (length <= 2 ** 21) {
    // Pack key and position into one exact double (32 + 21 bits) and sort numerically.
    const packed = new Float64Array(length);
    for (let j = 0; j < length; j++) packed[j] = sortKeys[j]! * 2097152 + j;
    packed.sort();
    for (let j = 0; j < length; j++) order[j] = packed[j]! % 2097152;
    return order;
  }
  for (let j = 0; j < length; j++) order[j] = j;
  return order.sort((a, b) => sortKeys[a]! - sortKeys[b]! || a - b);
}

/**
 * JAX's `_shuffle`: `rounds` times, `key, sub = split(key)`, draw 32-bit sort keys for every
 * element from `sub`, and stably sort each lane along `axis` by them (TF's sort-based shuffle).
 * Returns new storage; `data` is not modified.
 */
export function shuffleData(
  key: KeyArray, data: TensorData, shape: readonly number[], axis: number, modes: Modes,
): TensorData {
  const size = data.length;
  const length = shape[axis] ?? 1;
  const inner = sizeOf(shape.slice(axis + 1));
  const outer = length === 0 ? 0 : size / (length * inner);
  let x = data.slice() as TensorData;
  let k = key;
  const laneKeys = new Uint32Array(length);
  for (let round = 0; round < shuffleRounds(size); round++) {
    const [kept, sub] = splitKeys(k, 2, modes) as [KeyArray, KeyArray];
    k = kept;
    const sortKeys = sub.impl.bits(sub.data, 32, size, modes) as Uint32Array;
    const next = allocate(dtypeOfData(x), size);
    for (let o = 0; o < outer; o++) {
      for (let i = 0; i < inner; i++) {
        const base = o * length * inner + i;
        for (let j = 0; j < length; j++) laneKeys[j] = sortKeys[base + j * inner]!;
        const order = stableOrder(laneKeys, length);
        for (let j = 0; j < length; j++) next[base + j * inner] = x[base + order[j]! * inner]! as never;
      }
    }
    x = next;
  }
  return x;
}
