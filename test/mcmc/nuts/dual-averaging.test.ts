// Dual averaging (mcmc/nuts/dual-averaging.ts): Stan's DualAveraging against a hand computation
// of its first steps and against the closed form h̄_t = Σ(δ − a_i)/(t + t₀) over 500 steps; the
// TFP engine's exploring iterate, the two shrinkage targets and the shared averaged iterate on
// known values; the two forms agreeing to rounding, and differing in the last bit (why both stay). Deterministic: the acceptance statistics are a fixed sequence.
import { describe, expect, it } from 'vitest';
import {
  averagedLogStep, averagingWeight, DualAveraging, STAN_DUAL_AVERAGING, stanLogShrinkageTarget, tfpExploringLogStep,
  tfpLogShrinkageTarget,
} from '../../../mcmc/nuts/dual-averaging.js';
import { detLog } from '../../../src/math/index.js';

/** A fixed irregular acceptance sequence in [0, 1.2] (values above 1 test the cap). */
const accept = (t: number) => 0.6 * (1 + Math.sin(1.3 * t + 0.4));

describe('DualAveraging (Stan engine form)', () => {
  it('first steps by hand: ε₀ = 0.5, μ = log 5, acceptances 0.9 then 0.6', () => {
    const da = new DualAveraging(STAN_DUAL_AVERAGING);
    da.restart(0.5);
    // t = 1: h̄ = (0.8 − 0.9)/11, log ε = log 5 + (0.1/11)·1/0.05 = log 5 + 2/11; log ε̄ = log ε (weight 1).
    const x1 = Math.log(5) + 2 / 11;
    expect(da.learn(0.9)).toBeCloseTo(Math.exp(x1), 14);
    expect(da.final()).toBeCloseTo(Math.exp(x1), 14);
    // t = 2: h̄ = (−0.1 + 0.2)/12, log ε = log 5 − (0.1/12)·√2/0.05; weight 2^(−3/4).
    const x2 = Math.log(5) - (0.1 / 12) * Math.SQRT2 / 0.05, w = 2 ** -0.75;
    expect(da.learn(0.6)).toBeCloseTo(Math.exp(x2), 14);
    expect(da.final()).toBeCloseTo(Math.exp(w * x2 + (1 - w) * x1), 14);
  });

  it('an acceptance above 1 counts as 1; restart forgets the history', () => {
    const a = new DualAveraging(STAN_DUAL_AVERAGING), b = new DualAveraging(STAN_DUAL_AVERAGING);
    a.restart(0.5); b.restart(0.5);
    expect(a.learn(1.7)).toBe(b.learn(1));
    a.learn(0.1);
    a.restart(0.5);
    const fresh = new DualAveraging(STAN_DUAL_AVERAGING);
    fresh.restart(0.5);
    expect(a.learn(0.3)).toBe(fresh.learn(0.3));
  });

  it('500 steps: the closed form h̄_t = Σ(δ − min(a, 1))/(t + t₀) and the TFP form agree to rounding', () => {
    const s = { targetAcceptProb: 0.8, explorationShrinkage: 0.05, stepCountSmoothing: 10, decayRate: 0.75 };
    const da = new DualAveraging(s);
    da.restart(0.25);
    const mu = Math.log(10 * 0.25);
    let sum = 0, avg = 0;
    for (let t = 1; t <= 500; t++) {
      const a = accept(t);
      const eps = da.learn(a);
      sum += s.targetAcceptProb - Math.min(a, 1);
      const closed = mu - (sum / (t + s.stepCountSmoothing)) * Math.sqrt(t) / s.explorationShrinkage;
      const tfp = tfpExploringLogStep(mu, sum, t, s.stepCountSmoothing, s.explorationShrinkage);
      expect(Math.abs(Math.log(eps) - closed), `t = ${t}`).toBeLessThan(1e-12 * Math.max(1, Math.abs(closed)));
      expect(Math.abs(tfp - closed), `t = ${t}`).toBeLessThan(1e-12 * Math.max(1, Math.abs(closed)));
      avg = averagedLogStep(tfp, avg, averagingWeight(t, s.decayRate));
    }
    expect(Math.abs(Math.log(da.final()) - avg)).toBeLessThan(1e-12);
  });
});

describe('the shared scalar pieces', () => {
  it('averagingWeight is t^(−κ), exact on powers of two; averagedLogStep weighs the new iterate by η', () => {
    expect(averagingWeight(1, 0.75)).toBe(1);
    expect(averagingWeight(16, 0.75)).toBe(0.125);
    expect(averagingWeight(10, 0.75)).toBeCloseTo(10 ** -0.75, 15);
    expect(averagedLogStep(Math.log(2), 0, 1)).toBe(Math.log(2));
    expect(averagedLogStep(4, 2, 0.25)).toBe(2.5);
  });

  it('shrinkage targets: Stan log(10ε), TFP log ε + log 10; equal to rounding, not bit for bit (for 1/37, 2/37, 3/37, …)', () => {
    expect(stanLogShrinkageTarget(0.5)).toBeCloseTo(Math.log(5), 15);
    expect(tfpLogShrinkageTarget(Math.log(0.5))).toBeCloseTo(Math.log(5), 15);
    let differ = 0;
    for (let i = 1; i <= 100; i++) {
      const eps = i / 37, stan = stanLogShrinkageTarget(eps), tfp = tfpLogShrinkageTarget(detLog(eps));
      expect(Math.abs(stan - tfp)).toBeLessThan(1e-15 * Math.max(1, Math.abs(stan)) + 1e-16);
      if (stan !== tfp) differ++;
    }
    expect(differ).toBeGreaterThan(0);
  });

  it('tfpExploringLogStep: μ − e·√t/((t₀ + t)·γ)', () => {
    expect(tfpExploringLogStep(Math.log(5), 0.3, 1, 10, 0.05)).toBeCloseTo(Math.log(5) - 0.3 / 0.55, 14);
    expect(tfpExploringLogStep(1, -0.2, 4, 0, 0.1)).toBeCloseTo(1 + 0.2 * 2 / 0.4, 14);
    expect(tfpExploringLogStep(1, 0, 7, 10, 0.05)).toBe(1);
  });
});
