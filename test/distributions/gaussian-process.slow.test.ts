// GP regression with amplitude and length-scale hyperpriors under NUTS at default settings
// (4 chains, 1000 warm-up steps, 1000 draws; windowedAdaptiveNuts' per-chain adaptation), for the
// exponentiated-quadratic and Matérn-5/2 kernels: no divergences, R-hat < 1.01, and the posterior
// means and sds of both hyperparameters against quadrature on a 160 × 160 grid (gp-regression.ts;
// the grid's own error is < 1e-6). Means within 4 MCSE; sds within 8% (4000 draws, ESS > 1000:
// an sd's relative MCSE is about 1/√(2·ESS) < 2.3%, and these posteriors are skewed).
import { describe, expect, it } from 'vitest';
import { summary, windowedAdaptiveNuts, type WindowedTrace } from '../../mcmc/index.js';
import { gridMeans, regression, YS } from './gp-regression.js';

describe('GP regression under NUTS at default settings (slow)', () => {
  for (const kernel of ['ExponentiatedQuadratic', 'MaternFiveHalves'] as const) {
    it(`${kernel}: posterior means and sds of amplitude and lengthScale match quadrature`, () => {
      const want = gridMeans(kernel, 160);
      const { draws, trace } = windowedAdaptiveNuts(regression(kernel), { pins: { y: YS }, seed: 2 });
      const s = summary(draws, { divergences: (trace as WindowedTrace).diverging });
      expect(s.divergences).toBe(0);
      for (const [name, sd] of [['amplitude', want.sdAmplitude], ['lengthScale', want.sdLengthScale]] as const) {
        const r = s.get(name)!;
        expect(r.rHat, name).toBeLessThan(1.01);
        expect(r.essBulk, name).toBeGreaterThan(1000);
        expect(Math.abs(r.mean - want[name]), `${name}: NUTS ${r.mean} ± ${r.mcseMean}, quadrature ${want[name]}`).toBeLessThan(4 * r.mcseMean);
        expect(Math.abs(r.sd - sd) / sd, `${name} sd: NUTS ${r.sd}, quadrature ${sd}`).toBeLessThan(0.08);
      }
    }, 300_000);
  }
});
