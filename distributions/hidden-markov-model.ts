import { checkBoolean, checkInteger, fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { splitSeed } from '../src/samplers/seeds.js';
import { broadcastShapes } from '../src/tensor/broadcast.js';
import { asTensor, numbers, type TensorLike } from '../src/tensor/core.js';
import { allocate } from '../src/tensor/dtype.js';
import { zeros } from '../src/tensor/ops/create.js';
import { add, exp, mul, square, sub, where } from '../src/tensor/ops/elementwise.js';
import { sum } from '../src/tensor/ops/reduce.js';
import { broadcastTo, expandDims, reshape } from '../src/tensor/ops/shape.js';
import type { SliceSpec } from '../src/tensor/ops/shape.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Categorical } from './categorical.js';
import { defaultFloat, Distribution, type DistributionOptions } from './distribution.js';
import { sliceParameter } from './internal/batch-slice.js';
import { hmmLogLikelihood, viterbi } from './internal/hmm-kernels.js';
import { componentIndex, componentSpecs, extractLogProbs, marginalLogits, moveAxis } from './internal/hmm-passes.js';
import { brand } from '../src/brand.js';
import { sizeOf } from '../src/tensor/shapes.js';

export interface HiddenMarkovModelOptions extends DistributionOptions {
  /** Categorical-like over the K states (integer dtype, scalar event): the law of z[0]. */
  readonly initialDistribution: Distribution;
  /** Categorical-like; its last batch axis (K) is the current state, its classes the next state. */
  readonly transitionDistribution: Distribution;
  /** Any distribution; its last batch axis (K) is the hidden state. */
  readonly observationDistribution: Distribution;
  /** Number of steps T ≥ 1 (T − 1 transitions). */
  readonly numSteps: number;
  /** The transition has an extra batch axis of size T − 1 just left of the state axis (default false). */
  readonly timeVaryingTransitionDistribution?: boolean;
  /** The observation has an extra batch axis of size T just left of the state axis (default false). */
  readonly timeVaryingObservationDistribution?: boolean;
  /** Booleans (or 0/1) of shape `[..., T]`: true steps are not conditioned on (log p(x[t] | z) = 0). */
  readonly mask?: TensorLike;
}

const FN = 'HiddenMarkovModel';
const fmt = (s: readonly number[]) => `[${s.join(', ')}]`;

/**
 * A (batch of) discrete hidden Markov model(s) (TFP's `tfd.HiddenMarkovModel`): hidden states
 * z[0..T−1] in {0, …, K − 1} with z[0] ~ `initialDistribution`, z[t+1] | z[t] = k ~ batch member k
 * of `transitionDistribution`, and x[t] | z[t] = k ~ batch member k of `observationDistribution`.
 * The distribution is the marginal law of x[0..T−1]: event shape `[T, ...observation event]`,
 * batch shape the broadcast of the initial batch, the transition and observation batches without
 * their state (and time) axes, and the mask's batch. Support: T-fold the observation's support.
 *
 * Sampling follows TFP: `(init, scan, obs) = splitSeed(seed, { n: 3, salt: 'HiddenMarkovModel' })`;
 * z[0] is one `initialDistribution.sample` call; each transition step splits its seed into
 * (sample, next) and draws a next state for EVERY current state (one `transitionDistribution`
 * call, sliced `[..., t, :]` when time-varying) then keeps the one of the current state; the
 * observations are one `observationDistribution.sample([T, n])` call (`[n]` when time-varying)
 * drawing x for every (step, state), then selected. Not reparameterized.
 *
 * `logProb` is the forward algorithm in log space as one tape node whose gradient (the
 * forward–backward smoother) reaches the observation parameters and the initial and transition
 * logits/probs. `posteriorMarginals` (forward–backward), `priorMarginals`, `mean` and `variance`
 * run typed-array kernels, or differentiable tensor-op scans (the same sums in the same order)
 * when a parameter is being differentiated; `posteriorMode` is Viterbi (ties: first index).
 *
 * Deviations from TFP: components whose batch broadcasts along a non-leading axis get their draws
 * mapped by broadcast index (TFP's reshape is only right for leading broadcast, where the two
 * agree); the time-varying observation repeat is ∏ batch / ∏ observation batch without the time
 * and state axes (TFP also divides by T); draws are selected by index, not by a one-hot product;
 * `posteriorMode` returns int32 (TFP: int64); `posteriorMarginals`/`posteriorMode` default their
 * `mask` to the constructor's.
 *
 * @throws TypeError for a component that is not a Distribution or a non-integer initial or
 *   transition dtype; RangeError for `numSteps < 1`, a non-scalar initial/transition event, a
 *   component with too few batch axes, mismatched numbers of states (naming the shapes), a
 *   time axis of the wrong size, batch shapes that do not broadcast, or a mask not ending in T.
 * @example
 * const hmm = new HiddenMarkovModel({
 *   initialDistribution: new Categorical({ probs: [0.8, 0.2] }),
 *   transitionDistribution: new Categorical({ probs: [[0.7, 0.3], [0.2, 0.8]] }),
 *   observationDistribution: new Normal({ loc: [0, 15], scale: [5, 10] }),
 *   numSteps: 7,
 * });
 * hmm.posteriorMode([-2, 0, 2, 4, 6, 8, 10]).toArray(); // [0, 0, 0, 0, 0, 1, 1]
 * hmm.logProb([0, 0, 0, 0, 0, 0, 0]);                    // → Tensor float64 []
 * hmm.sample(2, { seed: 0 });                            // → Tensor float64 [2, 7]
 */
export class HiddenMarkovModel extends Distribution {
  static override readonly optionNames = ['initialDistribution', 'transitionDistribution', 'observationDistribution', 'numSteps', 'timeVaryingTransitionDistribution', 'timeVaryingObservationDistribution', 'mask'];
  readonly initialDistribution: Distribution;
  readonly transitionDistribution: Distribution;
  readonly observationDistribution: Distribution;
  readonly numSteps: number;
  readonly timeVaryingTransitionDistribution: boolean;
  readonly timeVaryingObservationDistribution: boolean;
  /** The mask as a float 0/1 tensor `[..., T]`, or undefined. */
  readonly mask: Tensor | undefined;
  /** K, the number of hidden states. */
  readonly numStates: number;
  private readonly hmmBatch: readonly number[];

  constructor(options: HiddenMarkovModelOptions) {
    // The observations' dtype (a non-Distribution is rejected below, once the base has checked the options).
    super(FN, options, false, options?.observationDistribution?.dtype);
    const o = options;
    const init = component('initialDistribution', o.initialDistribution, true);
    const trans = component('transitionDistribution', o.transitionDistribution, true);
    const obs = component('observationDistribution', o.observationDistribution, false);
    const T = checkInteger(FN, 'numSteps', o.numSteps);
    if (T < 1) fail('range', FN, 'numSteps', 'must be at least 1', T);
    const tvT = checkBoolean(FN, 'timeVaryingTransitionDistribution', o.timeVaryingTransitionDistribution ?? false);
    const tvO = checkBoolean(FN, 'timeVaryingObservationDistribution', o.timeVaryingObservationDistribution ?? false);
    const tb = trans.batchShape, ob = obs.batchShape;
    const need = (name: string, d: Distribution, tv: boolean) => {
      const s = d.batchShape;
      if (s.length < (tv ? 2 : 1)) fail('range', FN, name, `must have ${tv ? 'at least two batch axes (time, state) when time-varying' : 'a non-scalar batch shape (its last axis indexes the state)'}; its batch shape is ${fmt(s)}`, d);
    };
    need('transitionDistribution', trans, tvT);
    need('observationDistribution', obs, tvO);
    const K = tb[tb.length - 1]!;
    if (ob[ob.length - 1] !== K) {
      fail('range', FN, 'observationDistribution', `batch shape ${fmt(ob)} must end in the number of states K = ${K} (the last axis of \`transitionDistribution\` batch shape ${fmt(tb)})`, obs);
    }
    for (const [name, d] of [['initialDistribution', init], ['transitionDistribution', trans]] as const) {
      const c = (d as { numCategories?: unknown }).numCategories;
      if (typeof c === 'number' && c !== K) {
        fail('range', FN, name, `has ${c} categories but there are K = ${K} states (\`transitionDistribution\` batch shape ${fmt(tb)}, \`observationDistribution\` batch shape ${fmt(ob)})`, c);
      }
    }
    if (tvT && tb[tb.length - 2] !== T - 1) fail('range', FN, 'transitionDistribution', `batch shape ${fmt(tb)} must have numSteps − 1 = ${T - 1} as its second-to-last axis when time-varying`, trans);
    if (tvO && ob[ob.length - 2] !== T) fail('range', FN, 'observationDistribution', `batch shape ${fmt(ob)} must have numSteps = ${T} as its second-to-last axis when time-varying`, obs);
    const mask = o.mask === undefined ? undefined : toMask(FN, o.mask, T);
    const shapes: [string, readonly number[]][] = [
      ['initialDistribution.batchShape', init.batchShape],
      ['transitionDistribution.batchShape (state axes removed)', tb.slice(0, tb.length - (tvT ? 2 : 1))],
      ['observationDistribution.batchShape (state axes removed)', ob.slice(0, ob.length - (tvO ? 2 : 1))],
    ];
    if (mask) shapes.push(['mask.shape[:-1]', mask.shape.slice(0, -1)]);
    this.hmmBatch = Object.freeze(broadcastShapes(FN, shapes));
    this.initialDistribution = init;
    this.transitionDistribution = trans;
    this.observationDistribution = obs;
    this.numSteps = T;
    this.numStates = K;
    this.timeVaryingTransitionDistribution = tvT;
    this.timeVaryingObservationDistribution = tvO;
    this.mask = mask;
  }

  protected override batchShapeImpl(): readonly number[] { return this.hmmBatch; }
  override get eventShape(): readonly number[] { return [this.numSteps, ...this.observationDistribution.eventShape]; }

  /** Component batch shapes without their state (and time) axes. */
  private get transitionBatch(): readonly number[] {
    const s = this.transitionDistribution.batchShape;
    return s.slice(0, s.length - (this.timeVaryingTransitionDistribution ? 2 : 1));
  }
  private get observationBatch(): readonly number[] {
    const s = this.observationDistribution.batchShape;
    return s.slice(0, s.length - (this.timeVaryingObservationDistribution ? 2 : 1));
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const [initSeed, scanSeed, obsSeed] = splitSeed(seed, { n: 3, salt: 'HiddenMarkovModel' });
    const batch = this.batchShape, B = sizeOf(batch), K = this.numStates, T = this.numSteps;
    const hidden = new Int32Array(T * n * B); // [T, n, B]
    const ini = componentIndex(batch, this.initialDistribution.batchShape);
    const z0 = numbers(this.initialDistribution.sample(n * ini.repeat, { seed: initSeed }));
    for (let i = 0; i < n; i++) for (let b = 0; b < B; b++) hidden[i * B + b] = z0[(i * ini.repeat + ini.r[b]!) * ini.compSize + ini.c[b]!]!;
    const tr = componentIndex(batch, this.transitionBatch);
    let stepSeed = scanSeed;
    for (let t = 0; t + 1 < T; t++) {
      const [sampleSeed, nextSeed] = splitSeed(stepSeed);
      const d = this.timeVaryingTransitionDistribution ? this.transitionDistribution.slice('...', t, {}) : this.transitionDistribution;
      const gen = numbers(d.sample(n * tr.repeat, { seed: sampleSeed })); // [n · repeat, ...batch, K]: a next state for every current state
      for (let i = 0; i < n; i++) {
        for (let b = 0; b < B; b++) {
          const cur = hidden[(t * n + i) * B + b]!;
          hidden[((t + 1) * n + i) * B + b] = gen[((i * tr.repeat + tr.r[b]!) * tr.compSize + tr.c[b]!) * K + cur]!;
        }
      }
      stepSeed = nextSeed!;
    }
    const obs = this.observationDistribution, tvO = this.timeVaryingObservationDistribution;
    const oi = componentIndex(batch, this.observationBatch), E = sizeOf(obs.eventShape);
    const rows = oi.repeat * n;
    const possible = obs.sample(tvO ? [rows] : [T, rows], { seed: obsSeed }); // x for every (step, state)
    const src = possible.data, out = allocate(possible.dtype, n * B * T * E);
    for (let t = 0; t < T; t++) {
      for (let i = 0; i < n; i++) {
        for (let b = 0; b < B; b++) {
          const k = hidden[(t * n + i) * B + b]!, row = (i * oi.repeat + oi.r[b]!) * oi.compSize + oi.c[b]!;
          const from = (tvO ? (row * T + t) * K + k : ((t * rows + i * oi.repeat + oi.r[b]!) * oi.compSize + oi.c[b]!) * K + k) * E;
          const to = ((i * B + b) * T + t) * E;
          for (let e = 0; e < E; e++) out[to + e] = src[from + e]! as never;
        }
      }
    }
    return new Tensor(out as never, [n, ...batch, ...this.eventShape], possible.dtype);
  }

  protected override logProbImpl(x: Tensor): Tensor {
    const { batch, obsLp } = this.observationLogProbs('logProb', x, this.mask);
    const { dims, logInit, logTrans } = this.tables(batch);
    return hmmLogLikelihood(dims, logInit, logTrans, obsLp, batch);
  }

  /** The initial `[...batch, K]` and transition `[...batch, (T − 1,) K, K]` log-probability tables, broadcast to `batch`. */
  private tables(batch: readonly number[]): { dims: { B: number; K: number; T: number; S: number }; logInit: Tensor; logTrans: Tensor } {
    const K = this.numStates, T = this.numSteps, tv = this.timeVaryingTransitionDistribution;
    const logInit = broadcastTo(extractLogProbs(K, this.initialDistribution), [...batch, K]);
    const lt = extractLogProbs(K, this.transitionDistribution);
    const logTrans = broadcastTo(lt, [...batch, ...lt.shape.slice(tv ? -3 : -2)]);
    return { dims: { B: sizeOf(batch), K, T, S: tv ? T - 1 : 1 }, logInit, logTrans };
  }

  /**
   * P(z[t] | x[0..T−1]) for every step (forward–backward smoothing), as a `Categorical` with
   * batch shape `[...batch, T]`, differentiable in every parameter and the observations.
   * @param observations shape `[..., T, ...observation event]`, broadcasting with the batch.
   * @param mask booleans `[..., T]`: true steps are ignored (default: the constructor's mask).
   * @throws RangeError for observations not ending in the event shape or a mask not ending in T.
   * @example
   * hmm.posteriorMarginals([-2, 0, 2, 4, 6, 8, 10]).probsParameter(); // → Tensor float64 [7, 2]
   */
  posteriorMarginals(observations: TensorLike, mask?: TensorLike): Categorical {
    const fn = 'posteriorMarginals';
    const x = this.checkValue(fn, observations);
    const m = mask === undefined ? this.mask : toMask(`${FN}.${fn}`, mask, this.numSteps);
    const { batch, obsLp } = this.observationLogProbs(fn, x, m);
    return new Categorical({ logits: this.marginals(batch, obsLp, true) });
  }

  /** Smoothed (or, with `smooth` false, forward) marginal logits `[...batch, T, K]`. */
  private marginals(batch: readonly number[], obsLp: Tensor, smooth: boolean): Tensor {
    const { dims, logInit, logTrans } = this.tables(batch);
    return marginalLogits(dims, batch, logInit, logTrans, obsLp, this.timeVaryingTransitionDistribution, smooth);
  }

  /**
   * The most likely hidden path given the observations (Viterbi), int32 of shape `[...batch, T]`;
   * among equally likely paths the first index wins at every argmax.
   * @throws RangeError as `posteriorMarginals`.
   * @example
   * hmm.posteriorMode([-2, 0, 2, 4, 6, 8, 10]).toArray(); // [0, 0, 0, 0, 0, 1, 1]
   */
  posteriorMode(observations: TensorLike, mask?: TensorLike): Tensor {
    const fn = 'posteriorMode';
    const x = this.checkValue(fn, observations);
    const m = mask === undefined ? this.mask : toMask(`${FN}.${fn}`, mask, this.numSteps);
    const { batch, obsLp } = this.observationLogProbs(fn, x, m);
    const { dims, logInit, logTrans } = this.tables(batch);
    const path = viterbi({ ...dims, logInit: numbers(logInit), logTrans: numbers(logTrans), obsLp: numbers(obsLp) });
    return new Tensor(path, [...batch, this.numSteps], 'int32');
  }

  /**
   * P(z[t]) for every step with no observations, a `Categorical` with batch `[...batch, T]`.
   * @example
   * hmm.priorMarginals().probsParameter(); // → Tensor float64 [7, 2]
   */
  priorMarginals(): Categorical {
    return new Categorical({ logits: this.priorLogits() });
  }

  /** log P(z[t] = k), `[...batch, T, K]`: the forward pass with zero observation log probabilities (TFP's `_forward_pass`). */
  private priorLogits(): Tensor {
    return this.marginals(this.batchShape, zeros([this.numSteps, ...this.batchShape, this.numStates], defaultFloat()), false);
  }

  /** Σ_k P(z[t] = k) · (observation moments of state k), `[...batch, T, K, ...event]` weights. */
  private mixture(): { p: Tensor; means: Tensor; axis: number; shape: number[] } {
    const obs = this.observationDistribution, ev = obs.eventShape, batch = this.batchShape;
    const probs = exp(this.priorLogits()); // [...batch, T, K]
    const p = reshape(probs, [...batch, this.numSteps, this.numStates, ...ev.map(() => 1)]);
    let means = obs.mean();
    if (!this.timeVaryingObservationDistribution) means = expandDims(means, means.ndim - ev.length - 1);
    return { p, means, axis: batch.length + 1, shape: [...batch, ...this.eventShape] };
  }

  protected override meanImpl(): Tensor {
    const { p, means, axis, shape } = this.mixture();
    return broadcastTo(sum(mul(p, means), axis), shape);
  }

  /** Σ_k p_k ((μ_k − μ)² + σ²_k), the mixture variance (TFP's formula). */
  protected override varianceImpl(): Tensor {
    const { p, means, axis, shape } = this.mixture();
    let vars = this.observationDistribution.variance();
    if (!this.timeVaryingObservationDistribution) vars = expandDims(vars, vars.ndim - this.observationDistribution.eventShape.length - 1);
    const mu = expandDims(sum(mul(p, means), axis), axis);
    return broadcastTo(sum(mul(p, add(square(sub(means, mu)), vars)), axis), shape);
  }

  protected override defaultEventSpaceBijectorImpl(): Bijector { return this.observationDistribution.defaultEventSpaceBijector(); }

  /**
   * log p(x[t] | z[t] = k) as `[T, ...batch, K]` (TFP's `_observation_log_probs`), masked steps
   * set to 0; `batch` is the broadcast of the observations', the model's and the mask's batches.
   */
  private observationLogProbs(method: string, x: Tensor, mask: Tensor | undefined): { batch: number[]; obsLp: Tensor } {
    const obs = this.observationDistribution, r = obs.eventShape.length, T = this.numSteps;
    const shapes: [string, readonly number[]][] = [['observations batch', x.shape.slice(0, x.ndim - 1 - r)], ['batchShape', this.batchShape]];
    if (mask) shapes.push(['mask batch', mask.shape.slice(0, -1)]);
    const batch = broadcastShapes(`${FN}.${method}`, shapes);
    const xb = broadcastTo(x, [...batch, T, ...obs.eventShape]);
    let lp: Tensor;
    if (this.timeVaryingObservationDistribution) {
      lp = moveAxis(obs.logProb(expandDims(xb, batch.length + 1)), -2, 0);
    } else {
      lp = obs.logProb(expandDims(moveAxis(xb, batch.length, 0), batch.length + 1));
    }
    lp = broadcastTo(lp, [T, ...batch, this.numStates]);
    if (mask) lp = where(expandDims(moveAxis(broadcastTo(mask, [...batch, T]), -1, 0), -1), 0, lp);
    return { batch, obsLp: lp };
  }

  protected override slicedParameters(fn: string, specs: readonly (number | SliceSpec | null)[]): Record<string, unknown> {
    const batch = this.batchShape;
    const part = (d: Distribution, trailing: number) => d.slice(...componentSpecs(batch, d.batchShape.slice(0, d.batchShape.length - trailing), specs, trailing));
    const out: Record<string, unknown> = {
      initialDistribution: part(this.initialDistribution, 0),
      transitionDistribution: part(this.transitionDistribution, this.timeVaryingTransitionDistribution ? 2 : 1),
      observationDistribution: part(this.observationDistribution, this.timeVaryingObservationDistribution ? 2 : 1),
    };
    if (this.mask) out.mask = sliceParameter(fn, this.mask, 1, batch, specs);
    return out;
  }
}

/** A component distribution, checked: a Distribution; Categorical-like ones need an integer dtype and a scalar event. */
function component(name: string, d: unknown, categorical: boolean): Distribution {
  if (!(d instanceof Distribution)) fail('type', FN, name, 'must be a Distribution', d);
  if (categorical) {
    if (!/^u?int/.test(d.dtype)) fail('type', FN, name, `must be over the integers (Categorical-like); its dtype is ${d.dtype}`, d);
    if (d.eventShape.length !== 0) fail('range', FN, name, `must have a scalar event; its event shape is ${fmt(d.eventShape)}`, d);
  }
  return d;
}

/** A mask as a float 0/1 tensor whose last axis is T. */
function toMask(fn: string, value: TensorLike, T: number): Tensor {
  const t = asTensor(fn, 'mask', value);
  const v = numbers(t);
  for (let i = 0; i < v.length; i++) if (v[i] !== 0 && v[i] !== 1) fail('type', fn, 'mask', 'must hold booleans (or 0/1)', v[i]);
  if (t.ndim < 1 || t.shape[t.ndim - 1] !== T) fail('range', fn, 'mask', `must have shape [..., numSteps = ${T}]; its shape is ${fmt(t.shape)}`, value);
  return new Tensor(Float64Array.from(v), t.shape, 'float64');
}
brand(HiddenMarkovModel, 'HiddenMarkovModel');   // recognised across copies of stochax (src/brand.ts)
