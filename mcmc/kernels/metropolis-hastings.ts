/**
 * `MetropolisHastings` (TFP's `tfp.mcmc.MetropolisHastings`): the accept/reject step around any
 * proposal kernel whose results carry `targetLogProb` (and optionally
 * `logAcceptanceCorrection`), vectorized over chains.
 */
import { fail } from '../../src/checks.js';
import { type KeyArray, splitKeys } from '../../src/random/key-array.js';
import { uniformData } from '../../src/random/uniform.js';
import { sanitizeSeed, zerosSeed } from '../../src/samplers/seeds.js';
import { getModes, type Modes } from '../../src/config.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { checkChainDims, checkSameParts, chooseResults, selectPerChain, stripSeeds } from '../internal/choose.js';
import { stateParts } from '../internal/target.js';
import type { State, TransitionKernel } from '../kernel.js';
import { detLog } from '../../src/math/index.js';

/** What `MetropolisHastings` reads from its inner kernel's results. */
export interface ProposalResults {
  /** The target's log density at the (proposed) state, one value per chain. */
  readonly targetLogProb: Tensor;
  /** log g(x | x′) − log g(x′ | x) for the proposal density g (absent: 0, a symmetric proposal). */
  readonly logAcceptanceCorrection?: Tensor;
}

export interface MetropolisHastingsOptions<R extends object> {
  /** The proposal kernel (usually uncalibrated); its results must hold `targetLogProb`. */
  readonly innerKernel: TransitionKernel<R>;
}

/** `MetropolisHastings` results (TFP's `MetropolisHastingsKernelResults`). */
export interface MetropolisHastingsResults<R extends object> {
  /** The inner results of the state each chain holds now (seed fields set to `zerosSeed()`). */
  readonly acceptedResults: R;
  /** Per chain: was the proposal accepted (bool, shape = chain dims). */
  readonly isAccepted: Tensor;
  /** Per chain: target′ − target + correction, with non-finite values set to −∞. */
  readonly logAcceptRatio: Tensor;
  /** The proposal, accepted or not. */
  readonly proposedState: State;
  /** The inner kernel's results for the proposal. */
  readonly proposedResults: R;
  /** Room for wrappers (TFP's `extra`), always `[]`. */
  readonly extra: readonly unknown[];
  /** The seed this step used (`zerosSeed()` after `bootstrapResults`). */
  readonly seed: KeyArray;
}

function logProbOf(fn: string, results: unknown, arg: string): Tensor {
  const lp = results !== null && typeof results === 'object' ? (results as { targetLogProb?: unknown }).targetLogProb : undefined;
  if (!(lp instanceof Tensor)) fail('type', fn, arg, 'must hold a `targetLogProb` Tensor (the inner kernel\'s results)', lp);
  return lp;
}

/**
 * The Metropolis–Hastings correction around a proposal kernel (TFP's `MetropolisHastings`).
 *
 * One step: the seed is sanitized and split into `[proposalSeed, acceptSeed]`; the inner kernel
 * proposes from `previousResults.acceptedResults` with `proposalSeed`; then
 * `logAcceptRatio = targetLogProb′ − targetLogProb + logAcceptanceCorrection′` (a non-finite
 * ratio, NaN included, becomes −∞, so such proposals are always rejected), one uniform per chain
 * is drawn from `acceptSeed` with the shape and dtype of the proposal's `targetLogProb`, and a
 * chain accepts iff `log u < logAcceptRatio`. The state parts and every tensor of the inner
 * results whose leading dims are the chain dims are chosen per chain; inner `seed` fields are
 * replaced by `zerosSeed()` in `acceptedResults`.
 *
 * @param options.innerKernel the proposal kernel, e.g. `new UncalibratedRandomWalk({ … })`.
 * @throws TypeError when `innerKernel` is not a kernel, or (at bootstrap/step) its results hold
 *   no `targetLogProb` Tensor; RangeError when a proposal changes a state part's shape or the
 *   state's leading dims are not the log density's shape.
 * @example
 * const mh = new MetropolisHastings({
 *   innerKernel: new UncalibratedRandomWalk({ targetLogProbFn: (x) => new Normal({ loc: 0, scale: 1 }).logProb(x) }),
 * });
 * const { allStates } = sampleChain({ numResults: 500, currentState: zeros([4]), kernel: mh, seed: 1 });
 * // allStates: Tensor float64 [500, 4]
 */
export class MetropolisHastings<R extends object = ProposalResults> implements TransitionKernel<MetropolisHastingsResults<R>> {
  readonly isCalibrated = true;
  readonly parameters: Readonly<MetropolisHastingsOptions<R>>;
  /** The global modes when the kernel was built (TFP fixes dtypes at construction). */
  private readonly modes: Modes = getModes();

  constructor(options: MetropolisHastingsOptions<R>) {
    const fn = 'MetropolisHastings';
    if (options === null || typeof options !== 'object') fail('type', fn, 'options', 'must be an object with `innerKernel`', options);
    const k = options.innerKernel;
    if (k === null || typeof k !== 'object' || typeof k.oneStep !== 'function' || typeof k.bootstrapResults !== 'function') {
      fail('type', fn, 'innerKernel', 'must be a TransitionKernel (with oneStep and bootstrapResults)', k);
    }
    this.parameters = Object.freeze({ innerKernel: k });
  }

  /** The proposal kernel. */
  get innerKernel(): TransitionKernel<R> { return this.parameters.innerKernel; }

