// Gibbs steps for discrete nodes that cannot be summed out (mcmc/nuts/stan/gibbs.ts): the compound
// NUTS + Metropolis-within-Gibbs kernel of the per-chain engine, reached by windowedAdaptiveNuts.
//
// Statistical checks use fixed seeds. Each rejects at p < 1e-4 (χ², two-sample KS) or at
// |z| > 4 (a mean against its closed form, z = error / MCSE: 6.3e-5 two-sided), and runs on draws
// thinned until they are nearly independent (ESS ≈ draws; the χ² and KS tests assume it), so the
// file's false-failure rate is below 1e-3 (7 tests). ~15 s.
import { describe, expect, it } from 'vitest';
import { add, gather, mul, Tensor } from '../../src/index.js';
import { Bernoulli, Categorical, Gamma, Independent, JointDistributionNamed, Normal, Poisson, Sample, compileLogDensity, deterministic } from '../../distributions/index.js';
import { inferDiscrete, mcseMean, windowedAdaptiveNuts } from '../../mcmc/index.js';
import { chiSquareMergedPValue, ksTwoSamplePValue } from '../stats.js';
import { inferenceData } from '../../cli/report/index.js';

// y ~ Poisson(λ·n): a latent count n ~ Poisson(μ) with a Gamma(a, b) prior on λ. Integrating λ out,
// p(n | y) ∝ Pois(n; μ) · n^y / (b + n)^(y + a), and E[λ | y] = Σ_n p(n | y) (y + a) / (b + n).
const [a, b, mu, yObs] = [2, 1, 5, 7];
const latentCount = new JointDistributionNamed({
  lam: new Gamma({ concentration: a, rate: b }),
  n: new Poisson({ rate: mu }),
  y: ({ lam, n }: { lam: Tensor; n: Tensor }) => new Poisson({ rate: mul(lam, n) }),
});
const N_MAX = 80;
const logPost = Array.from({ length: N_MAX }, (_, n) => (n === 0 ? -Infinity : n * Math.log(mu) - lgammaInt(n + 1) + yObs * Math.log(n) - (yObs + a) * Math.log(b + n)));
const top = Math.max(...logPost);
const post = logPost.map((l) => Math.exp(l - top));
const Z = post.reduce((s, v) => s + v, 0);
const pN = post.map((v) => v / Z);
const lamMean = pN.reduce((s, p, n) => s + p * (yObs + a) / (b + n), 0);

function lgammaInt(k: number): number { let s = 0; for (let i = 2; i < k; i++) s += Math.log(i); return s; }

describe('windowedAdaptiveNuts with Gibbs steps on a latent count', () => {
  // 4 chains × 250 draws kept, 19 skipped between them (n's autocorrelation time is ≈ 10 transitions).
  const fit = windowedAdaptiveNuts(latentCount, { pins: { y: yObs }, seed: 3, nChains: 4, nDraws: 250, numStepsBetweenResults: 19, numAdaptationSteps: 500 });

  it('says which node took Gibbs steps, and returns its draws with the others', () => {
    expect(fit.gibbs!.nodes.map((g) => [g.name, g.proposal, g.units])).toEqual([['n', 'random-walk', 1]]);
    for (const r of fit.gibbs!.nodes[0]!.acceptRate) expect(r).toBeGreaterThan(0.2);
    expect(Object.keys(fit.draws)).toEqual(['lam', 'n']);
    expect(fit.draws.n!.shape).toEqual([250, 4]);
    expect(Array.from(fit.draws.n!.data as Float64Array).every((v) => Number.isInteger(v) && v > 0)).toBe(true);
    expect(fit.compiled).toBe(true);
  });

  it('reports no rejections: a proposal below 0 is off the support, not a failure (y\'s rate λ·n would be NaN there)', () => {
    expect(fit.rejections).toEqual([]);
    expect((fit.trace.rejections!.data as Int32Array).every((v) => v === 0)).toBe(true);
  });

  it(`n's posterior is p(n | y) in closed form (χ² over 1000 thinned draws, p > 1e-4)`, () => {
    const counts = new Array<number>(N_MAX).fill(0);
    for (const v of fit.draws.n!.data as Float64Array) counts[v]!++;
    expect(chiSquareMergedPValue(counts, pN)).toBeGreaterThan(1e-4);
  });

  it('E[λ | y] matches the closed form within 4 MCSE', () => {
    const lam = fit.draws.lam!;
    const mean = (lam.data as Float64Array).reduce((s, v) => s + v, 0) / lam.size;
    expect(Math.abs(mean - lamMean)).toBeLessThan(4 * Number((mcseMean(lam) as Tensor).item()));
  });
});

