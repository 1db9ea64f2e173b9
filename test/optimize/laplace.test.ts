// laplace: the exact covariance of Gaussian posteriors (up to finite-difference error), draws as
// a pure function of the seed, logP/logQ, Pareto k̂ (good for a near-Gaussian posterior, bad for a
// Cauchy), the not-a-maximum error, and bad input.
//
// Monte-Carlo checks: the draws' mean is compared with the exact mean within 4 standard errors
// (2 coordinates, 4000 draws; false-failure rate ≈ 1.3e-4 under normality; the seed is fixed).
import { describe, expect, it } from 'vitest';
import { Cauchy, compileLogDensity, JointDistributionNamed, Normal } from '../../distributions/index.js';
import { summary } from '../../mcmc/index.js';
import type { FlatTarget } from '../../src/compile/flat-target.js';
import { add, mul } from '../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { laplace, optimize } from '../../optimize/index.js';
import { gaussian2, gaussianRegression, halfNormalScale, scipyLogistic, solve } from './models.js';

/** x ~ N(1, 2), z | x ~ N(0.5 + 0.8x, 0.6): jointly Gaussian, mean (1, 1.3), cov [[4, 3.2], [3.2, 2.92]]. */
function correlated() {
  return new JointDistributionNamed({
    x: new Normal({ loc: 1, scale: 2 }),
    z: ({ x }: { x: Tensor }) => new Normal({ loc: add(mul(x, 0.8), 0.5), scale: 0.6 }),
  });
}
const COV = [[4, 3.2], [3.2, 2.92]];

describe('laplace: Gaussian posteriors', () => {
  it('a 2-d correlated Gaussian model: mode, covariance within 1e-5, logP − logQ constant (both normalised), draws\' mean', () => {
    const model = correlated();
    // The default mode (optimize at Stan's tolerances) is ~1e-4 off; logP − logQ is constant only at the exact mode.
    const byDefault = laplace(model, { seed: 0, draws: 10 });
    expect(Math.abs(byDefault.mode[0]! - 1) + Math.abs(byDefault.mode[1]! - 1.3)).toBeLessThan(1e-3);
    [0, 1].forEach((i) => [0, 1].forEach((j) => expect(Math.abs(byDefault.covariance[i * 2 + j]! - COV[i]![j]!)).toBeLessThan(1e-5)));
    const fit = laplace(model, { mode: { x: 1, z: 1.3 }, seed: 0, draws: 4000 });   // the exact mode, as constrained values
    expect(Array.from(fit.mode).sort()).toEqual([1, 1.3]);
    [0, 1].forEach((i) => [0, 1].forEach((j) => expect(Math.abs(fit.covariance[i * 2 + j]! - COV[i]![j]!), `cov[${i},${j}]`).toBeLessThan(1e-5)));
    const logP = fit.logP.data as Float64Array, logQ = fit.logQ.data as Float64Array;
    for (let s = 0; s < logP.length; s++) expect(Math.abs(logP[s]! - logQ[s]!)).toBeLessThan(1e-6);
    const x = fit.draws.x!.data as Float64Array, z = fit.draws.z!.data as Float64Array;
    expect(fit.draws.x!.shape).toEqual([4000, 1]);
    const mean = (a: Float64Array) => a.reduce((s, v) => s + v, 0) / a.length;
    expect(Math.abs(mean(x) - 1)).toBeLessThan(4 * Math.sqrt(4 / 4000));
    expect(Math.abs(mean(z) - 1.3)).toBeLessThan(4 * Math.sqrt(2.92 / 4000));
    expect(fit.warnings).toEqual([]);
  });

  it('a flat Gaussian target: the exact covariance (inverse precision) within 1e-5 from a given mode', () => {
    const P = [[3, -1.4], [-1.4, 1.1]];
    const fit = laplace(gaussian2([0.2, -0.7], P), { mode: [0.2, -0.7], seed: 1 });
    const c = [solve(P, [1, 0]), solve(P, [0, 1])];   // columns of P⁻¹
    [0, 1].forEach((i) => [0, 1].forEach((j) => expect(Math.abs(fit.covariance[i * 2 + j]! - c[j]![i]!)).toBeLessThan(1e-5)));
    [0, 1].forEach((i) => [0, 1].forEach((j) => expect(Math.abs(fit.hessian[i * 2 + j]! + P[i]![j]!)).toBeLessThan(1e-5)));
    expect(Object.keys(fit.draws)).toEqual(['x', 'y']);
  });

  it('the conjugate regression and SciPy\'s logistic regression: the Hessian at the mode within 1e-5 (relative) of the exact one', () => {
    const g = gaussianRegression();
    const fit = laplace(g.model, { pins: g.pins, seed: 2, draws: 10 });
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(Math.abs(fit.hessian[i * 3 + j]! + g.precision[i]![j]!) / g.precision[0]![0]!).toBeLessThan(1e-5);
    const s = scipyLogistic();
    const mode = optimize(s.model, { pins: s.pins, seed: 0, jacobian: true, tolRelGrad: 1 });
    const lf = laplace(s.model, { pins: s.pins, mode, seed: 2, draws: 10 });
    // The fixture's order is (alpha, beta[0..2]); the flat target's is its paramNames'.
    const names = ['alpha', 'beta[0]', 'beta[1]', 'beta[2]'];
    const at = (name: string) => names.indexOf(name);
    const order = compileLogDensity(s.model, { pins: s.pins }).paramNames.map(at);
    expect([...order].sort()).toEqual([0, 1, 2, 3]);
    const H = s.fixture.hessian;
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) expect(Math.abs(lf.hessian[i * 4 + j]! - H[order[i]!]![order[j]!]!) / Math.abs(H[0]![0]!)).toBeLessThan(1e-5);
    expect(lf.gradientEvaluations).toBe(8);   // 2·dim: the mode was given
  });
});

