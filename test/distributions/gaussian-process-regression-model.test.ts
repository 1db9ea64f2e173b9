// GaussianProcessRegressionModel (TFP's tfd.GaussianProcessRegressionModel). Oracles: TFP on JAX
// itself (test/fixtures/tfp-jax/gprm.py, x64): mean, variance, stddev, covariance, the marginal's
// Cholesky scale, entropy, logProb and seeded draws for the four kernels, 1-D and 2-D points,
// default and given noise variances, jitter and mean functions, and batches; and the closed form in
// numpy/scipy (test/fixtures/gprm/generate.py, with TFP's jitter placement): predictive mean,
// covariance and logProb for ExponentiatedQuadratic and Matérn kernels, with and without
// observation noise, with a meanFn, 1-D and 2-D features. Then: no observations equals the prior
// GaussianProcess, draws' moments against the predictive, reproducibility, and bad input.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GaussianProcess, GaussianProcessRegressionModel, HalfNormal, JointDistributionNamed, psdKernels } from '../../distributions/index.js';
import { add, matmul, mul, tensor, valueAndGrad, zeros, type Tensor } from '../../src/index.js';
import { key } from '../../src/random/index.js';
import { expectModelMatchesTape } from '../compile/model-tape.js';

interface Case {
  kernel: string; amplitude: number; lengthScale: number; indexPoints: number[][]; observationIndexPoints: number[][];
  observations: number[]; observationNoiseVariance: number; predictiveNoiseVariance: number | null; meanFn: boolean;
  mean: number[]; covariance: number[][]; y: number[][]; logProb: number[];
}
const fixture = JSON.parse(readFileSync(new URL('../fixtures/gprm/values.json', import.meta.url), 'utf8')) as { jitter: number; cases: Case[] };

const K = psdKernels as unknown as Record<string, new (o: Record<string, unknown>) => psdKernels.PositiveSemidefiniteKernel>;
const flat = (t: Tensor) => Array.from(t.data as Float64Array);
/** 0.5·x[..., 0] − 0.2, as in generate.py. */
const meanFn = (x: Tensor) => add(mul(0.5, matmul(x, Array.from({ length: x.shape[x.ndim - 1]! }, (_, i) => (i === 0 ? 1 : 0)))), -0.2);
/** max |a − b| / max(1, |b|). */
function worst(got: readonly number[], want: readonly number[]): number {
  expect(got.length).toBe(want.length);
  return Math.max(0, ...got.map((g, i) => Math.abs(g - want[i]!) / Math.max(1, Math.abs(want[i]!))));
}
function build(c: Case): GaussianProcessRegressionModel {
  return new GaussianProcessRegressionModel({
    kernel: new K[c.kernel]!({ amplitude: c.amplitude, lengthScale: c.lengthScale }),
    indexPoints: c.indexPoints, observationIndexPoints: c.observationIndexPoints, observations: c.observations,
    observationNoiseVariance: c.observationNoiseVariance,
    ...(c.predictiveNoiseVariance === null ? {} : { predictiveNoiseVariance: c.predictiveNoiseVariance }),
    ...(c.meanFn ? { meanFn } : {}),
  });
}

describe('GaussianProcessRegressionModel: closed form (numpy)', () => {
  // Same formulas in a different order of floating-point operations. Measured: mean and covariance
  // within 1e-15, logProb within 7e-14 (the noiseless Matérn-3/2 case, its divisor conditioned
  // only by the 1e-6 jitter); bounds 1e-12 and 1e-11.
  for (const [i, c] of fixture.cases.entries()) {
    const label = `${c.kernel}, σ²=${c.observationNoiseVariance}, σ*²=${c.predictiveNoiseVariance ?? 'default'}${c.meanFn ? ', meanFn' : ''} (#${i})`;
    it(label, () => {
      const d = build(c);
      expect(d.eventShape).toEqual([c.indexPoints.length]);
      expect(d.batchShape).toEqual([]);
      expect(worst(flat(d.mean()), c.mean)).toBeLessThan(1e-12);
      expect(worst(flat(d.covariance()), c.covariance.flat())).toBeLessThan(1e-12);
      expect(worst(flat(d.variance()), c.covariance.map((r, j) => r[j]!))).toBeLessThan(1e-12);
      expect(worst(flat(d.stddev()), c.covariance.map((r, j) => Math.sqrt(r[j]!)))).toBeLessThan(1e-12);
      expect(worst(flat(d.logProb(c.y)), c.logProb)).toBeLessThan(1e-11);
    });
  }
});

