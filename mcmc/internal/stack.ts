/** Stacking per-step records (tensors, numbers, booleans, arrays and records of them) along a new leading axis. */
import { Tensor } from '../../src/tensor/tensor.js';

/** What a trace function may return: tensors, numbers and booleans in arrays and plain records. */
export type Trace = Tensor | number | boolean | readonly Trace[] | { readonly [key: string]: Trace } | undefined;

/**
 * The type of `Trace` records of type `T` stacked by {@link stackTrees}: tensors, numbers and
 * booleans become tensors with a leading axis; arrays and records keep their structure.
 */
export type Stacked<T> = [Trace] extends [T] ? Trace   // the untyped case (and the recursion's end)
  : T extends Tensor | number | boolean ? Tensor
  : T extends undefined ? undefined
  : T extends readonly unknown[] ? { -readonly [I in keyof T]: Stacked<T[I]> }
  : { readonly [K in keyof T]: Stacked<T[K]> };

export function stackTrees(items: readonly Trace[]): Trace {
  const first = items[0];
  if (first === undefined) return undefined;
  if (first instanceof Tensor) {
    const ts = items as readonly Tensor[];
    const size = first.size;
    const Ctor = first.data.constructor as new (n: number) => Float64Array;
    const out = new Ctor(size * ts.length);
    ts.forEach((t, i) => out.set(t.data as Float64Array, i * size));
    return new Tensor(out as never, [ts.length, ...first.shape], first.dtype);
  }
  if (typeof first === 'number') return new Tensor(Float64Array.from(items as number[]), [items.length], 'float64');
  if (typeof first === 'boolean') return new Tensor(Uint8Array.from(items as boolean[], (b) => (b ? 1 : 0)), [items.length], 'bool');
  if (Array.isArray(first)) return first.map((_, j) => stackTrees(items.map((it) => (it as readonly Trace[])[j])));
  const rec = first as { readonly [key: string]: Trace };
  return Object.fromEntries(Object.keys(rec).map((k) => [k, stackTrees(items.map((it) => (it as { readonly [key: string]: Trace })[k]))]));
}
