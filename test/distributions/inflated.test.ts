// Inflated (TFP's tfd.Inflated): log densities, log cdfs, means and standard deviations against
// TFP on JAX for discrete (Poisson, NegativeBinomial) and continuous (Normal, Gamma: TFP's
// "censored" form) distributions, weights as probabilities and as logits (π = σ(2l), TFP's
// Categorical(logits=[l, −l])), and TFP's draws from the same keys (fixtures/tfp-jax/log-prob.py
// → log-prob-x64.json; values relative 1e-12, draws: integers equal, floats relative 1e-12 (a
// Gamma draw goes through log/exp, whose last bit XLA and src/math may round differently)). Also
// the zero-inflated Poisson's mass in closed form, a chi-square fit of its draws (n = 20000,
// ALPHA = 1e-6), gradients, slicing and bad input.
import { describe, expect, it } from 'vitest';
import {
  Categorical, Distribution, Gamma, Inflated, MultivariateNormalDiag, NegativeBinomial, Normal, Poisson,
} from '../../distributions/index.js';
import { key } from '../../src/random/index.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { expectChiSquare, expectGradients, expectSampleShapeInvariance } from './harness.js';
import { tfpLogProbFixture } from './tfp-log-prob-fixture.js';

interface Case {
  distribution: string; params: Record<string, number | number[]>; inflated: Record<string, number | number[]>; x: number[];
  logProb: number[]; logCdf?: number[]; mean: number[]; stddev: number[];
  draws: { seed: number; sampleShape: number[]; shape: number[]; values: number[] }[];
}
const cases = tfpLogProbFixture<Case[]>('inflated');

const MAKE: Record<string, (p: Record<string, number | number[]>) => Distribution> = {
  Poisson: (p) => new Poisson({ rate: p.rate! }),
  NegativeBinomial: (p) => new NegativeBinomial({ totalCount: p.totalCount!, probs: p.probs! }),
  Normal: (p) => new Normal({ loc: p.loc!, scale: p.scale! }),
  Gamma: (p) => new Gamma({ concentration: p.concentration!, rate: p.rate! }),
};
const build = (c: Case) => new Inflated({ distribution: MAKE[c.distribution]!(c.params), ...c.inflated });

const flat = (t: Tensor) => Array.from(t.data as ArrayLike<number>, Number);
const close = (a: number, b: number, rel: number, what = '') => {
  if (Object.is(a, b)) return;
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));
};