type Nested = number | Nested[];
/** A case of gprm.py: the model's arguments (null = left out, TFP's default) and TFP's values. */
interface TfpCase {
  kernel: string; amplitude: Nested; lengthScale: number; observationNoiseVariance: Nested | null; predictiveNoiseVariance: number | null;
  jitter: number | null; meanFn: 'constant' | 'linear' | null; indexPoints: number[][]; observationIndexPoints: Nested; observations: Nested;
  values: Nested; batchShape: number[]; eventShape: number[]; mean: Nested; variance: Nested; stddev: Nested; covariance: Nested;
  scaleTril: Nested; entropy: Nested; logProb: Nested; draws: { seed: number; sample: Nested; sample3: Nested }[];
}
const tfpFixture = JSON.parse(readFileSync(new URL('../fixtures/tfp-jax/gprm.json', import.meta.url), 'utf8')) as { cases: TfpCase[]; batch: TfpCase[] };
const all = (v: Nested) => [v].flat(6) as number[];
/** gprm.py's mean functions, with the same arithmetic: 0.3, and 0.5·x₀ − 0.2 (meanFn above). */
const TFP_MEANS = { constant: () => 0.3, linear: meanFn };
function buildTfp(c: TfpCase): GaussianProcessRegressionModel {
  return new GaussianProcessRegressionModel({
    kernel: new K[c.kernel]!({ amplitude: c.amplitude, lengthScale: c.lengthScale }),
    indexPoints: c.indexPoints, observationIndexPoints: c.observationIndexPoints, observations: c.observations,
    ...(c.observationNoiseVariance === null ? {} : { observationNoiseVariance: c.observationNoiseVariance }),
    ...(c.predictiveNoiseVariance === null ? {} : { predictiveNoiseVariance: c.predictiveNoiseVariance }),
    ...(c.jitter === null ? {} : { jitter: c.jitter }),
    ...(c.meanFn === null ? {} : { meanFn: TFP_MEANS[c.meanFn] }),
  });
}

