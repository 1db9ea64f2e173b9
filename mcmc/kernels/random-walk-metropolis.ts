/**
 * Random-walk Metropolis (TFP's `random_walk_metropolis.py`): the proposal kernel
 * `UncalibratedRandomWalk`, its two proposal makers `randomWalkNormalFn` and
 * `randomWalkUniformFn`, and `RandomWalkMetropolis` = `MetropolisHastings(UncalibratedRandomWalk)`.
 */
import type { FlatTarget } from '../../src/compile/flat-target.js';
import { checkFunction, fail } from '../../src/checks.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { normal } from '../../src/samplers/normal.js';
import { sanitizeSeed, splitSeed, zerosSeed } from '../../src/samplers/seeds.js';
import { uniform } from '../../src/samplers/uniform.js';
import { add, sub } from '../../src/tensor/ops/elementwise.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { checkChainDims, checkFloatLogProb, checkSameParts } from '../internal/choose.js';
import { checkFiniteInitial, logProbAt, stateParts, targetFunction, targetLogProb } from '../internal/target.js';
import type { State, TargetLogProbFn, TransitionKernel } from '../kernel.js';
import { MetropolisHastings, type MetropolisHastingsResults } from './metropolis-hastings.js';

/**
 * A proposal: the state parts and a seed in, proposed parts of the same shapes and dtypes out.
 * `UncalibratedRandomWalk` treats it as symmetric (log acceptance correction 0).
 */
export type NewStateFn = (stateParts: readonly Tensor[], seed: KeyArray) => readonly Tensor[];

/** A proposal scale: one value (number or Tensor) for every part, or one per state part. */
export type RandomWalkScale = number | Tensor | readonly (number | Tensor)[];

function checkScale(fn: string, scale: unknown): RandomWalkScale {
  const ok = (s: unknown) => (typeof s === 'number' && Number.isFinite(s) && s >= 0) || s instanceof Tensor;
  const list = Array.isArray(scale) ? scale : [scale];
  if (list.length === 0 || !list.every(ok)) {
    fail(list.every((s) => typeof s === 'number' || s instanceof Tensor) && list.length > 0 ? 'range' : 'type', fn, 'scale',
      'must be a finite non-negative number or a Tensor, or a non-empty array of them (one per state part)', scale);
  }
  return scale as RandomWalkScale;
}

function scalesFor(fn: string, scale: RandomWalkScale, parts: readonly Tensor[]): (number | Tensor)[] {
  const list = Array.isArray(scale) ? [...(scale as (number | Tensor)[])] : [scale as number | Tensor];
  if (list.length === 1) return parts.map(() => list[0]!);
  if (list.length !== parts.length) fail('range', fn, 'scale', `must be one value or one per state part (${parts.length})`, `${list.length} values`);
  return list;
}

function checkProposalShape(fn: string, out: Tensor, part: Tensor, i: number): Tensor {
  if (out.shape.length !== part.shape.length || out.shape.some((d, j) => d !== part.shape[j])) {
    fail('range', fn, `scale${i > 0 ? `[${i}]` : ''}`, `must broadcast to the state part's shape [${part.shape.join(', ')}]`, out.shape);
  }
  return out;
}

/**
 * A proposal adding N(0, scale²) noise to every element (TFP's `random_walk_normal_fn`): the seed
 * is split into one key per state part, and part i becomes
 * `samplers.normal(shape, { mean: part, stddev: scale_i, dtype: part.dtype, seed: keys[i] })`.
 *
 * @param options.scale the proposal's standard deviation (default 1): a number or Tensor
 *   broadcasting against every part, or one per part.
 * @throws TypeError/RangeError for a scale that is not a finite non-negative number or Tensor;
 *   when called, RangeError if the scale does not broadcast to a part or the count of scales is
 *   neither 1 nor the number of parts.
 * @example
 * const kernel = new RandomWalkMetropolis({ targetLogProbFn, newStateFn: randomWalkNormalFn({ scale: 0.5 }) });
 */
