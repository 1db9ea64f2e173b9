/**
 * Stan's warm-up for one chain (`adapt_diag_e_nuts`): dual averaging of the step size after
 * every warm-up transition, and a diagonal metric estimated in windows — an initial buffer
 * (75 steps) of step-size adaptation only, then windows of 25, 50, 100, … steps (the last one
 * stretched to the end) whose draws' regularized variances become the inverse metric, each
 * followed by a fresh step-size heuristic and a restart of dual averaging, then a terminal buffer
 * (50 steps) of step-size adaptation only. With fewer than 20 warm-up steps the metric stays the
 * identity; when the three stages do not fit, they shrink to 15% / 75% / 10% (Stan's rules). A
 * dense metric (`adapt_dense_e_nuts`) takes the windows' regularized covariance instead.
 *
 * The mathematics is shared with the TFP engine in `mcmc/nuts/`: dual averaging
 * (`dual-averaging.ts`), the variance estimate (`welford.ts`) and the windows
 * (`window-schedule.ts`, Stan's convention); this file is the Stan engine's driver of them.
 */
import type { NutsChain } from './nuts-chain.js';
import { DualAveraging, type DualAveragingSettings } from '../dual-averaging.js';
import { Welford, WelfordCovariance } from '../welford.js';
import { windowSchedule, type Window } from '../window-schedule.js';

// Kept importable from here for existing callers; the settings live with dual averaging.
export { STAN_DUAL_AVERAGING, type DualAveragingSettings } from '../dual-averaging.js';

/** The warm-up schedule of one chain, driven by `afterTransition` once per warm-up step. */
export class StanWarmup {
  /** The slow windows (metric adaptation), in order; `next` indexes the current one. */
  private readonly slow: readonly Window[];
  private next = 0;
  private counter = 0;
  private readonly da: DualAveraging;
  private readonly welford: Welford | WelfordCovariance;
  private readonly cov: Float64Array | null;

  constructor(numWarmup: number, dim: number, settings: DualAveragingSettings, metric: 'diagonal' | 'dense' = 'diagonal', init = 75, term = 50, base = 25) {
    this.da = new DualAveraging(settings);
    this.welford = metric === 'dense' ? new WelfordCovariance(dim) : new Welford(dim);
    this.cov = metric === 'dense' ? new Float64Array(dim * dim) : null;
    this.slow = windowSchedule(numWarmup, { initBuffer: init, termBuffer: term, baseWindow: base }).filter((w) => w.kind === 'slow');
  }

  /**
   * Called once before the first warm-up step and before the first `chain.initStepSize`: centres
   * dual averaging on the step size the chain was given (Stan's service sets μ = log(10·ε₀) before
   * `run_adaptive_sampler` runs `init_stepsize`; test/mcmc/nuts/stan-warmup-start.test.ts).
   */
  begin(chain: NutsChain): void {
    this.da.restart(chain.stepSize);
  }

  /**
   * Adapts after one warm-up transition: the step size from its acceptance statistic; the draw
   * into the current window; at a window's end the new inverse metric, then the step-size
   * heuristic (`fn` names the caller in its errors) and a dual-averaging restart.
   */
  afterTransition(chain: NutsChain, fn: string): void {
    chain.stepSize = this.da.learn(chain.acceptStat);
    const c = this.counter++, win = this.slow[this.next];
    if (win === undefined || c < win.start) return;
    this.welford.add(chain.q);
    if (c !== win.end - 1) return;
    this.next++;
    const w = this.welford, n = w.n;
    if (w instanceof WelfordCovariance) {          // Stan's covar_adaptation: shrink towards 1e-3·I
      const cov = this.cov!, dim = chain.dim;
      cov.set(chain.dense!.cov);
      w.covariance(cov);
      for (let i = 0; i < dim; i++) for (let j = 0; j < dim; j++) cov[i * dim + j] = (n / (n + 5)) * cov[i * dim + j]! + (i === j ? 1e-3 * (5 / (n + 5)) : 0);
      chain.dense!.set(cov, fn);
    } else {
      const m = chain.invMetric;
      w.variance(m);
      for (let i = 0; i < m.length; i++) m[i] = (n / (n + 5)) * m[i]! + 1e-3 * (5 / (n + 5));
    }
    w.restart();
    chain.initStepSize(fn);
    this.da.restart(chain.stepSize);
  }

  /** Ends warm-up: the averaged step size. */
  end(chain: NutsChain): void {
    chain.stepSize = this.da.final();
  }

  /** Where the schedule is, as plain data (copies): enough for `restore` to continue it exactly. */
  snapshot(): WarmupState {
    return { counter: this.counter, window: this.next, dualAveraging: this.da.state(), welford: this.welford.state() };
  }

  /** Continues from a `snapshot()` of a warm-up with the same settings. */
  restore(s: WarmupState): void {
    this.counter = s.counter;
    this.next = s.window;
    this.da.setState(s.dualAveraging);
    this.welford.setState(s.welford);
  }
}

/** A {@link StanWarmup}'s position, as plain data: warm-up steps taken, the current slow window, dual averaging's `[μ, counter, s̄, x̄]`, the window's running moments (M₂ `dim` or `dim × dim`). */
export interface WarmupState {
  readonly counter: number;
  readonly window: number;
  readonly dualAveraging: readonly number[];
  readonly welford: { readonly n: number; readonly mean: Float64Array; readonly m2: Float64Array };
}