describe('GaussianProcessRegressionModel against TFP on JAX (test/fixtures/tfp-jax/gprm.json)', () => {
  // The same construction as TFP's (a Schur-complement kernel over cholesky(Kₒₒ + σ²I + jitter·I),
  // the marginal factored as cholesky(cov + jitter·I), draws loc + L·z from the same normals);
  // only the order of floating-point operations differs (TFP's matvecs and reduce_sum against
  // stochax's triangular solves and matmul). Measured (|a − b| / max(1, |b|), over all cases and
  // batches): mean, variance, stddev, covariance and Cholesky scale ≤ 5.6e-15, entropy ≤ 7.1e-15,
  // logProb ≤ 1.9e-14 (3.6e-13 absolute on a log density of −18.5), draws ≤ 6.2e-15.
  //
  // One exception: Matérn-½ with 2-D points. TFP sums squared distances as ‖x‖² + ‖y‖² − 2x·y, so
  // at coincident 2-D points (the diagonals of Kₒₒ and K**) it gets ~1e-15 instead of 0 and, Matérn-½
  // having a kink at 0, a² ·exp(−√1e-15/ℓ): up to 5.1e-8 below a² here (gaussian-process.test.ts
  // shows the same in the kernel matrix). stochax's Σ(x − y)² is exactly 0 there and its mean
  // agrees with a numpy closed form with exact distances to 4e-16; against TFP: mean 1.2e-9, covariance, variance,
  // stddev and scale 2.7e-10, logProb and entropy 4.2e-10, draws 1.6e-9.
  const TOL = { moments: 5e-14, density: 2e-13, draws: 5e-14 };
  const TOL_M12_2D = 1e-8;
  const cases = [...tfpFixture.cases.map((c, i) => [`#${i}`, c] as const), ...tfpFixture.batch.map((c, i) => [`batch #${i}`, c] as const)];
  for (const [id, c] of cases) {
    const f = c.indexPoints[0]!.length;   // gprm.py's index points are [N, F] in every case (batches are elsewhere)
    const m12 = c.kernel === 'MaternOneHalf' && f === 2;
    const tol = m12 ? { moments: TOL_M12_2D, density: TOL_M12_2D, draws: TOL_M12_2D } : TOL;
    const label = `${id} ${c.kernel}, ${f}-D points, σ²=${c.observationNoiseVariance === null ? 'default (0)' : JSON.stringify(c.observationNoiseVariance)}, σ*²=${c.predictiveNoiseVariance ?? 'default'}, ` +
      `jitter=${c.jitter ?? 'default'}${c.meanFn ? `, ${c.meanFn} mean` : ''}${c.batchShape.length ? `, batch [${c.batchShape.join(', ')}]` : ''}`;
    it(`${label}: moments, Cholesky scale, entropy, logProb (tolerances ${tol.moments}, ${tol.density})`, () => {
      const d = buildTfp(c);
      expect([d.batchShape, d.eventShape]).toEqual([c.batchShape, c.eventShape]);
      expect(worst(flat(d.mean()), all(c.mean)), 'mean').toBeLessThanOrEqual(tol.moments);
      expect(worst(flat(d.variance()), all(c.variance)), 'variance').toBeLessThanOrEqual(tol.moments);
      expect(worst(flat(d.stddev()), all(c.stddev)), 'stddev').toBeLessThanOrEqual(tol.moments);
      expect(worst(flat(d.covariance()), all(c.covariance)), 'covariance').toBeLessThanOrEqual(tol.moments);
      expect(worst(flat(d.getMarginalDistribution().scaleTril!), all(c.scaleTril)), 'scaleTril').toBeLessThanOrEqual(tol.moments);
      expect(worst(flat(d.entropy()), all(c.entropy)), 'entropy').toBeLessThanOrEqual(tol.density);
      expect(worst(flat(d.logProb(c.values)), all(c.logProb)), 'logProb').toBeLessThanOrEqual(tol.density);
    });
    it(`${label}: sample() and sample(3) from key(${c.draws.map((r) => r.seed).join('), key(')}) are TFP's draws (tolerance ${tol.draws})`, () => {
      const d = buildTfp(c);
      for (const r of c.draws) {
        const one = d.sample([], { seed: key(r.seed) }), three = d.sample(3, { seed: key(r.seed) });
        expect(one.shape).toEqual([...c.batchShape, ...c.eventShape]);
        expect(three.shape).toEqual([3, ...c.batchShape, ...c.eventShape]);
        expect(worst(flat(one), all(r.sample)), `sample(), key(${r.seed})`).toBeLessThanOrEqual(tol.draws);
        expect(worst(flat(three), all(r.sample3)), `sample(3), key(${r.seed})`).toBeLessThanOrEqual(tol.draws);
      }
    });
  }
});