describe('Inflated', () => {
  it('logProb, logCdf, mean and stddev match TFP on JAX (discrete mixture and continuous censored forms)', () => {
    for (const c of cases) {
      const d = build(c), nb = d.batchShape.length;
      const x = tensor(c.x).reshape([c.x.length, ...Array<number>(nb).fill(1)]);
      const what = `${c.distribution} ${JSON.stringify(c.inflated)}`;
      const discrete = c.distribution === 'Poisson' || c.distribution === 'NegativeBinomial';
      const per = d.batchShape.reduce((p, q) => p * q, 1);
      flat(d.logProb(x)).forEach((v, i) => {
        // TFP's Gamma gives NaN below 0, and TFP's Poisson and NegativeBinomial a continuation at
        // non-integers, where stochax's give −∞ (off the support).
        const xi = c.x[Math.floor(i / per)]!;
        if (Number.isNaN(c.logProb[i]!) || (discrete && !Number.isInteger(xi))) expect(v, `${what} logProb[${i}]`).toBe(-Infinity);
        else close(v, c.logProb[i]!, 1e-12, `${what} logProb[${i}]`);
      });
      if (c.logCdf) {
        flat(d.logCdf(x)).forEach((v, i) => {
          if (Number.isNaN(c.logCdf![i]!)) expect(v, `${what} logCdf[${i}]`).toBe(-Infinity);
          else close(v, c.logCdf![i]!, 1e-12, `${what} logCdf[${i}]`);
        });
      }
      flat(d.mean()).forEach((v, i) => close(v, c.mean[i]!, 1e-12, `${what} mean[${i}]`));
      flat(d.stddev()).forEach((v, i) => close(v, c.stddev[i]!, 1e-12, `${what} stddev[${i}]`));
    }
  });

  it('samples TFP on JAX\'s draws from the same key (Mixture salt, Categorical class, the distribution\'s own draw)', () => {
    for (const c of cases) {
      for (const dr of c.draws) {
        const x = build(c).sample(dr.sampleShape, { seed: key(dr.seed) });
        expect(x.shape).toEqual(dr.shape);
        flat(x).forEach((v, i) => close(v, dr.values[i]!, 1e-12, `${c.distribution} seed ${dr.seed} [${i}]`));
      }
    }
    expectSampleShapeInvariance(new Inflated({ distribution: new Poisson({ rate: [1, 4] }), inflatedLocLogits: 0.3 }));
  });

  it('the zero-inflated Poisson in closed form; its draws fit (chi-square); logits are TFP\'s half log-odds', () => {
    const pi = 0.3, lam = 2.5;
    const d = new Inflated({ distribution: new Poisson({ rate: lam }), inflatedLocProbs: pi });
    const fact = (k: number): number => (k <= 1 ? 1 : k * fact(k - 1));
    const pmf = (k: number) => (k === 0 ? pi : 0) + (1 - pi) * Math.exp(-lam) * lam ** k / fact(k);
    flat(d.prob([0, 1, 2, 5])).forEach((v, i) => close(v, pmf([0, 1, 2, 5][i]!), 1e-14));
    expectChiSquare(flat(d.sample(20000, { seed: 5 })), pmf, 9, 'ZIP');
    // inflatedLocLogits l gives π = softmax([l, −l])₀ = σ(2l).
    const l = 0.4, pl = 1 / (1 + Math.exp(-2 * l));
    close(new Inflated({ distribution: new Poisson({ rate: lam }), inflatedLocLogits: l }).prob(0).item() as number, pl + (1 - pl) * Math.exp(-lam), 1e-14);
    // Continuous: the point carries probability π; elsewhere (1 − π)·density.
    const s = new Inflated({ distribution: new Normal({ loc: 1, scale: 2 }), inflatedLocProbs: 0.25, inflatedLoc: 0.5 });
    close(s.logProb(0.5).item() as number, Math.log(0.25), 1e-15);
    close(s.logProb(3).item() as number, Math.log(0.75) - 0.5 * Math.log(2 * Math.PI) - Math.log(2) - 0.5, 1e-14);
    // Tolerances: atol + rtol·|loc|.
    const t = new Inflated({ distribution: new Poisson({ rate: lam }), inflatedLocProbs: pi, inflatedLoc: 2, inflatedLocAtol: 0.1, inflatedLocRtol: 0.1 });
    flat(t.prob([2.25, 2.35])).forEach((v, i) => close(v, [pi, 0][i]!, 1e-15, 'within the slack'));
    close(flat(t.cdf([1, 2]))[1]!, pi + (1 - pi) * [0, 1, 2].reduce((a, k) => a + Math.exp(-lam) * lam ** k / fact(k), 0), 1e-14);
  }, 30_000);

  it('gradients of logProb in the weight, the point and the distribution\'s parameters', () => {
    const zip = (p: Record<string, Tensor>) => new Inflated({ distribution: new Poisson({ rate: p.rate! }), inflatedLocProbs: p.p! });
    expectGradients(zip, { p: [0.2, 0.6], rate: [1.5, 4] }, [[0, 3], [1, 0]], { skipValue: true });
    const zl = (p: Record<string, Tensor>) => new Inflated({ distribution: new Poisson({ rate: p.rate! }), inflatedLocLogits: p.l! });
    expectGradients(zl, { l: [-0.5, 1.2], rate: [1.5, 4] }, [[0, 3], [1, 0]], { skipValue: true });
    const spike = (p: Record<string, Tensor>) => new Inflated({ distribution: new Normal({ loc: p.m!, scale: p.s! }), inflatedLocProbs: p.p! });
    expectGradients(spike, { p: [0.2, 0.6], m: [0.3, -1], s: [1.5, 0.7] }, [[0.4, -2], [1, 0.5]]);
    // At the point the density's gradient is not used (TFP's safe value): finite and zero in its parameters.
    const g = new Inflated({ distribution: new Gamma({ concentration: tensor([3]), rate: 1 }), inflatedLocProbs: 0.5 });
    expect(flat(g.logProb([0]))).toEqual([Math.log(0.5)]);
    expectGradients((p) => new Inflated({ distribution: new Gamma({ concentration: p.c!, rate: 1 }), inflatedLocProbs: 0.5 }), { c: [0.5, 3] }, [0, 0], { skipValue: true });
  });

  it('shapes, slicing, copy and statistics', () => {
    const d = new Inflated({ distribution: new Poisson({ rate: [[1, 2, 3], [4, 5, 6]] }), inflatedLocProbs: [0.1, 0.2, 0.3] });
    expect(d.batchShape).toEqual([2, 3]);
    expect(d.eventShape).toEqual([]);
    expect(d.dtype).toBe('float64');
    expect(d.logProb(0).shape).toEqual([2, 3]);
    const s = d.slice(1, { start: 1 });
    expect(s.batchShape).toEqual([2]);
    flat(s.prob(0)).forEach((v, i) => close(v, [0.2, 0.3][i]! + (1 - [0.2, 0.3][i]!) * Math.exp(-[5, 6][i]!), 1e-14));
    expect(d.copy({ inflatedLocProbs: 0.5 }).inflatedLocProbs!.item()).toBe(0.5);
    flat(d.mean()).forEach((v, i) => close(v, (1 - [0.1, 0.2, 0.3][i % 3]!) * (i + 1), 1e-14));
    expect(() => d.defaultEventSpaceBijector()).toThrow(/not implemented/);
  });

  it('bad input names the class and the argument', () => {
    const pois = new Poisson({ rate: [1, 2] });
    expect(() => new Inflated({ distribution: pois } as never)).toThrow(/Inflated: `inflatedLocLogits` or `inflatedLocProbs` must be given, but not both/);
    expect(() => new Inflated({ distribution: pois, inflatedLocLogits: 0, inflatedLocProbs: 0.5 })).toThrow(TypeError);
    expect(() => new Inflated({ distribution: {} as never, inflatedLocProbs: 0.5 })).toThrow(/Inflated: `distribution` must be a Distribution/);
    expect(() => new Inflated({ distribution: new MultivariateNormalDiag({ scaleDiag: [1, 2] }), inflatedLocProbs: 0.5 })).toThrow(/Inflated: `distribution` must have scalar events/);
    expect(() => new Inflated({ distribution: new Categorical({ logits: [0, 1] }), inflatedLocProbs: 0.5 })).toThrow(/Inflated: `distribution` must have a float dtype/);
    expect(() => new Inflated({ distribution: pois, inflatedLocProbs: [0.1, 0.2, 0.3] })).toThrow(RangeError);
    expect(() => new Inflated({ distribution: new Poisson({ rate: 1 }), inflatedLocProbs: [0.1, 0.2] })).toThrow(/Inflated: `inflatedLocProbs` must broadcast to `distribution.batchShape` \[\]/);
    expect(() => new Inflated({ distribution: pois, inflatedLocProbs: 1.5, validateArgs: true })).toThrow(/Inflated: `inflatedLocProbs` must be in \[0, 1\]/);
    expect(() => new Inflated({ distribution: pois, inflatedLocProbs: 0.5, inflatedLocAtol: -1, validateArgs: true })).toThrow(/`inflatedLocAtol` must be non-negative/);
    expect(() => new Inflated({ distribution: pois, inflatedLocProb: 0.5 } as never)).toThrow(/Inflated: unknown parameter `inflatedLocProb`/);
  });
});
