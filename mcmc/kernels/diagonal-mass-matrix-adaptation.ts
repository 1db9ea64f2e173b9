/**
 * `DiagonalMassMatrixAdaptation` (TFP's `tfp.experimental.mcmc.DiagonalMassMatrixAdaptation`):
 * estimates each state part's variance online and makes it the inner kernel's diagonal inverse
 * mass matrix.
 */
import { checkNonNegativeInteger, checkOptions, fail } from '../../src/checks.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { zeros, ones } from '../../src/tensor/ops/create.js';
import { reshape } from '../../src/tensor/ops/shape.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { State, TransitionKernel } from '../kernel.js';
import { stateParts } from '../internal/target.js';
import { setInverseMassDiag } from '../internal/kernel-results.js';
import { checkInnerKernel } from '../internal/step-size-parts.js';
import {
  runningVarianceFromStats, runningVarianceValue, updateRunningVariance, type RunningVariance,
} from '../nuts/tfp/running-variance.js';

export interface DiagonalMassMatrixAdaptationOptions<R extends object = Record<string, unknown>> {
  /** A kernel whose results hold an `inverseMassDiag` slot (HMC, NUTS, possibly wrapped). */
  readonly innerKernel: TransitionKernel<R>;
  /**
   * The starting estimate per state part (one `RunningVariance`, or one per part). Its shape
   * decides what is shared: a part `[C, D]` with a variance `[C, D]` gets one mass matrix per
   * chain; with a variance `[D]` the C chains pool their draws into one. Default: an empty
   * estimate shaped like each state part (per chain), as `windowedAdaptiveNuts` uses.
   */
  readonly initialRunningVariance?: RunningVariance | readonly RunningVariance[];
  /**
   * Steps during which draws feed the estimate; at this step the estimate becomes the inverse
   * mass matrix. Default: update the estimate and the mass matrix at every step (this kernel is
   * then not calibrated; give an `initialRunningVariance` that has seen samples, since a
   * one-sample variance is 0).
   */
  readonly numEstimationSteps?: number;
}

/** Results of {@link DiagonalMassMatrixAdaptation} (TFP's `DiagonalMassMatrixAdaptationResults`). */
export interface DiagonalMassMatrixAdaptationResults<R extends object = Record<string, unknown>> {
  readonly innerResults: R;
  /** The running estimate per state part. */
  readonly runningVariance: readonly RunningVariance[];
  /** Steps taken so far (since the last reset). */
  readonly step: number;
  /** −1 when the estimate is updated at every step; windowed adaptation resets it per window. */
  readonly numEstimationSteps: number;
}

const FN = 'DiagonalMassMatrixAdaptation';

/**
 * Adapts a diagonal mass matrix. Each step runs the inner kernel, then (while `step ≤
 * numEstimationSteps`) adds the new state to a running variance per part (Welford/Pébay,
 * population variance); at `step = numEstimationSteps` the variances become the inner kernel's
 * `inverseMassDiag` (momenta p ~ N(0, 1/var), kinetic energy ½ Σ var·p²), so the sampler sees a
 * target of roughly unit scale. Without `numEstimationSteps` the estimate and the mass matrix are
 * updated at every step. The seed is passed to the inner kernel unchanged.
 *
 * @throws TypeError/RangeError for a missing inner kernel, a bad `numEstimationSteps`, or an
 *   initial variance whose shape is not a trailing part of its state part's shape (at bootstrap);
 *   TypeError when the inner results hold no `inverseMassDiag` slot.
 * @example
 * const kernel = new DiagonalMassMatrixAdaptation({
 *   innerKernel: new HamiltonianMonteCarlo({ targetLogProbFn, stepSize: 0.1, numLeapfrogSteps: 8 }),
 *   numEstimationSteps: 200,
 * });
 * const run = sampleChain({ numResults: 200, currentState: zeros([4, 10]), kernel, seed: 3 });
 * getInverseMassDiag(run.finalKernelResults); // [Tensor [4, 10]]: per-chain variances
 */
