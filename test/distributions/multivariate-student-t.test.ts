// MultivariateStudentTLinearOperator (TFP's class; the scale given as `scaleTril`): log densities
// against TFP on JAX and, independently, scipy.stats.multivariate_t.logpdf (fixtures/tfp-jax/
// log-prob.py → log-prob-x64.json; relative 1e-12 both); mean, variance, stddev, covariance and
// entropy against TFP (1e-12). Draws: TFP's seed structure assembled by hand from
// MultivariateNormalTriL and TFP's linear-space χ² (StudentT's) (bit for bit; TFP's own draws are in tfp-parity.test.ts), and a
// goodness of fit: the squared Mahalanobis distance / k ~ F(k, ν) and the first standardized
// coordinate ~ t(ν), KS at ALPHA = 1e-6 (n = 5000). Also gradients, shapes and bad input.
import fCdf from '@stdlib/stats-base-dists-f-cdf';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { describe, expect, it } from 'vitest';
import { MultivariateNormalTriL, MultivariateStudentTLinearOperator } from '../../distributions/index.js';
import { linearGamma } from '../../distributions/student-t.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { tfpLogProbFixture } from './tfp-log-prob-fixture.js';

interface Case {
  df: number | number[]; loc: number[]; scaleTril: number[][]; x: number[][];
  logProb: number[]; scipyLogProb: number[]; mean: number[]; variance: number[]; stddev: number[]; covariance: number[]; entropy: number[];
}
const cases = tfpLogProbFixture<Case[]>('multivariateStudentT');

const flat = (t: Tensor) => Array.from(t.data as ArrayLike<number>, Number);
const close = (a: number, b: number, rel: number, what = '') => {
  if (Object.is(a, b)) return;
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));
};

