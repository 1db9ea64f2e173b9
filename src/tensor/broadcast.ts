import { fail } from '../checks.js';
import { allocate, type TensorData } from './dtype.js';
import { sizeOf } from './shapes.js';
import type { Tensor } from './tensor.js';

/** NumPy broadcasting of several named shapes, or a RangeError naming the arguments and shapes. */
export function broadcastShapes(fn: string, named: readonly (readonly [string, readonly number[]])[]): number[] {
  const ndim = Math.max(0, ...named.map(([, s]) => s.length));
  const out = new Array<number>(ndim).fill(1);
  for (const [, s] of named) {
    for (let i = 0; i < s.length; i++) {
      const j = ndim - s.length + i;
      const d = s[i]!;
      if (d === out[j] || d === 1) continue;
      if (out[j] === 1) { out[j] = d; continue; }
      const desc = named.map(([n, sh]) => `\`${n}\` [${sh.join(', ')}]`).join(' and ');
      throw new RangeError(`${fn}: the shapes of ${desc} do not broadcast together`);
    }
  }
  return out;
}

/** Strides of `shape` viewed inside the broadcast shape `out` (0 along stretched or absent axes). */
export function broadcastStrides(shape: readonly number[], out: readonly number[]): number[] {
  const strides = new Array<number>(out.length).fill(0);
  const offset = out.length - shape.length;
  for (let i = shape.length - 1, s = 1; i >= 0; i--) {
    strides[offset + i] = shape[i] === 1 ? 0 : s;
    s *= shape[i]!;
  }
  return strides;
}

/**
 * Calls `visit(k, ia, ib)` for every flat index k of the broadcast shape `out` with the matching
 * flat indices into two operands of the given strides (an odometer; no per-element allocation).
 */
export function forEachBroadcast(
  out: readonly number[], sa: readonly number[], sb: readonly number[], visit: (k: number, ia: number, ib: number) => void,
): void {
  const size = sizeOf(out);
  const nd = out.length;
  const index = new Array<number>(nd).fill(0);
  let ia = 0, ib = 0;
  for (let k = 0; k < size; k++) {
    visit(k, ia, ib);
    for (let ax = nd - 1; ax >= 0; ax--) {
      index[ax]!++;
      ia += sa[ax]!;
      ib += sb[ax]!;
      if (index[ax]! < out[ax]!) break;
      ia -= sa[ax]! * index[ax]!;
      ib -= sb[ax]! * index[ax]!;
      index[ax] = 0;
    }
  }
}

/**
 * An adjoint of the broadcast shape `from` summed down to `to` (the gradient of broadcasting):
 * stretched and leading axes are summed over. Returns `g` itself when nothing is summed.
 */
export function reduceToShape(g: Float64Array, from: readonly number[], to: readonly number[]): Float64Array {
  const toSize = sizeOf(to);
  return toSize === g.length ? g : reduceToShapeInto(new Float64Array(toSize), g, from, to);
}

/** {@link reduceToShape} written into `out` (of `to`'s size), which it returns. */
export function reduceToShapeInto(out: Float64Array, g: Float64Array, from: readonly number[], to: readonly number[]): Float64Array {
  if (out.length === g.length) { out.set(g); return out; }
  if (out.length === 1) {
    let s = 0;
    for (let i = 0; i < g.length; i++) s += g[i]!;
    out[0] = s;
    return out;
  }
  out.fill(0);
  const st = broadcastStrides(to, from);
  const zero = new Array<number>(from.length).fill(0);
  forEachBroadcast(from, st, zero, (k, it) => { out[it]! += g[k]!; });
  return out;
}

/** Flat index into a tensor of `shape` for every element of the broadcast shape `to`. */
export function broadcastIndex(shape: readonly number[], to: readonly number[]): Int32Array {
  const idx = new Int32Array(sizeOf(to));
  forEachBroadcast(to, broadcastStrides(shape, to), new Array<number>(to.length).fill(0), (k, i) => { idx[k] = i; });
  return idx;
}

/**
 * The values of `t` broadcast to `shape` by NumPy's rules, copied into fresh row-major storage of
 * the same dtype. Throws a RangeError naming `fn` and `arg` when the shapes do not broadcast.
 */
export function broadcastData(fn: string, arg: string, t: Tensor, shape: readonly number[]): TensorData {
  const offset = shape.length - t.ndim;
  if (offset < 0 || t.shape.some((d, i) => d !== 1 && d !== shape[offset + i])) {
    fail('range', fn, arg, `of shape [${t.shape.join(', ')}] must broadcast to shape [${shape.join(', ')}]`, t);
  }
  const size = sizeOf(shape);
  const out = allocate(t.dtype, size);
  if (t.size === size) { out.set(t.data as never); return out; }
  const src = broadcastStrides(t.shape, shape);
  const zero = new Array<number>(shape.length).fill(0);
  forEachBroadcast(shape, src, zero, (k, i) => { out[k] = t.data[i]! as never; });
  return out;
}
