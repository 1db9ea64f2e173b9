/**
 * The flat phase space the gradient-based kernels (HMC, NUTS, MALA) work in: each state part as
 * a Float64Array with its chain dims leading, the target as a function of those arrays, and step
 * sizes expanded to one value per element. Hot loops run over these arrays; tensors are made only
 * to call the target and to return results. The metric (momentum draws, velocities, kinetic
 * energies) lives in `metric.ts`.
 */
import { checkFunction, fail } from '../../src/checks.js';
import { broadcastData } from '../../src/tensor/broadcast.js';
import { asTensor } from '../../src/tensor/core.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { State, TargetLogProbAndGradFn, TargetLogProbFn } from '../kernel.js';
import type { InverseMassDiag, StepSize } from './kernel-results.js';
import { type BatchMetric, identityMetric } from './metric.js';
import { type Geometry, geometryOf } from './geometry.js';
import { isFlatTarget } from '../../src/compile/flat-target.js';
import { sameShape, showShape, sizeOf } from '../../src/tensor/shapes.js';
import { allChainsThrew, type ChainFailure, chainwise, checkFiniteInitial, finiteRange, type FlatFn, type KernelTarget, nonFiniteFailure, stateParts, targetLogProbAndGrad } from './target.js';

/**
 * Checks that the state passed to `oneStep` has the shapes the kernel's results were made for.
 *
 * @throws RangeError naming the part and its expected shape.
 */
export function checkStateShapes(fn: string, parts: readonly Tensor[], expected: readonly Tensor[]): void {
  if (parts.length !== expected.length) {
    fail('range', fn, 'currentState', `must have ${expected.length} part(s), like the state previousResults were made for`, parts);
  }
  parts.forEach((t, k) => {
    const e = expected[k]!.shape;
    if (t.ndim !== e.length || t.shape.some((d, i) => d !== e[i])) {
      fail('range', fn, `currentState${parts.length > 1 || !(parts[0] instanceof Tensor) ? `[${k}]` : ''}`, `must have shape ${showShape(e)} (the shape previousResults were made for); its shape is ${showShape(t.shape)}`, t);
    }
    if (t.dtype !== 'float64' && t.dtype !== 'float32') fail('type', fn, `currentState[${k}]`, 'must be a float32 or float64 Tensor', t.dtype);
  });
}

/** The values of a tensor as a Float64Array (the tensor's own storage when it already is one). */
export function f64(t: Tensor): Float64Array {
  return t.data instanceof Float64Array ? t.data : Float64Array.from(t.data as ArrayLike<number>);
}

/** A tensor of `dtype` over `data` (copied only to narrow to float32). */
export function wrap(data: Float64Array, shape: readonly number[], dtype: FloatDType): Tensor {
  return dtype === 'float64' ? new Tensor(data, shape, 'float64', undefined, true) : new Tensor(Float32Array.from(data), shape, 'float32', undefined, true);
}

/** Flat per-part arrays as tensors of the state parts' shapes and dtypes. */
export function wrapParts(data: readonly Float64Array[], g: Geometry): Tensor[] {
  return data.map((d, k) => wrap(d, g.partShapes[k]!, g.dtypes[k]!));
}

/**
 * What every gradient-based kernel's `bootstrapResults` starts from: the state's parts, the log
 * density and its gradients there, and the geometry — after checking the log density is finite.
 */
export function bootstrapPoint(fn: string, kt: KernelTarget, state: State): { parts: Tensor[]; lp: Tensor; grads: Tensor[]; g: Geometry } {
  const [parts] = stateParts(fn, state);
  const [lp, grads] = targetLogProbAndGrad(fn, kt, parts);
  const g = geometryOf(fn, parts, lp);
  checkFiniteInitial(fn, lp);
  return { parts, lp, grads, g };
}

/** A per-chain float tensor of the chain shape, in the log density's dtype. */
export function chainTensor(data: Float64Array, g: Geometry): Tensor {
  return wrap(data, g.chainShape, g.lpDtype);
}

/** A per-chain int32 tensor of the chain shape (a kernel's `rejections`). */
export function chainInt(data: Int32Array, g: Geometry): Tensor {
  return new Tensor(data, g.chainShape, 'int32', undefined, true);
}