export function randomWalkNormalFn(options: { readonly scale?: RandomWalkScale } = {}): NewStateFn {
  const fn = 'randomWalkNormalFn';
  const scale = checkScale(fn, options?.scale ?? 1);
  return (parts, seed) => {
    const scales = scalesFor(fn, scale, parts);
    const keys = splitSeed(seed, { n: parts.length });
    return parts.map((p, i) => checkProposalShape(fn,
      normal(p.shape, { mean: p, stddev: scales[i]!, dtype: p.dtype as FloatDType, seed: keys[i] }), p, i));
  };
}

/**
 * A proposal adding Uniform(−scale, scale) noise to every element (TFP's
 * `random_walk_uniform_fn`): one key per state part, and part i becomes
 * `samplers.uniform(shape, { minval: part − scale_i, maxval: part + scale_i, dtype, seed: keys[i] })`.
 *
 * @param options.scale the half-width of the proposal box (default 1): a number or Tensor
 *   broadcasting against every part, or one per part.
 * @throws as `randomWalkNormalFn`.
 * @example
 * const kernel = new RandomWalkMetropolis({ targetLogProbFn, newStateFn: randomWalkUniformFn({ scale: 2 }) });
 */
export function randomWalkUniformFn(options: { readonly scale?: RandomWalkScale } = {}): NewStateFn {
  const fn = 'randomWalkUniformFn';
  const scale = checkScale(fn, options?.scale ?? 1);
  return (parts, seed) => {
    const scales = scalesFor(fn, scale, parts);
    const keys = splitSeed(seed, { n: parts.length });
    return parts.map((p, i) => {
      const s = scales[i]!;
      // The bounds are computed in the part's dtype, as TFP's `state_part ± scale_part`.
      const st = typeof s === 'number' ? new Tensor(p.dtype === 'float32' ? Float32Array.of(s) : Float64Array.of(s), [], p.dtype) : s.astype(p.dtype);
      const out = uniform(p.shape, { minval: sub(p, st), maxval: add(p, st), dtype: p.dtype as FloatDType, seed: keys[i] });
      return checkProposalShape(fn, out, p, i);
    });
  };
}

export interface UncalibratedRandomWalkOptions {
  /** Log density of the target (unnormalized), one value per chain. */
  readonly targetLogProbFn: TargetLogProbFn | FlatTarget;
  /** The symmetric proposal (default `randomWalkNormalFn()`, i.e. scale 1). */
  readonly newStateFn?: NewStateFn;
  /** Name used in error messages (default the class name). */
  readonly name?: string;
}

/** `UncalibratedRandomWalk` results (TFP's `UncalibratedRandomWalkResults`). */
export interface UncalibratedRandomWalkResults {
  /** Zeros of the log density's shape: the proposal is symmetric. */
  readonly logAcceptanceCorrection: Tensor;
  /** The target's log density at the returned (proposed) state. */
  readonly targetLogProb: Tensor;
  /**
   * Per chain (int32, not in TFP): 1 when the target failed at this proposal — threw (other than
   * a programming error: TypeError, ReferenceError, SyntaxError propagate) or gave a non-finite
   * log density (`mcmc/internal/rejections.ts`); `targetLogProb` is then −∞, so
   * MetropolisHastings rejects it. A flat target fails chain by chain; a tensor target that
   * throws fails every chain's proposal. Read it from `proposedResults` under
   * MetropolisHastings; 0 after `bootstrapResults`.
   */
  readonly rejections: Tensor;
  /** The seed this step used (`zerosSeed()` after `bootstrapResults`). */
  readonly seed: KeyArray;
}

function checkTarget(fn: string, option: unknown): TargetLogProbFn {
  const target = targetFunction(fn, option);
  checkFunction(fn, 'targetLogProbFn', target, 'must be a function of the state parts returning one log density per chain');
  return target as TargetLogProbFn;
}

