import { fail } from '../checks.js';
import { allocate, type TensorData } from './dtype.js';
import type { Tensor } from './tensor.js';

/**
 * The values of `t` broadcast to `shape` by NumPy's rules (trailing axes align; size-1 axes
 * stretch), copied into fresh row-major storage of the same dtype. Throws a RangeError naming
 * `fn` and `arg` when the shapes do not broadcast.
 */
export function broadcastData(fn: string, arg: string, t: Tensor, shape: readonly number[]): TensorData {
  const offset = shape.length - t.ndim;
  if (offset < 0 || t.shape.some((d, i) => d !== 1 && d !== shape[offset + i])) {
    fail('range', fn, arg, `of shape [${t.shape.join(', ')}] must broadcast to shape [${shape.join(', ')}]`, t);
  }
  const size = shape.reduce((a, b) => a * b, 1);
  const out = allocate(t.dtype, size);
  if (t.size === size) { out.set(t.data as never); return out; }
  // Source stride per output axis (0 where the source is stretched or absent).
  const strides = new Array<number>(shape.length).fill(0);
  for (let i = t.ndim - 1, s = 1; i >= 0; i--) {
    strides[offset + i] = t.shape[i] === 1 ? 0 : s;
    s *= t.shape[i]!;
  }
  const index = new Array<number>(shape.length).fill(0);
  let src = 0;
  for (let k = 0; k < size; k++) {
    out[k] = t.data[src]! as never;
    for (let ax = shape.length - 1; ax >= 0; ax--) {   // odometer increment
      index[ax]!++;
      src += strides[ax]!;
      if (index[ax]! < shape[ax]!) break;
      src -= strides[ax]! * index[ax]!;
      index[ax] = 0;
    }
  }
  return out;
}
