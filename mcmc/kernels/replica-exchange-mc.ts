/**
 * `ReplicaExchangeMC` (TFP's `tfp.mcmc.ReplicaExchangeMC`, parallel tempering); its swap
 * proposals `defaultSwapProposalFn` and `evenOddSwapProposalFn` live in `../internal/swap-proposals.ts`
 * and are re-exported here.
 */
import { checkBoolean, checkFunction, fail } from '../../src/checks.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { sanitizeSeed, splitSeed, zerosSeed } from '../../src/samplers/seeds.js';
import { uniform } from '../../src/samplers/uniform.js';
import { asTensor } from '../../src/tensor/core.js';
import { add, mul } from '../../src/tensor/ops/elementwise.js';
import { broadcastTo, reshape } from '../../src/tensor/ops/shape.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import { getInnermost, hasInnermost, replaceInnermost } from '../internal/kernel-results.js';
import { leftBroadcast, nanLike, subDiag, swapNotMatrix, swapReplicas } from '../internal/replica-exchange-utils.js';
import { defaultSwapProposalFn, type SwapProposalFn } from '../internal/swap-proposals.js';
import { stateParts } from '../internal/target.js';
import type { State, TargetLogProbFn, TransitionKernel } from '../kernel.js';
import { detLog } from '../../src/math/index.js';

export { defaultSwapProposalFn, evenOddSwapProposalFn, type SwapProposalArgs, type SwapProposalFn } from '../internal/swap-proposals.js';

export interface ReplicaExchangeMCOptions<R extends object> {
  /** The target's log density; replica k samples β_k·target. Exclusive with `temperedLogProbFn`. */
  readonly targetLogProbFn?: TargetLogProbFn;
  /** β, shape `[R]` or `[R, …batch]` (left-justified against the chains): β_0 = 1 samples the target. */
  readonly inverseTemperatures: Tensor | readonly number[];
  /** Builds the kernel every replica runs, from the tempered log density (called every step). */
  readonly makeKernelFn: (targetLogProbFn: TargetLogProbFn) => TransitionKernel<R>;
  /** Default `defaultSwapProposalFn(1)`. */
  readonly swapProposalFn?: SwapProposalFn;
  /** If true, the state's leading dim indexes replicas (and all replicas are returned); default false. */
  readonly stateIncludesReplicas?: boolean;
  /** With `temperedLogProbFn`: replica k samples β_k·tempered + untempered (β may then be 0). */
  readonly untemperedLogProbFn?: TargetLogProbFn;
  readonly temperedLogProbFn?: TargetLogProbFn;
}

/** `ReplicaExchangeMC` results (TFP's `ReplicaExchangeMCKernelResults`); axis 0 indexes replicas. */
export interface ReplicaExchangeMCResults<R extends object> {
  /** Every replica's state after the swaps, one tensor `[R, …]` per part. */
  readonly postSwapReplicaStates: readonly Tensor[];
  /** The inner kernel's results before the swaps. */
  readonly preSwapReplicaResults: R;
  /** The same with the (tempered) `targetLogProb` (and `gradsTargetLogProb`) re-evaluated after the swaps and proposal fields set to NaN. */
  readonly postSwapReplicaResults: R;
  /** `[R, R, …batch]` bool: `[i, j]` is true when replica i was proposed to swap with j (`[i, i]`: no move). */
  readonly isSwapProposed: Tensor;
  /** `[R, R, …batch]` bool: the swaps accepted. */
  readonly isSwapAccepted: Tensor;
  /** `[R − 1, …batch]` bool: a swap between k and k + 1 was proposed / accepted. */
  readonly isSwapProposedAdjacent: Tensor;
  readonly isSwapAcceptedAdjacent: Tensor;
  /** The inverse temperatures used (adapters may replace them). */
  readonly inverseTemperatures: Tensor;
  /** The proposed permutation, int32 `[R, …batch]`. */
  readonly swaps: Tensor;
  readonly seed: KeyArray;
  /** Steps taken (0 after bootstrap). */
  readonly stepCount: number;
  /** −(untempered part of the log density) per replica and chain (zeros after bootstrap, as TFP). */
  readonly potentialEnergy: Tensor;
}