  bootstrapResults(state: State): MetropolisHastingsResults<R> {
    const pkr = this.innerKernel.bootstrapResults(state);
    const lp = logProbOf('MetropolisHastings.bootstrapResults', pkr, 'innerKernel.bootstrapResults(…)');
    const zeros = new Tensor(lp.dtype === 'float32' ? new Float32Array(lp.size) : new Float64Array(lp.size), lp.shape, lp.dtype);
    return {
      acceptedResults: stripSeeds(pkr),
      isAccepted: new Tensor(new Uint8Array(lp.size).fill(1), lp.shape, 'bool'),
      logAcceptRatio: zeros,
      proposedState: state,
      proposedResults: pkr,
      extra: [],
      seed: zerosSeed(),
    };
  }

  oneStep(state: State, previousResults: MetropolisHastingsResults<R>, seed: KeyArray): [State, MetropolisHastingsResults<R>] {
    const fn = 'MetropolisHastings.oneStep';
    const stepSeed = sanitizeSeed(seed);
    const [proposalSeed, acceptSeed] = splitKeys(stepSeed, 2, this.modes) as [KeyArray, KeyArray];
    const [current, rebuild] = stateParts(fn, state);
    if (previousResults === null || typeof previousResults !== 'object' || previousResults.acceptedResults === undefined) {
      fail('type', fn, 'previousResults', 'must be MetropolisHastings results (from bootstrapResults or oneStep)', previousResults);
    }
    const previous = previousResults.acceptedResults;
    const [proposedState, proposedResults] = this.innerKernel.oneStep(state, previous, proposalSeed);
    const lpNew = logProbOf(fn, proposedResults, 'innerKernel.oneStep(…)[1]');
    const lpOld = logProbOf(fn, previous, 'previousResults.acceptedResults');
    const lac = (proposedResults as ProposalResults).logAcceptanceCorrection;
    const logAcceptRatio = safeLogAcceptRatio(fn, lpNew, lpOld, lac);

    const chainShape = lpNew.shape;
    const n = lpNew.size;
    // float32 when the log density is float32, or in x32 mode (where float64 draws do not exist).
    const udtype = lpNew.dtype === 'float32' || !this.modes.x64 ? 'float32' : 'float64';
    // samplers.uniform's values, without its per-call argument checks.
    const u = uniformData(acceptSeed, n, udtype, 0, 1, this.modes);
    const lar = logAcceptRatio.data as Float64Array;
    const mask = new Uint8Array(n);
    const f32 = lpNew.dtype === 'float32';
    for (let i = 0; i < n; i++) {
      const logU = f32 ? Math.fround(detLog(u[i]!)) : detLog(u[i]!);
      mask[i] = logU < lar[i]! ? 1 : 0;
    }
    const proposed = checkSameParts(fn, 'innerKernel.oneStep(…)[0]', stateParts(fn, proposedState)[0], current);
    checkChainDims(fn, current, chainShape);
    const next = rebuild(proposed.map((p, i) => selectPerChain(mask, p, current[i]!)));
    return [next, {
      acceptedResults: chooseResults(mask, chainShape, proposedResults, previous) as R,
      isAccepted: new Tensor(mask, chainShape, 'bool'),
      logAcceptRatio,
      proposedState,
      proposedResults,
      extra: [],
      seed: stepSeed,
    }];
  }

  copy(overrides: Partial<MetropolisHastingsOptions<R>> = {}): MetropolisHastings<R> {
    return new MetropolisHastings({ ...this.parameters, ...overrides });
  }
}

/**
 * target′ − target (+ correction), non-finite results → −∞ (TFP's `safe_sum` over `add_n`, which
 * needs equal shapes; a scalar correction is broadcast), in the log density's dtype.
 */
function safeLogAcceptRatio(fn: string, lpNew: Tensor, lpOld: Tensor, lac: Tensor | undefined): Tensor {
  const same = (t: Tensor) => t.shape.length === lpNew.shape.length && t.shape.every((d, i) => d === lpNew.shape[i]);
  if (!same(lpOld)) {
    fail('range', fn, 'previousResults.acceptedResults.targetLogProb', `must have the shape of the proposal's targetLogProb [${lpNew.shape.join(', ')}]`, lpOld.shape);
  }
  if (lac !== undefined && !(lac instanceof Tensor)) fail('type', fn, 'logAcceptanceCorrection', 'must be a Tensor (or absent)', lac);
  if (lac !== undefined && !(same(lac) || lac.size === 1)) {
    fail('range', fn, 'logAcceptanceCorrection', `must have the shape of targetLogProb [${lpNew.shape.join(', ')}] (or be a scalar)`, lac.shape);
  }
  const f32 = lpNew.dtype === 'float32' && lpOld.dtype === 'float32' && (lac === undefined || lac.dtype === 'float32');
  const a = lpNew.data as Float64Array, b = lpOld.data as Float64Array, c = lac?.data as Float64Array | undefined;
  const cs = lac !== undefined && lac.size === 1 && a.length !== 1 ? 0 : 1;
  const o = f32 ? new Float32Array(a.length) : new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) {
    // add_n(a, −b, c) = (a − b) + c, rounded per op in float32.
    let s = a[i]! - b[i]!;
    if (f32) s = Math.fround(s);
    if (c) s = f32 ? Math.fround(s + c[i * cs]!) : s + c[i * cs]!;
    o[i] = Number.isFinite(s) ? s : -Infinity;
  }
  return new Tensor(o, lpNew.shape, f32 ? 'float32' : 'float64');
}
