/**
 * TFP's `WindowedAdaptation` kernel (experimental/mcmc/windowed_sampling.py): Stan-style warm-up
 * windows around `DiagonalMassMatrixAdaptation(DualAveragingStepSizeAdaptation(inner))`. The
 * step size adapts in every window, the mass matrix only in the slow ones, and both restart at
 * window boundaries.
 */
import { checkNonNegativeInteger } from '../../../src/checks.js';
import type { KeyArray } from '../../../src/random/key-array.js';
import type { State, TransitionKernel } from '../../kernel.js';
import type { DiagonalMassMatrixAdaptation, DiagonalMassMatrixAdaptationResults } from '../../kernels/diagonal-mass-matrix-adaptation.js';
import type { DualAveragingStepSizeAdaptation, DualAveragingStepSizeAdaptationResults } from '../../kernels/dual-averaging-step-size-adaptation.js';
import { setStepSize } from '../../internal/kernel-results.js';
import { windowSchedule, type Window } from '../window-schedule.js';

// The schedule's home is mcmc/nuts/window-schedule.ts; `windowSizes` (public) and the types stay
// importable from here.
export { windowSizes, type Window, type WindowSizes } from '../window-schedule.js';

/**
 * TFP's windows for `n` adaptation steps as `[start, end)` step ranges with their kind, in
 * order: fast, slow ×4, fast; or a single fast window when s = 0 (`windowSchedule(n, 'tfp')`).
 * {@link WindowedAdaptation} restarts its adaptations at these starts.
 * @example
 * windows(500).map((w) => w.end - w.start); // [75, 25, 50, 100, 200, 50]
 */
export function windows(n: number): Window[] {
  return windowSchedule(n, 'tfp');
}

type Dassa<R extends object> = DualAveragingStepSizeAdaptationResults<R>;
type Dmma<R extends object> = DiagonalMassMatrixAdaptationResults<Dassa<R>>;

export interface WindowedAdaptationResults<R extends object> {
  readonly innerResults: Dmma<R>;
  /** Steps taken so far. */
  readonly step: number;
}

/**
 * Drives the windows: before each step it edits the inner results at window starts (TFP's
 * `WindowedAdaptation.one_step`), then steps `DiagonalMassMatrixAdaptation(DualAveraging(inner))`.
 *
 * - step 0: dual averaging over the first fast window and the first slow window together
 *   (`3s + s` steps); no mass-matrix estimation;
 * - step 3s: mass-matrix estimation starts (s steps);
 * - steps 4s, 6s, 10s (the other slow windows, sizes 2s, 4s, 8s): the variance estimate restarts
 *   from empty, and dual averaging restarts from the current step size (shrinkage target 10×);
 * - step 18s: dual averaging restarts for the last fast window (n − 18s steps); the mass matrix
 *   is kept.
 * With s = 0 (n < 20) all the window starts fall on step 0, where TFP's selector (the sum of the
 * flags, clipped) picks the last window's update: the whole warm-up is one dual-averaging window,
 * and the mass-matrix estimation keeps `DiagonalMassMatrixAdaptation`'s own `numEstimationSteps`
 * (n, as `windowedAdaptiveNuts` builds it): the variance of all n warm-up draws becomes the mass
 * matrix at step n. The seed is passed through unchanged.
 */
export class WindowedAdaptation<R extends object> implements TransitionKernel<WindowedAdaptationResults<R>> {
  readonly parameters: Readonly<{ innerKernel: DiagonalMassMatrixAdaptation<Dassa<R>>; numAdaptationSteps: number }>;
  /** The warm-up schedule, `windows(numAdaptationSteps)`. */
  private readonly schedule: readonly Window[];

  constructor(options: { innerKernel: DiagonalMassMatrixAdaptation<Dassa<R>>; numAdaptationSteps: number }) {
    this.parameters = Object.freeze({
      innerKernel: options.innerKernel,
      numAdaptationSteps: checkNonNegativeInteger('WindowedAdaptation', 'numAdaptationSteps', options.numAdaptationSteps),
    });
    this.schedule = windows(this.parameters.numAdaptationSteps);
  }

  get innerKernel(): DiagonalMassMatrixAdaptation<Dassa<R>> { return this.parameters.innerKernel; }
  get isCalibrated(): boolean { return this.innerKernel.isCalibrated; }

  bootstrapResults(state: State): WindowedAdaptationResults<R> {
    return { innerResults: this.innerKernel.bootstrapResults(state), step: 0 };
  }

  oneStep(state: State, previousResults: WindowedAdaptationResults<R>, seed: KeyArray): [State, WindowedAdaptationResults<R>] {
    const inner = this.windowStart(state, previousResults.step, previousResults.innerResults);
    const [next, innerResults] = this.innerKernel.oneStep(state, inner, seed);
    return [next, { innerResults, step: previousResults.step + 1 }];
  }

  copy(overrides: Record<string, unknown> = {}): WindowedAdaptation<R> {
    return new WindowedAdaptation({ ...this.parameters, ...overrides } as WindowedAdaptation<R>['parameters']);
  }

  /** The inner results with the window-start edits for a step taken after `step` steps. */
  private windowStart(state: State, step: number, dmma: Dmma<R>): Dmma<R> {
    const ws = this.schedule;
    // s = 0 (at most one window): at step 0 every window start coincides; TFP adds up the flags
    // (1 + 2 + 3 + 4) and `choose_from` clips the sum to the last window's update: dual averaging
    // over all n steps, and the mass-matrix estimation left as bootstrapped (n steps, so set at step n).
    if (ws.length <= 1) return step === 0 ? { ...dmma, innerResults: this.restartDualAveraging(state, dmma.innerResults, this.parameters.numAdaptationSteps) } : dmma;
    const firstSlow = ws[1]!;
    if (step === 0) return { ...dmma, innerResults: { ...dmma.innerResults, numAdaptationSteps: firstSlow.end }, numEstimationSteps: -1 };
    if (step === firstSlow.start) return { ...dmma, step: 0, numEstimationSteps: firstSlow.end - firstSlow.start };
    for (let i = 2; i < ws.length; i++) {
      const w = ws[i]!;
      if (step !== w.start) continue;
      const size = w.end - w.start;
      if (w.kind === 'fast') return { ...dmma, innerResults: this.restartDualAveraging(state, dmma.innerResults, size) };
      const reset = this.innerKernel.bootstrapFromInnerResults(state, dmma.innerResults);
      return { ...reset, innerResults: this.restartDualAveraging(state, dmma.innerResults, size), numEstimationSteps: size };
    }
    return dmma;
  }

  /** Dual averaging restarted from its current step size, for a window of `size` steps. */
  private restartDualAveraging(state: State, dassa: Dassa<R>, size: number): Dassa<R> {
    const dassaKernel = this.innerKernel.innerKernel as DualAveragingStepSizeAdaptation<R>;
    const withStep = setStepSize(dassa.innerResults, dassa.newStepSize);
    return { ...dassaKernel.bootstrapFromInnerResults(state, withStep), numAdaptationSteps: size };
  }
}
