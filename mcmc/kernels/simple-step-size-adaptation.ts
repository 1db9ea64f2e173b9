/**
 * `SimpleStepSizeAdaptation` (TFP's `tfp.mcmc.SimpleStepSizeAdaptation`): multiply the inner
 * kernel's step size by `1 + adaptationRate` when the (chain-reduced) acceptance probability is
 * above the target, divide by it otherwise, for the first `numAdaptationSteps` steps.
 */
import { checkNonNegativeInteger, checkOptions, checkPositive } from '../../src/checks.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { div, greater, log, mul, where } from '../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { State, TransitionKernel } from '../kernel.js';
import { stateParts } from '../internal/target.js';
import { getLogAcceptRatio, getStepSize, setStepSize, type StepSize } from '../internal/kernel-results.js';
import { reduceLogMeanExp, type LogReduceFn } from '../internal/log-mean-exp.js';
import {
  checkInnerKernel, checkProb, packStepSize, padRight, reduceForStepSize, safeLogAcceptProb, stepSizeParts,
} from '../internal/step-size-parts.js';
import { detLog } from '../../src/math/index.js';

export interface SimpleStepSizeAdaptationOptions<R extends object = Record<string, unknown>> {
  /** A kernel whose results hold `stepSize` and `logAcceptRatio` (HMC, NUTS, MALA, …, possibly wrapped). */
  readonly innerKernel: TransitionKernel<R>;
  /** Steps during which the step size changes (after them it is frozen). */
  readonly numAdaptationSteps: number;
  /** Target acceptance probability in (0, 1), a number or a Tensor broadcasting against the chains (default 0.75). */
  readonly targetAcceptProb?: number | Tensor;
  /** Fractional change per step (default 0.01). */
  readonly adaptationRate?: number;
  /** Log-space reduction over chain dims the step size lacks (default `reduceLogMeanExp`). */
  readonly reduceFn?: LogReduceFn;
}

/** Results of {@link SimpleStepSizeAdaptation} (TFP's `SimpleStepSizeAdaptationResults`). */
export interface SimpleStepSizeAdaptationResults<R extends object = Record<string, unknown>> {
  readonly innerResults: R;
  readonly targetAcceptProb: number | Tensor;
  readonly adaptationRate: number;
  /** Steps taken so far. */
  readonly step: number;
  /** The step size the inner kernel uses at the next step. */
  readonly newStepSize: StepSize;
}

const FN = 'SimpleStepSizeAdaptation';

/**
 * Adapts the inner kernel's step size from its acceptance probability (Andrieu & Thoms 2008,
 * eq. 19). Each step: set the inner kernel's step size to `newStepSize`, take one inner step,
 * reduce `min(logAcceptRatio, 0)` (non-finite counted as −∞) over the chain dims the step size
 * does not have with `reduceFn`, then, while `step < numAdaptationSteps`, multiply the step size
 * by `1 + adaptationRate` where the reduced acceptance exceeds the target and divide by it
 * elsewhere. A step size of shape `[]` is shared by all chains; one of shape `[C, 1]` (state
 * `[C, D]`) is adapted per chain. The seed is passed to the inner kernel unchanged.
 *
 * @throws TypeError/RangeError for a missing inner kernel, a `numAdaptationSteps` that is not a
 *   non-negative integer, a target outside (0, 1), or a non-positive `adaptationRate`; TypeError
 *   at bootstrap when the inner results hold no `stepSize` or `logAcceptRatio`.
 * @example
 * const kernel = new SimpleStepSizeAdaptation({
 *   innerKernel: new HamiltonianMonteCarlo({ targetLogProbFn, stepSize: 0.1, numLeapfrogSteps: 5 }),
 *   numAdaptationSteps: 400,
 * });
 * const { allStates } = sampleChain({ numResults: 500, numBurninSteps: 500, currentState: zeros([4, 2]), kernel, seed: 1 });
 */
export class SimpleStepSizeAdaptation<R extends object = Record<string, unknown>>
implements TransitionKernel<SimpleStepSizeAdaptationResults<R>> {
  readonly parameters: Readonly<Required<Omit<SimpleStepSizeAdaptationOptions<R>, never>>>;

  constructor(options: SimpleStepSizeAdaptationOptions<R>) {
    const o = checkOptions(FN, options, ['innerKernel', 'numAdaptationSteps', 'targetAcceptProb', 'adaptationRate', 'reduceFn']);
    checkInnerKernel(FN, o.innerKernel);
    this.parameters = Object.freeze({
      innerKernel: o.innerKernel,
      numAdaptationSteps: checkNonNegativeInteger(FN, 'numAdaptationSteps', o.numAdaptationSteps),
      targetAcceptProb: checkProb(FN, 'targetAcceptProb', o.targetAcceptProb ?? 0.75),
      adaptationRate: checkPositive(FN, 'adaptationRate', o.adaptationRate ?? 0.01),
      reduceFn: o.reduceFn ?? reduceLogMeanExp,
    });
  }

  get innerKernel(): TransitionKernel<R> { return this.parameters.innerKernel; }
  get numAdaptationSteps(): number { return this.parameters.numAdaptationSteps; }
  get isCalibrated(): boolean { return this.innerKernel.isCalibrated; }

  bootstrapResults(state: State): SimpleStepSizeAdaptationResults<R> {
    const innerResults = this.innerKernel.bootstrapResults(state);
    return {
      innerResults,
      targetAcceptProb: this.parameters.targetAcceptProb,
      adaptationRate: this.parameters.adaptationRate,
      step: 0,
      newStepSize: getStepSize(innerResults),
    };
  }

  oneStep(state: State, previousResults: SimpleStepSizeAdaptationResults<R>, seed: KeyArray): [State, SimpleStepSizeAdaptationResults<R>] {
    const prev = previousResults;
    const inner = setStepSize(prev.innerResults, prev.newStepSize);
    const [newState, newInner] = this.innerKernel.oneStep(state, inner, seed);
    const lap = safeLogAcceptProb(FN, getLogAcceptRatio(newInner));
    const logTarget = typeof prev.targetAcceptProb === 'number' ? detLog(prev.targetAcceptProb) : log(prev.targetAcceptProb);
    const meta = stepSizeParts(FN, getStepSize(newInner));
    const [parts] = stateParts(FN, state);
    const factor = 1 + prev.adaptationRate;
    const adapting = prev.step < this.numAdaptationSteps;
    const newParts = meta.parts.map((s, i) => {
      if (!adapting) return s;
      const r = reduceForStepSize(this.parameters.reduceFn, lap, parts[i]!.ndim, s);
      const up = padRight(greater(r, logTarget), s.ndim);
      return where(up, mul(s, factor), div(s, factor));
    });
    return [newState, { ...prev, innerResults: newInner, step: prev.step + 1, newStepSize: packStepSize(meta, newParts) }];
  }

  copy(overrides: Partial<SimpleStepSizeAdaptationOptions<R>> = {}): SimpleStepSizeAdaptation<R> {
    return new SimpleStepSizeAdaptation({ ...this.parameters, ...overrides });
  }
}
