/**
 * Reverse-mode automatic differentiation: `grad`, `valueAndGrad`, fused nodes with analytic
 * partials, `customGradient` and `checkGradient`. A tape records the ops run by the function
 * (through any JS control flow); one backward pass gives the gradient of a scalar output.
 */
import { checkFunction, checkNesting, fail } from '../checks.js';
import { broadcastData, broadcastIndex, reduceToShape } from './broadcast.js';
import { asTensor, numbers, result, tracing, type TensorLike } from './core.js';
import { isTraced, nestedGradError, type Lowering } from './lowering.js';
import { Tape, withTape } from './tape.js';
import { Tensor } from './tensor.js';

/**
 * Arguments may be tensors, numbers, arrays, or arrays and plain objects nesting them. An array
 * holding only numbers (at any depth) is one tensor, as everywhere in stochax; an array holding
 * tensors or objects is structure: `[tensor(1), tensor(2)]` has two leaves, `[1, 2]` one.
 */
export type Tree = TensorLike | readonly Tree[] | { readonly [key: string]: Tree };

/** The gradient of a tree: the same structure with a Tensor at every leaf. */
export type GradTree = Tensor | GradTree[] | { [key: string]: GradTree };

function isPlainObject(x: unknown): x is Record<string, Tree> {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && !(x instanceof Tensor) && !ArrayBuffer.isView(x)
    && Object.getPrototypeOf(x) === Object.prototype;
}

/** A leaf is a tensor, a number, or an array of numbers (an array of arrays of numbers too). */
function isLeaf(x: unknown): boolean {
  if (x instanceof Tensor || typeof x === 'number' || ArrayBuffer.isView(x)) return true;
  return Array.isArray(x) && x.length > 0 && [x].flat(Infinity).every((v) => typeof v === 'number');
}

/** The leaves of a tree in a fixed order, and a function that rebuilds the tree from new leaves. */
export function flattenTree(fn: string, arg: string, tree: unknown): { leaves: Tensor[]; rebuild: (leaves: Tensor[]) => GradTree } {
  checkNesting(fn, arg, tree); // before any recursion: a cycle or a 1e5-deep array would overflow the stack
  const leaves: Tensor[] = [];
  const build = (x: unknown, path: string): ((next: () => Tensor) => GradTree) => {
    if (isLeaf(x)) {
      leaves.push(asTensor(fn, path, x));
      return (next) => next();
    }
    if (Array.isArray(x)) {
      const parts = x.map((v, i) => build(v, `${path}[${i}]`));
      return (next) => parts.map((p) => p(next));
    }
    if (isPlainObject(x)) {
      const keys = Object.keys(x);
      const parts = keys.map((k) => build(x[k], `${path}.${k}`));
      return (next) => Object.fromEntries(keys.map((k, i) => [k, parts[i]!(next)]));
    }
    fail('type', fn, path, 'must be a Tensor, a number, or arrays and plain objects of them', x);
  };
  const rebuildFrom = build(tree, arg);
  return {
    leaves,
    rebuild: (values) => { let i = 0; return rebuildFrom(() => values[i++]!); },
  };
}

type ValueAndGradFn = (...args: unknown[]) => [Tensor, GradTree | GradTree[]];

/**
 * `f` and its gradient with respect to the arguments `argnums` (default 0), as one function:
 * `valueAndGrad(f)(x)` returns `[f(x), ∇f(x)]`. `f` must return a scalar (a number or a
 * size-1 tensor). The gradient has the structure of the argument (arrays and plain objects of
 * tensors and numbers); with an array `argnums` it is an array of such structures.
 *
 * @throws RangeError if `f` returns something that is not a scalar.
 * @example
 * const [v, g] = valueAndGrad((x) => sum(square(x)))([1, 2, 3]);
 * v.item();      // 14
 * g.toArray();   // [2, 4, 6]
 */
