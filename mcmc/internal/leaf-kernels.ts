/**
 * A node's distribution opened down to its leaf (inside `Independent` and `Sample` wrappers), with
 * the leaf's tensor parameters as outputs of a traced program, and the leaves whose draws and
 * pointwise log densities the compiled paths compute straight from those outputs without
 * rebuilding the distribution: `Normal` draws (z · scale + loc), `Bernoulli` draws (u < p),
 * `Poisson` and `Binomial` draws (TFP's samplers at the compiled rates, counts and p),
 * `HalfCauchy`, `Cauchy` and `HalfNormal` draws (a uniform or normal through their scalar map) and
 * `Bernoulli` pointwise log masses. Each is the distribution's own arithmetic on the same values
 * (the same key, the same scalar functions), so the bits are the distribution's; the callers
 * still compare the first and last draws with the model run and fall back when they differ.
 * Shared by `compile-predictive.ts` (draws) and `compile-derived.ts` (the log-likelihood).
 */
import type { Modes } from '../../src/config.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { normalFill } from '../../src/random/normal.js';
import { wasmScratch } from '../../src/prng/wasm.js';
import { uniformFill } from '../../src/random/uniform.js';
import { UntraceableError } from '../../src/tensor/lowering.js';
import { detExpInto, detLog1pOfExpInto } from '../../src/compile/det-maps.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Bernoulli, logProbProbs as bernoulliLogProbProbs } from '../../distributions/bernoulli.js';
import { Distribution } from '../../distributions/distribution.js';
import { Independent } from '../../distributions/independent.js';
import { Normal } from '../../distributions/normal.js';
import { Poisson } from '../../distributions/poisson.js';
import { Binomial } from '../../distributions/binomial.js';
import { randomBinomial } from '../../distributions/internal/tfp-random-binomial.js';
import { sanitizeSeed } from '../../src/samplers/seeds.js';
import { randomPoisson } from '../../distributions/internal/tfp-random-poisson.js';
import { detLog } from '../../src/math/index.js';
import { Sample } from '../../distributions/sample.js';
import { Cauchy, cauchyFromUnit } from '../../distributions/cauchy.js';
import { HalfCauchy, halfCauchyFromUnit } from '../../distributions/half-cauchy.js';
import { HalfNormal } from '../../distributions/half-normal.js';

/** A node's distribution: wrappers (outermost first) around a leaf whose tensor parameters are program outputs. */
export interface NodePlan {
  readonly wrappers: readonly Distribution[];
  readonly leaf: Distribution;
  /** Leaf parameter name → output index. */
  readonly params: readonly (readonly [string, number])[];
}

/** Ends a trace the compiled path does not take. */
export function decline(why: string): never {
  throw new UntraceableError(`compilePredictive: ${why}`);
}

/**
 * Opens `Independent`/`Sample` wrappers and lists the leaf's tensor parameters as outputs (pushed
 * onto `outputs`), inside a trace. Declines a node with imputed missing values, a parameter that
 * is not float64, or a leaf with a non-tensor object option (a bijector, a distribution).
 *
 * @example
 * const outputs: Tensor[] = [];
 * planOf(new Independent({ distribution: new Normal({ loc, scale }), reinterpretedBatchNdims: 1 }), outputs);   // params loc → 0, scale → 1
 */
export function planOf(d: Distribution, outputs: Tensor[]): NodePlan {
  const wrappers: Distribution[] = [];
  let leaf = d;
  while (leaf instanceof Independent || leaf instanceof Sample) {
    wrappers.push(leaf);
    leaf = leaf.distribution;
  }
  // A node with imputed missing values (impute-missing.ts) draws through its wrapper model: not rebuilt here.
  if (typeof (leaf as { observedPointwiseLogProb?: unknown }).observedPointwiseLogProb === 'function') decline('a node with imputed missing values');
  const table = (leaf.constructor as typeof Distribution).parameterProperties;
  const converted = (leaf as unknown as { params: Readonly<Record<string, Tensor>> }).params;
  const params: [string, number][] = [];
  for (const [key, value] of Object.entries(leaf.parameters)) {
    if (key in table) {
      const t = converted[key];
      if (t === undefined) continue;
      if (t.dtype !== 'float64') decline(`parameter ${key} is not float64`);
      params.push([key, outputs.length]);
      outputs.push(t);
    } else if (value !== null && typeof value === 'object') {
      decline(`option ${key} of ${leaf.constructor.name} is an object`);
    }
  }
  return { wrappers, leaf, params };
}

/** Below this many values a fill copies out of wasm memory element by element anyway (wasm.ts's SMALL_FILL). */
const SCRATCH_MIN = 65;
let scratch = new Float64Array(0);

