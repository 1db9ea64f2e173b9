// optimize: known modes (closed form; with and without the Jacobian), Rosenbrock as a flat target,
// SciPy's MAP of a logistic regression, Stan's convergence reasons, failures inside the log
// density, starts, and bad input. Deterministic (no Monte Carlo): every seed is fixed.
import { describe, expect, it } from 'vitest';
import { compileLogDensity } from '../../distributions/index.js';
import { summary } from '../../mcmc/index.js';
import type { FlatTarget } from '../../src/compile/flat-target.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { optimize } from '../../optimize/index.js';
import { gaussianRegression, halfNormalScale, rosenbrock, scipyLogistic } from './models.js';

const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
const ALGORITHMS = ['lbfgs', 'bfgs', 'newton'] as const;

describe('optimize: known modes', () => {
  // Stan's default relative-gradient test (1e7·ε) stops where gᵀH⁻¹g ≈ 2e-9·|log p|: about 1e-5 from
  // the mode on these models (Stan's defaults, the same test, stop there too). The exact checks tighten it.
  const TIGHT = { tolRelGrad: 1 };

  it('conjugate Gaussian linear regression: the closed-form mode within 1e-8 (relative) with tolRelGrad 1, within 1e-5 at the defaults', () => {
    const { model, pins, mode } = gaussianRegression();
    for (const algorithm of ALGORITHMS) {
      const loose = optimize(model, { pins, seed: 1, algorithm });
      expect(loose.converged, algorithm).toBe(true);
      Array.from((loose.params.beta as Tensor).data as Float64Array).forEach((b, i) => expect(rel(b, mode[i]!), `${algorithm} beta[${i}] (defaults)`).toBeLessThan(1e-5));
      const fit = optimize(model, { pins, seed: 1, algorithm, ...TIGHT });
      expect(fit.converged, algorithm).toBe(true);
      const beta = Array.from((fit.params.beta as Tensor).data as Float64Array);
      expect((fit.params.beta as Tensor).shape).toEqual([1, 1, 3]);
      beta.forEach((b, i) => expect(rel(b, mode[i]!), `${algorithm} beta[${i}]`).toBeLessThan(1e-8));
      expect(fit.warnings).toEqual([]);
    }
  });

  it('a HalfNormal scale: the mode without the Jacobian (default) and with it, each from its own formula', () => {
    const { model, pins, modeNoJacobian, modeJacobian } = halfNormalScale();
    expect(rel(modeJacobian, modeNoJacobian)).toBeGreaterThan(0.05);   // the test can tell them apart
    for (const algorithm of ALGORITHMS) {
      const off = optimize(model, { pins, seed: 2, algorithm, ...TIGHT });
      const on = optimize(model, { pins, seed: 2, algorithm, jacobian: true, ...TIGHT });
      expect(rel((off.params.sigma as Tensor).item() as number, modeNoJacobian), `${algorithm} jacobian false`).toBeLessThan(1e-7);
      expect(rel((on.params.sigma as Tensor).item() as number, modeJacobian), `${algorithm} jacobian true`).toBeLessThan(1e-7);
      expect(off.jacobian).toBe(false);
      expect(on.jacobian).toBe(true);
    }
    // logDensity is the density optimised: compileLogDensity's (with the Jacobian) at the same point.
    const on = optimize(model, { pins, seed: 2, jacobian: true });
    expect(on.logDensity).toBeCloseTo(compileLogDensity(model, { pins }).logDensity(on.unconstrained), 12);
  });

  it('SciPy\'s MAP of a logistic regression within 1e-6 with tolRelGrad 1, within 1e-4 at the defaults (fixture: test/fixtures/optimize/logistic_scipy.py)', () => {
    const { model, pins, fixture } = scipyLogistic();
    for (const algorithm of ALGORITHMS) {
      const loose = optimize(model, { pins, seed: 3, algorithm });
      expect(Math.abs((loose.params.alpha as Tensor).item() as number - fixture.mode.alpha), `${algorithm} (defaults)`).toBeLessThan(1e-4);
      const fit = optimize(model, { pins, seed: 3, algorithm, ...TIGHT });
      expect(fit.converged, algorithm).toBe(true);
      expect(Math.abs((fit.params.alpha as Tensor).item() as number - fixture.mode.alpha), algorithm).toBeLessThan(1e-6);
      Array.from((fit.params.beta as Tensor).data as Float64Array).forEach((b, i) => expect(Math.abs(b - fixture.mode.beta[i]!), `${algorithm} beta[${i}]`).toBeLessThan(1e-6));
      expect(fit.logDensity).toBeCloseTo(fixture.logDensity, 9);
    }
  });

  it('Rosenbrock as a flat target from (−1.2, 1): (1, 1) within 1e-4 for every algorithm; quasi-Newton within Stan\'s test budget (≤ 70 gradients)', () => {
    for (const algorithm of ALGORITHMS) {
      const fit = optimize(rosenbrock(), { init: [-1.2, 1], algorithm });
      expect(fit.converged, algorithm).toBe(true);
      expect(Math.abs(fit.unconstrained[0]! - 1), algorithm).toBeLessThan(1e-4);
      expect(Math.abs(fit.unconstrained[1]! - 1), algorithm).toBeLessThan(1e-4);
      expect(Object.keys(fit.params)).toEqual(['a', 'b']);
      expect(fit.params.a!.shape).toEqual([1, 1]);
      if (algorithm !== 'newton') expect(fit.gradientEvaluations, algorithm).toBeLessThanOrEqual(70);
    }
  });
});

