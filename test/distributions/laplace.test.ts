// Laplace: values against @stdlib over grids with tails, the log tails against their exact
// forms, entropy and KL against numerical integration, fused gradients against finite
// differences, TFP's sampler (seed as given, uniform on [nextafter(−1, 1), 1)), KS goodness of
// fit (2 tests, n = 20000 each, ALPHA = 1e-6 per test: false-failure rate 2e-6).
import { describe, expect, it } from 'vitest';
import laplaceCdf from '@stdlib/stats-base-dists-laplace-cdf';
import laplaceLogPdf from '@stdlib/stats-base-dists-laplace-logpdf';
import { Identity } from '../../distributions/bijectors/identity.js';
import { Laplace } from '../../distributions/laplace.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { detLog1p } from '../../src/math/index.js';

const close = (a: number, b: number, rel: number, floor = 1) =>
  expect(a === b ? 0 : Math.abs(a - b), `${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(floor, Math.abs(b)));
const data = (t: Tensor) => t.data as Float64Array;

describe('Laplace', () => {
  it('logProb, cdf, survival and their logs match @stdlib and the exact tails', () => {
    for (const [m, s] of [[0, 1], [2, 0.3], [-5, 40]] as const) {
      const d = new Laplace({ loc: m, scale: s });
      const zs = [-900, -30, -2, -0.5, 0, 0.1, 1, 7, 40, 800];
      const xs = zs.map((z) => m + z * s);
      const lp = data(d.logProb(xs)), cdf = data(d.cdf(xs)), lc = data(d.logCdf(xs));
      const sf = data(d.survivalFunction(xs)), ls = data(d.logSurvivalFunction(xs));
      xs.forEach((x, i) => {
        const z = (x - m) / s;
        close(lp[i]!, laplaceLogPdf(x, m, s), 1e-14);
        close(cdf[i]!, laplaceCdf(x, m, s), 1e-14, 1e-300);
        close(sf[i]!, laplaceCdf(2 * m - x, m, s), 1e-14, 1e-300);
        // log cdf: z − log 2 below loc, log(1 − e^(−z)/2) above (no underflow at z = −900).
        close(lc[i]!, z < 0 ? z - Math.LN2 : Math.log1p(-0.5 * Math.exp(-z)), 1e-14);
        close(ls[i]!, z > 0 ? -z - Math.LN2 : Math.log1p(-0.5 * Math.exp(z)), 1e-14);
      });
    }
  });

  it('quantile: μ + b·log(2p) and μ − b·log(2(1 − p)), inverting the cdf', () => {
    const d = new Laplace({ loc: 1, scale: 2 });
    const ps = [1e-300, 1e-9, 0.2, 0.5, 0.75, 1 - 1e-9];
    const q = data(d.quantile(ps));
    ps.forEach((p, i) => close(q[i]!, p <= 0.5 ? 1 + 2 * Math.log(2 * p) : 1 - 2 * Math.log(2 * (1 - p)), 1e-15));
    ps.slice(1).forEach((p, i) => close(laplaceCdf(q[i + 1]!, 1, 2), p, 1e-14));
    expect(d.quantile([0, 1]).toArray()).toEqual([-Infinity, Infinity]);
  });

  it('moments, entropy and KL (numerical integration)', () => {
    const d = new Laplace({ loc: [1, 2], scale: 3 });
    expect(d.mean().toArray()).toEqual([1, 2]);
    expect(d.mode().toArray()).toEqual([1, 2]);
    expect(d.stddev().toArray()).toEqual([3 * Math.SQRT2, 3 * Math.SQRT2]);
    close((d.variance().toArray() as number[])[0]!, 18, 1e-15);
    expect(d.defaultEventSpaceBijector()).toBeInstanceOf(Identity);
    const a = new Laplace({ loc: 0.3, scale: 0.7 }), b = new Laplace({ loc: -1, scale: 2 });
    const xs = Array.from({ length: 200000 }, (_, i) => -30 + (i + 0.5) * 60 / 200000);
    const la = data(a.logProb(xs)), lb = data(b.logProb(xs));
    let h = 0, kl = 0;
    la.forEach((v, i) => { h -= Math.exp(v) * v * 60 / 200000; kl += Math.exp(v) * (v - lb[i]!) * 60 / 200000; });
    close(a.entropy().item() as number, h, 1e-7);
    close(a.klDivergence(b).item() as number, kl, 1e-7);
    const ys = Array.from({ length: 400000 }, (_, i) => -80 + (i + 0.5) * 160 / 400000);
    const lb2 = data(b.logProb(ys)), la2 = data(a.logProb(ys));
    const kl2 = lb2.reduce((acc, v, i) => acc + Math.exp(v) * (v - la2[i]!) * 160 / 400000, 0);
    close(b.klDivergence(a).item() as number, kl2, 1e-6);
  });

  it('fused gradients of every method match finite differences', () => {
    const make = (p: Record<string, Tensor>) => new Laplace({ loc: p.loc!, scale: p.scale! });
    const params = { loc: [0.5, -1], scale: [1.3, 0.4] };
    for (const method of ['logProb', 'cdf', 'logCdf', 'survivalFunction', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [[0.1, 2], [-7, -1.2]], { method });
    }
    expectGradients(make, params, [[0.1, 0.2], [0.7, 0.95]], { method: 'quantile' });
  });

  it('samples as TFP: loc − scale·sign(u)·log1p(−|u|), u uniform on [nextafter(−1, 1), 1), seed as given', () => {
    const d = new Laplace({ loc: [1, -1], scale: [2, 0.5] });
    const x = data(d.sample(4, { seed: [3, 4] }));
    const u = data(samplersUniform([4, 2], { minval: -1 + 2 ** -53, maxval: 1, seed: [3, 4] }));
    expect(Array.from(x)).toEqual(Array.from(u, (v, i) => [1, -1][i % 2]! - [2, 0.5][i % 2]! * Math.sign(v) * detLog1p(-Math.abs(v))));
    const f = new Laplace({ loc: tensor([0], 'float32'), scale: tensor([1], 'float32') });
    expect(f.sample(3, { seed: 1 }).dtype).toBe('float32');
    expectSampleShapeInvariance(d);
  });

  it('draws fit the Laplace cdf (KS)', () => {
    const x = new Laplace({ loc: [0, 5], scale: [1, 1e-3] }).sample(20000, { seed: 13 });
    expectKS(column(x, 0, 2), (v) => laplaceCdf(v, 0, 1));
    expectKS(column(x, 1, 2), (v) => laplaceCdf(v, 5, 1e-3));
  });

  it('bad input: names the parameter and both shapes', () => {
    expect(() => new Laplace({ loc: 0, scale: 0, validateArgs: true })).toThrow(/Laplace: `scale` must be positive/);
    expect(() => new Laplace({ loc: 'x', scale: 1 } as never)).toThrow(TypeError);
    expect(() => new Laplace({ loc: [1, 2], scale: [1, 2, 3] })).toThrow(/`loc` \[2\] and `scale` \[3\]/);
    expect(() => new Laplace({ loc: [0, 1], scale: 1 }).logProb([1, 2, 3])).toThrow(/`value` \[3\] and `batchShape \+ eventShape` \[2\]/);
  });
});