/**
 * The random-walk proposal alone (TFP's `UncalibratedRandomWalk`): it always moves to
 * `newStateFn(parts, sanitizeSeed(seed))` and reports the target's log density there. Not
 * calibrated: wrap it in `MetropolisHastings` (or use `RandomWalkMetropolis`).
 *
 * @throws TypeError for a missing `targetLogProbFn` or a bad `newStateFn`; at bootstrap,
 *   RangeError when the log density is not finite or the state's leading dims are not its shape;
 *   at each step, RangeError/TypeError when `newStateFn` changes a part's shape or dtype.
 * @example
 * const proposal = new UncalibratedRandomWalk({ targetLogProbFn: (x) => neg(square(x)) });
 * const mh = new MetropolisHastings({ innerKernel: proposal });
 */
export class UncalibratedRandomWalk implements TransitionKernel<UncalibratedRandomWalkResults> {
  readonly isCalibrated = false;
  readonly parameters: Readonly<Required<Omit<UncalibratedRandomWalkOptions, 'name'>> & { name: string | undefined }>;
  private readonly fn: string;
  /** The target as given (a flat target runs chain by chain, so one chain's failure is its own); `copy` passes it on. */
  readonly source: TargetLogProbFn | FlatTarget;

  constructor(options: UncalibratedRandomWalkOptions) {
    const fn = options?.name ?? 'UncalibratedRandomWalk';
    if (options === null || typeof options !== 'object') fail('type', fn, 'options', 'must be an object with `targetLogProbFn`', options);
    const targetLogProbFn = checkTarget(fn, options.targetLogProbFn);
    const newStateFn = options.newStateFn ?? randomWalkNormalFn();
    checkFunction(fn, 'newStateFn', newStateFn, 'must be a function (stateParts, seed) => parts');
    this.fn = fn;
    this.source = options.targetLogProbFn;
    this.parameters = Object.freeze({ targetLogProbFn, newStateFn, name: options.name });
  }

  get targetLogProbFn(): TargetLogProbFn { return this.parameters.targetLogProbFn as TargetLogProbFn; }   // checkTarget made a compiled density a function
  get newStateFn(): NewStateFn { return this.parameters.newStateFn; }

  bootstrapResults(state: State): UncalibratedRandomWalkResults {
    const fn = `${this.fn}.bootstrapResults`;
    const [parts] = stateParts(fn, state);
    const lp = targetLogProb(fn, this.targetLogProbFn, parts);
    checkFloatLogProb(fn, lp);
    checkChainDims(fn, parts, lp.shape);
    checkFiniteInitial(fn, lp);
    return { logAcceptanceCorrection: zerosLike(lp), targetLogProb: lp, rejections: new Tensor(new Int32Array(lp.size), lp.shape, 'int32'), seed: zerosSeed() };
  }

  oneStep(state: State, previousResults: UncalibratedRandomWalkResults, seed: KeyArray): [State, UncalibratedRandomWalkResults] {
    const fn = `${this.fn}.oneStep`;
    const [parts, rebuild] = stateParts(fn, state);
    const stepSeed = sanitizeSeed(seed);
    const next = checkSameParts(fn, 'newStateFn(…)', this.newStateFn(parts, stepSeed), parts);
    const like = previousResults?.targetLogProb;
    if (!(like instanceof Tensor)) fail('type', fn, 'previousResults', 'must be UncalibratedRandomWalk results (with `targetLogProb`)', previousResults);
    const { lp, failures } = logProbAt(fn, this.source, next, like);
    checkFloatLogProb(fn, lp);
    checkChainDims(fn, next, lp.shape);
    const count = new Int32Array(lp.size);
    if (failures !== undefined) for (const f of failures) count[f.chain] = 1;
    return [rebuild(next), { logAcceptanceCorrection: zerosLike(lp), targetLogProb: lp, rejections: new Tensor(count, lp.shape, 'int32'), seed: stepSeed }];
  }

