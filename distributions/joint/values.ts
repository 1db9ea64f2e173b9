/**
 * Value structures shared by the joint distributions, the pinned distribution and the joint
 * bijector (kept apart from the classes to avoid import cycles).
 */
import { asTensor, type TensorLike } from '../../src/tensor/core.js';
import type { DType } from '../../src/tensor/dtype.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { Distribution } from '../distribution.js';

/** How a joint distribution structures its values: an array in node order, or a record by node name. */
export type StructKind = 'array' | 'record';
/** One T per node: an array in node order, or a record keyed by node name. */
export type Struct<K extends StructKind, T> = K extends 'array' ? T[] : Record<string, T>;
/** A node's value as given by a caller: `null`/`undefined` means "not given". */
export type ValueLike = TensorLike | null | undefined;
/**
 * Values for some or all nodes: an array in node order (array-structured models only), a record
 * keyed by node name, or a single tensor/number when exactly one node is expected.
 */
export type PartialValues = readonly ValueLike[] | Readonly<Record<string, ValueLike>> | Tensor | number;

/** A plain `{ ... }` record (not an array, tensor, typed array or class instance). */
export function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== 'object' || Array.isArray(x) || x instanceof Tensor || ArrayBuffer.isView(x)) return false;
  const proto: unknown = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/** The `name` a distribution was given explicitly (TFP's `get_explicit_name_for_component`), if any. */
export function explicitName(d: Distribution): string | undefined {
  const n = d.parameters.name;
  return typeof n === 'string' && n !== '' && !n.includes(d.constructor.name) ? n : undefined;
}

/** A caller's value for a node as a tensor: Tensors are kept as given (with their tape node); others get the node's dtype. */
export function toValue(fn: string, arg: string, dtype: DType, v: TensorLike): Tensor {
  if (v instanceof Tensor) return v;
  const t = asTensor(fn, arg, v);
  return t.dtype === dtype ? t : t.astype(dtype);
}