describe('optimize: results feed the workflow', () => {
  it('params are draws-shaped: summary accepts them (one draw: its mean is the point)', () => {
    const { model, pins } = halfNormalScale();
    const fit = optimize(model, { pins, seed: 0 });
    const row = summary(fit.params).rows.find((r) => r.name === 'sigma')!;
    expect(row.mean).toBe((fit.params.sigma as Tensor).item());
  });
});

describe('optimize: convergence reasons', () => {
  const off = { tolObj: 0, tolRelObj: 0, tolGrad: 0, tolRelGrad: 0, tolParam: 0 };
  it('each test, alone, stops the run and is named in Stan\'s words', () => {
    const run = (o: object) => optimize(rosenbrock(), { init: [-1.2, 1], ...off, ...o });
    expect(run({ tolObj: 1e-12 }).reason).toMatch(/absolute change in objective function/);
    expect(run({ tolRelObj: 1e4 }).reason).toMatch(/relative change in objective function/);
    expect(run({ tolGrad: 1e-8 }).reason).toMatch(/gradient norm is below tolerance/);
    expect(run({ tolRelGrad: 1e7 }).reason).toMatch(/relative gradient magnitude/);
    expect(run({ tolParam: 1e-8 }).reason).toMatch(/absolute parameter change/);
    for (const o of [{ tolObj: 1e-12 }, { tolRelObj: 1e4 }, { tolGrad: 1e-8 }, { tolRelGrad: 1e7 }, { tolParam: 1e-8 }]) expect(run(o).converged).toBe(true);
  });

  it('the iteration limit is non-convergence, with a warning', () => {
    const fit = optimize(rosenbrock(), { init: [-1.2, 1], iter: 3 });
    expect(fit.iterations).toBe(3);
    expect(fit.converged).toBe(false);
    expect(fit.reason).toMatch(/Maximum number of iterations/);
    expect(fit.warnings.join('\n')).toMatch(/did not converge/);
  });

  it('a line search that finds no decrease (a wrong gradient) is non-convergence, with a warning', () => {
    const wrong: FlatTarget = { dim: 1, paramNames: ['x'], logDensity: (x) => -(x[0]! ** 2), logDensityGradient: (x, g) => { g[0] = 2 * x[0]!; return -(x[0]! ** 2); } };
    const fit = optimize(wrong, { init: [1] });
    expect(fit.converged).toBe(false);
    expect(fit.reason).toMatch(/Line search failed/);
    expect(fit.warnings.join('\n')).toMatch(/did not converge/);
  });
});

describe('optimize: failures inside the log density', () => {
  // log p = −(x − 0.9)² for x < 1; throws for x ≥ 1. initAlpha 10 sends the first trial to x ≈ 18.
  const make = (how: 'throw' | 'nan'): FlatTarget => ({
    dim: 1, paramNames: ['x'],
    logDensity: (x) => -((x[0]! - 0.9) ** 2),
    logDensityGradient(x, g) {
      if (x[0]! >= 1) { if (how === 'throw') throw new Error('out of the support'); return NaN; }
      g[0] = -2 * (x[0]! - 0.9);
      return -((x[0]! - 0.9) ** 2);
    },
  });
  for (const how of ['throw', 'nan'] as const) {
    it(`a log density that ${how === 'throw' ? 'throws' : 'is NaN'} in part of the space shrinks the step, converges, and is reported (${how})`, () => {
      for (const algorithm of ALGORITHMS) {
        const fit = optimize(make(how), { init: [0], initAlpha: 10, algorithm, tolRelGrad: 1 });
        expect(fit.converged, algorithm).toBe(true);
        expect(Math.abs(fit.unconstrained[0]! - 0.9), algorithm).toBeLessThan(1e-6);
        if (algorithm !== 'newton') expect(fit.warnings.join('\n'), algorithm).toMatch(how === 'throw' ? /threw: out of the support \(\d+ points?; the step was shrunk\)/ : /log density was NaN/);
      }
    });
  }
});