describe('laplace: draws, logP, logQ and Pareto k̂', () => {
  it('draws are a pure function of the seed', () => {
    const { model, pins } = halfNormalScale();
    const a = laplace(model, { pins, seed: 5, draws: 50 }), b = laplace(model, { pins, seed: 5, draws: 50 }), c = laplace(model, { pins, seed: 6, draws: 50 });
    expect(Array.from(a.unconstrained)).toEqual(Array.from(b.unconstrained));
    expect(Array.from(a.unconstrained)).not.toEqual(Array.from(c.unconstrained));
    expect(Array.from(a.draws.sigma!.data as Float64Array).every((v) => v > 0)).toBe(true);   // constrained
    const mean = Array.from(a.draws.sigma!.data as Float64Array).reduce((t, v) => t + v, 0) / 50;
    expect(summary(a.draws).rows.find((r) => r.name === 'sigma')!.mean).toBeCloseTo(mean, 12);   // summary reads them as draws × 1 chain
  });

  it('logQ is the normal approximation\'s normalised log density at the draw', () => {
    const { model, pins } = halfNormalScale();
    const fit = laplace(model, { pins, seed: 3, draws: 20 });
    const v = fit.covariance[0]!, m = fit.mode[0]!;
    const u = fit.unconstrained, logQ = fit.logQ.data as Float64Array;
    for (let s = 0; s < 20; s++) expect(logQ[s]).toBeCloseTo(-0.5 * (u[s]! - m) ** 2 / v - 0.5 * Math.log(2 * Math.PI * v), 10);
  });

  it('Pareto k̂: below 0.7 for a near-Gaussian posterior; above it for a Cauchy, with a warning', () => {
    const s = scipyLogistic();
    const good = laplace(s.model, { pins: s.pins, seed: 4, draws: 2000 });
    expect(good.paretoK).toBeLessThan(0.7);
    expect(good.warnings).toEqual([]);
    const heavy = new JointDistributionNamed({ x: new Cauchy({ loc: 0, scale: 1 }) });
    const bad = laplace(heavy, { seed: 4, draws: 2000 });
    expect(bad.paretoK).toBeGreaterThan(0.7);
    expect(bad.warnings.join('\n')).toMatch(/Pareto k̂ = .* > 0\.70/);
  });

  it('a mode found with the other jacobian setting is used, with a warning', () => {
    const { model, pins } = halfNormalScale();
    const fit = laplace(model, { pins, mode: optimize(model, { pins, seed: 0 }), seed: 0, draws: 10 });
    expect(fit.warnings.join('\n')).toMatch(/jacobian: false but the approximation uses jacobian: true/);
  });
});

describe('laplace: errors', () => {
  it('a point that is not a maximum names `mode`', () => {
    const saddle: FlatTarget = { dim: 1, paramNames: ['x'], logDensity: (x) => x[0]! ** 2 - x[0]! ** 4, logDensityGradient: (x, g) => { g[0] = 2 * x[0]! - 4 * x[0]! ** 3; return x[0]! ** 2 - x[0]! ** 4; } };
    expect(() => laplace(saddle, { mode: [0] })).toThrow(/laplace: `mode` is not a maximum of the log density: its Hessian there is not negative definite/);
  });

  it('bad options name the argument', () => {
    const { model, pins } = halfNormalScale();
    expect(() => laplace(model, { pins, draws: 0 })).toThrow(/`draws`/);
    expect(() => laplace(model, { pins, draws: 2.5 })).toThrow(/`draws`/);
    expect(() => laplace(model, { pins, mode: Float64Array.of(1, 2) })).toThrow(/`mode` must have dim = 1/);
    expect(() => laplace(model, { pins, mode: { sigma: -1 } })).toThrow(/mode\.sigma|`mode`/);
    expect(() => laplace(model, { pins, samples: 10 } as never)).toThrow(/samples/);
    expect(() => laplace(model, { pins, jacobian: 1 as never })).toThrow(TypeError);
    expect(() => laplace(gaussian2([0, 0], [[1, 0], [0, 1]]), { jacobian: false })).toThrow(/`jacobian` must not be given with a flat target/);
  });
});