/** A per-chain bool tensor of the chain shape. */
export function chainBool(data: Uint8Array, g: Geometry): Tensor {
  return new Tensor(data, g.chainShape, 'bool', undefined, true);
}

/** What a gradient kernel's step works with: the state's geometry, the flat target, step sizes and metric. */
export interface StepParts {
  readonly g: Geometry;
  readonly target: FlatFn;
  readonly eps: readonly Float64Array[];
  readonly metric: BatchMetric;
}

const UNSET = Symbol('unset');

/**
 * A gradient kernel's per-step set-up, kept between steps: the geometry and flat target while the
 * state's shapes and dtypes stay the same, the expanded step sizes while the results hold the same
 * step size (the same number, or the same Tensor or array object: tensors are immutable), and the
 * metric likewise for the inverse mass. Everything handed out is read-only downstream.
 */
export class StepSetup {
  private cur: { g: Geometry; target: FlatFn; eps: Float64Array[]; metric: BatchMetric } | null = null;
  private stepSize: unknown = UNSET;
  private inverseMass: unknown = UNSET;

  constructor(
    private readonly kt: KernelTarget,
    private readonly makeMetric: (fn: string, inverseMassDiag: InverseMassDiag, g: Geometry) => BatchMetric,
  ) {}

  /** The set-up for a step from `parts` with the previous results' step size and inverse mass. */
  at(fn: string, parts: readonly Tensor[], prev: { readonly targetLogProb: Tensor; readonly stepSize: StepSize; readonly inverseMassDiag: InverseMassDiag }): StepParts {
    let c = this.cur;
    if (c === null || !sameGeometry(c.g, parts, prev.targetLogProb)) {
      const g = geometryOf(fn, parts, prev.targetLogProb);
      c = this.cur = { g, target: batchTarget(fn, this.kt, g), eps: [], metric: identityMetric(g) };
      this.stepSize = this.inverseMass = UNSET;
    }
    if (prev.stepSize !== this.stepSize) { c.eps = expandStepSize(fn, prev.stepSize, c.g); this.stepSize = prev.stepSize; }
    if (prev.inverseMassDiag !== this.inverseMass) { c.metric = this.makeMetric(fn, prev.inverseMassDiag, c.g); this.inverseMass = prev.inverseMassDiag; }
    return c;
  }
}

/** True when `parts` and the log density `lp` have the shapes and dtypes `g` was made for. */
function sameGeometry(g: Geometry, parts: readonly Tensor[], lp: Tensor): boolean {
  return g.lpDtype === (lp.dtype === 'float32' ? 'float32' : 'float64') && sameShape(g.chainShape, lp.shape)
    && g.partShapes.length === parts.length && parts.every((t, k) => t.dtype === g.dtypes[k] && sameShape(g.partShapes[k]!, t.shape));
}

/**
 * The kernel's target as a function of flat part arrays, for a transition's evaluations: a flat
 * target chain by chain over the arrays themselves ({@link chainwise}, each chain's failure its
 * own); tensor functions over the arrays wrapped (not copied) in tensors of the parts' shapes and
 * dtypes, whose log density must have the chain shape and each gradient the part's shape.
 *
 * Failures are rejections (`rejections.ts`): a chain whose log density or a gradient entry is not
 * finite reads −∞ with a zero gradient and is listed in `failures`. A tensor function that throws
 * (other than a programming error, which propagates) evaluated every chain at once and cannot say
 * which chain failed: every chain reads −∞ then, so that step rejects every chain's proposal.
 *
 * @throws RangeError naming `fn` when the log density or a gradient has the wrong shape.
 */
