/**
 * Stan's warm-up for one chain (`adapt_diag_e_nuts`): dual averaging of the step size after
 * every warm-up transition, and a diagonal metric estimated in windows — an initial buffer
 * (75 steps) of step-size adaptation only, then windows of 25, 50, 100, … steps (the last one
 * stretched to the end) whose draws' regularized variances become the inverse metric, each
 * followed by a fresh step-size heuristic and a restart of dual averaging, then a terminal buffer
 * (50 steps) of step-size adaptation only. With fewer than 20 warm-up steps the metric stays the
 * identity; when the three stages do not fit, they shrink to 15% / 75% / 10% (Stan's rules).
 */
import type { NutsChain } from './nuts-chain.js';

/** Dual averaging settings (Stan's names in comments; TFP's in the options). */
export interface DualAveragingSettings {
  /** Target acceptance statistic (δ, Stan's default 0.8). */
  readonly targetAcceptProb: number;
  /** γ (Stan's default 0.05). */
  readonly explorationShrinkage: number;
  /** t₀ (Stan's default 10). */
  readonly stepCountSmoothing: number;
  /** κ (Stan's default 0.75). */
  readonly decayRate: number;
}

export const STAN_DUAL_AVERAGING: DualAveragingSettings = { targetAcceptProb: 0.8, explorationShrinkage: 0.05, stepCountSmoothing: 10, decayRate: 0.75 };

/** Nesterov dual averaging of log ε (Hoffman & Gelman 2014, as Stan's `stepsize_adaptation`). */
class DualAveraging {
  private mu = 0;
  private counter = 0;
  private sBar = 0;
  private xBar = 0;
  constructor(private readonly s: DualAveragingSettings) {}
  /** Restarts around μ = log(10 ε). */
  restart(stepSize: number): void {
    this.mu = Math.log(10 * stepSize);
    this.counter = 0; this.sBar = 0; this.xBar = 0;
  }
  /** The next step size after a transition with this acceptance statistic. */
  learn(acceptStat: number): number {
    const s = this.s;
    this.counter++;
    const a = acceptStat > 1 ? 1 : acceptStat;
    const eta = 1 / (this.counter + s.stepCountSmoothing);
    this.sBar = (1 - eta) * this.sBar + eta * (s.targetAcceptProb - a);
    const x = this.mu - this.sBar * Math.sqrt(this.counter) / s.explorationShrinkage;
    const xEta = Math.pow(this.counter, -s.decayRate);
    this.xBar = (1 - xEta) * this.xBar + xEta * x;
    return Math.exp(x);
  }
  /** The step size kept after warm-up: exp of the averaged iterate. */
  final(): number { return Math.exp(this.xBar); }
}

/** Welford's running mean and variance of each coordinate. */
class Welford {
  n = 0;
  private readonly mean: Float64Array;
  private readonly m2: Float64Array;
  constructor(dim: number) { this.mean = new Float64Array(dim); this.m2 = new Float64Array(dim); }
  add(x: Float64Array): void {
    this.n++;
    const mean = this.mean, m2 = this.m2;
    for (let i = 0; i < mean.length; i++) {
      const d = x[i]! - mean[i]!;
      mean[i] = mean[i]! + d / this.n;
      m2[i] = m2[i]! + (x[i]! - mean[i]!) * d;
    }
  }
  /** Writes the sample variances (n − 1 denominator) into `out` (unchanged when n < 2). */
  variance(out: Float64Array): void {
    if (this.n < 2) return;
    for (let i = 0; i < out.length; i++) out[i] = this.m2[i]! / (this.n - 1);
  }
  restart(): void { this.n = 0; this.mean.fill(0); this.m2.fill(0); }
}

/** The warm-up schedule of one chain, driven by `afterTransition` once per warm-up step. */
export class StanWarmup {
  private readonly numWarmup: number;
  private readonly initBuffer: number;
  private readonly termBuffer: number;
  private windowSize: number;
  private nextWindow: number;
  private counter = 0;
  private readonly da: DualAveraging;
  private readonly welford: Welford;

  constructor(numWarmup: number, dim: number, settings: DualAveragingSettings, init = 75, term = 50, base = 25) {
    this.da = new DualAveraging(settings);
    this.welford = new Welford(dim);
    if (numWarmup < 20) {                     // no metric adaptation (Stan leaves the windows empty)
      this.numWarmup = 0; this.initBuffer = 0; this.termBuffer = 0; this.windowSize = 0; this.nextWindow = -1;
      return;
    }
    if (init + base + term > numWarmup) {
      init = Math.trunc(0.15 * numWarmup);
      term = Math.trunc(0.1 * numWarmup);
      base = numWarmup - (init + term);
    }
    this.numWarmup = numWarmup; this.initBuffer = init; this.termBuffer = term;
    this.windowSize = base;
    this.nextWindow = init + base - 1;
  }

  /** Called once before the first warm-up step, after `chain.initStepSize`: centres dual averaging on the step size. */
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
    const c = this.counter;
    if (c >= this.initBuffer && c < this.numWarmup - this.termBuffer && c !== this.numWarmup) this.welford.add(chain.q);
    if (c === this.nextWindow && c !== this.numWarmup) {
      this.computeNextWindow();
      const m = chain.invMetric, n = this.welford.n;
      this.welford.variance(m);
      for (let i = 0; i < m.length; i++) m[i] = (n / (n + 5)) * m[i]! + 1e-3 * (5 / (n + 5));
      this.welford.restart();
      this.counter++;
      chain.initStepSize(fn);
      this.da.restart(chain.stepSize);
      return;
    }
    this.counter++;
  }

  /** Ends warm-up: the averaged step size. */
  end(chain: NutsChain): void {
    chain.stepSize = this.da.final();
  }

  private computeNextWindow(): void {
    const last = this.numWarmup - this.termBuffer - 1;
    if (this.nextWindow === last) return;
    this.windowSize *= 2;
    this.nextWindow = this.counter + this.windowSize;
    if (this.nextWindow === last) return;
    // Stretch this window to the end when the one after it would not fit.
    if (this.nextWindow + 2 * this.windowSize >= this.numWarmup - this.termBuffer) this.nextWindow = last;
  }
}
