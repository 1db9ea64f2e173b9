// A model whose ODE cannot be solved over part of the parameter space, sampled by
// windowedAdaptiveNuts on the compiled log density: y′ = k·y², y(0) = 1 has y(1) = 1/(1 − k) for
// k < 1 and blows up before t = 1 for k ≥ 1, where odeRk45 throws OdeError. The run completes,
// the failures are rejected proposals counted under OdeError, and the posterior of k agrees with
// quadrature. Sample: 4 chains × 1000 draws (seed 1); the mean check is 5 Monte Carlo standard
// errors wide (false failure ≈ 6e-7 for a correct sampler). ~5 s.
import { describe, expect, it } from 'vitest';
import { JointDistributionNamed, Normal } from '../../distributions/index.js';
import { summary, windowedAdaptiveNuts } from '../../mcmc/index.js';
import { gather, mul, odeRk45, square, type Tensor } from '../../src/index.js';

const OBS = 2, PRIOR_LOC = 0.6, PRIOR_SCALE = 0.4, NOISE = 1;

const model = new JointDistributionNamed({
  k: new Normal({ loc: PRIOR_LOC, scale: PRIOR_SCALE }),
  y: (k: Tensor) => {
    const sol = odeRk45((_t, y, th) => mul(th, square(y)), [1], 0, [1], k.reshape([1]), { maxNumSteps: 200 });
    return new Normal({ loc: gather(sol.reshape([1]), 0), scale: NOISE });
  },
}, { name: 'BlowUp' });

/** E[k | y] by the trapezoid rule on (−3, 1), the solution y(1) = 1/(1 − k) (k ≥ 1 has no solution: no mass, as in the sampler). */
function quadratureMean(): number {
  let z = 0, m = 0;
  const lo = PRIOR_LOC - 9 * PRIOR_SCALE, n = 200_000, h = (1 - lo) / n;
  for (let i = 1; i < n; i++) {
    const k = lo + i * h, y1 = 1 / (1 - k);
    const w = Math.exp(-0.5 * ((k - PRIOR_LOC) / PRIOR_SCALE) ** 2 - 0.5 * ((OBS - y1) / NOISE) ** 2);
    z += w; m += w * k;
  }
  return m / z;
}

describe('an ODE that fails at some proposals: rejections, not an aborted run', () => {
  it('windowedAdaptiveNuts completes, counts the OdeError rejections, and finds the posterior mean', () => {
    const r = windowedAdaptiveNuts(model, { pins: { y: OBS }, seed: 1, nChains: 4, numAdaptationSteps: 1000, nDraws: 1000 });
    const ode = r.rejections?.find((e) => /OdeError/.test(e.message));
    expect(ode, JSON.stringify(r.rejections)).toBeDefined();
    expect(ode!.message).toMatch(/^OdeError: odeRk45: (the state is not finite|the step size underflowed|more than maxNumSteps)/);
    expect(ode!.count).toBeGreaterThan(0);
    const row = summary(r.draws).get('k')!;
    expect(Math.abs(row.mean - quadratureMean())).toBeLessThan(5 * row.mcseMean);
    // No kept draw sits where the ODE has no solution.
    expect(Math.max(...(r.draws.k!.data as Float64Array))).toBeLessThan(1);
  });
});
