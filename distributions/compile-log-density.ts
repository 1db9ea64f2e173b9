/**
 * `compileLogDensity`: a joint distribution's unconstrained log density as generated JavaScript,
 * behind the interface BridgeStan gives Stan models (`dim`, `paramNames`, `logDensity`,
 * `logDensityGradient`, `constrain`, `unconstrain`), so a sampler works on flat Float64Arrays
 * and never rebuilds distributions or tensors per gradient.
 */
import { checkOptions, fail } from '../src/checks.js';
import { compileGradient, type Compiled } from '../src/compile/index.js';
import { generate } from '../src/compile/codegen.js';
import { traceProgram } from '../src/compile/trace.js';
import { valueAndGrad } from '../src/tensor/autodiff.js';
import { sum } from '../src/tensor/ops/reduce.js';
import { sameShape, sizeOf } from '../src/tensor/shapes.js';
import { Tensor } from '../src/tensor/tensor.js';
import { flatModel, type FlatModel } from './joint/flat-model.js';
import { JointDistribution } from './joint/joint-distribution.js';
import { JointDistributionPinned } from './joint/joint-distribution-pinned.js';
import { isPlainObject, type PartialValues, type Struct, type StructKind } from './joint/values.js';

const BRAND = Symbol.for('stochax.CompiledLogDensity');

/** A model's log density over unconstrained coordinates (BridgeStan's model interface). */
export interface CompiledLogDensity<K extends StructKind = StructKind> {
  /** Number of unconstrained coordinates. */
  readonly dim: number;
  /** One name per unconstrained coordinate: `tau`, `thetaTilde[3]`, `L[1,0]`. */
  readonly paramNames: readonly string[];
  /** The unpinned nodes in order, with their unconstrained event shapes and offsets into `x`. */
  readonly params: readonly { readonly name: string; readonly shape: readonly number[]; readonly offset: number; readonly size: number }[];
  /** log p(f(x)) + log|det ∂f/∂x| at the unconstrained point `x` (length `dim`). */
  logDensity(x: ArrayLike<number>): number;
  /** The same value; its gradient with respect to `x` is written into `grad` (length `dim`). */
  logDensityGradient(x: ArrayLike<number>, grad: Float64Array): number;
  /** The constrained values of the unpinned nodes at `x`, structured like the model. */
  constrain(x: ArrayLike<number>): Struct<K, Tensor>;
  /** Unconstrained coordinates of constrained values (the inverse of `constrain`). */
  unconstrain(values: PartialValues): Float64Array;
  /** The pinned model this density is of. */
  readonly model: JointDistributionPinned<K>;
}

export interface CompileLogDensityOptions {
  /** Values for observed nodes (passed to `model.experimentalPin`). */
  readonly pins?: PartialValues;
}

/**
 * True for an object made by {@link compileLogDensity} (by brand, so another copy of stochax's works too).
 *
 * @example
 * isCompiledLogDensity(compileLogDensity(model, { pins }));   // true
 * isCompiledLogDensity((x) => x);                              // false
 */
