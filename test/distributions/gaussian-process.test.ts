// GaussianProcess and the psdKernels (TFP's tfd.GaussianProcess and tfp.math.psd_kernels). Oracle:
// TFP on JAX (test/fixtures/tfp-jax/gaussian-process.py, x64): kernel matrices and apply values,
// log marginal likelihoods and their gradients (jax.grad) in amplitude, length scale and noise
// variance, moments, the Cholesky scale and draws for the same keys. Tolerances, each stated
// below, come from the one place the arithmetic differs: TFP sums squared distances as
// ‖x‖² + ‖y‖² − 2x·y, stochax as Σ(x − y)² (exact zeros on the diagonal), so kernel values differ
// in the last bits and the Cholesky factor, log density and draws inherit that, amplified at most
// by the matrix's condition number. Then: autodiff against finite differences, the compiled log
// density against the tape (bitwise), bad input, and NUTS on a GP regression with hyperpriors
// against quadrature of the same posterior on a grid.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  compileLogDensity, GaussianProcess, HalfNormal, MultivariateNormalTriL, NotImplementedError, psdKernels,
} from '../../distributions/index.js';
import { summary, windowedAdaptiveNuts } from '../../mcmc/index.js';
import { key } from '../../src/random/index.js';
import { mul, reshape, sub, tensor, valueAndGrad, type Tensor } from '../../src/index.js';
import { expectModelMatchesTape } from '../compile/model-tape.js';
import { gridMeans, regression, YS } from './gp-regression.js';

type Nested = number | Nested[];
interface KernelCase { kernel: string; params: Record<string, Nested>; x1: number[][]; x2: number[][]; matrix: number[][]; applyX2: number[][]; apply: Nested }
interface GpCase {
  kernel: string; amplitude: number; lengthScale: number; observationNoiseVariance: number; meanFn: boolean;
  indexPoints: number[][]; y: number[]; logProb: number; grad: number[]; mean: number[]; covariance: number[][]; variance: number[];
  stddev: number[]; scaleTril: number[][]; seed: number; sampleShape: number[]; sample: number[][];
}
const fixture = JSON.parse(readFileSync(new URL('../fixtures/tfp-jax/gaussian-process.json', import.meta.url), 'utf8')) as {
  kernels: KernelCase[]; gps: GpCase[];
  batch: { amplitude: number[]; lengthScale: number; observationNoiseVariance: number; indexPoints: number[][]; y: number[][]; logProb: number[]; seed: number; sample: number[][][] };
};

const K = psdKernels as unknown as Record<string, new (o: Record<string, unknown>) => psdKernels.PositiveSemidefiniteKernel>;
const flat = (t: Tensor) => Array.from(t.data as Float64Array);
const num = (t: Tensor) => t.item() as number;
/** max |a − b| / max(1, |b|) over the elements. */
function worst(got: readonly number[], want: readonly number[]): number {
  expect(got.length).toBe(want.length);
  return Math.max(0, ...got.map((g, i) => Math.abs(g - want[i]!) / Math.max(1, Math.abs(want[i]!))));
}
const meanFn = (x: Tensor) => sub(mul(0.5, reshape(x, [x.shape[0]!])), 0.1);
const gpOf = (c: GpCase) => new GaussianProcess({
  kernel: new K[c.kernel]!({ amplitude: c.amplitude, lengthScale: c.lengthScale }),
  indexPoints: c.indexPoints, observationNoiseVariance: c.observationNoiseVariance, ...(c.meanFn ? { meanFn } : {}),
});

