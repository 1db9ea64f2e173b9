/**
 * `SliceSampler` (TFP's `tfp.mcmc.SliceSampler`): hit-and-run slice sampling. Each step picks a
 * direction per state part, uniform on that part's unit sphere (per chain), and applies Neal's
 * (2003) one-dimensional slice sampler, doubling then shrinking, along it.
 */
import { checkFunction, checkInteger, fail } from '../../src/checks.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { getModes, type Modes } from '../../src/config.js';
import { detCos, detSin } from '../../src/math/index.js';
import { normal } from '../../src/samplers/normal.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import { sanitizeSeed, splitSeed, zerosSeed } from '../../src/samplers/seeds.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { broadcastTo } from '../../src/tensor/ops/shape.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { checkChainDims, checkFloatLogProb } from '../internal/choose.js';
import { sliceSamplerOneDim } from '../internal/slice-sampler-utils.js';
import { checkFiniteInitial, logProbAt, stateParts, StepRejections, targetLogProb } from '../internal/target.js';
import type { State, TargetLogProbFn, TransitionKernel } from '../kernel.js';

/** A slice width: one value (number or Tensor broadcasting against every part) or one per part. */
export type SliceStepSize = number | Tensor | readonly (number | Tensor)[];

export interface SliceSamplerOptions {
  /** Log density of the target (unnormalized), one value per chain. */
  readonly targetLogProbFn: TargetLogProbFn;
  /**
   * The initial interval width along each axis (positive); along a direction n the width is
   * `1/√Σ (n_i/s_i)²` (the ellipsoid through the per-axis widths).
   */
  readonly stepSize: SliceStepSize;
  /** The most doublings when looking for the slice's ends (a positive integer). */
  readonly maxDoublings: number;
}

/** `SliceSampler` results (TFP's `SliceSamplerKernelResults`, plus the step's seed). */
export interface SliceSamplerResults {
  /** The target's log density at the new state, one value per chain. */
  readonly targetLogProb: Tensor;
  /** Per chain: did the doubling find an interval with both ends outside the slice (bool). */
  readonly boundsSatisfied: Tensor;
  /** The unit direction of the step, one tensor per state part (zeros after bootstrap). */
  readonly direction: readonly Tensor[];
  /** Per chain: the interval's ends, as distances along `direction` from the old state. */
  readonly upperBounds: Tensor;
  readonly lowerBounds: Tensor;
  /**
   * Per chain (int32, not in TFP): 1 when the target failed at some point this step evaluated for
   * the chain — threw (other than a programming error: TypeError, ReferenceError, SyntaxError
   * propagate) or gave a non-finite log density (`mcmc/internal/rejections.ts`). Such a point
   * reads −∞: outside the slice, so the interval ends there or shrinks past it, and the run goes
   * on. A tensor target that throws fails every chain's point. 0 after `bootstrapResults`.
   */
  readonly rejections: Tensor;
  /** The seed this step used (`zerosSeed()` after `bootstrapResults`). */
  readonly seed: KeyArray;
}

function checkStepSize(fn: string, s: unknown): SliceStepSize {
  const okValue = (v: unknown): boolean => {
    if (typeof v === 'number') return Number.isFinite(v) && v > 0;
    if (v instanceof Tensor) return (v.data as ArrayLike<number>).length > 0 && Array.prototype.every.call(v.data, (x: number) => Number.isFinite(x) && x > 0);
    return false;
  };
  const list = Array.isArray(s) ? s : [s];
  if (list.length === 0 || !list.every((v) => typeof v === 'number' || v instanceof Tensor)) {
    fail('type', fn, 'stepSize', 'must be a positive number or Tensor, or a non-empty array of them (one per state part)', s);
  }
  if (!list.every(okValue)) fail('range', fn, 'stepSize', 'must be finite and positive', s);
  return s as SliceStepSize;
}

/**
 * Hit-and-run slice sampling (TFP's `SliceSampler`). Always calibrated; one target evaluation
 * per doubling end and shrinkage round, vectorized over chains.
 *
 * Seeds, as TFP: the step seed is sanitized and split into `[directionSeed, sliceSeed]`;
 * `directionSeed` is split into one key per state part, each drawing TFP's `spherical_uniform` of
 * the part's event size d in its dtype: a Rademacher sign for d = 1 (an integer uniform on
 * {0, 1}, int64 in x64 mode), (cos u, sin u) with u uniform on [0, 2π) for d = 2, and standard
 * normals over their norm for d ≥ 3 (so each part's direction has norm 1); `sliceSeed` drives the
 * one-dimensional routine: `splitSeed(sliceSeed, { n: 3, salt: 'ssu.slice_sampler_one_dim' })`
 * into the slice height's Gamma(1) draw, the doubling (`salt 'slice_bounds_by_doubling'`) and the
 * shrinkage loop (one split per round).
 *
 * A failure of the target at a point — it throws (a TypeError, ReferenceError or SyntaxError, a
 * programming error, still propagates) or is not finite — reads −∞ there: the point is outside
 * the slice and the run goes on; `rejections` counts the steps where it happened, per chain (a
 * tensor target that throws for the whole batch fails every chain's point).
 *
 * @param options.targetLogProbFn the target's log density (one value per chain).
 * @param options.stepSize the initial interval width per axis (positive; per part or shared).
 * @param options.maxDoublings the most doublings (a positive integer, e.g. 5).
 * @throws TypeError for a missing function or a bad option type; RangeError for a non-positive
 *   `stepSize` or `maxDoublings`, a step size that does not broadcast to a part, a state whose
 *   leading dims are not the log density's shape, or a non-finite initial log density.
 * @example
 * const kernel = new SliceSampler({ targetLogProbFn: (x) => new Normal({ loc: 0, scale: 1 }).logProb(x), stepSize: 1, maxDoublings: 5 });
 * const { allStates } = sampleChain({ numResults: 1000, currentState: zeros([4]), kernel, seed: 0 });
 * // allStates: Tensor float64 [1000, 4]
 */
