// examples/pk-one-compartment.ts's model: odeRk45's solution against the closed form
// a_c(t) = D·k_a/(k_a − k)·(e^(−kt) − e^(−k_a t)), and the compiled log density's gradient against
// central finite differences (ODE solved at tolerance 1e-10, so that finite differences do not
// differentiate the step-size choice). Deterministic; a few seconds. The posterior against Stan's
// is pk-one-compartment.slow.test.ts.
import { describe, expect, it } from 'vitest';
import { compileLogDensity } from '../../distributions/index.js';
import { concentrations, dadt, dose, pins, pkModel, times } from '../../examples/pk-one-compartment.js';
import { odeRk45 } from '../../src/index.js';

describe('examples/pk-one-compartment.ts', () => {
  it('odeRk45 at the example\'s tolerances (1e-6) gives the closed-form central amount within 1e-5 relative', () => {
    const [ka, cl, v] = [1.5, 3.8, 18.7], k = cl / v;
    const a = odeRk45(dadt, [dose, 0], 0, times, [ka, cl, v]).toArray() as number[][];
    for (const [i, t] of times.entries()) {
      const want = (dose * ka) / (ka - k) * (Math.exp(-k * t) - Math.exp(-ka * t));
      expect(Math.abs(a[i]![1]! - want), `t = ${t}`).toBeLessThan(1e-5 * want);
      expect(Math.abs(a[i]![0]! - dose * Math.exp(-ka * t)), `t = ${t}`).toBeLessThan(1e-5 * dose);
    }
    expect(concentrations).toHaveLength(times.length);
  });

  it('the compiled log density\'s gradient is within 1e-6 relative of central finite differences', () => {
    const ld = compileLogDensity(pkModel({ relativeTolerance: 1e-10, absoluteTolerance: 1e-10 }) as never, { pins } as never);
    const x = ld.unconstrain({ ka: 1.5, cl: 3.8, v: 18.7, sigma: 0.17 } as never);
    const g = new Float64Array(ld.dim);
    ld.logDensityGradient(x, g);
    for (let j = 0; j < ld.dim; j++) {
      const e = 1e-6, hi = Float64Array.from(x), lo = Float64Array.from(x);
      hi[j] = x[j]! + e; lo[j] = x[j]! - e;
      const fd = (ld.logDensity(hi) - ld.logDensity(lo)) / (2 * e);
      expect(Math.abs(g[j]! - fd), `${ld.paramNames[j]}: ${g[j]} vs ${fd}`).toBeLessThan(1e-6 * Math.max(1, Math.abs(fd)));
    }
  });
});