export class DiagonalMassMatrixAdaptation<R extends object = Record<string, unknown>>
implements TransitionKernel<DiagonalMassMatrixAdaptationResults<R>> {
  readonly parameters: Readonly<{
    innerKernel: TransitionKernel<R>;
    initialRunningVariance: RunningVariance | readonly RunningVariance[] | undefined;
    numEstimationSteps: number | undefined;
  }>;

  constructor(options: DiagonalMassMatrixAdaptationOptions<R>) {
    const o = checkOptions(FN, options, ['innerKernel', 'initialRunningVariance', 'numEstimationSteps']);
    checkInnerKernel(FN, o.innerKernel);
    this.parameters = Object.freeze({
      innerKernel: o.innerKernel,
      initialRunningVariance: o.initialRunningVariance,
      numEstimationSteps: o.numEstimationSteps === undefined ? undefined : checkNonNegativeInteger(FN, 'numEstimationSteps', o.numEstimationSteps),
    });
  }

  get innerKernel(): TransitionKernel<R> { return this.parameters.innerKernel; }
  get numEstimationSteps(): number | undefined { return this.parameters.numEstimationSteps; }
  get isCalibrated(): boolean { return this.numEstimationSteps !== undefined && this.innerKernel.isCalibrated; }

  bootstrapResults(state: State): DiagonalMassMatrixAdaptationResults<R> {
    const results = this.bootstrapFromInnerResults(state, this.innerKernel.bootstrapResults(state));
    // Updating at every step: start from the initial estimate when it has seen samples (an empty one has no variance yet).
    if (this.numEstimationSteps !== undefined || results.runningVariance.some((rv) => rv.numSamples === 0)) return results;
    return { ...results, innerResults: setInverseMassDiag(results.innerResults, massDiag(results.runningVariance)) };
  }

  /** Fresh estimation state around existing inner results (TFP's `_bootstrap_from_inner_results`); windowed adaptation resets with it. */
  bootstrapFromInnerResults(state: State, innerResults: R): DiagonalMassMatrixAdaptationResults<R> {
    const [parts] = stateParts(FN, state);
    const init = this.parameters.initialRunningVariance;
    const list = init === undefined
      ? parts.map((p) => runningVarianceFromStats({ numSamples: 0, mean: zeros(p.shape), variance: ones(p.shape) }))
      : Array.isArray(init) ? [...(init as readonly RunningVariance[])] : [init as RunningVariance];
    if (list.length !== parts.length) fail('range', FN, 'initialRunningVariance', `must give one running variance per state part (${parts.length})`, list.length);
    list.forEach((rv, i) => {
      const s = rv?.mean?.shape, p = parts[i]!.shape;
      if (s === undefined || s.length > p.length || s.some((d, j) => d !== p[p.length - s.length + j])) {
        fail('range', FN, `initialRunningVariance[${i}]`, `must have a trailing part of the state part's shape [${p.join(', ')}]`, s);
      }
    });
    return { innerResults, runningVariance: list, step: 0, numEstimationSteps: this.numEstimationSteps ?? -1 };
  }

  oneStep(state: State, previousResults: DiagonalMassMatrixAdaptationResults<R>, seed: KeyArray): [State, DiagonalMassMatrixAdaptationResults<R>] {
    const prev = previousResults;
    const [newState, newInner] = this.innerKernel.oneStep(state, prev.innerResults, seed);
    const step = prev.step + 1;
    const always = this.numEstimationSteps === undefined;
    let runningVariance = prev.runningVariance;
    let innerResults = newInner;
    if (always || step <= prev.numEstimationSteps) {
      const [parts] = stateParts(FN, newState);
      runningVariance = prev.runningVariance.map((rv, i) => {
        const p = parts[i]!;
        const lead = p.ndim - rv.mean.ndim;
        const m = sizeOf(p.shape.slice(0, lead));
        return updateRunningVariance(rv, reshape(p, [m, ...rv.mean.shape]));
      });
      if (always || step === prev.numEstimationSteps) innerResults = setInverseMassDiag(newInner, massDiag(runningVariance));
    }
    return [newState, { ...prev, innerResults, runningVariance, step }];
  }

  copy(overrides: Partial<DiagonalMassMatrixAdaptationOptions<R>> = {}): DiagonalMassMatrixAdaptation<R> {
    return new DiagonalMassMatrixAdaptation({ ...this.parameters, ...overrides } as DiagonalMassMatrixAdaptationOptions<R>);
  }
}

/**
 * The inverse mass matrix per part: the running (population) variances. An entry that is not a
 * positive finite number (a window of one draw, or a coordinate that never moved) is 1, the
 * identity, rather than an invalid mass matrix. (TFP keeps the 0: the momentum precision is then
 * 0, the momentum infinite, and every later transition of that chain diverges.)
 */
function massDiag(rvs: readonly RunningVariance[]): Tensor[] {
  return rvs.map((rv) => {
    const v = runningVarianceValue(rv), d = v.data as Float64Array;
    for (let i = 0; i < d.length; i++) if (!(d[i]! > 0 && d[i]! < Infinity)) d[i] = 1;
    return v;
  });
}
