/**
 * Dual averaging of the log step size (Hoffman & Gelman 2014, §3.2, after Nesterov 2009): the
 * one home of the step-size adaptation both NUTS engines run. References: Stan's
 * `stepsize_adaptation.hpp` (the Stan engine, `mcmc/nuts/stan/warmup.ts`) and TFP's
 * `dual_averaging_step_size_adaptation.py` (the TFP engine,
 * `mcmc/kernels/dual-averaging-step-size-adaptation.ts`).
 *
 * With t the adaptation step (from 1), a_t the acceptance statistic, δ the target, μ the
 * shrinkage target, γ, t₀ and κ the settings:
 *
 * - the error statistic h̄_t = (1/(t + t₀)) Σ_{i ≤ t} (δ − a_i);
 * - the exploring iterate log ε_t = μ − h̄_t·√t / γ;
 * - the averaged iterate log ε̄_t = η_t·log ε_t + (1 − η_t)·log ε̄_{t−1}, η_t = t^(−κ), ε̄₀ = 1;
 * - warm-up runs on ε_t and keeps exp(log ε̄) at its end.
 *
 * **Two arithmetic forms, both pinned.** The engines compute the same sequence with different
 * roundings, and each engine's draws are pinned bit for bit (the Stan engine's by its tests and
 * the engine comparison, the TFP engine's by the TFP-on-JAX parity fixtures), so both forms stay:
 *
 * | | Stan engine ({@link DualAveraging}) | TFP engine ({@link tfpExploringLogStep}) |
 * |---|---|---|
 * | error statistic | running mean s̄ ← (1 − 1/(t+t₀))·s̄ + (δ − a)/(t+t₀) | error sum e ← e + (δ − a) |
 * | exploring iterate | μ − s̄·√t / γ | μ − e·(√t / ((t + t₀)·γ)) |
 * | shrinkage target μ | log(10·ε) ({@link stanLogShrinkageTarget}) | log ε + log 10 ({@link tfpLogShrinkageTarget}) |
 * | acceptance a | Stan's statistic, capped at 1 | the reduced exp(min(log ratio, 0)) |
 *
 * The averaged iterate ({@link averagedLogStep}) and its weight ({@link averagingWeight}) are the
 * same arithmetic in both, and both engines call them; every other row has one function per form
 * here.
 */
import { detExp, detLog, detPow } from '../../src/math/index.js';

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

/** Stan's defaults: δ = 0.8, γ = 0.05, t₀ = 10, κ = 0.75 (TFP's are the same but δ = 0.75). */
export const STAN_DUAL_AVERAGING: DualAveragingSettings = { targetAcceptProb: 0.8, explorationShrinkage: 0.05, stepCountSmoothing: 10, decayRate: 0.75 };

/**
 * The averaging weight η_t = t^(−κ) of step t (`detPow`: engines differ in the last bit of `**`).
 * @example
 * averagingWeight(16, 0.75);   // 0.125
 */
export function averagingWeight(t: number, decayRate: number): number {
  return detPow(t, -decayRate);
}

/**
 * The averaged iterate after a step: log ε̄_t = log ε_t·η + log ε̄_{t−1}·(1 − η).
 * @example
 * averagedLogStep(Math.log(2), 0, 1);   // log 2: the first step's weight is 1
 */
export function averagedLogStep(logStep: number, logAveragedStep: number, eta: number): number {
  return logStep * eta + logAveragedStep * (1 - eta);
}

/**
 * The TFP engine's exploring iterate, from the error sum e_t = Σ (δ − a_i):
 * log ε_t = μ − e_t·(√t / ((t₀ + t)·γ)).
 * @example
 * tfpExploringLogStep(Math.log(5), 0.3, 1, 10, 0.05);   // log 5 − 0.3 / 0.55
 */
export function tfpExploringLogStep(logShrinkageTarget: number, errorSum: number, t: number, stepCountSmoothing: number, explorationShrinkage: number): number {
  return logShrinkageTarget - errorSum * (Math.sqrt(t) / ((stepCountSmoothing + t) * explorationShrinkage));
}

/** log 10, for TFP's shrinkage target. */
const LOG_10 = detLog(10);

/**
 * Stan's shrinkage target for a (re)start from step size ε: μ = log(10·ε).
 * @example
 * stanLogShrinkageTarget(0.5);   // log 5
 */
export function stanLogShrinkageTarget(stepSize: number): number {
  return detLog(10 * stepSize);
}

/**
 * TFP's shrinkage target from the log of the step size: μ = log ε + log 10. It takes log ε
 * rather than ε because TFP's log is taken in the step size's dtype (a float32 step size gives a
 * float32 log ε, widened before the sum).
 * @example
 * tfpLogShrinkageTarget(Math.log(0.5));   // log 5, up to rounding
 */
export function tfpLogShrinkageTarget(logStepSize: number): number {
  return logStepSize + LOG_10;
}

/**
 * Stan's `stepsize_adaptation`: dual averaging of log ε for one chain, as a small state machine.
 * `restart(ε)` centres it on μ = log(10·ε); `learn(a)` takes a transition's acceptance statistic
 * and returns the next exploring step size; `final()` the averaged one kept after warm-up.
 *
 * @example
 * const da = new DualAveraging(STAN_DUAL_AVERAGING);
 * da.restart(0.5);
 * let eps = da.learn(0.9);   // the step size grows: the acceptance was above 0.8
 * eps = da.final();          // exp(log ε̄)
 */
export class DualAveraging {
  private mu = 0;
  private counter = 0;
  private sBar = 0;
  private xBar = 0;
  constructor(private readonly s: DualAveragingSettings) {}
  /** Restarts around μ = log(10 ε). */
  restart(stepSize: number): void {
    this.mu = stanLogShrinkageTarget(stepSize);
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
    this.xBar = averagedLogStep(x, this.xBar, averagingWeight(this.counter, s.decayRate));
    return detExp(x);
  }
  /** The step size kept after warm-up: exp of the averaged iterate. */
  final(): number { return detExp(this.xBar); }
  /** The state as plain numbers `[μ, counter, s̄, x̄]` (to resume a chain exactly with `setState`). */
  state(): [number, number, number, number] { return [this.mu, this.counter, this.sBar, this.xBar]; }
  /** Restores a `state()`. */
  setState(s: readonly number[]): void { [this.mu, this.counter, this.sBar, this.xBar] = s as [number, number, number, number]; }
}