describe('GaussianProcessRegressionModel: structure', () => {
  const kernel = new psdKernels.ExponentiatedQuadratic({ amplitude: 1.3, lengthScale: 0.7 });
  const indexPoints = [[-0.8], [0], [0.65], [2]];

  it('without observations is the prior GaussianProcess (bitwise)', () => {
    const prior = new GaussianProcess({ kernel, indexPoints, meanFn, observationNoiseVariance: 0.05 });
    // omitted, and TFP's empty conditioning set ([0, F] points, [0] observations)
    for (const obs of [{}, { observationIndexPoints: zeros([0, 1]), observations: [] as number[] }]) {
      const d = new GaussianProcessRegressionModel({ kernel, indexPoints, meanFn, observationNoiseVariance: 0.05, ...obs });
      expect(flat(d.mean())).toEqual(flat(prior.mean()));
      expect(flat(d.covariance())).toEqual(flat(prior.covariance()));
      expect(flat(d.logProb([0.1, 0.2, 1, 0]))).toEqual(flat(prior.logProb([0.1, 0.2, 1, 0])));
      expect(flat(d.sample(3, { seed: 4 }))).toEqual(flat(prior.sample(3, { seed: 4 })));
    }
  });

  it('draws: sample mean and covariance match the predictive (n = 20000, 5σ bounds)', () => {
    const c = fixture.cases[0]!;
    const d = build(c);
    const n = 20000, s = d.sample(n, { seed: 11 });
    expect(s.shape).toEqual([n, 4]);
    const x = flat(s), p = 4;
    const mu = Array.from({ length: p }, (_, j) => x.filter((_, k) => k % p === j).reduce((a, b) => a + b, 0) / n);
    for (let j = 0; j < p; j++) {
      // the sample mean's sd is √(Σⱼⱼ/n); 5 sd: false-failure rate < 1e-6 per coordinate.
      expect(Math.abs(mu[j]! - c.mean[j]!)).toBeLessThan(5 * Math.sqrt(c.covariance[j]![j]! / n));
      for (let k = 0; k <= j; k++) {
        let acc = 0;
        for (let r = 0; r < n; r++) acc += (x[r * p + j]! - mu[j]!) * (x[r * p + k]! - mu[k]!);
        const sjk = c.covariance[j]![k]!, sjj = c.covariance[j]![j]!, skk = c.covariance[k]![k]!;
        // Var of a sample covariance ≈ (ΣjjΣkk + Σjk²)/n for a normal; 5 sd bound.
        expect(Math.abs(acc / (n - 1) - sjk)).toBeLessThan(5 * Math.sqrt((sjj * skk + sjk * sjk) / n));
      }
    }
    // reproducible from the seed
    expect(flat(d.sample(5, { seed: 11 }))).toEqual(flat(d.sample(5, { seed: 11 })));
  });

  it('batches over the kernel parameters', () => {
    const c = fixture.cases[0]!;
    const d = new GaussianProcessRegressionModel({
      kernel: new psdKernels.ExponentiatedQuadratic({ amplitude: [1.3, 0.5], lengthScale: 0.7 }),
      indexPoints: c.indexPoints, observationIndexPoints: c.observationIndexPoints, observations: c.observations,
      observationNoiseVariance: 0.05,
    });
    expect(d.batchShape).toEqual([2]);
    expect(d.sample(3, { seed: 1 }).shape).toEqual([3, 2, 4]);
    expect(worst(flat(d.mean()).slice(0, 4), c.mean)).toBeLessThan(1e-12);
    expect(worst(flat(d.logProb(c.y[0]!)).slice(0, 1), c.logProb.slice(0, 1))).toBeLessThan(1e-12);
  });

  it('batches over observations and noise variances (each member equals its unbatched model)', () => {
    const c = fixture.cases[0]!, y2 = c.observations.map((v) => 2 * v - 0.1);
    const d = new GaussianProcessRegressionModel({
      kernel: new psdKernels.ExponentiatedQuadratic({ amplitude: 1.3, lengthScale: 0.7 }),
      indexPoints: c.indexPoints, observationIndexPoints: c.observationIndexPoints, observations: [c.observations, y2],
      observationNoiseVariance: [[0.05], [0.2]],
    });
    expect(d.batchShape).toEqual([2, 2]);
    expect(d.covariance().shape).toEqual([2, 2, 4, 4]);
    const one = (y: number[], s2: number) => new GaussianProcessRegressionModel({
      kernel: new psdKernels.ExponentiatedQuadratic({ amplitude: 1.3, lengthScale: 0.7 }),
      indexPoints: c.indexPoints, observationIndexPoints: c.observationIndexPoints, observations: y, observationNoiseVariance: s2,
    });
    const m = flat(d.mean()), v = flat(d.variance()), lp = flat(d.logProb(c.y[1]!));
    [[0.05, c.observations], [0.05, y2], [0.2, c.observations], [0.2, y2]].forEach(([s2, y], i) => {
      const u = one(y as number[], s2 as number);
      expect(worst(m.slice(4 * i, 4 * i + 4), flat(u.mean())), `mean #${i}`).toBeLessThan(1e-12);
      expect(worst(v.slice(4 * i, 4 * i + 4), flat(u.variance())), `variance #${i}`).toBeLessThan(1e-12);
      expect(worst([lp[i]!], flat(u.logProb(c.y[1]!))), `logProb #${i}`).toBeLessThan(1e-12);
    });
  });
});

