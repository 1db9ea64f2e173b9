/**
 * `DualAveragingStepSizeAdaptation` (TFP's `tfp.mcmc.DualAveragingStepSizeAdaptation`): Hoffman &
 * Gelman's dual averaging of the log step size, as in Stan's warm-up. The TFP engine's step-size
 * adaptation: tensors, step sizes per part, reductions over chains; the iterates themselves are
 * `mcmc/nuts/dual-averaging.ts`'s, applied element by element.
 */
import { checkNonNegativeInteger, checkOptions, checkPositive, fail } from '../../src/checks.js';
import { detExp } from '../../src/math/index.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { broadcastData, broadcastShapes } from '../../src/tensor/broadcast.js';
import { add, exp, log, sub } from '../../src/tensor/ops/elementwise.js';
import { zeros } from '../../src/tensor/ops/create.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { State, TransitionKernel } from '../kernel.js';
import { stateParts } from '../internal/target.js';
import { averagedLogStep, averagingWeight, tfpExploringLogStep, tfpLogShrinkageTarget } from '../nuts/dual-averaging.js';
import { getLogAcceptRatio, getStepSize, setStepSize, type StepSize } from '../internal/kernel-results.js';
import { reduceLogMeanExp, type LogReduceFn } from '../internal/log-mean-exp.js';
import {
  checkInnerKernel, checkProb, packStepSize, padRight, reduceForStepSize, safeLogAcceptProb, stepSizeParts,
} from '../internal/step-size-parts.js';

export interface DualAveragingStepSizeAdaptationOptions<R extends object = Record<string, unknown>> {
  /** A kernel whose results hold `stepSize` and `logAcceptRatio` (HMC, NUTS, MALA, …, possibly wrapped). */
  readonly innerKernel: TransitionKernel<R>;
  /** Steps of exploration; at this step the averaged step size is switched in, then frozen. */
  readonly numAdaptationSteps: number;
  /** Target acceptance probability in (0, 1), a number or a Tensor (default 0.75; Stan uses 0.8). */
  readonly targetAcceptProb?: number | Tensor;
  /** γ: how strongly the exploring step size is pulled towards `shrinkageTarget` (default 0.05). */
  readonly explorationShrinkage?: number;
  /** μ: the value the exploring step size is biased towards, per step-size part or one for all (default 10 × the initial step size). */
  readonly shrinkageTarget?: number | Tensor | readonly (number | Tensor)[];
  /** t₀: pseudo-steps added to the step count to damp early exploration (default 10). */
  readonly stepCountSmoothing?: number;
  /** κ: the averaging weight of step t is t^(−κ) (default 0.75). */
  readonly decayRate?: number;
  /** Log-space reduction over chain dims the step size lacks (default `reduceLogMeanExp`). */
  readonly reduceFn?: LogReduceFn;
}

/** Results of {@link DualAveragingStepSizeAdaptation} (TFP's `DualAveragingStepSizeAdaptationResults`). */
export interface DualAveragingStepSizeAdaptationResults<R extends object = Record<string, unknown>> {
  readonly innerResults: R;
  readonly targetAcceptProb: number | Tensor;
  /** log μ per step-size part. */
  readonly logShrinkageTarget: readonly Tensor[];
  readonly explorationShrinkage: number;
  readonly stepCountSmoothing: number;
  readonly decayRate: number;
  /** Σ (target − acceptance) per step-size part (shaped like the reduced acceptance). */
  readonly errorSum: readonly Tensor[];
  /** log ε̄, the averaged log step size, per step-size part. */
  readonly logAveragingStep: readonly Tensor[];
  /** Steps taken so far. */
  readonly step: number;
  /** The step size the inner kernel uses at the next step. */
  readonly newStepSize: StepSize;
  /** Kept in the results (as TFP does) so windowed adaptation can restart the schedule. */
  readonly numAdaptationSteps: number;
}

const FN = 'DualAveragingStepSizeAdaptation';

