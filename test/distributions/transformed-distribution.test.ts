// TransformedDistribution: Normal∘Exp against @stdlib's lognormal and Gamma∘Reciprocal against
// @stdlib's inverse gamma (log density, cdfs, quantile) over grids with tails; decreasing and
// affine bijectors (cdf/survival swap, moments, entropy); batch dims added by the bijector;
// values outside the range; draws = g(base draw) with the seed as given; KS tests (n = 20000,
// ALPHA = 1e-6 each: false-failure rate 2e-6); gradients; slicing; event-space bijector; KL; bad input.
import { describe, expect, it } from 'vitest';
import invgammaCdf from '@stdlib/stats-base-dists-invgamma-cdf';
import invgammaLogPdf from '@stdlib/stats-base-dists-invgamma-logpdf';
import lognormalCdf from '@stdlib/stats-base-dists-lognormal-cdf';
import lognormalLogPdf from '@stdlib/stats-base-dists-lognormal-logpdf';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalLogCdf from '@stdlib/stats-base-dists-normal-logcdf';
import normalLogPdf from '@stdlib/stats-base-dists-normal-logpdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import { NotImplementedError } from '../../distributions/distribution.js';
import { Gamma } from '../../distributions/gamma.js';
import { Independent } from '../../distributions/independent.js';
import { Normal } from '../../distributions/normal.js';
import { TransformedDistribution } from '../../distributions/transformed-distribution.js';
import { Chain } from '../../distributions/bijectors/chain.js';
import { Exp } from '../../distributions/bijectors/exp.js';
import { Reciprocal } from '../../distributions/bijectors/reciprocal.js';
import { Scale } from '../../distributions/bijectors/scale.js';
import { Shift } from '../../distributions/bijectors/shift.js';
import { Sigmoid } from '../../distributions/bijectors/sigmoid.js';
import { Softplus } from '../../distributions/bijectors/softplus.js';
import { normal as samplersNormal } from '../../src/samplers/normal.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { detExp } from '../../src/math/index.js';

const close = (a: number, b: number, rel = 1e-12) => expect(Math.abs(a - b)).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));
const arr = (t: { data: unknown }) => Array.from(t.data as Float64Array);
// Φ⁻¹(p) for p = 1e-300, 1e-12, 0.1, 0.5, 0.9, 1 − 1e-12 (the doubles), by mpmath at 50 digits:
// mp.findroot(lambda z: mp.log(mp.ncdf(z)) - mp.log(p), z0). (@stdlib's normal quantile loses
// ~6 digits at 1e-12, so it is the reference only at 0.1.)
const Z_OF_P = [-37.0470962993612, -7.034483825301132, -1.2815515655446004, 0, 1.2815515655446006, 7.0344869100478356];
const logNormal = (loc: unknown, scale: unknown) => new TransformedDistribution({ distribution: new Normal({ loc: loc as number, scale: scale as number }), bijector: new Exp() });