describe('optimize: starts', () => {
  it('the default start is uniform(−2, 2) on the unconstrained space, a pure function of the seed', () => {
    const first = (seed: number, initRadius?: number) => { const t = rosenbrock(); optimize(t, { seed, iter: 1, ...(initRadius === undefined ? {} : { initRadius }) }); return Array.from(t.calls[0]!); };
    expect(first(7)).toEqual(first(7));
    expect(first(7)).not.toEqual(first(8));
    for (let s = 0; s < 20; s++) for (const v of first(s)) expect(Math.abs(v)).toBeLessThan(2);
    for (const v of first(0, 0.1)) expect(Math.abs(v)).toBeLessThan(0.1);
    const { model, pins } = gaussianRegression();
    const a = optimize(model, { pins, seed: 5 }), b = optimize(model, { pins, seed: 5 });
    expect(Array.from(a.unconstrained)).toEqual(Array.from(b.unconstrained));
  });

  it('init: constrained values of a model, coordinates of a flat target; the start is retried until finite', () => {
    const { model, pins, modeNoJacobian } = halfNormalScale();
    const fit = optimize(model, { pins, init: { sigma: 2.5 }, tolRelGrad: 1 });
    expect(rel((fit.params.sigma as Tensor).item() as number, modeNoJacobian)).toBeLessThan(1e-7);
    expect(optimize(model, { pins, init: 'prior', seed: 0 }).converged).toBe(true);
    const t = rosenbrock();
    optimize(t, { init: [0.3, -0.4], iter: 1 });
    expect(Array.from(t.calls[0]!)).toEqual([0.3, -0.4]);
    // Finite only for x > 1.5: most uniform(−2, 2) starts fail and are retried.
    const half: FlatTarget = { dim: 1, paramNames: ['x'], logDensity: (x) => (x[0]! > 1.5 ? -((x[0]! - 3) ** 2) : -Infinity),
      logDensityGradient: (x, g) => { g[0] = -2 * (x[0]! - 3); return x[0]! > 1.5 ? -((x[0]! - 3) ** 2) : -Infinity; } };
    const h = optimize(half, { seed: 0 });
    expect(h.unconstrained[0]).toBeCloseTo(3, 6);
  });
});

describe('optimize: bad input', () => {
  const { model, pins } = halfNormalScale();
  it('names the function and the argument', () => {
    expect(() => optimize(model, { pins, algorithm: 'adam' as never })).toThrow(/optimize: `algorithm` must be one of 'lbfgs', 'bfgs', 'newton'/);
    expect(() => optimize(model, { pins, tolObj: -1 })).toThrow(RangeError);
    expect(() => optimize(model, { pins, tolObj: -1 })).toThrow(/tolObj/);
    expect(() => optimize(model, { pins, initAlpha: 0 })).toThrow(/initAlpha/);
    expect(() => optimize(model, { pins, historySize: 0 })).toThrow(/historySize/);
    expect(() => optimize(model, { pins, iter: 1.5 })).toThrow(/iter/);
    expect(() => optimize(model, { pins, jacobian: 'yes' as never })).toThrow(TypeError);
    expect(() => optimize(model, { pins, tolerance: 1 } as never)).toThrow(/tolerance/);
    expect(() => optimize(model, { pins: { z: 1 } })).toThrow(/pins/);
    expect(() => optimize(model, { pins, init: { sigma: -1 } })).toThrow(/init\.sigma/);
    expect(() => optimize(model, { pins, init: {} })).toThrow(/init\.sigma` is missing/);
    expect(() => optimize(rosenbrock(), { pins })).toThrow(/`pins` must not be given with a flat target/);
    expect(() => optimize(rosenbrock(), { jacobian: true })).toThrow(/`jacobian` must not be given with a flat target/);
    expect(() => optimize(rosenbrock(), { init: [1] })).toThrow(/`init` must have length dim = 2/);
    expect(() => optimize(rosenbrock(), { init: 'prior' })).toThrow(/needs a model/);
    expect(() => optimize({} as never)).toThrow(/optimize: `model`/);
  });

  it('a model with no finite start says why', () => {
    const never: FlatTarget = { dim: 1, paramNames: ['x'], logDensity: () => -Infinity, logDensityGradient: () => -Infinity };
    expect(() => optimize(never, { seed: 0 })).toThrow(/every one of 100 starts/);
  });
});
