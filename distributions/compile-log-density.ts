/**
 * `compileLogDensity`: a joint distribution's unconstrained log density as generated JavaScript,
 * behind the interface BridgeStan gives Stan models (`dim`, `paramNames`, `logDensity`,
 * `logDensityGradient`, `constrain`, `unconstrain`), so a sampler works on flat Float64Arrays
 * and never rebuilds distributions or tensors per gradient.
 */
import { checkOptions, fail } from '../src/checks.js';
import { compileGradient, type Compiled } from '../src/compile/index.js';
import { generate } from '../src/compile/codegen.js';
import { compileChecked, type CompileOutcome, type FlatTarget } from '../src/compile/flat-target.js';
import { traceProgram } from '../src/compile/trace.js';
import { valueAndGrad } from '../src/tensor/autodiff.js';
import { UntraceableError } from '../src/tensor/lowering.js';
import { sum } from '../src/tensor/ops/reduce.js';
import { sizeOf } from '../src/tensor/shapes.js';
import { Tensor } from '../src/tensor/tensor.js';
import { flatModel, type FlatModel } from './joint/flat-model.js';
import { JointDistribution } from './joint/joint-distribution.js';
import { JointDistributionPinned } from './joint/joint-distribution-pinned.js';
import { isPlainObject, type PartialValues, type Struct, type StructKind } from './joint/values.js';
import { imputedNodes, imputeMissing } from './joint/impute-missing.js';

const BRAND = Symbol.for('stochax.CompiledLogDensity');