describe('a large count: the random walk\'s step is tuned in warm-up', () => {
  // n ~ Poisson(1000), y ~ N(n, 20), y = 1050: p(n | y) ∝ Pois(n; 1000) N(1050; n, 20), sd ≈ 17 counts.
  const big = new JointDistributionNamed({
    m: new Normal({ loc: 0, scale: 1 }),
    n: new Poisson({ rate: 1000 }),
    y: ({ n }: { n: Tensor }) => new Normal({ loc: n, scale: 20 }),
  });
  const logw = Array.from({ length: 800 }, (_, k) => { const n = 650 + k; return n * Math.log(1000) - lgammaInt(n + 1) - ((1050 - n) / 20) ** 2 / 2; });
  const top = Math.max(...logw), w = logw.map((v) => Math.exp(v - top)), total = w.reduce((s, v) => s + v, 0);
  const exactMean = w.reduce((s, v, k) => s + (v / total) * (650 + k), 0);
  const fit = windowedAdaptiveNuts(big, { pins: { y: 1050 }, seed: 2, nChains: 4, nDraws: 500, numAdaptationSteps: 500 });

  it('K grows from 2 to the posterior\'s scale, and E[n | y] matches the closed form within 4 MCSE', () => {
    for (const k of fit.gibbs!.nodes[0]!.maxStep!) expect(k).toBeGreaterThan(10);
    const n = fit.draws.n!, mean = (n.data as Float64Array).reduce((s, v) => s + v, 0) / n.size;
    expect(Math.abs(mean - exactMean)).toBeLessThan(4 * Number((mcseMean(n) as Tensor).item()));
  });
});

describe('a finite node with enumerate: false', () => {
  // z_i ~ Bernoulli(0.3) (3 elements, each updated on its own), m ~ N(0, 1), y_i ~ N(m + 2 z_i, 1).
  // Integrating m out, y | z ~ N(2z, I + 11ᵀ): p(z | y) over the 8 configurations in closed form.
  const y = [0.4, 2.6, 1.9];
  const mixture = (enumerate: boolean) => new JointDistributionNamed({
    m: new Normal({ loc: 0, scale: 1 }),
    z: new Sample({ distribution: new Bernoulli({ probs: 0.3, enumerate }), sampleShape: 3 }),
    y: ({ m, z }: { m: Tensor; z: Tensor }) => new Independent({ distribution: new Normal({ loc: add(m, mul(2, z)), scale: 1 }), reinterpretedBatchNdims: 1 }),
  });
  const exact = Array.from({ length: 8 }, (_, k) => {
    const z = [k & 1, (k >> 1) & 1, (k >> 2) & 1], r = y.map((v, i) => v - 2 * z[i]!);
    const s = r.reduce((p, v) => p + v, 0), q = r.reduce((p, v) => p + v * v, 0) - (s * s) / 4;   // rᵀ(I − 11ᵀ/4)r
    return Math.exp(-q / 2) * z.reduce((p, v) => p * (v === 1 ? 0.3 : 0.7), 1);
  });
  const total = exact.reduce((s, v) => s + v, 0);
  const configCounts = (z: Tensor) => {
    const d = z.data as ArrayLike<number>, counts = new Array<number>(8).fill(0);
    for (let i = 0; i < d.length; i += 3) counts[Number(d[i]) + 2 * Number(d[i + 1]) + 4 * Number(d[i + 2])]!++;
    return counts;
  };
  const opts = { pins: { y }, nChains: 4, nDraws: 250, numStepsBetweenResults: 9, numAdaptationSteps: 400 };
  const gibbs = windowedAdaptiveNuts(mixture(false), { ...opts, seed: 11 });
  const enumerated = windowedAdaptiveNuts(mixture(true), { ...opts, seed: 12 });

  it('takes uniform-proposal Gibbs steps, element by element', () => {
    expect(gibbs.gibbs!.nodes.map((g) => [g.name, g.proposal, g.units, g.reason])).toEqual([['z', 'uniform', 3, 'enumerate: false']]);
    expect(enumerated.gibbs).toBeUndefined();
    expect(gibbs.draws.z!.shape).toEqual([250, 4, 3]);
  });

  it('z matches p(z | y) in closed form, as the enumerated model + inferDiscrete does (χ² over 8 configurations, 1000 draws each, p > 1e-4)', () => {
    const withZ = inferDiscrete(mixture(true), enumerated.draws, { pins: { y }, seed: 1 });
    expect(chiSquareMergedPValue(configCounts(gibbs.draws.z!), exact.map((v) => v / total))).toBeGreaterThan(1e-4);
    expect(chiSquareMergedPValue(configCounts(withZ.z!), exact.map((v) => v / total))).toBeGreaterThan(1e-4);
  });

  it("m's draws agree with the enumerated model's (two-sample KS, 1000 thinned draws each, p > 1e-4)", () => {
    expect(ksTwoSamplePValue(gibbs.draws.m!.data as Float64Array, enumerated.draws.m!.data as Float64Array)).toBeGreaterThan(1e-4);
  });
});