export function batchTarget(fn: string, kt: KernelTarget, g: Geometry): FlatFn {
  if (kt.flat !== undefined) return chainwise(kt.flat, g.eventSizes, g.numChains, true);
  const { targetAndGrad } = kt;
  const n = g.partShapes.length;
  const failedAll = (e: unknown) => {
    const failures = allChainsThrew(e, g.numChains);
    const lp = new Float64Array(g.numChains).fill(-Infinity);
    const grad = g.partShapes.map((s) => new Float64Array(sizeOf(s)));
    return { lp, grad, failures };
  };
  return (x) => {
    const parts = new Array<Tensor>(n);
    for (let k = 0; k < n; k++) parts[k] = wrap(x[k]!, g.partShapes[k]!, g.dtypes[k]!);
    if (targetAndGrad === undefined) {
      let lp: Tensor, grads: Tensor[];
      try { [lp, grads] = targetLogProbAndGrad(fn, kt, parts); } catch (e) { return failedAll(e); }
      return checkFinite(checkLogProb(fn, lp, g), checkGrads(fn, grads, g), g);
    }
    // The user's gradients: the same checks as targetLogProbAndGrad, without its per-call work.
    let out: ReturnType<TargetLogProbAndGradFn>;
    try { out = targetAndGrad(...parts); } catch (e) { return failedAll(e); }
    const grads = Array.isArray(out) ? out[1] : undefined;
    if (!Array.isArray(grads) || grads.length !== n) {
      fail('range', fn, 'targetLogProbAndGradFn', `must return [logProb, gradients] with one gradient per state part (${n})`, grads ?? out);
    }
    const lp = out[0] instanceof Tensor ? out[0] : asTensor(fn, 'targetLogProbAndGradFn(...)[0]', out[0]);
    for (let k = 0; k < n; k++) if (!(grads[k] instanceof Tensor)) fail('type', fn, `gradient[${k}]`, 'must be a Tensor', grads[k]);
    return checkFinite(checkLogProb(fn, lp, g), checkGrads(fn, grads, g), g);
  };
}

/**
 * The tensor target's values by the rejection rule: each chain whose log density or a gradient
 * entry is not finite reads −∞ with a zero gradient (in copies: the arrays may be the user's
 * tensors' storage) and is listed in `failures`.
 */
function checkFinite(lp: Float64Array, grad: Float64Array[], g: Geometry): { lp: Float64Array; grad: Float64Array[]; failures?: ChainFailure[] } {
  let failures: ChainFailure[] | undefined;
  for (let c = 0; c < g.numChains; c++) {
    let ok = lp[c]! - lp[c]! === 0;
    for (let k = 0; ok && k < grad.length; k++) { const e = g.eventSizes[k]!; ok = finiteRange(grad[k]!, c * e, (c + 1) * e); }
    if (!ok) (failures ??= []).push(nonFiniteFailure(c, lp[c]!, undefined));
  }
  if (failures === undefined) return { lp, grad };
  const lpOut = Float64Array.from(lp), gradOut = grad.map((a) => Float64Array.from(a));
  for (const { chain: c } of failures) {
    lpOut[c] = -Infinity;
    for (let k = 0; k < gradOut.length; k++) { const e = g.eventSizes[k]!; gradOut[k]!.fill(0, c * e, (c + 1) * e); }
  }
  return { lp: lpOut, grad: gradOut, failures };
}

/** The log density as a Float64Array after checking it has the chain shape. */
export function checkLogProb(fn: string, lp: Tensor, g: Geometry): Float64Array {
  const s = lp.shape, c = g.chainShape;
  if (!sameShape(s, c)) {
    fail('range', fn, 'targetLogProbFn', `must return the chain shape ${showShape(c)} (it did at the initial state); it returned shape ${showShape(s)}`, lp);
  }
  return f64(lp);
}

/** The gradients as Float64Arrays after checking each has its part's shape. */
export function checkGrads(fn: string, grads: readonly Tensor[], g: Geometry): Float64Array[] {
  const out = new Array<Float64Array>(grads.length);
  for (let k = 0; k < grads.length; k++) {
    const t = grads[k]!, e = g.partShapes[k]!;
    if (!sameShape(t.shape, e)) {
      fail('range', fn, `gradient[${k}]`, `must have the state part's shape ${showShape(e)}; it has shape ${showShape(t.shape)}`, t);
    }
    out[k] = f64(t);
  }
  return out;
}

/** One value per part: a single value is shared by every part. */
function perPart<T>(fn: string, arg: string, value: T | readonly T[], n: number): T[] {
  if (!Array.isArray(value)) return new Array<T>(n).fill(value as T);
  if (value.length === 1) return new Array<T>(n).fill(value[0] as T);
  if (value.length !== n) fail('range', fn, arg, `must be one value or one per state part (${n})`, value);
  return [...value];
}