/** A model's log density over unconstrained coordinates (BridgeStan's model interface): a {@link FlatTarget} with the model's structure. */
export interface CompiledLogDensity<K extends StructKind = StructKind> extends FlatTarget {
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
  const c = compileTarget(fn, m);
  const checkPoint = (x: ArrayLike<number>) => {
    if (x === null || typeof x !== 'object' || typeof (x as ArrayLike<number>).length !== 'number') fail('type', fn, 'x', 'must be a Float64Array (or an array of numbers)', x);
    if (x.length !== dim) fail('range', fn, 'x', `must have length dim = ${dim}; got ${x.length}`, x.length);
  };
  const value = c.outputs[0]!;
  const valueAndGradient = c.valueAndGrad!;
  return {
    [BRAND]: true,
    dim,
    paramNames: flatNames(m),
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
      return m.bijector.forward(m.struct(m.unflatten(flatTensors(m.sizes, x)))) as Struct<K, Tensor>;
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
 * The flat model's target compiled for one draw, its parts in `order` (indices into `m.names`;
 * default the model's order): traced at the origin, then checked against the tape at a second
 * point. Output 0 is the log density; `valueAndGrad` is its flat form.
 *
 * @throws UntraceableError (a TypeError) naming the construct when the model cannot be traced.
 */
export function compileTarget(fn: string, m: FlatModel, order: readonly number[] = m.names.map((_, j) => j)): Compiled {
  if (order.length !== m.names.length) fail('range', fn, 'order', `must list every unpinned node once (${m.names.length}); got ${order.length}`, order);
  // Traced once per model, pinned values (by identity) and part order.
  const pins = Object.values(m.pinned.pins);
  const key = (m.jacobian === false ? 'no-jacobian:' : '') + order.join(',');
  const entries = cache.get(m.pinned.distribution) ?? [];
  const hit = entries.find((e) => e.key === key && e.pins.length === pins.length && e.pins.every((p, i) => p === pins[i]));
  if (hit !== undefined) return hit.compiled;
  const target = orderedTarget(m, order);
  const at = (v: (j: number, k: number) => number) => order.map((j) => new Tensor(Float64Array.from({ length: m.sizes[j]! }, (_, k) => v(j, k)), [m.sizes[j]!], 'float64'));
  const c = compileGradient(fn, target, at(() => 0));
  if (sizeOf(c.outputShapes[0]!) !== 1) nonScalarLogDensity(fn, m, c.outputShapes[0]!);
  checkAgainstTape(fn, m, target, c, at((j, k) => 0.3 - 0.1 * ((j + k) % 5)));
  cache.set(m.pinned.distribution, [...entries.slice(-7), { key, pins, compiled: c }]);
  return c;
}

/** The flat model's target over parts in `order` (the model's own arithmetic; only the argument order changes). */
function orderedTarget(m: FlatModel, order: readonly number[]): (...parts: Tensor[]) => Tensor {
  return (...parts) => {
    const byNode = new Array<Tensor>(parts.length);
    order.forEach((j, t) => { byNode[j] = parts[t]!; });
    return m.target(...byNode);
  };
}

/**
 * The flat model's log density over one unconstrained point (the nodes' coordinates in `order`,
 * default the model's) as a {@link FlatTarget} whose methods do not check their arguments (for
 * samplers, which own their arrays): generated code, or the tape with `compile` false or when the
 * model cannot be traced ({@link compileChecked}'s rule; the outcome says which, and why).
 */
export function flatTarget(fn: string, m: FlatModel, compile: boolean, order: readonly number[] = m.names.map((_, j) => j)): CompileOutcome<FlatTarget> {
  const dim = m.sizes.reduce((a, b) => a + b, 0);
  const paramNames = order.length === m.names.length && order.every((j, t) => j === t) ? flatNames(m) : Object.freeze(order.flatMap((j) => coordinateNames(m.names[j]!, m.shapes[j]!)));
  return compileChecked(compile, (): FlatTarget => {
    const c = compileTarget(fn, m, order);
    const value = c.outputs[0]!, inputs = c.inputs, run = c.run;
    return { dim, paramNames, logDensity(x) { scatter(x, inputs); run(false); return value[0]!; }, logDensityGradient: c.valueAndGrad! };
  }, (): FlatTarget => {
    const target = orderedTarget(m, order);
    const sizes = order.map((j) => m.sizes[j]!);
    const lp0 = target(...flatTensors(sizes, new Float64Array(dim)));
    if (lp0.size !== 1) nonScalarLogDensity(fn, m, lp0.shape);
    const vg = valueAndGrad((...xs: Tensor[]) => target(...xs), sizes.map((_, j) => j));
    return {
      dim, paramNames,
      logDensity: (x) => (target(...flatTensors(sizes, x)).data as ArrayLike<number>)[0]!,
      logDensityGradient(x, grad) {
        const [v, g] = vg(...flatTensors(sizes, x)) as [Tensor, Tensor[]];
        gather(g.map((t) => t.data as ArrayLike<number>), grad);
        return (v.data as ArrayLike<number>)[0]!;
      },
    };
  });
}

/** Copies the flat point `x` into one buffer per node, in order. */
function scatter(x: ArrayLike<number>, buffers: readonly Float64Array[]): void {
  for (let j = 0, i = 0; j < buffers.length; j++) { const b = buffers[j]!; for (let k = 0; k < b.length; k++) b[k] = x[i++]!; }
}

/** Copies one array per node into the flat `out`, in order. */
function gather(parts: readonly ArrayLike<number>[], out: Float64Array): void {
  for (let j = 0, i = 0; j < parts.length; j++) { const p = parts[j]!; for (let k = 0; k < p.length; k++) out[i++] = p[k]!; }
}

/** The flat point `x` as one float64 tensor `[n]` per size. */
export function flatTensors(sizes: readonly number[], x: ArrayLike<number>): Tensor[] {
  let i = 0;
  return sizes.map((n) => { const d = new Float64Array(n); for (let k = 0; k < n; k++) d[k] = Number(x[i++]); return new Tensor(d, [n], 'float64'); });
}

/** One draw's constrained values from its unconstrained point: `run(x)`, then read `outputs` (one per node, of `shapes`). */
export interface FlatConstrain {
  readonly shapes: readonly (readonly number[])[];
  readonly outputs: readonly ArrayLike<number>[];
  run(x: ArrayLike<number>): void;
}

/**
 * The flat model's map from one unconstrained point to the constrained values of its unpinned
 * nodes (in `names` order, each of the shape of one draw): traced once and compiled, or the joint
 * bijector on the tape ({@link compileChecked}'s rule). `run(x)` leaves the values in `outputs`.
 * Arguments are not checked.
 */
export function flatConstrain(fn: string, m: FlatModel, compile: boolean): CompileOutcome<FlatConstrain> {
  const origin = flatTensors(m.sizes, new Float64Array(m.sizes.reduce((a, b) => a + b, 0)));
  const forward = (...flat: Tensor[]) => m.parts(m.bijector.forward(m.struct(m.unflatten(flat))));
  return compileChecked(compile, () => {
    const c = generate(traceProgram(fn, forward, origin), false);
    const inputs = c.inputs, run = c.run;
    return { shapes: c.outputShapes, outputs: c.outputs, run(x: ArrayLike<number>) { scatter(x, inputs); run(false); } };
  }, () => {
    const outputs: ArrayLike<number>[] = [];
    const shapes = forward(...origin).map((t) => t.shape);
    return { shapes, outputs, run(x: ArrayLike<number>) { forward(...flatTensors(m.sizes, x)).forEach((t, j) => { outputs[j] = t.data as ArrayLike<number>; }); } };
  });
}

const cache = new WeakMap<object, { key: string; pins: readonly Tensor[]; compiled: Compiled }[]>();

/**
 * Guards against a model that reads traced values where the tracer cannot see it: the compiled
 * value and gradient must equal the tape's at `parts`, a point away from the trace point.
 */
function checkAgainstTape(fn: string, m: FlatModel, target: (...parts: Tensor[]) => Tensor, c: Compiled, parts: readonly Tensor[]): void {
  parts.forEach((p, j) => c.inputs[j]!.set(p.data as Float64Array));
  c.run(true);
  const [v, g] = valueAndGrad((...xs: Tensor[]) => sum(target(...xs)), parts.map((_, j) => j))(...parts) as [Tensor, Tensor[]];
  const close = (a: number, b: number) => Object.is(a, b) || (a !== a && b !== b) || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
  const value = c.outputs[0]!;
  let total = 0;
  for (let k = 0; k < value.length; k++) total += value[k]!;
  const bad = !close(total, (v.data as Float64Array)[0]!)
    || g.some((t, j) => (t.data as Float64Array).some((x, k) => !close(x, c.grads[j]![k]!)));
  if (bad) {
    const name = m.pinned.distribution.name;
    throw new UntraceableError(`${fn}: model "${name}": the compiled log density differs from the tape's away from the trace point, so the model reads values in JavaScript where the tracer cannot see it (Tensor.data, a loop over values); write it with tensor ops (\`where\` to select), or keep it on the tape (\`compile: false\`)`);
  }
}

/**
 * The error for a log density that is not one number per draw — most often a vector observed at a
 * node that gives one density per element (a missing `Independent`/`Sample`): names the nodes
 * whose log density has the wrong shape.
 */
export function nonScalarLogDensity(fn: string, m: FlatModel, shape: readonly number[]): never {
  const origin = m.sizes.map((n) => new Tensor(new Float64Array(n), [n], 'float64'));
  let parts: [string, readonly number[]][] = [];
  try {
    const { pinned, unpinned } = m.pinned.unnormalizedLogProbParts(m.bijector.forward(m.struct(m.unflatten(origin))));
    const named = (s: unknown): [string, Tensor][] => (Array.isArray(s) ? s.map((t, i) => [String(i), t as Tensor]) : Object.entries(s as Record<string, Tensor>));
    parts = [...named(unpinned), ...named(pinned)].filter(([, t]) => t.size !== 1).map(([n, t]) => [n, t.shape]);
  } catch { /* the shapes alone are reported */ }
  const which = parts.length === 0 ? '' : ` — node${parts.length > 1 ? 's' : ''} ${parts.map(([n, s]) => `\`${n}\` (log density shape [${s.join(', ')}])`).join(', ')}`;
  return fail('range', fn, 'model', `"${m.pinned.distribution.name}" has a log density of shape [${shape.join(', ')}] for one draw, not one number${which}; a node observed or drawn as a vector of independent values needs \`new Independent({ distribution, reinterpretedBatchNdims: 1 })\` or \`new Sample({ distribution, sampleShape })\` so its log density sums over them`, shape);
}