describe('a model that throws at some discrete values', () => {
  // y's distribution cannot be built for n above 6: a Gibbs proposal there is a rejection, counted
  // as NUTS's are, with the node and element it proposed, and the run goes on.
  const bounded = new JointDistributionNamed({
    lam: new Gamma({ concentration: 2, rate: 1 }),
    n: new Poisson({ rate: 2 }),
    y: ({ lam, n }: { lam: Tensor; n: Tensor }) => {
      if (Number(n.item()) > 6) throw new RangeError(`the count ${Number(n.item())} is above 6`);
      return new Poisson({ rate: mul(lam, n) });
    },
  });
  const r = windowedAdaptiveNuts(bounded, { pins: { y: 7 }, seed: 1, nChains: 2, nDraws: 200, numAdaptationSteps: 200 });

  it('runs to the end and records the rejections with the node, the element and the transition', () => {
    expect(r.rejections).toHaveLength(1);
    const e = r.rejections![0]!;
    expect(e.gibbs).toEqual({ node: 'n', element: 0 });
    expect(e.message).toMatch(/^RangeError: the count 7 is above 6/);
    expect(e.node).toBe('node `y` (building its distribution)');   // located on the tape at the proposed n
    expect(e.count).toBeGreaterThan(e.warmupCount);
    expect(e.first.transition).toBeGreaterThanOrEqual(0);
    const perDraw = (r.trace.rejections!.data as Int32Array).reduce((a, v) => a + v, 0);
    expect(perDraw).toBe(e.count - e.warmupCount);              // the draws' own counts, after warm-up
    expect(Math.max(...(r.draws.n!.data as Float64Array))).toBeLessThanOrEqual(6);
  });
});

