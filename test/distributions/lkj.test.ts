// LKJ: log densities against the independent normalizer of Lewandowski–Kurowicka–Joe (2009)
// eq. (16) in 50-digit mpmath (fixtures/lkj.py → lkj.json; D = 2…6, η from 0.1 to 1e6), both
// input forms; goodness of fit of draws: KS of every off-diagonal correlation against its
// marginal 2·Beta(η − 1 + D/2, same) − 1 and of the partial correlation ρ₂₃;₁ (D = 3) against
// 2·Beta(η, η) − 1 (n = 5000 per configuration, 15 KS tests), plus one moment test of the
// off-diagonal vector (mean 0, covariance diag(1/(2η + D − 1))); each at ALPHA = 1e-6: false-
// failure rate ≤ 1.6e-5. Also TFP's seed structure assembled by hand, gradients, the
// event-space bijector, and bad input.
import { describe, expect, it } from 'vitest';
import betaCdf from '@stdlib/stats-base-dists-beta-cdf';
import { LKJ, logGammaDifference } from '../../distributions/lkj.js';
import { NotImplementedError } from '../../distributions/distribution.js';
import { randomLogGamma } from '../../distributions/internal/tfp-random-gamma.js';
import { checkGradient } from '../../src/tensor/autodiff.js';
import { normal as samplersNormal } from '../../src/samplers/normal.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import { sigmoidScalar } from '../../src/tensor/ops/elementwise.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { expectMeanAndCovariance, rowsOf } from './mv-moments.js';
import fixture from './fixtures/lkj.json' with { type: 'json' };

const close = (a: number, b: number, rel: number) => expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));
const flat = (t: { data: unknown }) => Array.from(t.data as Float64Array);