/** Names of the flat model's coordinates, in its node order. */
function flatNames(m: FlatModel): readonly string[] {
  return Object.freeze(m.names.flatMap((n, j) => coordinateNames(n, m.shapes[j]!)));
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

/**
 * Checks the pinned data before any sampling: no NaN outside the nodes imputed (see `impute-missing.ts`), and
 * each value inside its node's support where that support depends on no parameter (0 or 1 for a
 * Bernoulli, a non-negative integer for a Poisson, positive for a Gamma…).
 *
 * @throws RangeError naming `fn`, `pins.name[i]`, the value and the distribution.
 * @example
 * checkPins('windowedAdaptiveNuts', pinned);   // "`pins.y[17]` must be 0 or 1 (outside Bernoulli's support); got 2"
 */
export function checkPins(fn: string, pinned: JointDistributionPinned<StructKind>): void {
  const pins = pinned.pins;
  const imputed = imputedNodes(pinned.distribution)?.map((m) => m.node) ?? [];
  for (const [name, t] of Object.entries(pins)) {
    if ((t.dtype !== 'float64' && t.dtype !== 'float32') || imputed.includes(name)) continue;   // an imputed node's NaN are its missing values
    const d = t.data as ArrayLike<number>;
    for (let i = 0; i < d.length; i++) {
      if (Number.isNaN(d[i])) fail('range', fn, t.ndim === 0 ? `pins.${name}` : `pins.${name}[${i}]`, 'is NaN (a missing value); pin the model with `experimentalPin` or a sampler\'s `pins` to impute it, or drop the observation', d[i]);
    }
  }
  const dists = pinned.singleSampleDistributions();
  pinned.distribution.nodeNames.forEach((name, i) => {
    const value = pins[name];
    if (value === undefined) return;
    dists[i]!.checkDataSupport(fn, `pins.${name}`, value);
  });
}

/** The pinned model (pins checked against the model's node names and, by {@link checkPins}, against their supports; errors name `fn`). */
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
  const pinned = (model instanceof JointDistributionPinned ? (pins === undefined ? model : model.experimentalPin(pins)) : (imputeMissing(model as JointDistribution<StructKind>, pins ?? {}, fn) ?? (model as JointDistribution<K>).experimentalPin(pins ?? {}))) as JointDistributionPinned<K>;
  checkPins(fn, pinned as JointDistributionPinned<StructKind>);
  return pinned;
}