describe('psdKernels against TFP on JAX', () => {
  // Σ(x − y)² against ‖x‖² + ‖y‖² − 2x·y: a difference of a few ulp of ‖x‖² in the squared
  // distance (observed ≤ 1e-15 relative). Matérn-½ at coincident 2-d points, where TFP gets a
  // squared distance of ~1e-16 instead of 0, has k = a²·exp(−√1e-16/ℓ): 1e-8 off (observed
  // 2.6e-8); the smoother Matérns are flat there (observed ≤ 1e-15).
  const TOL: Record<string, number> = { ExponentiatedQuadratic: 1e-15, MaternOneHalf: 1e-7, MaternThreeHalves: 1e-14, MaternFiveHalves: 1e-14 };
  for (const c of fixture.kernels) {
    const tol = TOL[c.kernel]!;
    it(`${c.kernel}(${JSON.stringify(c.params)}): matrix and apply (tolerance ${tol})`, () => {
      const k = new K[c.kernel]!(c.params);
      const m = k.matrix(c.x1, c.x2);
      expect(worst(flat(m), (c.matrix as Nested[]).flat(3) as number[])).toBeLessThanOrEqual(tol);
      const a = k.apply(c.x1, c.applyX2, { exampleNdims: 1 });
      expect(worst(flat(a), [c.apply].flat(3) as number[])).toBeLessThanOrEqual(1e-15);   // apply sums Σ(x − y)² as TFP does (observed ≤ 2.3e-16)
    });
  }

  it('matrix(x, x) has the kernel\'s variance a² on its diagonal, and apply broadcasts a batch of kernels', () => {
    for (const name of ['ExponentiatedQuadratic', 'MaternOneHalf', 'MaternThreeHalves', 'MaternFiveHalves']) {
      const k = new K[name]!({ amplitude: [0.5, 3], lengthScale: 0.7 });
      expect(k.batchShape).toEqual([2]);
      const m = k.matrix([[0.1], [2], [-3]], [[0.1], [2], [-3]]);
      expect(m.shape).toEqual([2, 3, 3]);
      const v = flat(m);
      // exp(2·log a), as TFP computes it: a² to 1 ulp.
      for (let b = 0; b < 2; b++) for (let i = 0; i < 3; i++) expect(Math.abs(v[b * 9 + i * 4]! - [0.25, 9][b]!)).toBeLessThanOrEqual(2e-16 * [0.25, 9][b]!);
    }
  });

  it('gradients in the points are finite (0 at coincident points, as TFP) and match finite differences elsewhere', () => {
    for (const name of ['MaternOneHalf', 'MaternThreeHalves', 'MaternFiveHalves', 'ExponentiatedQuadratic']) {
      const k = new K[name]!({ amplitude: 1.1, lengthScale: 0.8 });
      const x = tensor([[0], [0.4], [1.5]]);
      const [, g] = valueAndGrad((p: Tensor) => k.matrix(p, p).sum())(x) as [Tensor, Tensor];
      expect(flat(g).every(Number.isFinite), name).toBe(true);
      const h = 1e-6, xs = [0, 0.4, 1.5];
      const f = (i: number, d: number) => num(k.matrix(xs.map((v, j) => [j === i ? v + d : v]), xs.map((v, j) => [j === i ? v + d : v])).sum());
      xs.forEach((_, i) => expect(Math.abs(flat(g)[i]! - (f(i, h) - f(i, -h)) / (2 * h)), `${name} ∂/∂x${i}`).toBeLessThan(1e-6));
    }
  });
});