/**
 * Step sizes expanded to one positive finite value per element of each part (NumPy
 * broadcasting, from the right).
 *
 * @throws TypeError for a step size that is not a number or Tensor; RangeError for one that does
 *   not broadcast, is not positive and finite, or a list of the wrong length.
 */
export function expandStepSize(fn: string, stepSize: StepSize, g: Geometry): Float64Array[] {
  const n = g.partShapes.length;
  return perPart(fn, 'stepSize', stepSize as number | Tensor | readonly (number | Tensor)[], n).map((s, k) => {
    const shape = g.partShapes[k]!;
    const size = sizeOf(shape);
    let out: Float64Array;
    if (typeof s === 'number') out = new Float64Array(size).fill(s);
    else if (s instanceof Tensor) out = Float64Array.from(broadcastData(fn, 'stepSize', s, shape) as ArrayLike<number>);
    else fail('type', fn, 'stepSize', 'must be a number, a Tensor, or an array of them (one per state part)', s);
    for (let i = 0; i < size; i++) if (!(out[i]! > 0 && out[i]! < Infinity)) fail('range', fn, 'stepSize', 'must be positive and finite', out[i]);
    return out;
  });
}

/** The target options of a gradient-based kernel: exactly one of the two functions, or a flat target (a compiled log density) as `targetLogProbFn`. */
export function checkGradientTarget(fn: string, o: { readonly targetLogProbFn?: unknown; readonly targetLogProbAndGradFn?: unknown }): KernelTarget {
  const t = o.targetLogProbFn, tg = o.targetLogProbAndGradFn;
  if (t === undefined && tg === undefined) fail('type', fn, 'targetLogProbFn', 'must be a function (or pass `targetLogProbAndGradFn`)', t);
  if (t !== undefined && tg !== undefined) fail('type', fn, 'targetLogProbAndGradFn', 'must not be given together with `targetLogProbFn`', tg);
  if (isFlatTarget(t)) return { flat: t };
  if (t !== undefined) checkFunction(fn, 'targetLogProbFn', t);
  if (tg !== undefined) checkFunction(fn, 'targetLogProbAndGradFn', tg);
  return { target: t as TargetLogProbFn | undefined, targetAndGrad: tg as TargetLogProbAndGradFn | undefined };
}

/**
 * A gradient-based kernel's options for `copy`: `parameters` with `overrides` applied, where
 * overriding one of the two target functions drops the other (they are exclusive).
 */
export function withTargetOverrides<O extends { readonly targetLogProbFn?: unknown; readonly targetLogProbAndGradFn?: unknown }>(
  parameters: Readonly<O>, overrides: Partial<O>,
): O {
  const merged: O = { ...parameters, ...overrides };
  if ('targetLogProbAndGradFn' in overrides && !('targetLogProbFn' in overrides)) delete (merged as { targetLogProbFn?: unknown }).targetLogProbFn;
  if ('targetLogProbFn' in overrides && !('targetLogProbAndGradFn' in overrides)) delete (merged as { targetLogProbAndGradFn?: unknown }).targetLogProbAndGradFn;
  return merged;
}

/** Checks a step size option's kind and values (its shape is checked against the state later). */
export function checkStepSizeOption(fn: string, s: unknown): StepSize {
  const one = (v: unknown, arg: string): void => {
    if (typeof v === 'number') { if (!(v > 0 && v < Infinity)) fail('range', fn, arg, 'must be positive and finite', v); return; }
    if (!(v instanceof Tensor)) fail('type', fn, arg, 'must be a number or a Tensor', v);
    const d = v.data as ArrayLike<number>;
    for (let i = 0; i < d.length; i++) if (!(Number(d[i]) > 0 && Number(d[i]) < Infinity)) fail('range', fn, arg, 'must hold positive finite values', Number(d[i]));
  };
  if (Array.isArray(s)) {
    if (s.length === 0) fail('type', fn, 'stepSize', 'must be a number, a Tensor, or a non-empty array of them', s);
    s.forEach((v, i) => one(v, `stepSize[${i}]`));
  } else one(s, 'stepSize');
  return s as StepSize;
}