export class SliceSampler implements TransitionKernel<SliceSamplerResults> {
  readonly isCalibrated = true;
  readonly parameters: Readonly<SliceSamplerOptions>;
  /** The global modes when the kernel was built (TFP fixes dtypes at construction). */
  private readonly modes: Modes = getModes();

  constructor(options: SliceSamplerOptions) {
    const fn = 'SliceSampler';
    if (options === null || typeof options !== 'object') fail('type', fn, 'options', 'must be an object with `targetLogProbFn`, `stepSize` and `maxDoublings`', options);
    checkFunction(fn, 'targetLogProbFn', options.targetLogProbFn, 'must be a function of the state parts returning one log density per chain');
    const stepSize = checkStepSize(fn, options.stepSize);
    const maxDoublings = checkInteger(fn, 'maxDoublings', options.maxDoublings);
    if (maxDoublings < 1 || maxDoublings > 1000) fail('range', fn, 'maxDoublings', 'must be a positive integer (at most 1000)', maxDoublings);
    this.parameters = Object.freeze({ targetLogProbFn: options.targetLogProbFn, stepSize, maxDoublings });
  }

  get targetLogProbFn(): TargetLogProbFn { return this.parameters.targetLogProbFn; }
  get stepSize(): SliceStepSize { return this.parameters.stepSize; }
  get maxDoublings(): number { return this.parameters.maxDoublings; }

  bootstrapResults(state: State): SliceSamplerResults {
    const fn = 'SliceSampler.bootstrapResults';
    const [parts] = stateParts(fn, state);
    const lp = targetLogProb(fn, this.targetLogProbFn, parts);
    checkFloatLogProb(fn, lp);
    checkChainDims(fn, parts, lp.shape);
    checkFiniteInitial(fn, lp);
    const zeros = () => new Tensor(lp.dtype === 'float32' ? new Float32Array(lp.size) : new Float64Array(lp.size), lp.shape, lp.dtype);
    return {
      targetLogProb: lp,
      boundsSatisfied: new Tensor(new Uint8Array(lp.size), lp.shape, 'bool'),
      direction: parts.map((p) => new Tensor(p.dtype === 'float32' ? new Float32Array(p.size) : new Float64Array(p.size), p.shape, p.dtype)),
      upperBounds: zeros(),
      lowerBounds: zeros(),
      rejections: new Tensor(new Int32Array(lp.size), lp.shape, 'int32'),
      seed: zerosSeed(),
    };
  }

