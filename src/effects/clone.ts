/**
 * Copying values across threads and through time: effect arguments are copied when the effect
 * is issued, and chain results cross from workers to the main thread. `structuredClone` keeps
 * numbers, strings, typed arrays, arrays and plain objects but drops class prototypes, so
 * tensors and keys are written as tagged plain records on the way out and rebuilt on the way in.
 */
import { fail } from '../checks.js';
import { IMPLS, KeyArray } from '../random/key-array.js';
import type { ImplName } from '../random/impl.js';
import { Tensor } from '../tensor/tensor.js';
import type { DType, TensorData } from '../tensor/dtype.js';

const TAG = '$stochax';

/** A structured-cloneable stand-in for a value holding tensors and keys (see {@link encodeValue}). */
export type Encoded = unknown;

type TypedArray = TensorData | Uint32Array;

function isPlainObject(x: object): boolean {
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/** The typed array itself when it spans its whole buffer, else a compact copy (so cloning copies only what it shows). */
function compact<A extends TypedArray>(a: A): A {
  return (a.byteOffset === 0 && a.byteLength === a.buffer.byteLength ? a : a.slice()) as A;
}

/**
 * Rewrites `value` into structured-cloneable form: a `Tensor` becomes `{ $stochax: 'Tensor',
 * dtype, shape, data }`, a `KeyArray` `{ $stochax: 'KeyArray', impl, shape, data }` (tape nodes
 * are dropped), arrays and plain objects are rewritten element by element, and primitives,
 * typed arrays and other cloneable built-ins pass through. Buffers are meant to be copied, never
 * transferred: transferring detaches the sender's ArrayBuffer, and in V8 one detached buffer
 * makes every typed-array access in that thread ~15% slower for the rest of its life.
 *
 * @param fn - the public function, for errors.
 * @param arg - the argument being encoded, for errors.
 * @throws TypeError naming `fn` and the offending path for functions, symbols and class
 *   instances other than tensors, keys, typed arrays, dates, maps, sets and errors.
 * @example
 * const e = encodeValue('effects.callback', 'args', { x: tensor([1, 2]) });
 * decodeValue(structuredClone(e)); // → { x: Tensor float64 [2] }
 */
export function encodeValue(fn: string, arg: string, value: unknown): Encoded {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function' || typeof value === 'symbol') {
      fail('type', fn, arg, 'must be cloneable (tensors, keys, numbers, strings, booleans, typed arrays, arrays and plain objects of them), not a function or symbol', value);
    }
    return value;
  }
  if (value instanceof Tensor) {
    const data = compact(value.data as TypedArray);
    return { [TAG]: 'Tensor', dtype: value.dtype, shape: [...value.shape], data };
  }
  if (value instanceof KeyArray) {
    const data = compact(value.data);
    return { [TAG]: 'KeyArray', impl: value.impl.name, shape: [...value.shape], data };
  }
  if (Array.isArray(value)) return value.map((v, i) => encodeValue(fn, `${arg}[${i}]`, v));
  if (ArrayBuffer.isView(value) || value instanceof Date || value instanceof Map || value instanceof Set
    || value instanceof Error || value instanceof ArrayBuffer || value instanceof RegExp) {
    return value;
  }
  if (!isPlainObject(value)) {
    fail('type', fn, arg, 'must be cloneable (tensors, keys, numbers, strings, booleans, typed arrays, arrays and plain objects of them)', value);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = encodeValue(fn, `${arg}.${k}`, v);
  return out;
}

/**
 * Rebuilds tensors and keys in a value written by {@link encodeValue} (after it has been cloned
 * or posted). The typed arrays are adopted, not copied.
 *
 * @example
 * const t = decodeValue(structuredClone(encodeValue('f', 'x', tensor([1, 2])))) as Tensor;
 * t.shape; // [2]
 */
export function decodeValue(value: Encoded): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(decodeValue);
  if (!isPlainObject(value)) return value;
  const rec = value as Record<string, unknown>;
  if (rec[TAG] === 'Tensor') return new Tensor(rec.data as Tensor['data'], rec.shape as number[], rec.dtype as DType);
  if (rec[TAG] === 'KeyArray') return new KeyArray(IMPLS[rec.impl as ImplName], rec.data as Uint32Array, rec.shape as number[]);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) out[k] = decodeValue(v);
  return out;
}

/**
 * A deep copy of `value` with its own storage: tensors stay tensors and keys stay keys
 * (`decodeValue(structuredClone(encodeValue(value)))`). Effects copy their arguments with this
 * when they are issued, so later changes to the originals do not show in what is delivered.
 *
 * @throws TypeError naming `fn` and `arg` for values that cannot be cloned.
 * @example
 * const x = tensor([1, 2]);
 * const y = copyValue('effects.callback', 'args', x) as Tensor;
 * y.data === x.data; // false
 */
export function copyValue(fn: string, arg: string, value: unknown): unknown {
  return decodeValue(structuredClone(encodeValue(fn, arg, value)));
}