/**
 * Adapts the inner kernel's step size by dual averaging (Hoffman & Gelman 2014, §3.2; Nesterov
 * 2009). With t the step count (from 1), `a_t` the acceptance probability reduced over the
 * chain dims the step size lacks (`reduceFn` of `min(logAcceptRatio, 0)`, non-finite counted as
 * −∞), and h̄ the running error sum:
 *
 * - `errorSum_t = errorSum_{t−1} + target − a_t`
 * - `log ε_t = log μ − errorSum_t·√t / ((t + t₀)·γ)`
 * - `η_t = t^(−κ)`, `log ε̄_t = η_t·log ε_t + (1 − η_t)·log ε̄_{t−1}` (ε̄₀ = 1)
 *
 * While `t < numAdaptationSteps` the exploring ε_t is used; at `t = numAdaptationSteps` the
 * averaged ε̄_t is switched in; after that the step size (and ε̄) are frozen. A step size `[]` is
 * shared by all chains, one `[C, 1]` (state `[C, D]`) is adapted per chain; a list of step sizes
 * is adapted part by part. The seed is passed to the inner kernel unchanged.
 *
 * @throws TypeError/RangeError for a missing inner kernel, a bad `numAdaptationSteps`, a target
 *   outside (0, 1), non-positive γ, t₀ < 0, κ outside (0, 1], or a `shrinkageTarget` list of the
 *   wrong length; TypeError at bootstrap when the inner results hold no `stepSize` or `logAcceptRatio`.
 * @example
 * const kernel = new DualAveragingStepSizeAdaptation({
 *   innerKernel: new NoUTurnSampler({ targetLogProbFn, stepSize: 0.5 }),
 *   numAdaptationSteps: 400,
 *   targetAcceptProb: 0.8,
 * });
 * const { allStates } = sampleChain({ numResults: 1000, numBurninSteps: 500, currentState: zeros([4, 3]), kernel, seed: 7 });
 */
