/**
 * What the diagnostics accept and how they walk it. Draws are in TFP layout, `[draws, chains,
 * ...event]` per state part (a rank-1 part is one chain, `[draws]`), given as a `Tensor`, a
 * typed array (one chain) or nested arrays of numbers; several parts come as an array of
 * tensors or a record of named parts, and results come back in the same structure.
 */
import { fail } from '../../src/checks.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import type { Chains } from './internal/chains.js';

/** A typed array of numbers (read as float64). */
export type NumericArray =
  | Float64Array | Float32Array | Int8Array | Int16Array | Int32Array | Uint8Array | Uint16Array | Uint32Array
  | BigInt64Array | BigUint64Array;

/** Rectangular nested arrays of numbers, e.g. `[[d0c0, d0c1], [d1c0, d1c1], ...]`. */
export type NestedNumbers = readonly (number | NestedNumbers)[];

/** One state part's draws: `[draws, chains, ...event]` (or `[draws]` for a single chain). */
export type Draws = Tensor | NumericArray | NestedNumbers;

/** One part, an array of parts (tensors or typed arrays), or a record of named parts. */
export type DrawsStructure = Draws | readonly (Tensor | NumericArray)[] | { readonly [name: string]: Draws };

/** The result structure: one `R` per part, shaped like the input structure. */
export type MapStructure<S, R> = S extends Draws
  ? R
  : S extends readonly unknown[]
    ? R[]
    : { -readonly [K in keyof S]: R };

function isTypedArray(x: unknown): x is NumericArray {
  return ArrayBuffer.isView(x) && !(x instanceof DataView);
}

function isPart(x: unknown): x is Tensor | NumericArray {
  return x instanceof Tensor || isTypedArray(x);
}

function isRecord(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== 'object' || Array.isArray(x) || isPart(x)) return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/** True when `x` is an array of parts rather than one part given as nested number arrays. */
export function isPartList(x: unknown): x is readonly (Tensor | NumericArray)[] {
  return Array.isArray(x) && x.length > 0 && x.every(isPart);
}

/** True when `x` is a record of named parts. */
export function isPartRecord(x: unknown): x is { readonly [name: string]: Draws } {
  return isRecord(x);
}

/** One part as a Tensor (typed arrays wrapped without copying; nested arrays converted). */
export function toTensor(fn: string, arg: string, x: unknown): Tensor {
  if (x instanceof Tensor) return x;
  if (isTypedArray(x)) return new Tensor(x, [x.length]);
  if (Array.isArray(x)) {
    let t: Tensor | undefined;
    try {
      t = tensor(x);
    } catch {
      t = undefined;
    }
    if (t !== undefined && t.dtype !== 'bool') return t;
  }
  return fail('type', fn, arg, 'must be a Tensor, a typed array or rectangular nested arrays of numbers', x);
}

/**
 * Applies `f` to every part of `states` (`arg` names the argument in errors) and returns the
 * results in the same structure: a single value, an array, or a record with the same keys.
 */
export function mapStructure<R>(
  fn: string,
  arg: string,
  states: unknown,
  f: (part: Tensor, where: string, key: number | string | undefined) => R,
): R | R[] | Record<string, R> {
  if (Array.isArray(states) && states.length === 0) return [];
  if (isPartList(states)) return states.map((s, i) => f(toTensor(fn, `${arg}[${i}]`, s), `${arg}[${i}]`, i));
  if (isRecord(states)) {
    const out: Record<string, R> = {};
    for (const [k, v] of Object.entries(states)) out[k] = f(toTensor(fn, `${arg}.${k}`, v), `${arg}.${k}`, k);
    return out;
  }
  if (states instanceof Tensor || isTypedArray(states) || Array.isArray(states)) {
    return f(toTensor(fn, arg, states), arg, undefined);
  }
  return fail('type', fn, arg, 'must be a Tensor, an array of Tensors or a record of named Tensors', states);
}

/**
 * A per-part option: for an array of parts, an array option gives one value per part; for a
 * record of parts, a record option gives one per key; anything else applies to every part.
 */
export function partOption<T>(fn: string, arg: string, states: unknown, value: unknown, key: number | string | undefined): T {
  if (typeof key === 'number' && isPartList(states) && Array.isArray(value)) {
    if (value.length !== states.length) {
      fail('range', fn, arg, `must give one value per state part (${states.length})`, value);
    }
    return value[key] as T;
  }
  if (typeof key === 'string' && isRecord(value)) {
    if (!(key in value)) fail('range', fn, arg, `has no entry for state part '${key}'`, value);
    return value[key] as T;
  }
  return value as T;
}

/** The values of a tensor as float64 (the tensor's own array when it already is one). */
export function float64Values(t: Tensor): Float64Array {
  if (t.data instanceof Float64Array) return t.data;
  // the engine's typed-array conversion (the same numbers as Number(v), many times faster); 64-bit integers below
  if (!(t.data instanceof BigInt64Array || t.data instanceof BigUint64Array)) return new Float64Array(t.data as ArrayLike<number>);
  const out = new Float64Array(t.size);
  for (let i = 0; i < out.length; i++) out[i] = Number(t.data[i]!);
  return out;
}

/** `[draws, chains, ...event]` read off one part (a rank-1 part is one chain). */
export interface DrawsLayout {
  readonly draws: number;
  readonly chains: number;
  readonly eventShape: readonly number[];
  readonly eventSize: number;
}

export function drawsLayout(fn: string, where: string, t: Tensor): DrawsLayout {
  if (t.ndim === 0) {
    fail('range', fn, where, 'must have shape [draws, chains, ...event] (or [draws] for one chain), not a scalar', [...t.shape]);
  }
  const draws = t.shape[0]!;
  const chains = t.ndim === 1 ? 1 : t.shape[1]!;
  if (draws === 0 || chains === 0) {
    fail('range', fn, where, 'must have shape [draws, chains, ...event] with at least one draw and one chain', [...t.shape]);
  }
  const eventShape = t.shape.slice(2);
  return { draws, chains, eventShape, eventSize: sizeOf(eventShape) };
}

/** Element `e` of the event as a chain-major (chain, draw) matrix. */
export function componentChains(values: Float64Array, layout: DrawsLayout, e: number): Chains {
  const { draws, chains, eventSize } = layout;
  const out = new Float64Array(draws * chains);
  for (let d = 0; d < draws; d++) {
    for (let c = 0; c < chains; c++) out[c * draws + d] = values[(d * chains + c) * eventSize + e]!;
  }
  return { data: out, chains, draws };
}

/** Applies a per-variable statistic to every event element; returns a float64 Tensor of the event shape. */
export function perComponent(fn: string, where: string, part: Tensor, stat: (a: Chains) => number): Tensor {
  const layout = drawsLayout(fn, where, part);
  const values = float64Values(part);
  const out = new Float64Array(layout.eventSize);
  for (let e = 0; e < layout.eventSize; e++) out[e] = stat(componentChains(values, layout, e));
  return new Tensor(out, layout.eventShape, 'float64');
}
