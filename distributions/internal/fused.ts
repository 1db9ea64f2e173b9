/**
 * Element-wise computations over broadcast parameters that record ONE tape node with analytic
 * partials (Stan's operands-and-partials): the log densities, cdfs and quantiles of scalar
 * distributions are written as a scalar kernel, and this file handles broadcasting, dtype,
 * and the gradient. Partials are computed lazily, in the backward pass only.
 */
import { broadcastIndex, broadcastShapes } from '../../src/tensor/broadcast.js';
import { applyLowering, isTracked } from '../../src/tensor/core.js';
import type { Elementwise, Hoisted, Lowering } from '../../src/tensor/lowering.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import type { Tensor } from '../../src/tensor/tensor.js';

/** A scalar function of up to four arguments (unused trailing arguments are 0). */
export type ScalarFn = (a: number, b: number, c: number, d: number) => number;

/**
 * Writes ∂f/∂argᵢ into `out[i]` for each argument, given the arguments and the value `y`.
 * Entries for arguments that need no gradient may be left unwritten.
 */
export type ScalarPartials = (out: Float64Array, a: number, b: number, c: number, d: number, y: number) => void;

const ZERO = new Float64Array(1);

/**
 * An optional hand-written value loop for hot densities: fills `out` (length n) from the argument
 * arrays and their strides (1: one value per element; 0: a single value), typically hoisting
 * per-parameter work when the parameters are scalars. It must give `f`'s bits: compiled code
 * calls `f` (or `hoisted`) instead.
 */
export type BulkFill = (out: Float64Array | Float32Array, n: number, values: readonly ArrayLike<number>[], strides: readonly number[]) => void;

/** Faster forms of a fused function, each with its bits (see `Elementwise`'s fused kind). */
export interface FusedForms {
  readonly fill?: BulkFill;
  readonly hoisted?: Hoisted;
  readonly partialOf?: Extract<Elementwise, { kind: 'fused' }>['partialOf'];
}

/**
 * `f` applied element-wise to the broadcast of `args` (named for shape errors), as one tape node
 * whose partials come from `partials` (omit it for a function that is not differentiated, such
 * as a cdf of a discrete distribution in its value). The result is float32 only when every
 * argument is float32. `forms` are faster forms of `f` and `partials` with their bits.
 */
export function fusedMap(fn: string, args: readonly (readonly [string, Tensor])[], f: ScalarFn, partials?: ScalarPartials, forms: FusedForms = {}): Tensor {
  const shape = broadcastShapes(fn, args.map(([name, t]) => [name, t.shape] as const));
  const tensors = args.map(([, t]) => t);
  const tracked = tensors.map(isTracked);
  const grads = partials !== undefined && tracked.some(Boolean);
  const op = fusedLowering(fn, shape, tensors, f, grads ? partials : undefined, tracked, forms);
  return applyLowering(op, tensors, shape, op.n);
}

/**
 * fusedMap's kernel with its broadcast fixed: operands of the output's size are read at k, size-1
 * operands at 0, others through an index map (gathered into scratch first, as `broadcastData`
 * would copy them); partials go to every tracked operand, summed back to its shape.
 */