describe('LKJ', () => {
  it('logProb and the normalizer match LKJ (2009) eq. (16) in mpmath, for matrices and Cholesky factors', () => {
    for (const c of fixture.cases) {
      fixture.concentrations.forEach((eta, e) => {
        const d = new LKJ({ dimension: c.dimension, concentration: eta });
        close(d.logNormalization().item() as number, c.logNormalization[e]!, 1e-13);
        const lp = flat(d.logProb(c.x)), want = c.logProb[e]!;
        want.forEach((w, i) => close(lp[i]!, w, 1e-12));
        const lc = flat(new LKJ({ dimension: c.dimension, concentration: eta, inputOutputCholesky: true }).logProb(c.cholesky));
        want.forEach((w, i) => close(lc[i]!, w, 1e-12));
      });
    }
    close(new LKJ({ dimension: 2, concentration: 1 }).prob([[1, -0.9], [-0.9, 1]]).item() as number, 0.5, 1e-15);
  });

  it('logGammaDifference keeps full accuracy for large arguments', () => {
    // Exact: lnΓ(b) − lnΓ(b + 1/2) for b = 1e8 from the asymptotic series −½ log b + 1/(8b) − 1/(192 b³)…
    const b = 1e8;
    close(logGammaDifference(0.5, b), -0.5 * Math.log(b) + 1 / (8 * b), 1e-15);
    close(logGammaDifference(3, 20), -Math.log(20 * 21 * 22), 2e-15);
    close(logGammaDifference(1.5, 3), Math.log(2 / 6.5625) - 0.5 * Math.log(Math.PI), 2e-15);
    close(logGammaDifference(2, 16), -Math.log(16 * 17), 2e-15);
  });

  it('samples as TFP: salt sample_lkj splits into Beta draws (salt beta, two log gammas) and directions', () => {
    const eta = [0.7, 2.5], n = 3, D = 5, d = 4, B = 2;
    const L = flat(new LKJ({ dimension: D, concentration: eta, inputOutputCholesky: true }).sample(n, { seed: [11, 12] }));
    const [betaSeed, trilSeed] = splitSeed([11, 12], { n: 2, salt: 'sample_lkj' });
    const [s1, s2] = splitSeed(betaSeed!, { salt: 'beta' });
    const c1 = new Float64Array(n * B * d), c0 = new Float64Array(n * B * d);
    for (let q = 0; q < n * B; q++) for (let j = 0; j < d; j++) { c1[q * d + j] = (j + 1) / 2; c0[q * d + j] = eta[q % B]! + (D - 2) / 2 - j / 2; }
    const lg1 = randomLogGamma([n, B, d], c1, null, s1!, 'float64'), lg2 = randomLogGamma([n, B, d], c0, null, s2!, 'float64');
    const [sN, sU, sR] = splitSeed(trilSeed!, { n: 3, salt: 'sample_lkj' });   // TFP pops from the end
    const signs = samplersUniform([n, B, 1], { minval: 0, maxval: 2, dtype: 'int64', seed: sR! }).data as BigInt64Array;
    const u = flat(samplersUniform([n, B], { minval: 0, maxval: 2 * Math.PI, seed: sU! }));
    const z = flat(samplersNormal([n, B, 7], { seed: sN! }));
    for (let q = 0; q < n * B; q++) {
      const zz = z.slice(7 * q, 7 * q + 7);
      const unit = (v: number[]) => { const r = Math.sqrt(v.reduce((s, x) => s + x * x, 0)); return v.map((x) => x / r); };
      // fill_triangular's spiral puts normals 6, 5, 4 in row 2 and 3, 2, 1, 0 in row 3.
      const dirs = [[2 * Number(signs[q]) - 1], [Math.cos(u[q]!), Math.sin(u[q]!)], unit([zz[6]!, zz[5]!, zz[4]!]), unit([zz[3]!, zz[2]!, zz[1]!, zz[0]!])];
      const want = new Array<number>(D * D).fill(0);
      want[0] = 1;
      dirs.forEach((dir, i) => {
        const y = sigmoidScalar(lg1[q * d + i]! - lg2[q * d + i]!), y1 = sigmoidScalar(lg2[q * d + i]! - lg1[q * d + i]!);
        dir.forEach((v, j) => { want[(i + 1) * D + j] = Math.sqrt(y) * v; });
        want[(i + 1) * D + i + 1] = Math.sqrt(y1);
      });
      expect(L.slice(q * D * D, (q + 1) * D * D)).toEqual(want);
    }
    // The same seed without Cholesky output gives C·Cᵀ with a unit diagonal.
    const X = flat(new LKJ({ dimension: D, concentration: eta }).sample(n, { seed: [11, 12] }));
    for (let q = 0; q < n * B; q++) for (let i = 0; i < D; i++) for (let j = 0; j < D; j++) {
      let s = 0;
      for (let m = 0; m < D; m++) s += L[q * D * D + i * D + m]! * L[q * D * D + j * D + m]!;
      close(X[q * D * D + i * D + j]!, i === j ? 1 : s, 1e-15);
    }
    expectSampleShapeInvariance(new LKJ({ dimension: 3, concentration: [1, 2] }));
    expectSampleShapeInvariance(new LKJ({ dimension: 4, concentration: 1.5, inputOutputCholesky: true }));
  });

  it('draws: off-diagonal marginals, a partial correlation and the moments fit LKJ (KS, n = 5000)', () => {
    for (const [D, eta] of [[2, 1], [3, 0.5], [5, 3]] as const) {
      const dist = new LKJ({ dimension: D, concentration: eta });
      const x = flat(dist.sample(5000, { seed: 100 + D }));
      const beta = eta - 1 + D / 2;
      const pairs: [number, number][] = [];
      for (let i = 0; i < D; i++) for (let j = i + 1; j < D; j++) pairs.push([i, j]);
      const rows = rowsOf(x, D * D, pairs.map(([i, j]) => i * D + j));
      pairs.forEach(([i, j], p) => expectKS(rows.map((r) => (r[p]! + 1) / 2), (v) => betaCdf(v, beta, beta), `D=${D} η=${eta} r${i}${j}`));
      if (D === 3) {
        // C-vine: ρ₁₂;₀ = (r₁₂ − r₀₁r₀₂)/√((1 − r₀₁²)(1 − r₀₂²)) ~ 2·Beta(η, η) − 1, independent of level 1.
        const partial = rows.map(([r01, r02, r12]) => (r12! - r01! * r02!) / Math.sqrt((1 - r01! ** 2) * (1 - r02! ** 2)));
        expectKS(partial.map((v) => (v + 1) / 2), (v) => betaCdf(v, eta, eta), 'partial correlation');
      }
      if (D === 5) {
        const v = (dist.variance().toArray() as number[][])[0]![1]!;
        close(v, 1 / (2 * eta + D - 1), 1e-15);
        const cov = pairs.flatMap((_, a) => pairs.map((__, b) => (a === b ? v : 0)));
        expectMeanAndCovariance(rows, pairs.map(() => 0), cov, 'LKJ off-diagonal');
      }
    }
  });

  it('Cholesky draws are lower-triangular with a positive diagonal and unit rows', () => {
    const L = flat(new LKJ({ dimension: 6, concentration: [0.2, 50], inputOutputCholesky: true }).sample(200, { seed: 4 }));
    for (let o = 0; o < L.length; o += 36) {
      for (let i = 0; i < 6; i++) {
        expect(L[o + i * 7]).toBeGreaterThan(0);
        for (let j = i + 1; j < 6; j++) expect(L[o + i * 6 + j]).toBe(0);
        close(L.slice(o + i * 6, o + i * 6 + 6).reduce((s, v) => s + v * v, 0), 1, 1e-15);
      }
    }
  });

  it('shapes, moments and small dimensions', () => {
    const d = new LKJ({ dimension: 3, concentration: [[1, 2]] });
    expect(d.batchShape).toEqual([1, 2]);
    expect(d.eventShape).toEqual([3, 3]);
    expect(d.mean().toArray()).toEqual([[[[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]]]);
    expect((d.variance().toArray() as number[][][][])[0]![1]).toEqual([[0, 1 / 6, 1 / 6], [1 / 6, 0, 1 / 6], [1 / 6, 1 / 6, 0]]);
    expect(d.slice(0, 1).concentration.toArray()).toEqual(2);
    expect(d.logProb([[1, 0, 0], [0, 1, 0], [0, 0, 1]]).shape).toEqual([1, 2]);
    expect(() => new LKJ({ dimension: 3, concentration: 1, inputOutputCholesky: true }).variance()).toThrow(NotImplementedError);
    expect(new LKJ({ dimension: 1, concentration: 2 }).sample(2, { seed: 0 }).toArray()).toEqual([[[1]], [[1]]]);
    expect(new LKJ({ dimension: 1, concentration: 2 }).logProb([[1]]).item()).toBe(0);
    expect(new LKJ({ dimension: 0, concentration: 2 }).sample(2, { seed: 0 }).shape).toEqual([2, 0, 0]);
    expect(new LKJ({ dimension: 2, concentration: tensor(1.5, 'float32') }).sample(2, { seed: 0 }).dtype).toBe('float32');
  });

  it('logProb gradients w.r.t. the value and concentration match finite differences', () => {
    const x = [[1, 0.3, -0.2], [0.3, 1, 0.5], [-0.2, 0.5, 1]];
    const make = (p: Record<string, Tensor>) => new LKJ({ dimension: 3, concentration: p.concentration });
    expectGradients(make, { concentration: [0.6, 2.5] }, [x, x] as unknown as number[][]);
    expectGradients(make, { concentration: 1e5 }, x, { skipValue: true });
    const L = [[1, 0, 0], [0.3, Math.sqrt(0.91), 0], [-0.2, 0.6, Math.sqrt(0.6)]];
    const makeL = (p: Record<string, Tensor>) => new LKJ({ dimension: 3, concentration: p.concentration, inputOutputCholesky: true });
    expectGradients(makeL, { concentration: [1.7] }, L);
  });

  it('defaultEventSpaceBijector: TFP Chain(clip, CholeskyOuterProduct, CorrelationCholesky)', () => {
    const d = new LKJ({ dimension: 3, concentration: 2, validateArgs: true });
    const b = d.defaultEventSpaceBijector();
    const x = [0.4, -1.3, 2];
    const y = b.forward(x);
    expect(Number.isFinite(d.logProb(y).item() as number)).toBe(true);
    flat(b.inverse(y)).forEach((v, i) => close(v, x[i]!, 1e-12));
    // CholeskyOuterProduct's log-det-Jacobian against the numerical Jacobian of the lower triangle.
    const cc = new LKJ({ dimension: 3, concentration: 2, inputOutputCholesky: true }).defaultEventSpaceBijector();
    const L = flat(cc.forward(x));
    const idx = [0, 3, 4, 6, 7, 8];
    const outer = (m: number[]) => { const o = new Array<number>(9).fill(0); for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) o[i * 3 + j]! += m[i * 3 + k]! * m[j * 3 + k]!; return o; };
    const J = idx.map((p) => idx.map((c) => { const h = 1e-6, up = L.slice(), dn = L.slice(); up[c]! += h; dn[c]! -= h; return (outer(up)[p]! - outer(dn)[p]!) / (2 * h); }));
    const ldjNumeric = Math.log(Math.abs(det(J)));
    const ldjCc = cc.forwardLogDetJacobian(x).item() as number;
    close((b.forwardLogDetJacobian(x).item() as number) - ldjCc, ldjNumeric, 1e-8);
    expect(new LKJ({ dimension: 3, concentration: 2, inputOutputCholesky: true }).defaultEventSpaceBijector().forward(x).shape).toEqual([3, 3]);
    // The clip passes gradients through unchanged: the forward map differentiates like the unclipped one.
    expect(checkGradient((t) => sum(b.forward(t)), x).maxRelativeError).toBeLessThan(1e-7);
  });

  it('bad input and values outside the support', () => {
    expect(() => new LKJ({ dimension: -1, concentration: 1 })).toThrow(/LKJ: `dimension`/);
    expect(() => new LKJ({ dimension: 2.5, concentration: 1 })).toThrow(TypeError);
    expect(() => new LKJ({ dimension: 2, concentration: 1, inputOutputCholesky: 1 as never })).toThrow(/`inputOutputCholesky`/);
    expect(() => new LKJ({ dimension: 2, concentration: [1, 0], validateArgs: true })).toThrow(/LKJ: `concentration\[1\]` must be positive; got 0/);
    const d = new LKJ({ dimension: 3, concentration: 2 });
    expect(() => d.logProb([[1, 0], [0, 1]])).toThrow(/`value` \[2, 2\] and `batchShape \+ eventShape` \[3, 3\]/);
    expect(() => d.logProb([[1, 0, 0], [0, 1, 0]])).toThrow(/`value` \[2, 3\] and `batchShape \+ eventShape` \[3, 3\]/);
    expect(() => d.logProb([[[1]]])).toThrow(/must end in the event shape \[3, 3\]; its shape is \[1, 1, 1\]/);
    // Not positive definite: −∞ without validateArgs, whether det < 0 or det > 0 (two negative eigenvalues).
    expect(d.logProb([[1, 0.9, -0.9], [0.9, 1, 0.9], [-0.9, 0.9, 1]]).item()).toBe(-Infinity);
    // Eigenvalues −0.34, −0.34, 2.34, 2.34: det = 0.648 > 0.
    const twoNegative = [[1, -0.95, -0.95, 0], [-0.95, 1, 0, -0.95], [-0.95, 0, 1, 0.95], [0, -0.95, 0.95, 1]];
    const d4 = new LKJ({ dimension: 4, concentration: 2 });
    expect(d4.logProb(twoNegative).item()).toBe(-Infinity);
    expect(() => new LKJ({ dimension: 4, concentration: 2, validateArgs: true }).logProb(twoNegative)).toThrow(/LKJ.logProb: `value` must be positive definite/);
    const v = new LKJ({ dimension: 2, concentration: 2, validateArgs: true });
    expect(() => v.logProb([[1, 1.5], [1.5, 1]])).toThrow(/LKJ.logProb: `value` must have correlations in \[−1, 1\]/);
    expect(() => v.logProb([[1, 0.5], [0.4, 1]])).toThrow(/must be symmetric/);
    expect(() => v.logProb([[2, 0], [0, 1]])).toThrow(/`value` must have correlations|unit diagonal/);
    expect(() => v.logProb([[0.9, 0], [0, 1]])).toThrow(/must have a unit diagonal/);
    const vc = new LKJ({ dimension: 2, concentration: 2, validateArgs: true, inputOutputCholesky: true });
    expect(() => vc.logProb([[1, 0.1], [0.6, 0.8]])).toThrow(/must be lower-triangular/);
    expect(() => vc.logProb([[1, 0], [0.6, -0.8]])).toThrow(/positive diagonal/);
    expect(new LKJ({ dimension: 2, concentration: 2, inputOutputCholesky: true }).logProb([[1, 0], [0.6, -0.8]]).item()).toBe(-Infinity);
  });
});

function det(m: number[][]): number {
  const a = m.map((r) => r.slice()), n = a.length;
  let d = 1;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[p]![c]!)) p = r;
    if (p !== c) { [a[p], a[c]] = [a[c]!, a[p]!]; d = -d; }
    d *= a[c]![c]!;
    for (let r = c + 1; r < n; r++) { const f = a[r]![c]! / a[c]![c]!; for (let j = c; j < n; j++) a[r]![j]! -= f * a[c]![j]!; }
  }
  return d;
}