describe('GaussianProcess against TFP on JAX', () => {
  for (const c of fixture.gps) {
    const label = `${c.kernel}(a=${c.amplitude}, ℓ=${c.lengthScale}), σ²=${c.observationNoiseVariance}${c.meanFn ? ', meanFn' : ''}`;
    it(`${label}: logProb and its gradient, moments, Cholesky scale`, () => {
      const gp = gpOf(c);
      expect([gp.batchShape, gp.eventShape]).toEqual([[], [6]]);
      // The kernels' last-bit differences through the Cholesky factor of a matrix with condition
      // number up to ~1e5 at these points (EQ, σ² = 0): log density within 2e-12 relative
      // (observed 5.7e-13), gradient 1e-11 (observed 1.4e-12), Cholesky factor 1e-13 (1.2e-14).
      expect(Math.abs(num(gp.logProb(c.y)) - c.logProb)).toBeLessThanOrEqual(2e-12 * Math.abs(c.logProb));
      const lp = (a: Tensor, l: Tensor, s: Tensor) => new GaussianProcess({
        kernel: new K[c.kernel]!({ amplitude: a, lengthScale: l }), indexPoints: c.indexPoints, observationNoiseVariance: s, ...(c.meanFn ? { meanFn } : {}),
      }).logProb(c.y);
      const [, g] = valueAndGrad(lp, [0, 1, 2])(tensor(c.amplitude), tensor(c.lengthScale), tensor(c.observationNoiseVariance)) as [Tensor, Tensor[]];
      expect(worst(g.map(num), c.grad)).toBeLessThanOrEqual(1e-11);
      expect(worst(flat(gp.mean()), c.mean)).toBeLessThanOrEqual(1e-15);
      expect(worst(flat(gp.covariance()), c.covariance.flat())).toBeLessThanOrEqual(1e-15);
      expect(worst(flat(gp.variance()), c.variance)).toBeLessThanOrEqual(1e-15);
      expect(worst(flat(gp.stddev()), c.stddev)).toBeLessThanOrEqual(1e-15);
      expect(worst(flat(gp.getMarginalDistribution().scaleTril!), c.scaleTril.flat())).toBeLessThanOrEqual(1e-13);
    });

    it(`${label}: sample(${c.sampleShape}, key(${c.seed})) gives TFP's draws (1e-13: the Cholesky factor's difference; observed 2e-14)`, () => {
      const x = gpOf(c).sample(c.sampleShape, { seed: key(c.seed) });
      expect(x.shape).toEqual([3, 6]);
      expect(worst(flat(x), c.sample.flat())).toBeLessThanOrEqual(1e-13);
    });
  }

  it('a batch of kernels: batch shape, logProb per member, draws (as above)', () => {
    const b = fixture.batch;
    const gp = new GaussianProcess({
      kernel: new psdKernels.ExponentiatedQuadratic({ amplitude: b.amplitude, lengthScale: b.lengthScale }),
      indexPoints: b.indexPoints, observationNoiseVariance: b.observationNoiseVariance,
    });
    expect([gp.batchShape, gp.eventShape]).toEqual([[2], [4]]);
    expect(worst(flat(gp.logProb(b.y)), b.logProb)).toBeLessThanOrEqual(1e-12);
    const x = gp.sample(2, { seed: key(b.seed) });
    expect(x.shape).toEqual([2, 2, 4]);
    expect(worst(flat(x), b.sample.flat(2))).toBeLessThanOrEqual(1e-12);
  });

  it('is the MultivariateNormalTriL of its marginal: the same draws and densities bit for bit', () => {
    const gp = gpOf(fixture.gps[0]!);
    const m = gp.getMarginalDistribution();
    expect(m).toBeInstanceOf(MultivariateNormalTriL);
    expect(flat(gp.sample([2, 3], { seed: 5 }))).toEqual(flat(m.sample([2, 3], { seed: 5 })));
    expect(num(gp.logProb(fixture.gps[0]!.y))).toBe(num(m.logProb(fixture.gps[0]!.y)));
    expect(gp.defaultEventSpaceBijector().constructor.name).toBe('Identity');
  });
});