// Overloads so `const [v, [ga, gb]] = valueAndGrad(f, [0, 1])(a, b)` type-checks (the README's tour does this).
export function valueAndGrad(f: (...args: any[]) => TensorLike, argnums?: number): (...args: unknown[]) => [Tensor, GradTree];
export function valueAndGrad(f: (...args: any[]) => TensorLike, argnums: readonly number[]): (...args: unknown[]) => [Tensor, GradTree[]];
export function valueAndGrad(f: (...args: any[]) => TensorLike, argnums?: number | readonly number[]): ValueAndGradFn;
export function valueAndGrad(f: (...args: any[]) => TensorLike, argnums: number | readonly number[] = 0): ValueAndGradFn {
  const fn = 'valueAndGrad';
  checkFunction(fn, 'f', f);
  const list = typeof argnums === 'number' ? [argnums] : [...argnums];
  for (const a of list) if (!Number.isInteger(a) || a < 0) fail('range', fn, 'argnums', 'must be non-negative integers', argnums);
  return (...args: unknown[]) => {
    const tape = new Tape();
    const inputs = args.slice();
    for (const a of args) if (a instanceof Tensor && isTraced(a.node)) throw nestedGradError();
    const parts = list.map((a) => {
      if (a >= args.length) fail('range', fn, 'argnums', `refers to argument ${a}, but f got ${args.length}`, argnums);
      const arg = args[a];
      if (arg instanceof Tensor || typeof arg === 'number') {   // the common case: one tensor
        const t = asTensor(fn, `args[${a}]`, arg);
        const tracked = [new Tensor(t.data, t.shape, t.dtype, tape.leaf(t.size), true)];
        inputs[a] = tracked[0];
        return { tracked, rebuild: (leaves: Tensor[]) => leaves[0]! as GradTree };
      }
      const { leaves, rebuild } = flattenTree(fn, `args[${a}]`, arg);
      if (leaves.some((t) => isTraced(t.node))) throw nestedGradError();
      const tracked = leaves.map((t) => new Tensor(t.data, t.shape, t.dtype, tape.leaf(t.size)));
      inputs[a] = rebuild(tracked);
      return { tracked, rebuild };
    });
    const out = withTape(tape, () => f(...inputs));
    const y = asTensor(fn, 'f(...)', out);
    if (y.size !== 1) fail('range', fn, 'f', `must return a scalar; it returned shape [${y.shape.join(', ')}]`, y);
    const adjoints = y.node !== undefined && y.node.tape === tape ? tape.backward(y.node, Float64Array.of(1)) : [];
    const grads = parts.map(({ tracked, rebuild }) => rebuild(tracked.map((t) => {
      const g = adjoints[t.node!.index] ?? new Float64Array(t.size);
      return new Tensor(t.dtype === 'float32' ? Float32Array.from(g) : Float64Array.from(g), t.shape, t.dtype === 'float32' ? 'float32' : 'float64');
    })));
    const value = new Tensor(y.data, y.shape, y.dtype);
    return [value, typeof argnums === 'number' ? grads[0]! : grads];
  };
}

/**
 * The gradient of a scalar function (`jax.grad`): `grad(f)(x)` has the structure of x.
 *
 * @example
 * grad((x) => mul(x, x))(3).item(); // 6
 * grad(({ mu, sigma }) => div(square(mu), sigma))({ mu: 2, sigma: 4 }); // { mu: 1, sigma: -0.25 }
 */
export function grad(f: (...args: any[]) => TensorLike, argnums?: number): (...args: unknown[]) => GradTree;
export function grad(f: (...args: any[]) => TensorLike, argnums: readonly number[]): (...args: unknown[]) => GradTree[];
export function grad(f: (...args: any[]) => TensorLike, argnums?: number | readonly number[]): (...args: unknown[]) => GradTree | GradTree[];
export function grad(f: (...args: any[]) => TensorLike, argnums: number | readonly number[] = 0): (...args: unknown[]) => GradTree | GradTree[] {
  const vg = valueAndGrad(f, argnums);
  return (...args) => vg(...args)[1];
}

/**
 * One tape node for a whole computation whose partial derivatives are known in closed form
 * (Stan's operands-and-partials): `value` is the result, and each `[input, partial]` pair gives
 * ∂value/∂input element-wise, with `partial` broadcasting against `value`'s shape; the
 * gradient for an input broadcast into `value` is summed back to the input's shape.
 * Untracked inputs cost nothing; their partials may be omitted (pass `null`).
 *
 * @example
 * // A scalar log density as a single node: sum over data of −(x − μ)²/2.
 * const r = sub(x, mu);
 * const lp = fusedNode(sum(mul(square(r), -0.5)), [[mu, sum(r)]]);
 */