describe('inferDiscrete on a model with both Gibbs and enumerated nodes', () => {
  // n (a count: Gibbs steps) and z (a Bernoulli: summed out); given (λ, n), p(z = 1 | λ, n, y) =
  // 0.3 Pois(y; λn + 2) / (0.3 Pois(y; λn + 2) + 0.7 Pois(y; λn)) in closed form.
  const model = new JointDistributionNamed({
    lam: new Gamma({ concentration: 2, rate: 1 }),
    n: new Poisson({ rate: 4 }),
    z: new Bernoulli({ probs: 0.3 }),
    y: ({ lam, n, z }: { lam: Tensor; n: Tensor; z: Tensor }) => new Poisson({ rate: add(mul(lam, n), mul(2, z)) }),
  });
  const Y = 6, D = 500, C = 2;
  const lam = Float64Array.from({ length: D * C }, (_, i) => 0.3 + ((i * 37) % 100) / 40);
  const n = Int32Array.from({ length: D * C }, (_, i) => 1 + ((i * 13) % 7));
  const draws = { lam: new Tensor(lam, [D, C], 'float64'), n: new Tensor(n, [D, C], 'int32') };
  const logPois = (k: number, r: number) => k * Math.log(r) - r - lgammaInt(k + 1);
  const p1 = Array.from(lam, (l, i) => { const a = Math.log(0.3) + logPois(Y, l * n[i]! + 2), b = Math.log(0.7) + logPois(Y, l * n[i]!); return 1 / (1 + Math.exp(b - a)); });

  it('temperature 0: each draw\'s z is the closed form\'s most probable value given its λ and n', () => {
    const map = inferDiscrete(model, draws, { pins: { y: Y }, temperature: 0 });
    expect(Array.from(map.z!.data as ArrayLike<number>, Number)).toEqual(p1.map((p) => (p > 0.5 ? 1 : 0)));
    expect(map.n).toBe(draws.n);   // the Gibbs draws come back as given
  });

  it('temperature 1: Σ z matches Σ p(z = 1 | λ, n, y) within 4.4 sd (1000 draws; false-failure rate 1e-5)', () => {
    const z = inferDiscrete(model, draws, { pins: { y: Y }, seed: 3 }).z!;
    const total = Array.from(z.data as ArrayLike<number>, Number).reduce((a, v) => a + v, 0);
    const mean = p1.reduce((a, p) => a + p, 0), sd = Math.sqrt(p1.reduce((a, p) => a + p * (1 - p), 0));
    expect(Math.abs(total - mean)).toBeLessThan(4.4 * sd);
    expect(sd).toBeGreaterThan(5);   // the probabilities are not all 0 or 1
  });

  it('windowedAdaptiveNuts computes derived values with z drawn back given the Gibbs draws (not its placeholder)', () => {
    const withZ = new JointDistributionNamed({
      lam: new Gamma({ concentration: 2, rate: 1 }),
      n: new Poisson({ rate: 4 }),
      z: new Bernoulli({ probs: 0.3 }),
      y: ({ lam, n, z }: { lam: Tensor; n: Tensor; z: Tensor }) => new Poisson({ rate: add(mul(lam, n), mul(2, z)) }),
      zn: deterministic(({ n, z }: { n: Tensor; z: Tensor }) => add(mul(100, z), n)),
    });
    const r = windowedAdaptiveNuts(withZ, { pins: { y: Y }, seed: 2, nChains: 2, nDraws: 100, numAdaptationSteps: 100 });
    const back = inferDiscrete(withZ, r.draws as never, { pins: { y: Y }, seed: 2 });
    const want = Array.from(back.z!.data as ArrayLike<number>, (z, i) => 100 * Number(z) + Number((r.draws.n!.data as ArrayLike<number>)[i]));
    expect(Array.from(r.deterministics!.zn!.data as ArrayLike<number>, Number)).toEqual(want);
    expect(want.some((v) => v >= 100)).toBe(true);   // some draws have z = 1
  });

  it('compiled and tape give the same draws', () => {
    const a = inferDiscrete(model, draws, { pins: { y: Y }, seed: 3 }).z!, b = inferDiscrete(model, draws, { pins: { y: Y }, seed: 3, compile: false }).z!;
    expect(Array.from(a.data as ArrayLike<number>)).toEqual(Array.from(b.data as ArrayLike<number>));
  });
});