type REMCParameters<R extends object> = Required<Pick<ReplicaExchangeMCOptions<R>, 'makeKernelFn' | 'swapProposalFn' | 'stateIncludesReplicas'>>
  & Pick<ReplicaExchangeMCOptions<R>, 'targetLogProbFn' | 'untemperedLogProbFn' | 'temperedLogProbFn'> & { readonly inverseTemperatures: Tensor };

/**
 * Replica-exchange Monte Carlo (parallel tempering), TFP's `ReplicaExchangeMC`. Replica k runs
 * the inner kernel on β_k·target (the initial state is copied to every replica); after each step,
 * swaps from `swapProposalFn` are accepted per pair and chain with the Metropolis ratio
 * `exp((β_i − β_j)(L_j − L_i))` (non-finite → −∞), using one uniform per pair. Replica 0's state
 * is returned (all replicas with `stateIncludesReplicas`).
 *
 * Seeds, as TFP: `[innerSeed, swapSeed, logUSeed] = splitSeed(sanitizeSeed(seed), { n: 3 })`;
 * the inner kernel steps all replicas at once with `innerSeed`, the swap proposal gets
 * `swapSeed`, and the acceptance uniforms (shape `[R, …batch]`, the log density's dtype, read at
 * `min(k, swaps[k])` so both members of a pair share one) come from `logUSeed`.
 *
 * @throws TypeError for missing or conflicting log density functions or a bad option; RangeError
 *   for inverse temperatures that are not positive (non-negative with `untemperedLogProbFn`) or
 *   not of shape `[R, …]`, a log density without a leading replica dim, or swaps that are not a
 *   self-inverse permutation.
 * @example
 * const remc = new ReplicaExchangeMC({
 *   targetLogProbFn: (x) => bimodal.logProb(x),
 *   inverseTemperatures: [1, 0.3, 0.1, 0.03],
 *   makeKernelFn: (t) => new RandomWalkMetropolis({ targetLogProbFn: t }),
 * });
 * const { allStates } = sampleChain({ numResults: 2000, currentState: zeros([4]), kernel: remc, seed: 0 });
 * // allStates: Tensor float64 [2000, 4] (4 chains of replica 0)
 */
export class ReplicaExchangeMC<R extends object = Record<string, unknown>> implements TransitionKernel<ReplicaExchangeMCResults<R>> {
  readonly isCalibrated = true;
  readonly parameters: Readonly<REMCParameters<R>>;

  constructor(options: ReplicaExchangeMCOptions<R>) {
    const fn = 'ReplicaExchangeMC';
    if (options === null || typeof options !== 'object') fail('type', fn, 'options', 'must be an object', options);
    const { targetLogProbFn, untemperedLogProbFn, temperedLogProbFn } = options;
    for (const [k, v] of Object.entries({ targetLogProbFn, untemperedLogProbFn, temperedLogProbFn })) {
      if (v !== undefined) checkFunction(fn, k, v, 'must be a function of the state parts');
    }
    if ((temperedLogProbFn === undefined) !== (untemperedLogProbFn === undefined)) {
      fail('type', fn, 'temperedLogProbFn', 'and `untemperedLogProbFn` must be given together (or neither)', temperedLogProbFn ?? untemperedLogProbFn);
    }
    if ((targetLogProbFn === undefined) === (temperedLogProbFn === undefined)) {
      fail('type', fn, 'targetLogProbFn', 'or the pair `temperedLogProbFn`/`untemperedLogProbFn` must be given (exactly one of them)', targetLogProbFn);
    }
    checkFunction(fn, 'makeKernelFn', options.makeKernelFn, 'must be a function (targetLogProbFn) => TransitionKernel');
    const swapProposalFn = options.swapProposalFn ?? defaultSwapProposalFn(1);
    checkFunction(fn, 'swapProposalFn', swapProposalFn, 'must be a function (numReplica, { batchShape, stepCount, seed }) => swaps');
    const stateIncludesReplicas = checkBoolean(fn, 'stateIncludesReplicas', options.stateIncludesReplicas ?? false);
    const it = options.inverseTemperatures;
    if (!(it instanceof Tensor) && !Array.isArray(it)) fail('type', fn, 'inverseTemperatures', 'must be a Tensor or an array of numbers', it);
    const betas = asTensor(fn, 'inverseTemperatures', it).astype('float64');
    if (betas.ndim < 1 || betas.shape[0] === 0) fail('range', fn, 'inverseTemperatures', 'must have shape [R, …] with R ≥ 1 replicas', betas.shape);
    const nonneg = untemperedLogProbFn !== undefined;
    for (const b of betas.data as Float64Array) {
      if (!(Number.isFinite(b) && (nonneg ? b >= 0 : b > 0))) {
        fail('range', fn, 'inverseTemperatures', nonneg ? 'must be finite and non-negative' : 'must be finite and positive (without `untemperedLogProbFn`)', b);
      }
    }
    this.parameters = Object.freeze({
      targetLogProbFn, untemperedLogProbFn, temperedLogProbFn, inverseTemperatures: betas,
      makeKernelFn: options.makeKernelFn, swapProposalFn, stateIncludesReplicas,
    });
  }