describe('TransformedDistribution', () => {
  it('Normal∘Exp matches @stdlib lognormal: logProb, cdf, logCdf, survival, quantile, tails included', () => {
    for (const [m, s] of [[0, 1], [1.5, 0.2], [-3, 2]] as const) {
      const d = logNormal(m, s);
      const zs = [-30, -8, -2.5, -1, 0, 0.3, 1, 4, 9, 30];
      const ys = zs.map((z) => Math.exp(m + z * s));
      const lp = arr(d.logProb(ys)), cdf = arr(d.cdf(ys)), lc = arr(d.logCdf(ys)), sf = arr(d.survivalFunction(ys)), ls = arr(d.logSurvivalFunction(ys));
      ys.forEach((y, i) => {
        close(lp[i]!, lognormalLogPdf(y, m, s), 1e-12);
        close(cdf[i]!, lognormalCdf(y, m, s), 1e-12);
        close(lc[i]!, normalLogCdf(zs[i]!, 0, 1), 1e-10); // log Φ far into the lower tail (cdf underflows)
        close(sf[i]!, normalCdf(-zs[i]!, 0, 1), 1e-12);
        close(ls[i]!, normalLogCdf(-zs[i]!, 0, 1), 1e-10);
      });
      const ps = [1e-300, 1e-12, 0.1, 0.5, 0.9, 1 - 1e-12];
      arr(d.quantile(ps)).forEach((q, i) => close(Math.log(q), m + s * Z_OF_P[i]!, 1e-14)); // relative accuracy of q itself
      expect(Math.abs(normalQuantile(0.1, m, s) - Math.log(arr(d.quantile(0.1))[0]!))).toBeLessThan(1e-14 * Math.max(1, Math.abs(m)));
    }
    expect([logNormal(0, 1).batchShape, logNormal(0, 1).eventShape, logNormal([0, 1], 1).batchShape]).toEqual([[], [], [2]]);
  });

  it('Gamma∘Reciprocal matches @stdlib inverse gamma (a decreasing bijector: cdf ↔ survival, 1 − p)', () => {
    for (const [a, b] of [[3, 4], [0.5, 0.1], [20, 2]] as const) {
      const d = new TransformedDistribution({ distribution: new Gamma({ concentration: a, rate: b }), bijector: new Reciprocal() });
      const ys = [1e-3, 0.05, 0.3, 1, 2.5, 10, 300];
      const lp = arr(d.logProb(ys)), cdf = arr(d.cdf(ys)), sf = arr(d.survivalFunction(ys));
      ys.forEach((y, i) => {
        close(lp[i]!, invgammaLogPdf(y, a, b), 1e-11);
        close(cdf[i]!, invgammaCdf(y, a, b), 1e-11);
        close(sf[i]!, 1 - invgammaCdf(y, a, b), 1e-11);
      });
      const q = arr(d.quantile([0.05, 0.5, 0.95]));
      [0.05, 0.5, 0.95].forEach((p, i) => close(invgammaCdf(q[i]!, a, b), p, 1e-10));
    }
  });

  it('affine bijectors: cdf/quantile follow the sign of the scale per batch member; mean, mode, stddev, entropy', () => {
    const loc = [1, 2], scale = [3, 4];
    const g = new Chain({ bijectors: [new Shift({ shift: 5 }), new Scale({ scale: [-2, 0.5] })] });
    const d = new TransformedDistribution({ distribution: new Normal({ loc, scale }), bijector: g });
    const ref = [new Normal({ loc: 5 - 2 * loc[0]!, scale: 2 * scale[0]! }), new Normal({ loc: 5 + 0.5 * loc[1]!, scale: 0.5 * scale[1]! })];
    const ys = [[-40, 0.3], [4, 9], [70, -3]];
    const lp = arr(d.logProb(ys)), cdf = arr(d.cdf(ys)), lsf = arr(d.logSurvivalFunction(ys));
    ys.flat().forEach((y, i) => {
      const r = ref[i % 2]!;
      close(lp[i]!, r.logProb(y).item() as number, 1e-12);
      close(cdf[i]!, r.cdf(y).item() as number, 1e-12);
      close(lsf[i]!, r.logSurvivalFunction(y).item() as number, 1e-10);
    });
    const q = arr(d.quantile([[0.1, 0.1], [0.7, 0.7]]));
    q.forEach((v, i) => close(v, ref[i % 2]!.quantile([0.1, 0.7][i >> 1]!).item() as number, 1e-12));
    expect(arr(d.mean())).toEqual([5 - 2 * 1, 5 + 0.5 * 2]);
    expect(arr(d.mode())).toEqual([3, 6]);
    arr(d.stddev()).forEach((v, i) => close(v, [6, 2][i]!));
    arr(d.variance()).forEach((v, i) => close(v, [36, 4][i]!));
    arr(d.entropy()).forEach((v, i) => close(v, ref[i]!.entropy().item() as number));
    expect(() => logNormal(0, 1).mean()).toThrow(NotImplementedError);
    expect(() => logNormal(0, 1).entropy()).toThrow(/only implemented for constant-Jacobian/);
  });

  it('a bijector with batch-shaped parameters adds batch dims (sample, logProb, slicing refused)', () => {
    const d = new TransformedDistribution({ distribution: new Normal({ loc: 0, scale: 1 }), bijector: new Shift({ shift: [1, 2, 3] }) });
    expect(d.batchShape).toEqual([3]);
    arr(d.logProb(0.5)).forEach((v, i) => close(v, normalLogPdf(0.5, i + 1, 1)));
    const x = d.sample(4, { seed: 3 });
    expect(x.shape).toEqual([4, 3]);
    const z = arr(samplersNormal([4], { seed: 3 })); // the base batch is [], so one base draw per sample
    arr(x).forEach((v, i) => expect(v).toBe(z[Math.floor(i / 3)]! + ((i % 3) + 1)));
    expect(() => d.slice(0)).toThrow(NotImplementedError);
    const scaled = new TransformedDistribution({ distribution: new Normal({ loc: 0, scale: 1 }), bijector: new Scale({ scale: [1, 2] }) });
    expect(scaled.logProb(1).shape).toEqual([2]);
    close(arr(scaled.logProb(1))[1]!, normalLogPdf(1, 0, 2));
  });

  it('values outside the range of g: −∞ log density, cdf 0 or 1 (not NaN)', () => {
    const d = logNormal(0, 1);
    expect(arr(d.logProb([-1, 0, Infinity]))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(arr(d.cdf([-1, 0]))).toEqual([0, 0]);
    expect(arr(d.survivalFunction([-1, 0]))).toEqual([1, 1]);
    expect(arr(d.logCdf([-1]))).toEqual([-Infinity]);
    expect(Number.isNaN(d.logProb(NaN).item() as number)).toBe(true);
    const logitNormal = new TransformedDistribution({ distribution: new Normal({ loc: 0, scale: 1 }), bijector: new Sigmoid({ low: 1, high: 3 }) });
    expect(arr(logitNormal.cdf([0.5, 2, 3.5]))).toEqual([0, 0.5, 1]);
    expect(arr(logitNormal.logProb([0.5, 3.5]))).toEqual([-Infinity, -Infinity]);
  });

  it('draws are bijector.forward(base draw) with the seed as given', () => {
    const d = logNormal([1, -2], [0.5, 2]);
    const x = arr(d.sample(5, { seed: [1, 2] }));
    const z = arr(samplersNormal([5, 2], { seed: [1, 2] }));
    x.forEach((v, i) => expect(v).toBe(detExp(z[i]! * [0.5, 2][i % 2]! + [1, -2][i % 2]!)));
    expectSampleShapeInvariance(d);
  });

  it('draws fit the lognormal and the inverse gamma (KS)', () => {
    const x = logNormal([0.3, -5], [0.8, 3]).sample(20000, { seed: 17 });
    expectKS(column(x, 0, 2), (v) => lognormalCdf(v, 0.3, 0.8));
    const ig = new TransformedDistribution({ distribution: new Gamma({ concentration: 2.5, rate: 3 }), bijector: new Reciprocal() });
    expectKS(arr(ig.sample(20000, { seed: 18 })), (v) => invgammaCdf(v, 2.5, 3));
  });

  it('gradients w.r.t. the value and the base parameters (logProb, cdf, logSurvivalFunction, quantile)', () => {
    const make = (p: Record<string, Tensor>) => new TransformedDistribution({ distribution: new Normal({ loc: p.loc!, scale: p.scale! }), bijector: new Exp() });
    const params = { loc: [0.5, -1], scale: [1.3, 0.4] };
    for (const method of ['logProb', 'cdf', 'logSurvivalFunction'] as const) expectGradients(make, params, [[0.7, 2], [1.5, 0.2]], { method });
    expectGradients(make, params, [[0.1, 0.3], [0.8, 0.6]], { method: 'quantile' });
    const makeDown = (p: Record<string, Tensor>) => new TransformedDistribution({ distribution: new Gamma({ concentration: p.concentration!, rate: p.rate! }), bijector: new Reciprocal() });
    expectGradients(makeDown, { concentration: [2, 0.8], rate: 1.5 }, [0.3, 2], { method: 'logProb' });
    expectGradients(makeDown, { concentration: [2, 0.8], rate: 1.5 }, [0.3, 2], { method: 'cdf', tol: 1e-5 });
  });

  it('vector events: the log-det-Jacobian is summed over the event; cdf is refused', () => {
    const d = new TransformedDistribution({ distribution: new Independent({ distribution: new Normal({ loc: [[0, 1], [2, 3]], scale: 0.5 }), reinterpretedBatchNdims: 1 }), bijector: new Exp() });
    expect([d.batchShape, d.eventShape]).toEqual([[2], [2]]);
    const y = [[1, 2], [3, 4]];
    arr(d.logProb(y)).forEach((v, b) => close(v, lognormalLogPdf(y[b]![0]!, 2 * b, 0.5) + lognormalLogPdf(y[b]![1]!, 2 * b + 1, 0.5)));
    expect(() => d.cdf(y)).toThrow(/only implemented for scalar events/);
  });

  it('batch slicing, copy, event-space bijector, KL', () => {
    const d = logNormal([[1, 2, 3], [4, 5, 6]], 1);
    const s = d.slice(1, { start: 1 });
    expect(s.batchShape).toEqual([2]);
    expect(s.distribution.mean().toArray()).toEqual([5, 6]);
    expect(d.copy({ bijector: new Shift({ shift: 1 }) }).mean().toArray()).toEqual([[2, 3, 4], [5, 6, 7]]);
    const g = new TransformedDistribution({ distribution: new Gamma({ concentration: 2, rate: 1 }), bijector: new Exp() });
    const b = g.defaultEventSpaceBijector();
    close(b.forward(0.3).item() as number, Math.exp(new Softplus().forward(0.3).item() as number));
    const exp = new Exp();
    const p = new TransformedDistribution({ distribution: new Normal({ loc: 0, scale: 1 }), bijector: exp });
    const q = new TransformedDistribution({ distribution: new Normal({ loc: 1, scale: 2 }), bijector: exp });
    close(p.klDivergence(q).item() as number, p.distribution.klDivergence(q.distribution).item() as number);
    expect(() => p.klDivergence(logNormal(1, 2))).toThrow(NotImplementedError);
  });

  it('bad input: non-distributions, non-bijectors, values of the wrong shape', () => {
    expect(() => new TransformedDistribution({ distribution: {} as never, bijector: new Exp() })).toThrow(/TransformedDistribution: `distribution` must be a Distribution/);
    expect(() => new TransformedDistribution({ distribution: new Normal({ loc: 0, scale: 1 }), bijector: Math.exp as never })).toThrow(/`bijector` must be a Bijector; got a function/);
    expect(() => logNormal([0, 1], 1).logProb([1, 2, 3])).toThrow(/`value` \[3\] and `batchShape \+ eventShape` \[2\]/);
    expect(() => new TransformedDistribution({ distribution: new Normal({ loc: 0, scale: 1 }), bijector: new Exp({ validateArgs: true }) }).logProb(-1)).toThrow(RangeError);
  });
});