describe('GaussianProcessRegressionModel: gradients and compilation', () => {
  const c = fixture.cases[3]!;   // Matérn-5/2, 2-D points, σ² = 0.1, meanFn
  const lp = (a: Tensor, l: Tensor, s: Tensor) => new GaussianProcessRegressionModel({
    kernel: new psdKernels.MaternFiveHalves({ amplitude: a, lengthScale: l }), indexPoints: c.indexPoints,
    observationIndexPoints: c.observationIndexPoints, observations: c.observations, observationNoiseVariance: s, meanFn,
  }).logProb(c.y[0]!);

  it('logProb is differentiable in amplitude, length scale and noise (central differences, h = 1e-6: 1e-6)', () => {
    const p = [c.amplitude, c.lengthScale, c.observationNoiseVariance];
    const [v, g] = valueAndGrad(lp, [0, 1, 2])(...p.map((x) => tensor(x)) as [Tensor, Tensor, Tensor]) as [Tensor, Tensor[]];
    expect(Math.abs((v.item() as number) - c.logProb[0]!)).toBeLessThan(1e-8);
    const h = 1e-6;
    for (let i = 0; i < 3; i++) {
      const at = (d: number) => lp(...p.map((x, j) => tensor(j === i ? x + d : x)) as [Tensor, Tensor, Tensor]).item() as number;
      expect(Math.abs(g[i]!.item() as number - (at(h) - at(-h)) / (2 * h)), `∂/∂p${i}`).toBeLessThan(1e-6);
    }
  });

  it('compileLogDensity: a GPRM node with hyperpriors matches the tape', () => {
    const model = new JointDistributionNamed({
      amplitude: new HalfNormal({ scale: 1 }),
      lengthScale: new HalfNormal({ scale: 2 }),
      f: ({ amplitude, lengthScale }: { amplitude: Tensor; lengthScale: Tensor }) => new GaussianProcessRegressionModel({
        kernel: new psdKernels.MaternFiveHalves({ amplitude, lengthScale }), indexPoints: c.indexPoints,
        observationIndexPoints: c.observationIndexPoints, observations: c.observations, observationNoiseVariance: 0.1, meanFn,
      }),
    });
    expectModelMatchesTape(model, { f: c.y[0]! });
  });
});

describe('GaussianProcessRegressionModel: bad input', () => {
  const kernel = new psdKernels.MaternFiveHalves({ amplitude: 1, lengthScale: 1 });
  const base = { kernel, indexPoints: [[0], [1]], observationIndexPoints: [[0.5], [2]], observations: [1, 2] };
  const make = (o: Record<string, unknown>) => () => new GaussianProcessRegressionModel({ ...base, ...o } as never);
  it('names the argument', () => {
    expect(make({ observations: [1, 2, 3] })).toThrow(/GaussianProcessRegressionModel.*observations.*M = 2/);
    expect(make({ observations: undefined })).toThrow(TypeError);
    expect(make({ observations: undefined })).toThrow(/observations.*is required/);
    expect(make({ observationIndexPoints: undefined })).toThrow(/observationIndexPoints.*is required/);
    expect(make({ observationIndexPoints: [0.5, 2] })).toThrow(RangeError);
    expect(make({ observationIndexPoints: [[0.5, 1], [2, 1]] })).toThrow(/observationIndexPoints.*feature shape/);
    expect(make({ kernel: {} })).toThrow(/kernel.*positive-semidefinite/);
    expect(make({ indexPoints: undefined })).toThrow(/indexPoints.*required/);
    expect(make({ jitter: -1 })).toThrow(/jitter.*non-negative/);
    expect(make({ meanFn: 3 })).toThrow(/meanFn/);
    expect(make({ observationNoiseVarience: 0.1 })).toThrow(/unknown parameter `observationNoiseVarience`/);
    expect(make({ observations: [[1, 2], [3, 4], [5, 6]], observationIndexPoints: [[[0.5], [2]], [[0.5], [2]]] })).toThrow(/GaussianProcessRegressionModel.*observations/);
  });
});