  get inverseTemperatures(): Tensor { return this.parameters.inverseTemperatures; }
  /** The number of replicas R. */
  get numReplica(): number { return this.inverseTemperatures.shape[0]!; }

  /** The log density replica k targets: β_k·(tempered or target) (+ untempered), differentiable. */
  private replicaTarget(betas: Tensor): TargetLogProbFn {
    const { targetLogProbFn, temperedLogProbFn, untemperedLogProbFn } = this.parameters;
    const base = (temperedLogProbFn ?? targetLogProbFn)!;
    return (...x: Tensor[]) => {
      const tlp = asTensor('ReplicaExchangeMC', 'targetLogProbFn(…)', base(...x));
      if (tlp.ndim < betas.ndim) {
        fail('range', 'ReplicaExchangeMC', 'targetLogProbFn', `must return one log density per replica (and chain), shape [${betas.shape.join(', ')}, …]`, tlp.shape);
      }
      const b = reshape(tlp.dtype === 'float32' ? betas.astype('float32') : betas, [...betas.shape, ...new Array<number>(tlp.ndim - betas.ndim).fill(1)]);
      const lp = mul(b, tlp);
      return untemperedLogProbFn ? add(lp, untemperedLogProbFn(...x)) : lp;
    };
  }

  private innerKernel(betas: Tensor, fn: string): TransitionKernel<R> {
    const k = this.parameters.makeKernelFn(this.replicaTarget(betas));
    if (k === null || typeof k !== 'object' || typeof k.oneStep !== 'function' || typeof k.bootstrapResults !== 'function') {
      fail('type', fn, 'makeKernelFn', 'must return a TransitionKernel', k);
    }
    return k;
  }

  private replicaLogProb(fn: string, results: R): Tensor {
    const lp = getInnermost(results, 'targetLogProb', fn);
    if (!(lp instanceof Tensor)) fail('type', fn, 'makeKernelFn', 'must make a kernel whose results hold a `targetLogProb` Tensor', lp);
    if (lp.ndim < 1 || lp.shape[0] !== this.numReplica) {
      fail('range', fn, 'targetLogProbFn', `must return one log density per replica: a leading dim of ${this.numReplica}`, lp.shape);
    }
    return lp;
  }

  bootstrapResults(state: State): ReplicaExchangeMCResults<R> {
    const fn = 'ReplicaExchangeMC.bootstrapResults';
    const [parts] = stateParts(fn, state);
    const betas = this.inverseTemperatures, R = this.numReplica;
    if (this.parameters.stateIncludesReplicas) {
      parts.forEach((p, i) => {
        if (p.ndim < 1 || p.shape[0] !== R) fail('range', fn, parts.length > 1 ? `currentState[${i}]` : 'currentState', `must have a leading replica dim of ${R} (stateIncludesReplicas)`, p.shape);
      });
    }
    const replicaStates = this.parameters.stateIncludesReplicas ? parts : parts.map((p) => broadcastTo(p, [R, ...p.shape]));
    const replicaResults = this.innerKernel(betas, fn).bootstrapResults(replicaStates);
    const lp = this.replicaLogProb(fn, replicaResults);
    const batch = lp.shape.slice(1), B = lp.size / R;
    const nullSwaps = new Int32Array(R * B);
    for (let k = 0; k < R; k++) nullSwaps.fill(k, k * B, (k + 1) * B);
    const eye = swapNotMatrix(nullSwaps, nullSwaps, R, batch);
    return {
      postSwapReplicaStates: replicaStates,
      preSwapReplicaResults: replicaResults,
      postSwapReplicaResults: nanProposalFields(replicaResults),
      isSwapProposed: eye,
      isSwapAccepted: eye,
      isSwapProposedAdjacent: subDiag(eye, R),
      isSwapAcceptedAdjacent: subDiag(eye, R),
      inverseTemperatures: betas,
      swaps: new Tensor(nullSwaps, lp.shape, 'int32'),
      seed: zerosSeed(),
      stepCount: 0,
      potentialEnergy: new Tensor(lp.dtype === 'float32' ? new Float32Array(lp.size) : new Float64Array(lp.size), lp.shape, lp.dtype),
    };
  }