export function fusedNode(value: TensorLike, partials: readonly (readonly [TensorLike, TensorLike | null])[]): Tensor {
  const fn = 'fusedNode';
  const v = asTensor(fn, 'value', value);
  const inputs = partials.map(([x], i) => asTensor(fn, `partials[${i}][0]`, x));
  const parts = partials.map(([, p], i) => (p === null ? null : asTensor(fn, `partials[${i}][1]`, p)));
  // Each partial as an array of value's shape (checked now, not in the backward pass).
  const dense = parts.map((p, i) => (p === null ? null : Float64Array.from(numbers(new Tensor(
    broadcastData(fn, `partials[${i}][1]`, p, v.shape) as Float64Array, v.shape)))));
  inputs.forEach((x, i) => {
    const ok = x.ndim <= v.ndim && x.shape.every((d, j) => d === 1 || d === v.shape[v.ndim - x.ndim + j]);
    if (!ok) fail('range', fn, `partials[${i}][0]`, `of shape [${x.shape.join(', ')}] must broadcast to the value's shape [${v.shape.join(', ')}]`, x);
  });
  const data = v.dtype === 'float32' ? Float32Array.from(v.data as Float32Array) : Float64Array.from(numbers(v));
  if (tracing()) {
    // Compiled: the value and the partials are operands the node reads (no gradient flows into them).
    const m = inputs.length;
    const full = dense.map(() => new Float64Array(v.size));
    const maps = inputs.map((x) => (x.size === v.size || x.size === 1 ? null : broadcastIndex(x.shape, v.shape)));
    const pIdx = parts.map((p) => (p === null || p.size === v.size ? null : broadcastIndex(p.shape, v.shape)));
    const op: Lowering = {
      name: 'fusedNode',
      gradOperands: [false, ...inputs.map((_, i) => parts[i] !== null), ...parts.filter((p) => p !== null).map(() => false)],
      forward(ins, out) { const x = ins[0]!; for (let k = 0; k < out.length; k++) out[k] = x[k]!; },
      backward(g, ins, _out, gs) {
        let j = 1 + m;
        for (let i = 0; i < m; i++) {
          const gx = gs[1 + i];
          if (parts[i] === null) continue;
          const p = ins[j++]!, idx = pIdx[i], f = full[i]!;
          for (let k = 0; k < g.length; k++) f[k] = g[k]! * p[idx === null ? k : idx[k]!]!;
          if (!gx) continue;
          const map = maps[i];
          if (gx.length === f.length) gx.set(f);
          else if (gx.length === 1) { let s = 0; for (let k = 0; k < f.length; k++) s += f[k]!; gx[0] = s; }
          else { gx.fill(0); for (let k = 0; k < f.length; k++) gx[map![k]!]! += f[k]!; }
        }
      },
    };
    return result(data, v.shape, [v, ...inputs, ...parts.filter((p): p is Tensor => p !== null)], null, undefined, op);
  }
  return result(data, v.shape, inputs, (g) => inputs.map((x, i) => {
    const d = dense[i];
    if (d === null || d === undefined) return null;
    const full = new Float64Array(g.length);
    for (let k = 0; k < g.length; k++) full[k] = g[k]! * d[k]!;
    return reduceToShape(full, v.shape, x.shape);
  }));
}

/**
 * A function with a gradient you supply (TF's `custom_gradient`): `f(...xs)` returns
 * `{ value, grad }` where `grad(dy)` returns one tensor per input, the vector–Jacobian product.
 * Ops inside `f` are not recorded. A compiled function calls `f` and `grad` as they are on
 * every call (they allocate tensors, unlike the rest of the generated code).
 *
 * @example
 * const safeLog = customGradient((x) => ({ value: log(x), grad: (dy) => [div(dy, maximum(x, 1e-300))] }));
 */