describe('reproducibility', () => {
  const opts = { pins: { y: yObs }, nChains: 3, nDraws: 60, numAdaptationSteps: 60 };
  const run = windowedAdaptiveNuts(latentCount, { ...opts, seed: 5 });

  it('the same seed gives the same bits', () => {
    const again = windowedAdaptiveNuts(latentCount, { ...opts, seed: 5 });
    expect(again.draws.n!.data).toEqual(run.draws.n!.data);
    expect(again.draws.lam!.data).toEqual(run.draws.lam!.data);
    const other = windowedAdaptiveNuts(latentCount, { ...opts, seed: 6 });
    expect(other.draws.lam!.data).not.toEqual(run.draws.lam!.data);
  });

  it('inferenceData takes the result as it is (its `gibbs` report too): the count in the posterior, y\'s log-likelihood', () => {
    const id = inferenceData(latentCount, run, { pins: { y: yObs }, seed: 0 });
    expect(Object.keys(id.posterior as object)).toEqual(['lam', 'n']);
    expect((id.logLikelihood as Record<string, Tensor>).y!.shape).toEqual([60, 3]);
  });

  it('chain c alone equals chain c of the all-chains run (discrete draws included)', () => {
    const alone = windowedAdaptiveNuts(latentCount, { ...opts, seed: 5, chainIndex: 1 });
    const column = (t: Tensor, c: number, C: number) => Array.from(t.data as Float64Array).filter((_, i) => i % C === c);
    expect(Array.from(alone.draws.n!.data as Float64Array)).toEqual(column(run.draws.n!, 1, 3));
    expect(Array.from(alone.draws.lam!.data as Float64Array)).toEqual(column(run.draws.lam!, 1, 3));
  });
});

describe('errors', () => {
  const pins = { y: yObs };
  it('the pooled engine names the option to use', () => {
    expect(() => windowedAdaptiveNuts(latentCount, { pins, seed: 0, adaptation: 'pooled' })).toThrow(RangeError);
    expect(() => windowedAdaptiveNuts(latentCount, { pins, seed: 0, adaptation: 'pooled' })).toThrow(/`n` \(its support is not finite.*adaptation: 'per-chain'/);
  });
  it('non-uniform init and a Pathfinder metric are refused by name', () => {
    expect(() => windowedAdaptiveNuts(latentCount, { pins, seed: 0, init: 'prior' })).toThrow(/`init` must be 'uniform'/);
    expect(() => windowedAdaptiveNuts(latentCount, { pins, seed: 0, initInvMetric: 'pathfinder' })).toThrow(/`initInvMetric` must be 'identity'/);
  });
  it('a compiled log density names the node and the sampler that can take it', () => {
    expect(() => compileLogDensity(latentCount, { pins })).toThrow(RangeError);
    expect(() => compileLogDensity(latentCount, { pins })).toThrow(/compileLogDensity: .*`n` \(its support is not finite or not known in advance\).*windowedAdaptiveNuts/);
  });
  it('a model with only discrete nodes left says Gibbs steps need a continuous node', () => {
    const counts = new JointDistributionNamed({ n: new Poisson({ rate: 3 }), y: ({ n }: { n: Tensor }) => new Normal({ loc: n, scale: 1 }) });
    expect(() => windowedAdaptiveNuts(counts, { pins: { y: 2 }, seed: 0 })).toThrow(/only discrete nodes left to sample \(`n`\).*at least one continuous node/);
  });
  it('a discrete value used as a gather index is caught by the compile check: the run uses the tape and says why', () => {
    const mix = new JointDistributionNamed({
      mu: new Independent({ distribution: new Normal({ loc: [-2, 2], scale: 1 }), reinterpretedBatchNdims: 1 }),
      z: new Sample({ distribution: new Categorical({ probs: [0.5, 0.5], enumerate: false }), sampleShape: 2 }),
      y: ({ mu, z }: { mu: Tensor; z: Tensor }) => new Independent({ distribution: new Normal({ loc: gather(mu, z), scale: 1 }), reinterpretedBatchNdims: 1 }),
    });
    const r = windowedAdaptiveNuts(mix, { pins: { y: [-2, 2] }, seed: 0, nChains: 1, nDraws: 3, numAdaptationSteps: 3 });
    expect(r.compiled).toBe(false);
    expect(r.compileReason).toMatch(/an index of `gather`/);
    expect(r.draws.z!.dtype).toBe('int32');
  });
  it('unknown options are still errors', () => {
    expect(() => windowedAdaptiveNuts(latentCount, { pins, seed: 0, gibbs: true } as never)).toThrow(/gibbs/);
  });
});