export function isCompiledLogDensity(x: unknown): x is CompiledLogDensity {
  return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * Compiles a joint distribution's log density in unconstrained space (the default event-space
 * bijector's log-Jacobian included) into JavaScript over Float64Arrays: traced once at the
 * origin, checked against the tape at a second point, then run without allocating.
 *
 * @param model a joint distribution (its observed nodes pinned with `pins`) or a pinned one.
 * @throws TypeError naming the op when the model cannot be traced (it reads values in
 *   JavaScript, or uses an op without a lowering); RangeError for unknown pins, a node with
 *   batch dims, or a wrong-length `x` or `grad`.
 * @example
 * const ld = compileLogDensity(nonCentered, { pins: { y } });
 * ld.dim;                                   // 10
 * ld.paramNames;                            // ['thetaTilde[0]', …, 'thetaTilde[7]', 'tau', 'mu'] (TFP's node order)
 * const grad = new Float64Array(ld.dim);
 * const lp = ld.logDensityGradient(new Float64Array(ld.dim), grad);   // a number; grad filled
 */
export function compileLogDensity<K extends StructKind>(
  model: JointDistribution<K> | JointDistributionPinned<K>, options: CompileLogDensityOptions = {},
): CompiledLogDensity<K> {
  const fn = 'compileLogDensity';
  const o = checkOptions(fn, options, ['pins']);
  const pinned = pinModel<K>(fn, model, o.pins);
  const m = flatModel(fn, pinned as JointDistributionPinned<StructKind>);
  const dim = m.sizes.reduce((a, b) => a + b, 0);
  const offsets = m.sizes.map((_, j) => m.sizes.slice(0, j).reduce((a, b) => a + b, 0));
  const params = m.names.map((name, j) => ({ name, shape: m.shapes[j]!, offset: offsets[j]!, size: m.sizes[j]! }));
  const c = compileTarget(fn, m, []);
  const checkPoint = (x: ArrayLike<number>) => {
    if (x === null || typeof x !== 'object' || typeof (x as ArrayLike<number>).length !== 'number') fail('type', fn, 'x', 'must be a Float64Array (or an array of numbers)', x);
    if (x.length !== dim) fail('range', fn, 'x', `must have length dim = ${dim}; got ${x.length}`, x.length);
  };
  const value = c.outputs[0]!;
  const valueAndGradient = flatLogDensity(fn, m, true);
  return {
    [BRAND]: true,
    dim,
    paramNames: Object.freeze(params.flatMap((p) => coordinateNames(p.name, p.shape))),
    params: Object.freeze(params),
    model: pinned,
    logDensity(x) {
      checkPoint(x);
      scatter(x, c.inputs);
      c.run(false);
      return value[0]!;
    },
    logDensityGradient(x, grad) {
      if (!(grad instanceof Float64Array)) fail('type', fn, 'grad', 'must be a Float64Array', grad);
      if (grad.length !== dim) fail('range', fn, 'grad', `must have length dim = ${dim}; got ${grad.length}`, grad.length);
      checkPoint(x);
      return valueAndGradient(x, grad);
    },
    constrain(x) {
      checkPoint(x);
      return m.bijector.forward(m.struct(m.unflatten(flatTensors(m, x)))) as Struct<K, Tensor>;
    },
    unconstrain(values) {
      const parts = m.flatten(m.parts(m.bijector.inverse(values)), 0);
      const out = new Float64Array(dim);
      parts.forEach((p, j) => out.set(p.data as Float64Array, offsets[j]!));
      return out;
    },
  } as CompiledLogDensity<K>;
}

/**
 * The flat model's target compiled for parts of shape `[...batch, n_j]`: traced at the origin,
 * then checked against the tape at a second point. Output 0 is the log density (shape `batch`);
 * the gradients are those of its sum over `batch` (each chain's own gradient).
 */
export function compileTarget(fn: string, m: FlatModel, batch: readonly number[]): Compiled {
  // Traced once per model, pinned values (by identity) and batch shape.
  const pins = Object.values(m.pinned.pins);
  const key = batch.join(',');
  const entries = cache.get(m.pinned.distribution) ?? [];
  const hit = entries.find((e) => e.key === key && e.pins.length === pins.length && e.pins.every((p, i) => p === pins[i]));
  if (hit !== undefined) return hit.compiled;
  const count = sizeOf(batch);
  const at = (v: (j: number, k: number) => number) => m.sizes.map((n, j) => new Tensor(Float64Array.from({ length: count * n }, (_, k) => v(j, k)), [...batch, n], 'float64'));
  const c = compileGradient(fn, (...parts) => m.target(...parts), at(() => 0));
  checkAgainstTape(fn, m, c, at((j, k) => 0.3 - 0.1 * ((j + k) % 5)));
  cache.set(m.pinned.distribution, [...entries.slice(-7), { key, pins, compiled: c }]);
  return c;
}

/**
 * The flat model's log density and gradient over one unconstrained point (length Σ n_j, the
 * nodes in order), for samplers that keep one chain in a Float64Array: compiled (cached as in
 * {@link compileTarget}), or through the tape with `compile` false. Arguments are not checked.
 */
export function flatLogDensity(fn: string, m: FlatModel, compile: boolean): (x: ArrayLike<number>, grad: Float64Array) => number {
  if (compile) {
    return compileTarget(fn, m, []).valueAndGrad!;
  }
  const vg = valueAndGrad((...xs: Tensor[]) => m.target(...xs), m.sizes.map((_, j) => j));
  return (x, grad) => {
    const [v, g] = vg(...flatTensors(m, x)) as [Tensor, Tensor[]];
    gather(g.map((t) => t.data as ArrayLike<number>), grad);
    return (v.data as ArrayLike<number>)[0]!;
  };
}

/** Copies the flat point `x` into one buffer per node, in order. */
function scatter(x: ArrayLike<number>, buffers: readonly Float64Array[]): void {
  for (let j = 0, i = 0; j < buffers.length; j++) { const b = buffers[j]!; for (let k = 0; k < b.length; k++) b[k] = x[i++]!; }
}

/** Copies one array per node into the flat `out`, in order. */
function gather(parts: readonly ArrayLike<number>[], out: Float64Array): void {
  for (let j = 0, i = 0; j < parts.length; j++) { const p = parts[j]!; for (let k = 0; k < p.length; k++) out[i++] = p[k]!; }
}

/** The flat point `x` as one float64 tensor `[n_j]` per node. */
function flatTensors(m: FlatModel, x: ArrayLike<number>): Tensor[] {
  let i = 0;
  return m.sizes.map((n) => { const d = new Float64Array(n); for (let k = 0; k < n; k++) d[k] = Number(x[i++]); return new Tensor(d, [n], 'float64'); });
}

/**
 * The flat model's map from one unconstrained point to the constrained values of its unpinned
 * nodes (in `names` order, each of the shape of one draw): traced once and compiled, or — with
 * `compile` false, or when the bijectors cannot be traced — the joint bijector on the tape.
 * `run(x)` leaves the values in `outputs`. Arguments are not checked.
 */
export function flatConstrain(fn: string, m: FlatModel, compile: boolean): { readonly shapes: readonly (readonly number[])[]; readonly outputs: readonly ArrayLike<number>[]; run(x: ArrayLike<number>): void } {
  const origin = flatTensors(m, new Float64Array(m.sizes.reduce((a, b) => a + b, 0)));
  const forward = (...flat: Tensor[]) => m.parts(m.bijector.forward(m.struct(m.unflatten(flat))));
  if (compile) {
    let c: Compiled | undefined;
    try { c = generate(traceProgram(fn, forward, origin), false); } catch (e) { if (!(e instanceof TypeError)) throw e; }
    if (c !== undefined) {
      const inputs = c.inputs, run = c.run;
      return {
        shapes: c.outputShapes, outputs: c.outputs,
        run(x) { scatter(x, inputs); run(false); },
      };
    }
  }
  const outputs: ArrayLike<number>[] = [];
  const shapes = forward(...origin).map((t) => t.shape);
  return {
    shapes, outputs,
    run(x) { forward(...flatTensors(m, x)).forEach((t, j) => { outputs[j] = t.data as ArrayLike<number>; }); },
  };
}

const cache = new WeakMap<object, { key: string; pins: readonly Tensor[]; compiled: Compiled }[]>();

/**
 * The compiled target as a sampler's `targetLogProbAndGradFn` over tensors of the traced shapes:
 * the log density per chain and its gradient per part, in fresh tensors.
 */
export function compiledTargetFn(fn: string, m: FlatModel, batch: readonly number[]): WithFlat<(...parts: Tensor[]) => [Tensor, Tensor[]]> {
  const c = compileTarget(fn, m, batch);
  const shapes = c.inputs.map((_, j) => Object.freeze([...batch, m.sizes[j]!]));
  const lpShape = Object.freeze([...batch]);
  const fn2 = (...parts: Tensor[]): [Tensor, Tensor[]] => {
    parts.forEach((p, j) => {
      const b = c.inputs[j], d = p.data as ArrayLike<number>;
      if (b === undefined || p.size !== b.length) fail('range', fn, 'state', `part ${j} has shape [${p.shape.join(', ')}]; the compiled target was traced for [${shapes[j]?.join(', ')}]`, p.shape);
      for (let k = 0; k < b.length; k++) b[k] = d[k]!;
    });
    c.run(true);
    const lp = c.outputs[0] as Float64Array;
    return [new Tensor(lp.slice(), lpShape, 'float64', undefined, true), c.grads.map((g, j) => new Tensor(g.slice(), shapes[j]!, 'float64', undefined, true))];
  };
  // The same over flat arrays, for samplers that keep their state in Float64Arrays (no tensors per call).
  const flat: FlatFn = (x, alloc = newArray) => {
    for (let j = 0; j < x.length; j++) c.inputs[j]!.set(x[j]!);
    c.run(true);
    return { lp: copyInto(alloc, c.outputs[0] as Float64Array), grad: c.grads.map((g) => copyInto(alloc, g)) };
  };
  const flatFor = (parts: readonly (readonly number[])[]) =>
    parts.length === shapes.length && parts.every((s, j) => sameShape(s, shapes[j]!)) ? flat : undefined;
  return Object.assign(fn2, { [FLAT]: flatFor });
}

/**
 * A target over flat float64 part arrays: the log density per chain and the gradient per part,
 * in fresh arrays from `alloc` (default `new Float64Array`; samplers pass views carved from
 * shared chunks, as arrays of more than 64 bytes are slow to allocate).
 */
export type FlatFn = (x: readonly Float64Array[], alloc?: (n: number) => Float64Array) => { lp: Float64Array; grad: Float64Array[] };

/** A `FlatFn`'s default allocator. */
export const newArray = (n: number): Float64Array => new Float64Array(n);

/** A fresh copy of `a` from `alloc`. */
function copyInto(alloc: (n: number) => Float64Array, a: Float64Array): Float64Array {
  const out = alloc(a.length);
  out.set(a);
  return out;
}

/**
 * Where a compiled target keeps its flat form: a function of the float64 state parts' shapes
 * giving the target over their arrays, or undefined when it was not compiled for those shapes.
 */
export const FLAT = Symbol.for('stochax.compiledTarget.flat');

/** A function carrying a flat form under {@link FLAT}. */
export type WithFlat<F> = F & { [FLAT]?: (partShapes: readonly (readonly number[])[]) => FlatFn | undefined };

/**
 * Guards against a model that reads traced values where the tracer cannot see it: the compiled
 * value and gradient must equal the tape's at `parts`, a point away from the trace point.
 */
function checkAgainstTape(fn: string, m: FlatModel, c: Compiled, parts: readonly Tensor[]): void {
  parts.forEach((p, j) => c.inputs[j]!.set(p.data as Float64Array));
  c.run(true);
  const [v, g] = valueAndGrad((...xs: Tensor[]) => sum(m.target(...xs)), parts.map((_, j) => j))(...parts) as [Tensor, Tensor[]];
  const close = (a: number, b: number) => Object.is(a, b) || (a !== a && b !== b) || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
  const value = c.outputs[0]!;
  let total = 0;
  for (let k = 0; k < value.length; k++) total += value[k]!;
  const bad = !close(total, (v.data as Float64Array)[0]!)
    || g.some((t, j) => (t.data as Float64Array).some((x, k) => !close(x, c.grads[j]![k]!)));
  if (bad) {
    const name = m.pinned.distribution.name;
    fail('type', fn, 'model', `"${name}": the compiled log density differs from the tape's away from the trace point, so the model reads values in JavaScript where the tracer cannot see it (Tensor.data, a loop over values); write it with tensor ops (\`where\` to select)`, name);
  }
}

/** Names of the coordinates of one node: `name` for a scalar, `name[i]`, `name[i,j]` otherwise. */
function coordinateNames(name: string, shape: readonly number[]): string[] {
  if (shape.length === 0) return [name];
  const size = sizeOf(shape);
  return Array.from({ length: size }, (_, flat) => {
    const idx: number[] = [];
    for (let d = shape.length - 1, r = flat; d >= 0; d--) { idx.unshift(r % shape[d]!); r = Math.floor(r / shape[d]!); }
    return `${name}[${idx.join(',')}]`;
  });
}

/** The pinned model (pins checked against the model's node names, so errors name `fn`). */
export function pinModel<K extends StructKind>(fn: string, model: unknown, pins: PartialValues | undefined): JointDistributionPinned<K> {
  if (!(model instanceof JointDistribution) && !(model instanceof JointDistributionPinned)) {
    fail('type', fn, 'model', 'must be a joint distribution (e.g. JointDistributionNamed) or a pinned one', model);
  }
  const jd = model instanceof JointDistributionPinned ? model.distribution : model;
  if (isPlainObject(pins)) {
    const known = jd.nodeNames;
    const unknown = Object.keys(pins).filter((k) => !known.includes(k));
    if (unknown.length > 0) fail('range', fn, 'pins', `names unknown nodes of model "${jd.name}": ${unknown.join(', ')} (its nodes are ${known.join(', ')})`, pins);
  }
  if (model instanceof JointDistributionPinned) return (pins === undefined ? model : model.experimentalPin(pins)) as JointDistributionPinned<K>;
  return (model as JointDistribution<K>).experimentalPin(pins ?? {});
}