  oneStep(state: State, previousResults: ReplicaExchangeMCResults<R>, seed: KeyArray): [State, ReplicaExchangeMCResults<R>] {
    const fn = 'ReplicaExchangeMC.oneStep';
    if (previousResults === null || typeof previousResults !== 'object' || !Array.isArray(previousResults.postSwapReplicaStates)) {
      fail('type', fn, 'previousResults', 'must be ReplicaExchangeMC results (from bootstrapResults or oneStep)', previousResults);
    }
    const rebuild = stateParts(fn, state)[1];
    const betasT = asTensor(fn, 'previousResults.inverseTemperatures', previousResults.inverseTemperatures).astype('float64');
    const R = this.numReplica;
    if (betasT.ndim < 1 || betasT.shape[0] !== R) fail('range', fn, 'previousResults.inverseTemperatures', `must have a leading dim of ${R}`, betasT.shape);
    const inner = this.innerKernel(betasT, fn);
    const stepSeed = sanitizeSeed(seed);
    const [innerSeed, swapSeed, logUSeed] = splitSeed(stepSeed, { n: 3 }) as [KeyArray, KeyArray, KeyArray];
    const [preState, preResults] = inner.oneStep(previousResults.postSwapReplicaStates, previousResults.postSwapReplicaResults, innerSeed);
    const preStates = stateParts(fn, preState)[0];
    const lpT = this.replicaLogProb(fn, preResults);
    const shape = lpT.shape, batch = shape.slice(1), size = lpT.size, f32 = lpT.dtype === 'float32';
    const betas = leftBroadcast(fn, 'inverseTemperatures', betasT, shape);
    const swaps = this.proposeSwaps(fn, R, batch, previousResults.stepCount, swapSeed, shape);
    const B = size / R;

    // The untempered log density (negative energy) of every replica's state.
    const lpData = lpT.data as Float64Array;
    let negEnergy: ArrayLike<number>;
    if (this.parameters.temperedLogProbFn === undefined) {
      const u = new Float64Array(size);
      for (let i = 0; i < size; i++) u[i] = f32 ? Math.fround(lpData[i]! / betas[i]!) : lpData[i]! / betas[i]!;
      negEnergy = u;
    } else {
      const t = asTensor(fn, 'temperedLogProbFn(…)', this.parameters.temperedLogProbFn(...preStates));
      if (t.size !== size) fail('range', fn, 'temperedLogProbFn', `must return shape [${shape.join(', ')}]`, t.shape);
      negEnergy = t.data as Float64Array;
    }
    const uniforms = uniform(shape, { dtype: f32 ? 'float32' : 'float64', seed: logUSeed }).data as Float64Array;
    const mask = new Uint8Array(size);
    for (let k = 0; k < R; k++) {
      for (let b = 0; b < B; b++) {
        const i = k * B + b, j = swaps[i]! * B + b;
        let lar = (negEnergy[i]! - negEnergy[j]!) * (betas[j]! - betas[i]!);
        if (f32) lar = Math.fround(lar);
        if (!Number.isFinite(lar)) lar = -Infinity;
        const anchor = Math.min(swaps[i]!, k) * B + b;
        const logU = f32 ? Math.fround(detLog(uniforms[anchor]!)) : detLog(uniforms[anchor]!);
        mask[i] = logU < lar ? 1 : 0;
      }
    }
    const postStates = preStates.map((s) => swapReplicas(s, swaps, mask, R));
    const nullSwaps = new Int32Array(size), position = new Int32Array(size);
    for (let i = 0; i < size; i++) { nullSwaps[i] = Math.floor(i / B); position[i] = mask[i] ? swaps[i]! : nullSwaps[i]!; }
    const isSwapProposed = swapNotMatrix(nullSwaps, swaps, R, batch);
    const isSwapAccepted = swapNotMatrix(position, nullSwaps, R, batch);

    // Re-evaluate the (tempered) log densities, and gradients if any, at the swapped states.
    const fresh = inner.bootstrapResults(postStates);
    let postResults = replaceInnermost(preResults, 'targetLogProb', getInnermost(fresh, 'targetLogProb', fn), fn);
    if (hasInnermost(postResults, 'gradsTargetLogProb') && hasInnermost(fresh, 'gradsTargetLogProb')) {
      postResults = replaceInnermost(postResults, 'gradsTargetLogProb', getInnermost(fresh, 'gradsTargetLogProb', fn), fn);
    }
    const out = this.parameters.stateIncludesReplicas ? postStates : postStates.map((s) => firstReplica(s, R));
    const energy = f32 ? new Float32Array(size) : new Float64Array(size);
    for (let i = 0; i < size; i++) energy[i] = -negEnergy[i]!;
    return [rebuild(out), {
      postSwapReplicaStates: postStates,
      preSwapReplicaResults: preResults,
      postSwapReplicaResults: nanProposalFields(postResults),
      isSwapProposed,
      isSwapAccepted,
      isSwapProposedAdjacent: subDiag(isSwapProposed, R),
      isSwapAcceptedAdjacent: subDiag(isSwapAccepted, R),
      inverseTemperatures: previousResults.inverseTemperatures,
      swaps: new Tensor(swaps, shape, 'int32'),
      seed: stepSeed,
      stepCount: previousResults.stepCount + 1,
      potentialEnergy: new Tensor(energy, shape, f32 ? 'float32' : 'float64'),
    }];
  }