function fusedLowering(
  fn: string, shape: readonly number[], tensors: readonly Tensor[], f: ScalarFn, partials: ScalarPartials | undefined,
  tracked: readonly boolean[], { fill, hoisted, partialOf }: FusedForms,
): Lowering & { readonly n: number } {
  const n = sizeOf(shape);
  const m = tensors.length;
  const { index, strides, values, load } = broadcastLoader(shape, tensors, 4);
  const [sa, sb, sc, sd] = strides as [number, number, number, number];
  // Full-size partials per tracked operand (written in place when the operand is full size).
  const full = tensors.map((t, i) => (tracked[i] && t.size !== n ? new Float64Array(n) : null));
  const p = new Float64Array(4);
  return {
    name: fn,
    n,
    elementwise: { kind: 'fused' as const, f, partials: partials ?? null, fill: fill ?? null, hoisted: hoisted ?? null, partialOf: partialOf ?? null, maps: index },
    forward(ins, out) {
      load(ins);
      const [va, vb, vc, vd] = values as [ArrayLike<number>, ArrayLike<number>, ArrayLike<number>, ArrayLike<number>];
      if (fill !== undefined) fill(out as Float64Array, n, values, strides);
      else if (hoisted !== undefined && hoisted.of.every((j) => strides[j] === 0)) {
        const h = hoisted.h(values[hoisted.of[0]!]![0]!, hoisted.of.length > 1 ? values[hoisted.of[1]!]![0]! : 0), core = hoisted.core;
        for (let k = 0; k < n; k++) out[k] = core(va[k * sa]!, vb[k * sb]!, vc[k * sc]!, vd[k * sd]!, h);
      } else for (let k = 0; k < n; k++) out[k] = f(va[k * sa]!, vb[k * sb]!, vc[k * sc]!, vd[k * sd]!);
    },
    ...(partials === undefined ? {} : {
      backward(g: Float64Array, ins: readonly ArrayLike<number>[], out: ArrayLike<number>, parts: readonly (Float64Array | null)[]) {
        load(ins);
        const [va, vb, vc, vd] = values as [ArrayLike<number>, ArrayLike<number>, ArrayLike<number>, ArrayLike<number>];
        const dst = parts.map((part, i) => (part === null ? null : full[i] ?? part));
        for (let i = 0; i < m; i++) dst[i]?.fill(0);
        for (let k = 0; k < n; k++) {
          if (g[k] === 0) continue;
          p.fill(0);
          partials(p, va[k * sa]!, vb[k * sb]!, vc[k * sc]!, vd[k * sd]!, out[k]!);
          for (let i = 0; i < m; i++) { const gi = dst[i]; if (gi) gi[k] = g[k]! * p[i]!; }
        }
        for (let i = 0; i < m; i++) {       // sum broadcast operands back to their shape
          const part = parts[i], gi = full[i];
          if (!part || !gi) continue;
          if (part.length === 1) { let s = 0; for (let k = 0; k < n; k++) s += gi[k]!; part[0] = s; continue; }
          const map = index[i]!;
          part.fill(0);
          for (let k = 0; k < n; k++) part[map[k]!]! += gi[k]!;
        }
      },
    }),
  };
}

/**
 * How a fused kernel reads operands broadcast to `shape`: operands of the output's size or of
 * size 1 in place (stride 1 or 0), others gathered through an index map into scratch (as
 * `broadcastData` would copy them). `load(ins)` fills `values` (padded with zeros to `slots`).
 */
/** What a broadcast loader reads of an operand: its shape and size (a Tensor, or that alone where a kernel is remade from shapes). */
export interface Operand { readonly shape: readonly number[]; readonly size: number }

export function broadcastLoader(shape: readonly number[], tensors: readonly Operand[], slots: number) {
  const n = sizeOf(shape), m = tensors.length;
  const index = tensors.map((t) => (t.size === n || t.size === 1 ? null : broadcastIndex(t.shape, shape)));
  const strides = tensors.map((t, i) => (t.size === n || index[i] !== null ? 1 : 0));
  while (strides.length < slots) strides.push(0);
  const scratch = index.map((idx) => (idx === null ? null : new Float64Array(n)));
  const values: ArrayLike<number>[] = new Array(Math.max(slots, m)).fill(ZERO);
  return {
    index, strides, values,
    load: (ins: readonly ArrayLike<number>[]): void => {
      for (let i = 0; i < m; i++) {
        const idx = index[i], src = ins[i]!;
        if (idx === null) { values[i] = src; continue; }
        const dst = scratch[i]!;
        for (let k = 0; k < n; k++) dst[k] = src[idx[k]!]!;
        values[i] = dst;
      }
    },
  };
}