describe('MultivariateStudentTLinearOperator', () => {
  it('logProb matches TFP on JAX and scipy.stats.multivariate_t; moments and entropy match TFP', () => {
    for (const c of cases) {
      const d = new MultivariateStudentTLinearOperator({ df: c.df, loc: c.loc, scaleTril: c.scaleTril });
      const nb = d.batchShape.length, k = c.loc.length;
      const x = tensor(c.x).reshape([c.x.length, ...Array<number>(nb).fill(1), k]);
      const lp = flat(d.logProb(x));
      lp.forEach((v, i) => close(v, c.logProb[i]!, 1e-12, `TFP logProb[${i}]`));
      lp.forEach((v, i) => close(v, c.scipyLogProb[i]!, 1e-12, `scipy logProb[${i}]`));
      for (const m of ['mean', 'variance', 'stddev', 'covariance', 'entropy'] as const) {
        flat(d[m]()).forEach((v, i) => close(v, c[m][i]!, 1e-12, `${m}[${i}]`));
      }
    }
  });

  it('samples as TFP: salt "multivariate t" splits into a MultivariateNormalTriL draw and a χ² draw (TFP\'s linear-space random_gamma)', () => {
    const df = [1.5, 30], loc = [0, 1, -1], L = [[1, 0, 0], [0.5, 2, 0], [-0.3, 0.2, 0.7]];
    const x = flat(new MultivariateStudentTLinearOperator({ df, loc, scaleTril: L }).sample(4, { seed: [3, 4] }));
    const [sn, sc] = splitSeed([3, 4], { salt: 'multivariate t' });
    const z = flat(new MultivariateNormalTriL({ loc: [[0, 0, 0], [0, 0, 0]], scaleTril: L }).sample(4, { seed: sn }));
    const g = Array.from(linearGamma([4, 2], [1.5, 30, 1.5, 30, 1.5, 30, 1.5, 30], sc!, 'float64'));
    const want = z.map((v, i) => loc[i % 3]! + v * (1 / Math.sqrt(g[Math.floor(i / 3)]! / df[Math.floor(i / 3) % 2]!)));
    expect(x).toEqual(want);
    expectSampleShapeInvariance(new MultivariateStudentTLinearOperator({ df: [2, 5], scaleTril: L }));
    expect(new MultivariateStudentTLinearOperator({ df: tensor(3, 'float32'), loc: tensor([0, 1], 'float32') }).sample(2, { seed: 0 }).dtype).toBe('float32');
  });

  it('draws: Mahalanobis²/k ~ F(k, ν) and the first standardized coordinate ~ t(ν) (KS, n = 5000)', () => {
    for (const nu of [0.8, 4]) {
      const L = [[2, 0, 0], [0.5, 1, 0], [-0.3, 0.2, 0.7]], loc = [1, -2, 0.5];
      const x = flat(new MultivariateStudentTLinearOperator({ df: nu, loc, scaleTril: L }).sample(5000, { seed: 21 }));
      const f: number[] = [], t: number[] = [];
      for (let i = 0; i < x.length; i += 3) {
        const r = [x[i]! - loc[0]!, x[i + 1]! - loc[1]!, x[i + 2]! - loc[2]!];
        const z0 = r[0]! / 2, z1 = (r[1]! - 0.5 * z0) / 1, z2 = (r[2]! + 0.3 * z0 - 0.2 * z1) / 0.7;
        f.push((z0 * z0 + z1 * z1 + z2 * z2) / 3);
        t.push(z0);
      }
      expectKS(f, (v) => fCdf(v, 3, nu), `F(3, ${nu})`);
      expectKS(t, (v) => tCdf(v, nu), `t(${nu})`);
    }
  }, 30_000);

  it('logProb gradients in the value, df, loc and scaleTril match finite differences', () => {
    const make = (p: Record<string, Tensor>) => new MultivariateStudentTLinearOperator({ df: p.df!, loc: p.loc!, scaleTril: p.scaleTril! });
    expectGradients(make, { df: [0.7, 3, 40], loc: [1, -2], scaleTril: [[1.5, 0], [0.4, 0.8]] }, [[0.3, 2], [-1, -1], [5, 0.1]]);
    expectGradients(make, { df: 1e6, loc: [1, -2], scaleTril: [[1.5, 0], [0.4, 0.8]] }, [0.3, 2], { only: ['loc', 'scaleTril'] });
  });

  it('shapes, defaults, the identity scale and the event-space bijector', () => {
    const d = new MultivariateStudentTLinearOperator({ df: [1, 2, 3], loc: [[[0, 0]], [[1, 1]]] });
    expect(d.batchShape).toEqual([2, 3]);
    expect(d.eventShape).toEqual([2]);
    expect(d.logProb([0, 0]).shape).toEqual([2, 3]);
    // k = 1 with the identity scale is StudentT(ν, μ, 1).
    const one = flat(new MultivariateStudentTLinearOperator({ df: 3, loc: [0.5] }).logProb([[2], [-1]]));
    const t = (v: number) => Math.log(2 / (Math.PI * Math.sqrt(3))) - 2 * Math.log1p((v - 0.5) ** 2 / 3);
    close(one[0]!, t(2), 1e-14);
    close(one[1]!, t(-1), 1e-14);
    const m = flat(new MultivariateStudentTLinearOperator({ df: [0.5, 1.5, 3], loc: [1, 2] }).mean());
    expect(m.slice(0, 2).every(Number.isNaN)).toBe(true);
    expect(m.slice(2)).toEqual([1, 2, 1, 2]);
    expect(flat(new MultivariateStudentTLinearOperator({ df: 1.5, loc: [1, 2] }).variance())).toEqual([Infinity, Infinity]);
    expect(flat(new MultivariateStudentTLinearOperator({ df: 3, scaleTril: [[1, 9], [0.5, 2]] }).covariance())).toEqual([3, 1.5, 1.5, 12.75]);
    const b = new MultivariateStudentTLinearOperator({ df: 3, loc: [1, 2] }).defaultEventSpaceBijector();
    expect(flat(b.forward([0.3, -4]))).toEqual([0.3, -4]);
  });

  it('bad input names the class and the argument', () => {
    const C = 'MultivariateStudentTLinearOperator';
    expect(() => new MultivariateStudentTLinearOperator({ df: 3 })).toThrow(new RegExp(`${C}: \`loc\` or \`scaleTril\` must be given`));
    expect(() => new MultivariateStudentTLinearOperator({ loc: [0, 0] } as never)).toThrow(new RegExp(`${C}: \`df\` is required`));
    expect(() => new MultivariateStudentTLinearOperator({ df: 3, loc: [0, 0], scale: [[1, 0], [0, 1]] } as never)).toThrow(new RegExp(`${C}: unknown parameter \`scale\``));
    expect(() => new MultivariateStudentTLinearOperator({ df: 3, scaleTril: [[1, 0, 0], [0, 1, 0]] })).toThrow(new RegExp(`${C}: \`scaleTril\` must be square`));
    expect(() => new MultivariateStudentTLinearOperator({ df: 3, loc: [0, 0, 0], scaleTril: [[1, 0], [0, 1]] })).toThrow(new RegExp(`${C}: \`loc\` has event size 3`));
    expect(() => new MultivariateStudentTLinearOperator({ df: [1, 2, 3], loc: [[0, 0], [1, 1]] })).toThrow(RangeError);
    expect(() => new MultivariateStudentTLinearOperator({ df: 0, loc: [0, 0], validateArgs: true })).toThrow(new RegExp(`${C}: \`df\` must be positive`));
    expect(() => new MultivariateStudentTLinearOperator({ df: 3, scaleTril: [[1, 0], [0, -1]], validateArgs: true })).toThrow(/must have a positive diagonal/);
    expect(() => new MultivariateStudentTLinearOperator({ df: 3, loc: [0, 0] }).logProb([0, 0, 0])).toThrow(RangeError);
  });
});