describe('GaussianProcess and kernels: bad input', () => {
  const kernel = new psdKernels.ExponentiatedQuadratic();
  it('names the function and the argument', () => {
    expect(() => new GaussianProcess({ indexPoints: [[0]] } as never)).toThrow(/GaussianProcess: `kernel` must be a positive-semidefinite kernel/);
    expect(() => new GaussianProcess({ kernel: new HalfNormal({ scale: 1 }), indexPoints: [[0]] } as never)).toThrow(TypeError);
    expect(() => new GaussianProcess({ kernel } as never)).toThrow(/GaussianProcess: `indexPoints` is required/);
    expect(() => new GaussianProcess({ kernel, indexPoints: [0, 1] })).toThrow(/GaussianProcess: `indexPoints` must have at least 2 dims/);
    expect(() => new GaussianProcess({ kernel, indexPoints: 'x' as never })).toThrow(TypeError);
    expect(() => new GaussianProcess({ kernel, indexPoints: [[0]], jitter: -1 })).toThrow(/GaussianProcess: `jitter` must be non-negative/);
    expect(() => new GaussianProcess({ kernel, indexPoints: [[0]], meanFn: 3 as never })).toThrow(/GaussianProcess: `meanFn` must be a function/);
    expect(() => new GaussianProcess({ kernel, indexPoints: [[0], [1]], meanFn: () => [1, 2, 3] })).toThrow(/GaussianProcess: `meanFn` must return \[\.\.\., N\]/);
    expect(() => new GaussianProcess({ kernel, indexPoints: [[0]], observationNoiseVariance: -1, validateArgs: true })).toThrow(/`observationNoiseVariance`/);
    expect(() => new GaussianProcess({ kernel, indexPoints: [[0]], index_points: [[0]] } as never)).toThrow(/GaussianProcess: unknown parameter `index_points`/);
    expect(() => new GaussianProcess({ kernel, indexPoints: [[0], [0]], jitter: 0 })).toThrow(/cholesky: `a` is not positive definite/);
    expect(() => gpOfSlice()).toThrow(NotImplementedError);
  });
  function gpOfSlice() { return new GaussianProcess({ kernel: new psdKernels.MaternOneHalf({ amplitude: [1, 2] }), indexPoints: [[0]] }).slice(0); }

  it('kernels check their options and points', () => {
    expect(() => new psdKernels.ExponentiatedQuadratic({ length_scale: 1 } as never)).toThrow(/ExponentiatedQuadratic: `options` has unknown option `length_scale`/);
    expect(() => new psdKernels.MaternOneHalf({ amplitude: 'a' as never })).toThrow(/MaternOneHalf: `amplitude`/);
    expect(() => new psdKernels.MaternThreeHalves({ lengthScale: -1, validateArgs: true })).toThrow(RangeError);
    expect(() => new psdKernels.MaternFiveHalves({ featureNdims: 1.5 })).toThrow(/MaternFiveHalves: `featureNdims`/);
    expect(() => kernel.matrix([0, 1], [[0]])).toThrow(/ExponentiatedQuadratic\.matrix: `x1` must have at least 2 dims/);
    expect(() => kernel.matrix([[0, 1]], [[0]])).toThrow(/ExponentiatedQuadratic\.matrix: `x2` has feature shape \[1\], but `x1`'s is \[2\]/);
    expect(() => kernel.apply([[0]], [[0]], { exampleNdim: 1 } as never)).toThrow(/ExponentiatedQuadratic\.apply: `options` has unknown option `exampleNdim`/);
    expect(() => kernel.apply([0], null as never)).toThrow(TypeError);
  });
});

// ---- GP regression with hyperpriors (the model and the quadrature oracle: gp-regression.ts) -------

describe('GP regression with amplitude and length-scale hyperpriors', () => {
  it('compiled log density = tape (bitwise) for the model', () => {
    expectModelMatchesTape(regression('ExponentiatedQuadratic'), { y: YS });
    expectModelMatchesTape(regression('MaternFiveHalves'), { y: YS });
    expect(compileLogDensity(regression('ExponentiatedQuadratic'), { pins: { y: YS } }).paramNames).toEqual(['lengthScale', 'amplitude']);
  });

  it('NUTS: posterior means agree with quadrature on a grid', () => {
    const want = gridMeans('ExponentiatedQuadratic');
    const { draws } = windowedAdaptiveNuts(regression('ExponentiatedQuadratic'), { pins: { y: YS }, seed: 11, nChains: 2, numAdaptationSteps: 300, nDraws: 500 });
    const s = summary(draws);
    for (const name of ['amplitude', 'lengthScale'] as const) {
      const r = s.get(name)!;
      expect(r.rHat, name).toBeLessThan(1.05);
      // Within 5 Monte Carlo standard errors (r.mcseMean, from the bulk ESS).
      expect(Math.abs(r.mean - want[name]), `${name}: NUTS ${r.mean} ± ${r.mcseMean}, quadrature ${want[name]}`).toBeLessThan(5 * r.mcseMean);
    }
  }, 60_000);
});