/**
 * A view of n float64 on the kernels' scratch region of wasm memory (`wasmScratch`: rewritten by
 * the next fill, so read it before drawing anything else), or undefined for a small n or no wasm.
 */
function scratchF64(n: number): Float64Array | undefined {
  if (n < SCRATCH_MIN) return undefined;
  // Asked every time: the region moves to a new memory when some caller needs more room.
  const mem = wasmScratch(8 * n);
  if (mem === null) return undefined;
  if (scratch.buffer !== mem.buffer || scratch.byteOffset !== mem.byteOffset || scratch.length !== n) scratch = new Float64Array(mem.buffer, mem.byteOffset, n);
  return scratch;
}

/** A parameter read per element: output `out`, index step 0 (one value) or 1 (one per batch element). */
interface ParamAt { readonly out: number; readonly step: 0 | 1 }

/**
 * The parameters `names` of a leaf whose `size` values (in row-major order) are its batch
 * repeated: each one value or the whole batch, and the wrappers keeping the leaf's order (no
 * `Sample` over a batch, which transposes) and checking nothing (`validateArgs` checks
 * parameters when a distribution is built, and these are not rebuilt). Undefined otherwise.
 */
function paramsAt(plan: NodePlan, shapes: readonly (readonly number[])[], size: number, names: readonly string[]): { batch: number; at: ParamAt[] } | undefined {
  const { leaf } = plan;
  if (leaf.validateArgs || plan.wrappers.some((w) => w.validateArgs)) return undefined;
  if (plan.wrappers.some((w) => w instanceof Sample && w.sampleShape.length > 0 && w.distribution.batchShape.length > 0)) return undefined;
  const batch = leaf.batchShape;
  const nb = sizeOf(batch);
  if (nb === 0 || size % nb !== 0) return undefined;
  const at: ParamAt[] = [];
  for (const name of names) {
    const out = plan.params.find(([k]) => k === name)?.[1];
    if (out === undefined) return undefined;
    const sh = shapes[out]!;
    if (sizeOf(sh) === 1) at.push({ out, step: 0 });
    else if (sh.length === batch.length && sh.every((d, a) => d === batch[a])) at.push({ out, step: 1 });
    else return undefined;
  }
  return { batch: nb, at };
}

/** The typed array a direct draw is written into, by the leaf's dtype. */
export type DirectArray = Float64Array | Float32Array | Int32Array;
export type DirectDtype = 'float64' | 'float32' | 'int32';

/** A replicated node drawn straight into an array of its dtype, from the program's outputs and the node's key. */
export interface DirectDraw {
  readonly dtype: DirectDtype;
  fill(key: KeyArray, out: DirectArray, outputs: readonly Float64Array[], modes: Modes): void;
}

/**
 * Leaves whose `sampleN` maps one base draw per element — unit uniforms (`samplers.uniform` on
 * [0, 1)) or standard normals (`samplers.normal`), the key as given — through a scalar function
 * of it and their parameters, element by element: drawn here as the base fill then that function.
 */
const MAPPED: readonly {
  readonly type: abstract new (...args: never[]) => Distribution;
  readonly base: 'uniform' | 'normal';
  readonly params: readonly string[];
  readonly f: (x: number, a: number, b: number) => number;
}[] = [
  { type: HalfCauchy, base: 'uniform', params: ['loc', 'scale'], f: halfCauchyFromUnit },
  { type: Cauchy, base: 'uniform', params: ['loc', 'scale'], f: cauchyFromUnit },
  // HalfNormal's sampleN is abs(mul(z, scale)): the two ops' scalar arithmetic.
  { type: HalfNormal, base: 'normal', params: ['scale'], f: (z, s) => Math.abs(z * s) },
];

/**
 * The direct draw of a node of `size` values, or undefined (the node's distribution is rebuilt
 * and sampled instead):
 * - `HalfCauchy`, `Cauchy`, `HalfNormal` (float64): the base draw, then the scalar map (`MAPPED`);
 * - `Normal` (float64): its `sampleN` is `samplers.normal([n, ...batch], { seed })` (the key as
 *   given: `normalFill`) times `scale` plus `loc`, the same two roundings per element here;
 * - `Poisson` (float64) with `logRate` or `rate`: its `sampleN` is TFP's sampler
 *   (`randomPoisson`) at log λ (`detLog` of the rate, as the `log` op takes it), the key as given;
 * - `Binomial` (float64) with `logits` or `probs`: TFP's sampler (`randomBinomial`) at the
 *   counts and p (sigmoid of the logits, as below), its key salted `'binomial'` as `sampleN` salts it;
 * - `Bernoulli` with float64 `logits` or `probs` (any sample dtype): its `sampleN` is u =
 *   `samplers.uniform([n, ...batch], { seed })` in float64 (the key as given: `uniformFill`) and
 *   the draw u < p, with p = sigmoid(logits) by `sigmoidScalar` (the `sigmoid` op's function) or
 *   p = probs.
 *
 * @example
 * const d = directDraw(plan, program.outputShapes, 1000);   // a Bernoulli(logits) leaf over 1000 rows
 * d?.fill(key, new Int32Array(1000), outputs, getModes());
 */