export function customGradient(f: CustomFn): (...xs: TensorLike[]) => Tensor {
  return (...xsLike) => {
    const fn = 'customGradient';
    const xs = xsLike.map((x, i) => asTensor(fn, `args[${i}]`, x));
    const plain = xs.map((x) => new Tensor(x.data, x.shape, x.dtype));
    const first = runCustom(f, plain);
    // Compiled: f and its vjp run as they are (JavaScript the tracer cannot see into), on each call's inputs.
    let last = first;
    const op: Lowering | string = !tracing() ? fn : {
      name: fn,
      forward(ins, out) {
        last = runCustom(f, ins.map((d, i) => new Tensor(d as Float64Array, xs[i]!.shape, xs[i]!.dtype)));
        (out as Float64Array).set(last.data);
      },
      backward(g, _ins, _out, gs) { customVjps(xs, last, Float64Array.from(g)).forEach((p, i) => gs[i]?.set(p)); },
    };
    return result(first.data, first.v.shape, xs, (g) => customVjps(xs, first, g), undefined, op);
  };
}

/** A function for `customGradient`: its value and vector–Jacobian product. */
export type CustomFn = (...xs: Tensor[]) => { value: TensorLike; grad: (dy: Tensor) => readonly TensorLike[] };

/** One run of a custom-gradient function (its ops unrecorded): the value, as stored, and its vjp. */
function runCustom(f: CustomFn, inputs: readonly Tensor[]) {
  const { value, grad } = withTape(new Tape(), () => f(...inputs));
  const v = asTensor('customGradient', 'value', value);
  return { v, grad, data: v.dtype === 'float32' ? Float32Array.from(v.data as Float32Array) : Float64Array.from(numbers(v)) };
}

/** The vjp of a run for the adjoint `g`, one checked float64 part per input. */
function customVjps(xs: readonly Tensor[], r: ReturnType<typeof runCustom>, g: Float64Array): Float64Array[] {
  const fn = 'customGradient';
  const gs = r.grad(new Tensor(g, r.v.shape, 'float64'));
  return xs.map((x, i) => {
    const gi = asTensor(fn, `grad(dy)[${i}]`, gs[i]);
    if (gi.size !== x.size) fail('range', fn, `grad(dy)[${i}]`, `must have the shape of argument ${i} [${x.shape.join(', ')}]`, gi);
    return Float64Array.from(numbers(gi));
  });
}

/** What `checkGradient` reports. */
export interface GradientCheck {
  /** Largest |analytic − numeric| / max(|analytic|, |numeric|, 1) over the elements. */
  readonly maxRelativeError: number;
  readonly analytic: Float64Array;
  readonly numeric: Float64Array;
}

/**
 * Compares the reverse-mode gradient of a scalar `f` at `x` with central finite differences
 * (step `eps`·max(1, |xᵢ|)) and reports the worst relative error (absolute below 1).
 *
 * @example
 * checkGradient((x) => sum(exp(x)), [0.1, 0.2]).maxRelativeError; // ~1e-10
 */
export function checkGradient(f: (x: Tensor) => TensorLike, x: TensorLike, options: { eps?: number } = {}): GradientCheck {
  const fn = 'checkGradient';
  const t = asTensor(fn, 'x', x).astype('float64');
  const eps = options.eps ?? 1e-6;
  const analytic = Float64Array.from((grad(f)(t) as Tensor).data as Float64Array);
  const base = Float64Array.from(t.data as Float64Array);
  const numeric = new Float64Array(base.length);
  const at = (data: Float64Array) => Number(asTensor(fn, 'f(x)', f(new Tensor(data, t.shape, 'float64'))).item());
  for (let i = 0; i < base.length; i++) {
    const h = eps * Math.max(1, Math.abs(base[i]!));
    const up = Float64Array.from(base), down = Float64Array.from(base);
    up[i]! += h; down[i]! -= h;
    numeric[i] = (at(up) - at(down)) / (up[i]! - down[i]!);
  }
  let worst = 0;
  for (let i = 0; i < base.length; i++) {
    const a = analytic[i]!, n = numeric[i]!;
    worst = Math.max(worst, Math.abs(a - n) / Math.max(Math.abs(a), Math.abs(n), 1));
  }
  return { maxRelativeError: worst, analytic, numeric };
}