  copy(overrides: Partial<UncalibratedRandomWalkOptions> = {}): UncalibratedRandomWalk {
    return new UncalibratedRandomWalk({ ...this.parameters, targetLogProbFn: this.source, ...overrides });
  }
}

function zerosLike(lp: Tensor): Tensor {
  return new Tensor(lp.dtype === 'float32' ? new Float32Array(lp.size) : new Float64Array(lp.size), lp.shape, lp.dtype);
}

export type RandomWalkMetropolisOptions = UncalibratedRandomWalkOptions;

/** `RandomWalkMetropolis` results: `MetropolisHastings` results around the random walk's. */
export type RandomWalkMetropolisResults = MetropolisHastingsResults<UncalibratedRandomWalkResults>;

/**
 * Random-walk Metropolis (TFP's `RandomWalkMetropolis`):
 * `MetropolisHastings(UncalibratedRandomWalk({ targetLogProbFn, newStateFn }))`, with a normal
 * proposal of scale 1 by default. Leading state dims that line up with the log density's shape
 * are independent chains with their own accept/reject.
 *
 * Seeds: MH splits the (sanitized) step seed into `[proposalSeed, acceptSeed]`; the proposal
 * splits `proposalSeed` into one key per state part; `acceptSeed` draws one uniform per chain.
 *
 * A failure of the target at a proposal — it throws (a TypeError, ReferenceError or SyntaxError, a
 * programming error, still propagates) or is not finite — rejects it and the run goes on;
 * `proposedResults.rejections` counts it per chain (a flat target fails chain by chain; a tensor
 * target that throws for the whole batch rejects every chain's proposal).
 *
 * @param options.targetLogProbFn the target's log density (one value per chain).
 * @param options.newStateFn a symmetric proposal (default `randomWalkNormalFn()`).
 * @throws as `UncalibratedRandomWalk` and `MetropolisHastings`.
 * @example
 * const target = new Normal({ loc: 0, scale: 1 });
 * const kernel = new RandomWalkMetropolis({ targetLogProbFn: (x) => target.logProb(x), newStateFn: randomWalkNormalFn({ scale: 2 }) });
 * const { allStates, trace } = sampleChain({
 *   numResults: 1000, numBurninSteps: 200, currentState: zeros([4]), kernel, seed: 42,
 *   traceFn: (_, r) => r.isAccepted,
 * });
 * // allStates: Tensor float64 [1000, 4]; trace: Tensor bool [1000, 4]
 */
export class RandomWalkMetropolis implements TransitionKernel<RandomWalkMetropolisResults> {
  readonly isCalibrated = true;
  private readonly impl: MetropolisHastings<UncalibratedRandomWalkResults>;

  constructor(options: RandomWalkMetropolisOptions) {
    const name = (options !== null && typeof options === 'object' ? options.name : undefined) ?? 'RandomWalkMetropolis';
    this.impl = new MetropolisHastings({ innerKernel: new UncalibratedRandomWalk({ ...options, name }) });
  }

  /** The constructor options (TFP: the inner kernel's parameters). */
  get parameters(): UncalibratedRandomWalk['parameters'] { return (this.impl.innerKernel as UncalibratedRandomWalk).parameters; }
  get targetLogProbFn(): TargetLogProbFn { return this.parameters.targetLogProbFn as TargetLogProbFn; }   // checkTarget made a compiled density a function
  get newStateFn(): NewStateFn { return this.parameters.newStateFn; }

  bootstrapResults(state: State): RandomWalkMetropolisResults { return this.impl.bootstrapResults(state); }

  oneStep(state: State, previousResults: RandomWalkMetropolisResults, seed: KeyArray): [State, RandomWalkMetropolisResults] {
    return this.impl.oneStep(state, previousResults, seed);
  }

  copy(overrides: Partial<RandomWalkMetropolisOptions> = {}): RandomWalkMetropolis {
    return new RandomWalkMetropolis({ ...this.parameters, targetLogProbFn: (this.impl.innerKernel as UncalibratedRandomWalk).source, ...overrides });
  }
}