export function directDraw(plan: NodePlan, shapes: readonly (readonly number[])[], size: number): DirectDraw | undefined {
  const { leaf } = plan;
  if (leaf instanceof Normal) {
    if (leaf.dtype !== 'float64') return undefined;
    const p = paramsAt(plan, shapes, size, ['loc', 'scale']);
    if (p === undefined) return undefined;
    const [loc, scale] = p.at as [ParamAt, ParamAt];
    const { batch } = p;
    return {
      dtype: 'float64',
      fill(key, out, outputs, modes) {
        const x = out as Float64Array;
        // The normals straight into wasm memory when there is room, then scaled and shifted on the
        // way out: one pass over `out` instead of a copy out of wasm memory and a pass over it.
        const z = scratchF64(size) ?? x;
        normalFill(key, z, modes);
        const locs = outputs[loc.out]!, scales = outputs[scale.out]!, ls = loc.step, ss = scale.step;
        for (let k = 0, b = 0; k < size; k++) {
          x[k] = z[k]! * scales[b * ss]! + locs[b * ls]!;
          if (++b === batch) b = 0;
        }
      },
    };
  }
  const mapped = MAPPED.find((m) => leaf instanceof m.type);
  if (mapped !== undefined) {
    if (leaf.dtype !== 'float64') return undefined;
    const p = paramsAt(plan, shapes, size, mapped.params);
    if (p === undefined) return undefined;
    const { batch } = p;
    const { f } = mapped, uniform = mapped.base === 'uniform';
    const [a, b = a] = p.at as [ParamAt, ParamAt?];
    return {
      dtype: 'float64',
      fill(key, out, outputs, modes) {
        const x = out as Float64Array;
        if (uniform) uniformFill(key, x, modes);
        else normalFill(key, x, modes);
        const as = outputs[a.out]!, bs = outputs[b.out]!, sa = a.step, sb = b.step;
        for (let k = 0, j = 0; k < size; k++) {
          x[k] = f(x[k]!, as[j * sa]!, bs[j * sb]!);
          if (++j === batch) j = 0;
        }
      },
    };
  }
  if (leaf instanceof Bernoulli) {
    const logits = leaf.logits !== undefined;
    const p = paramsAt(plan, shapes, size, [logits ? 'logits' : 'probs']);
    if (p === undefined) return undefined;
    const [param] = p.at as [ParamAt];
    const { batch } = p;
    const u = new Float64Array(size);
    // p once per batch element, then compared with every draw of it.
    const probs = new Float64Array(batch);
    return {
      dtype: leaf.dtype,
      fill(key, out, outputs, modes) {
        uniformFill(key, u, modes);
        const t = outputs[param.out]!, step = param.step;
        if (logits) sigmoidInto(t, step, probs, batch);
        else for (let b = 0; b < batch; b++) probs[b] = t[b * step]!;
        for (let k = 0, b = 0; k < size; k++) {
          out[k] = u[k]! < probs[b]! ? 1 : 0;
          if (++b === batch) b = 0;
        }
      },
    };
  }
  if (leaf instanceof Poisson) {
    if (leaf.dtype !== 'float64') return undefined;
    const isLog = leaf.logRate !== undefined;
    const p = paramsAt(plan, shapes, size, [isLog ? 'logRate' : 'rate']);
    if (p === undefined) return undefined;
    const [param] = p.at as [ParamAt];
    const { batch } = p;
    // The shape its sampleN draws: [n, ...batch], n = size / batch.
    const shape = [size / batch, ...leaf.batchShape];
    const logRates = new Float64Array(size);
    return {
      dtype: 'float64',
      fill(key, out, outputs) {
        const lr = outputs[param.out]!, step = param.step;
        for (let k = 0, b = 0; k < size; k++) {
          logRates[k] = isLog ? lr[b * step]! : detLog(lr[b * step]!);
          if (++b === batch) b = 0;
        }
        (out as Float64Array).set(randomPoisson(shape, logRates, key));
      },
    };
  }
  if (leaf instanceof Binomial) {
    if (leaf.dtype !== 'float64') return undefined;
    const logits = leaf.logits !== undefined;
    const p = paramsAt(plan, shapes, size, ['totalCount', logits ? 'logits' : 'probs']);
    if (p === undefined) return undefined;
    const [count, param] = p.at as [ParamAt, ParamAt];
    const { batch } = p;
    const shape = [size / batch, ...leaf.batchShape];
    const counts = new Float64Array(size), probs = new Float64Array(size), perBatch = new Float64Array(batch);
    return {
      dtype: 'float64',
      fill(key, out, outputs) {
        const n = outputs[count.out]!, t = outputs[param.out]!, ns = count.step, step = param.step;
        if (logits) sigmoidInto(t, step, perBatch, batch);
        else for (let b = 0; b < batch; b++) perBatch[b] = t[b * step]!;
        for (let k = 0, b = 0; k < size; k++) {
          counts[k] = n[b * ns]!;
          probs[k] = perBatch[b]!;
          if (++b === batch) b = 0;
        }
        (out as Float64Array).set(randomBinomial(shape, counts, probs, sanitizeSeed(key, { salt: 'binomial' }), 'float64'));
      },
    };
  }
  return undefined;
}