  oneStep(state: State, previousResults: SliceSamplerResults, seed: KeyArray): [State, SliceSamplerResults] {
    const fn = 'SliceSampler.oneStep';
    const stepSeed = sanitizeSeed(seed);
    const [parts, rebuild] = stateParts(fn, state);
    const lp0 = previousResults?.targetLogProb;
    if (!(lp0 instanceof Tensor)) fail('type', fn, 'previousResults', 'must be SliceSampler results (with `targetLogProb`)', previousResults);
    const chainShape = lp0.shape, n = lp0.size;
    checkChainDims(fn, parts, chainShape);
    for (const p of parts) {
      if (p.dtype !== 'float32' && p.dtype !== 'float64') fail('type', fn, 'currentState', 'must hold float tensors', p.dtype);
    }
    const [directionSeed, sliceSeed] = splitSeed(stepSeed) as [KeyArray, KeyArray];

    // A direction per part, uniform on that part's unit sphere (TFP's spherical_uniform).
    const partSeeds = splitSeed(directionSeed, { n: parts.length });
    const direction = parts.map((p, i) => new Tensor(sphericalUniform(n, p.size / n, p.dtype as FloatDType, partSeeds[i]!, this.modes), p.shape, p.dtype));

    // The width along the direction: 1/√Σ (n_i/s_i)² per chain.
    const steps = this.stepSizesFor(fn, parts);
    const comp = new Float64Array(n);
    direction.forEach((dir, i) => {
      const dd = dir.data as Float64Array, s = steps[i]!, inner = dir.size / n;
      for (let j = 0; j < dd.length; j++) { const r = dd[j]! / s[j]!; comp[Math.floor(j / inner)] += r * r; }
    });
    const width = new Float64Array(n);
    for (let c = 0; c < n; c++) width[c] = 1 / Math.sqrt(comp[c]!);

    const along = (alpha: Float64Array): Tensor[] => parts.map((p, i) => {
      const x = p.data as Float64Array, dd = direction[i]!.data as Float64Array, inner = p.size / n, f32 = p.dtype === 'float32';
      const out = f32 ? new Float32Array(x.length) : new Float64Array(x.length);
      for (let j = 0; j < x.length; j++) {
        const a = alpha[Math.floor(j / inner)]!;
        out[j] = f32 ? Math.fround(x[j]! + Math.fround(a * dd[j]!)) : x[j]! + a * dd[j]!;
      }
      return new Tensor(out, p.shape, p.dtype);
    });
    const rej = new StepRejections(n);
    const projected = (alpha: Float64Array): Float64Array => {
      const { lp, failures } = logProbAt(fn, this.targetLogProbFn, along(alpha), lp0);
      rej.note(failures);
      if (lp.shape.length !== chainShape.length || lp.shape.some((d, i) => d !== chainShape[i])) {
        fail('range', fn, 'targetLogProbFn', `must return the chain shape [${chainShape.join(', ')}]`, lp.shape);
      }
      return lp.data instanceof Float64Array ? lp.data : Float64Array.from(lp.data as ArrayLike<number>);
    };

    const dtype = parts[0]!.dtype as FloatDType;
    const lpData = lp0.data instanceof Float64Array ? lp0.data : Float64Array.from(lp0.data as ArrayLike<number>);
    const r = sliceSamplerOneDim(projected, new Float64Array(n), lpData, width, this.maxDoublings, sliceSeed, dtype);
    const lpDtype = lp0.dtype === 'float32' ? 'float32' : 'float64';
    const asLp = (a: Float64Array) => new Tensor(lpDtype === 'float32' ? Float32Array.from(a) : a, chainShape, lpDtype);
    return [rebuild(along(r.x)), {
      targetLogProb: asLp(r.logProb),
      boundsSatisfied: new Tensor(r.boundsSatisfied, chainShape, 'bool'),
      direction,
      upperBounds: asLp(r.upperBounds),
      lowerBounds: asLp(r.lowerBounds),
      rejections: new Tensor(rej.count, chainShape, 'int32'),
      seed: stepSeed,
    }];
  }

  /** Each part's step size broadcast to the part's shape, as float64 values. */
  private stepSizesFor(fn: string, parts: readonly Tensor[]): Float64Array[] {
    const s = this.stepSize;
    const list = Array.isArray(s) ? (s as (number | Tensor)[]) : parts.map(() => s as number | Tensor);
    if (list.length !== parts.length) fail('range', fn, 'stepSize', `must be one value or one per state part (${parts.length})`, `${list.length} values`);
    return parts.map((p, i) => {
      const v = list[i]!;
      if (typeof v === 'number') return new Float64Array(p.size).fill(v);
      let b: Tensor;
      try { b = broadcastTo(v, p.shape); } catch {
        fail('range', fn, 'stepSize', `must broadcast to the state part's shape [${p.shape.join(', ')}]`, v.shape);
      }
      return Float64Array.from(b.data as ArrayLike<number>);
    });
  }

  copy(overrides: Partial<SliceSamplerOptions> = {}): SliceSampler {
    return new SliceSampler({ ...this.parameters, ...overrides });
  }
}

/**
 * TFP's `random_ops.spherical_uniform(shape=[n], dimension=d)`: n points uniform on the unit
 * sphere in d dimensions, row-major [n, d], with TFP's three cases (see the class comment).
 */
function sphericalUniform(n: number, d: number, dtype: FloatDType, seed: KeyArray, modes: Modes): Float64Array | Float32Array {
  const f32 = dtype === 'float32', r = f32 ? Math.fround : (x: number) => x;
  const out = f32 ? new Float32Array(n * d) : new Float64Array(n * d);
  if (d === 1) {
    const bits = samplersUniform([n, 1], { minval: 0, maxval: 2, dtype: modes.x64 ? 'int64' : 'int32', seed }).data;
    for (let c = 0; c < n; c++) out[c] = 2 * Number(bits[c]!) - 1;
  } else if (d === 2) {
    const u = samplersUniform([n], { minval: 0, maxval: 2 * Math.PI, dtype, seed }).data as Float64Array | Float32Array;
    for (let c = 0; c < n; c++) { out[2 * c] = r(detCos(u[c]!)); out[2 * c + 1] = r(detSin(u[c]!)); }
  } else {
    const z = normal([n, d], { dtype, seed }).data as Float64Array | Float32Array;
    for (let c = 0; c < n; c++) {
      let ss = 0;
      for (let j = 0; j < d; j++) ss = r(ss + r(z[c * d + j]! * z[c * d + j]!));
      const norm = r(Math.sqrt(ss));
      for (let j = 0; j < d; j++) out[c * d + j] = r(z[c * d + j]! / norm);
    }
  }
  return out;
}