export class DualAveragingStepSizeAdaptation<R extends object = Record<string, unknown>>
implements TransitionKernel<DualAveragingStepSizeAdaptationResults<R>> {
  readonly parameters: Readonly<{
    innerKernel: TransitionKernel<R>; numAdaptationSteps: number; targetAcceptProb: number | Tensor;
    explorationShrinkage: number; shrinkageTarget: number | Tensor | readonly (number | Tensor)[] | undefined;
    stepCountSmoothing: number; decayRate: number; reduceFn: LogReduceFn;
  }>;

  constructor(options: DualAveragingStepSizeAdaptationOptions<R>) {
    const o = checkOptions(FN, options, ['innerKernel', 'numAdaptationSteps', 'targetAcceptProb', 'explorationShrinkage', 'shrinkageTarget', 'stepCountSmoothing', 'decayRate', 'reduceFn']);
    checkInnerKernel(FN, o.innerKernel);
    const smoothing = o.stepCountSmoothing ?? 10;
    if (typeof smoothing !== 'number' || !(smoothing >= 0 && Number.isFinite(smoothing))) fail('range', FN, 'stepCountSmoothing', 'must be a non-negative number', smoothing);
    const decay = o.decayRate ?? 0.75;
    if (typeof decay !== 'number' || !(decay > 0 && decay <= 1)) fail('range', FN, 'decayRate', 'must be in (0, 1]', decay);
    this.parameters = Object.freeze({
      innerKernel: o.innerKernel,
      numAdaptationSteps: checkNonNegativeInteger(FN, 'numAdaptationSteps', o.numAdaptationSteps),
      targetAcceptProb: checkProb(FN, 'targetAcceptProb', o.targetAcceptProb ?? 0.75),
      explorationShrinkage: checkPositive(FN, 'explorationShrinkage', o.explorationShrinkage ?? 0.05),
      shrinkageTarget: o.shrinkageTarget,
      stepCountSmoothing: smoothing,
      decayRate: decay,
      reduceFn: o.reduceFn ?? reduceLogMeanExp,
    });
  }

  get innerKernel(): TransitionKernel<R> { return this.parameters.innerKernel; }
  get numAdaptationSteps(): number { return this.parameters.numAdaptationSteps; }
  get isCalibrated(): boolean { return this.innerKernel.isCalibrated; }

  bootstrapResults(state: State): DualAveragingStepSizeAdaptationResults<R> {
    return this.bootstrapFromInnerResults(state, this.innerKernel.bootstrapResults(state));
  }

  /**
   * Fresh adaptation state around existing inner results (TFP's `_bootstrap_from_inner_results`):
   * the shrinkage target is taken from the inner results' current step size. Windowed adaptation
   * uses it to restart dual averaging at each window.
   */
  bootstrapFromInnerResults(state: State, innerResults: R): DualAveragingStepSizeAdaptationResults<R> {
    const stepSize = getStepSize(innerResults);
    const meta = stepSizeParts(FN, stepSize);
    const lap = safeLogAcceptProb(FN, getLogAcceptRatio(innerResults));
    const [parts] = stateParts(FN, state);
    const targets = this.shrinkageTargets(meta.parts.length);
    const errorSum: Tensor[] = [], logAveragingStep: Tensor[] = [], logShrinkageTarget: Tensor[] = [];
    meta.parts.forEach((s, i) => {
      const r = reduceForStepSize(reduceLogMeanExp, lap, (parts[i] ?? parts[0]!).ndim, s);
      errorSum.push(zeros(r.shape));
      logAveragingStep.push(zeros(s.shape));
      const mu = targets[i];
      logShrinkageTarget.push(mu === undefined
        ? new Tensor(Float64Array.from(log(s).data as ArrayLike<number>, tfpLogShrinkageTarget), s.shape, 'float64')
        : log(typeof mu === 'number' ? scalar(FN, 'shrinkageTarget', mu) : mu));
    });
    return {
      innerResults,
      targetAcceptProb: this.parameters.targetAcceptProb,
      logShrinkageTarget,
      explorationShrinkage: this.parameters.explorationShrinkage,
      stepCountSmoothing: this.parameters.stepCountSmoothing,
      decayRate: this.parameters.decayRate,
      errorSum,
      logAveragingStep,
      step: 0,
      newStepSize: stepSize,
      numAdaptationSteps: this.parameters.numAdaptationSteps,
    };
  }

  oneStep(state: State, previousResults: DualAveragingStepSizeAdaptationResults<R>, seed: KeyArray): [State, DualAveragingStepSizeAdaptationResults<R>] {
    const prev = previousResults;
    const inner = setStepSize(prev.innerResults, prev.newStepSize);
    const [newState, newInner] = this.innerKernel.oneStep(state, inner, seed);
    const lap = safeLogAcceptProb(FN, getLogAcceptRatio(newInner));
    const meta = stepSizeParts(FN, getStepSize(newInner));
    const [parts] = stateParts(FN, state);
    const t = prev.step + 1;
    const eta = averagingWeight(t, prev.decayRate);
    const n = prev.numAdaptationSteps;
    const newStep: Tensor[] = [], newError: Tensor[] = [], newAvg: Tensor[] = [];
    meta.parts.forEach((s, i) => {
      const r = reduceForStepSize(this.parameters.reduceFn, lap, (parts[i] ?? parts[0]!).ndim, s);
      const e = add(prev.errorSum[i]!, sub(prev.targetAcceptProb, exp(r)));
      newError.push(e);
      if (t > n) { newStep.push(s); newAvg.push(prev.logAveragingStep[i]!); return; }
      // The iterates element by element (mcmc/nuts/dual-averaging.ts), broadcast as TFP's ops:
      // log ε over μ and the padded error sum, log ε̄ over that and the previous log ε̄.
      const mu = prev.logShrinkageTarget[i]!, ep = padRight(e, mu.ndim), prevAvg = prev.logAveragingStep[i]!;
      const shape = broadcastShapes(FN, [['logShrinkageTarget', mu.shape], ['errorSum', ep.shape]]);
      const muB = broadcastData(FN, 'logShrinkageTarget', mu, shape), eB = broadcastData(FN, 'errorSum', ep, shape);
      const logStep = new Float64Array(muB.length);
      for (let j = 0; j < logStep.length; j++) {
        logStep[j] = tfpExploringLogStep(Number(muB[j]), Number(eB[j]), t, prev.stepCountSmoothing, prev.explorationShrinkage);
      }
      const avgShape = broadcastShapes(FN, [['logStep', shape], ['logAveragingStep', prevAvg.shape]]);
      const stepB = broadcastData(FN, 'logStep', new Tensor(logStep, shape, 'float64'), avgShape);
      const avgB = broadcastData(FN, 'logAveragingStep', prevAvg, avgShape);
      const avg = new Float64Array(stepB.length);
      for (let j = 0; j < avg.length; j++) avg[j] = averagedLogStep(Number(stepB[j]), Number(avgB[j]), eta);
      const chosen = t < n ? logStep : avg;
      newStep.push(new Tensor(chosen.map(detExp), t < n ? shape : avgShape, 'float64'));
      newAvg.push(new Tensor(avg, avgShape, 'float64'));
    });
    return [newState, {
      ...prev,
      innerResults: newInner,
      errorSum: newError,
      step: t,
      logAveragingStep: newAvg,
      newStepSize: packStepSize(meta, newStep),
    }];
  }

  copy(overrides: Partial<DualAveragingStepSizeAdaptationOptions<R>> = {}): DualAveragingStepSizeAdaptation<R> {
    return new DualAveragingStepSizeAdaptation({ ...this.parameters, ...overrides });
  }

  private shrinkageTargets(nParts: number): (number | Tensor | undefined)[] {
    const st = this.parameters.shrinkageTarget;
    if (st === undefined) return Array<undefined>(nParts).fill(undefined);
    const list = Array.isArray(st) ? (st as readonly (number | Tensor)[]) : [st as number | Tensor];
    if (list.length !== 1 && list.length !== nParts) {
      fail('range', FN, 'shrinkageTarget', `must be one value or one per step-size part (${nParts})`, st);
    }
    return list.length === 1 ? Array<number | Tensor>(nParts).fill(list[0]!) : [...list];
  }
}

function scalar(fn: string, arg: string, x: number): Tensor {
  return new Tensor(Float64Array.of(checkPositive(fn, arg, x)), [], 'float64');
}