/**
 * probs[b] = sigmoidScalar(t[b · step]) for b < n, with the exps taken in WebAssembly
 * (`detExpInto`): sigmoidScalar(x) is 1 / (1 + detExp(−x)) for x ≥ 0 and e / (1 + e) with
 * e = detExp(x) otherwise, so both are detExp(−|x|) (NaN stays NaN) and the same arithmetic.
 */
function sigmoidInto(t: Float64Array, step: 0 | 1, probs: Float64Array, n: number): void {
  for (let b = 0; b < n; b++) probs[b] = -Math.abs(t[b * step]!);
  detExpInto(probs, probs, n);
  for (let b = 0; b < n; b++) {
    const e = probs[b]!;
    probs[b] = t[b * step]! >= 0 ? 1 / (1 + e) : e / (1 + e);
  }
}

/**
 * The pointwise log density of an observed node straight from the program's outputs, for
 * `logLikelihood`: `value` (the node's data) against the leaf's parameters, element by element
 * with the leaf's own scalar function, where the value has the leaf's batch repeated (so the
 * pointwise log density is the leaf's `logProb(value)`: no wrapper transposes). Undefined for
 * other leaves and layouts. `Bernoulli` (float64 `logits` or `probs`).
 *
 * @example
 * const lp = directLogProb(plan, program.outputShapes, y);   // y: the node's data
 * lp?.(outputs, into);                                        // into[k]: log p(y[k] | parameters)
 */
export function directLogProb(plan: NodePlan, shapes: readonly (readonly number[])[], value: Tensor): ((outputs: readonly Float64Array[], out: Float64Array) => void) | undefined {
  const { leaf } = plan;
  if (!(leaf instanceof Bernoulli)) return undefined;
  const size = value.size;
  // The value's trailing dims must be the leaf's batch (the log density's shape is then the value's).
  const batch = leaf.batchShape, vs = value.shape;
  if (vs.length < batch.length || batch.some((d, a) => d !== vs[vs.length - batch.length + a])) return undefined;
  const logits = leaf.logits !== undefined;
  const p = paramsAt(plan, shapes, size, [logits ? 'logits' : 'probs']);
  if (p === undefined) return undefined;
  const [param] = p.at as [ParamAt];
  const nb = p.batch, step = param.step;
  const x = Float64Array.from(value.data as ArrayLike<number>, Number);
  if (!logits) {
    return (outputs, out) => {
      const t = outputs[param.out]!;
      for (let k = 0, b = 0; k < size; k++) {
        out[k] = bernoulliLogProbProbs(x[k]!, t[b * step]!);
        if (++b === nb) b = 0;
      }
    };
  }
  // log p(k | t) = −softplus(−t) for k = 1 and −softplus(t) for k = 0 (bernoulli.ts's
  // logProbScalar), and softplusScalar(s) = s + L for s > 0, L otherwise, with
  // L = detLog1p(detExp(−|s|)) and |s| = |t|: L is the same for both k, taken in WebAssembly.
  const l = new Float64Array(size);
  return (outputs, out) => {
    const t = outputs[param.out]!;
    for (let k = 0, b = 0; k < size; k++) {
      l[k] = -Math.abs(t[b * step]!);
      if (++b === nb) b = 0;
    }
    detLog1pOfExpInto(l, l);
    for (let k = 0, b = 0; k < size; k++) {
      const v = x[k]!, tb = t[b * step]!, s = v === 1 ? -tb : tb;
      // NaN and values off {0, 1} as logProbScalar takes them (a NaN logit gives L = NaN anyway).
      out[k] = Number.isNaN(v) || Number.isNaN(tb) ? Number.NaN : v !== 0 && v !== 1 ? -Infinity : -(s > 0 ? s + l[k]! : l[k]!);
      if (++b === nb) b = 0;
    }
  };
}