  /** The proposal's swaps broadcast to `[R, …batch]`, checked to be a self-inverse permutation. */
  private proposeSwaps(fn: string, R: number, batch: readonly number[], stepCount: number, seed: KeyArray, shape: readonly number[]): Int32Array {
    const raw = this.parameters.swapProposalFn(R, { batchShape: batch, stepCount, seed });
    const t = raw instanceof Tensor ? raw : Array.isArray(raw) ? tensor(raw) : fail('type', fn, 'swapProposalFn', 'must return a Tensor or an array of integers', raw);
    const v = leftBroadcast(fn, 'swapProposalFn(…)', t, shape);
    const swaps = new Int32Array(v.length), B = v.length / R;
    for (let i = 0; i < v.length; i++) {
      if (!(Number.isInteger(v[i]) && v[i]! >= 0 && v[i]! < R)) fail('range', fn, 'swapProposalFn', `must return replica indices in [0, ${R})`, v[i]);
      swaps[i] = v[i]!;
    }
    for (let i = 0; i < v.length; i++) {
      const b = i % B, k = Math.floor(i / B);
      if (swaps[swaps[i]! * B + b] !== k) fail('range', fn, 'swapProposalFn', 'must return "once-only" swaps: a self-inverse permutation (swaps[swaps[k]] = k)', Array.from(swaps));
    }
    return swaps;
  }

  copy(overrides: Partial<ReplicaExchangeMCOptions<R>> = {}): ReplicaExchangeMC<R> {
    return new ReplicaExchangeMC<R>({ ...this.parameters, ...overrides });
  }
}

/** Replica 0 of a `[R, …]` tensor. */
function firstReplica(x: Tensor, R: number): Tensor {
  const n = x.size / R;
  return new Tensor((x.data as Float64Array).slice(0, n) as never, x.shape.slice(1), x.dtype);
}

/** TFP's `_set_swapped_fields_to_nan`: `proposedResults` and `proposedState`, where present, become NaN (structure kept). */
function nanProposalFields<R extends object>(results: R): R {
  let out = results;
  for (const field of ['proposedResults', 'proposedState']) {
    if (hasInnermost(out, field)) out = replaceInnermost(out, field, nanLike(getInnermost(out, field)));
  }
  return out;
}
