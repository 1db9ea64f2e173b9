// examples/lotka-volterra.ts's model: the compiled log density's gradient (odeRk45 as one op,
// forward sensitivities) against central finite differences of the log density, at two points,
// with the ODE solved at tolerance 1e-10 (at Stan's 1e-5/1e-3 the two differ by ~0.2%: finite
// differences also differentiate the step-size choice, which the sensitivities hold fixed, as
// Stan's do); and the log density against one written out by hand from the same solve.
// Deterministic; ~5 s.
import { describe, expect, it } from 'vitest';
import { compileLogDensity, LogNormal, TruncatedNormal } from '../../distributions/index.js';
import { lotkaVolterra, model, pins, solve, y, yInit } from '../../examples/lotka-volterra.js';
import { tensor } from '../../src/index.js';

const ld = compileLogDensity(lotkaVolterra({ relativeTolerance: 1e-10, absoluteTolerance: 1e-10, maxNumSteps: 1e5 }), { pins });
const points = [
  { theta: [0.55, 0.028, 0.8, 0.024], zInit: [34, 5.9], sigma: [0.25, 0.25] },
  { theta: [0.7, 0.04, 0.6, 0.02], zInit: [25, 8], sigma: [0.5, 0.3] },
];

describe('Lotka–Volterra with odeRk45: the compiled log density', () => {
  for (const [i, p] of points.entries()) {
    it(`point ${i}: gradient within 1e-5 relative of central finite differences`, () => {
      const x = ld.unconstrain(p as never);
      const g = new Float64Array(ld.dim);
      ld.logDensityGradient(x, g);
      for (let j = 0; j < ld.dim; j++) {
        const e = 1e-6 * Math.max(1, Math.abs(x[j]!));
        const hi = Float64Array.from(x), lo = Float64Array.from(x);
        hi[j] = x[j]! + e; lo[j] = x[j]! - e;
        const fd = (ld.logDensity(hi) - ld.logDensity(lo)) / (2 * e);
        expect(Math.abs(g[j]! - fd), `${ld.paramNames[j]}: ${g[j]} vs ${fd}`).toBeLessThan(1e-5 * Math.max(1, Math.abs(fd)));
      }
    });
  }

  it('the log-likelihood terms are those of the solve written out (constrained point, no Jacobian)', () => {
    const p = points[1]!;
    const z = solve(tensor(p.zInit), tensor(p.theta));
    const sigma = tensor(p.sigma);
    const want = (new LogNormal({ loc: tensor(p.zInit).log(), scale: sigma }).logProb(yInit).sum().item() as number)
      + (new LogNormal({ loc: z.log(), scale: sigma }).logProb(y).sum().item() as number);
    const prior = (new TruncatedNormal({ loc: [1, 0.05, 1, 0.05], scale: [0.5, 0.05, 0.5, 0.05], low: 0, high: [10, 1, 10, 1] }).logProb(p.theta).sum().item() as number)
      + (new LogNormal({ loc: Math.log(10), scale: 1 }).logProb(p.zInit).sum().item() as number)
      + (new LogNormal({ loc: -1, scale: 1 }).logProb(p.sigma).sum().item() as number);
    const got = model.logProb({ ...p, yInit, y } as never).item() as number;
    expect(Math.abs(got - (want + prior))).toBeLessThan(1e-9 * Math.abs(got));
  });
});
