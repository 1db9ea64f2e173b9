// The common slips a new user makes, on the compiled and the tape path (issue 30, item 4), and the
// compiler's one fallback rule (issue 32): an untraceable model runs on the tape and says so.
import { describe, expect, it } from 'vitest';
import { Bernoulli, compileLogDensity, HalfNormal, Independent, JointDistributionNamed, Normal, Poisson, Sample, Uniform } from '../../distributions/index.js';
import { windowedAdaptiveNuts } from '../../mcmc/index.js';
import { add, sum, tensor, type Tensor } from '../../src/index.js';

const quick = { nDraws: 10, numAdaptationSteps: 10, nChains: 2, seed: 0 } as const;

describe('a log density that is not one number per draw names the node and suggests Independent/Sample', () => {
  const m = new JointDistributionNamed({ mu: new Normal({ loc: 0, scale: 1 }), y: (mu: Tensor) => new Normal({ loc: mu, scale: 1 }) }, { name: 'Forgot' });
  const want = /windowedAdaptiveNuts: `model` "Forgot" has a log density of shape \[3\] for one draw, not one number — node `y` \(log density shape \[3\]\); .*Independent.*Sample/;
  for (const adaptation of ['per-chain', 'pooled'] as const) {
    for (const compile of [true, false]) {
      it(`${adaptation}, compile: ${compile}`, () => {
        expect(() => windowedAdaptiveNuts(m, { ...quick, pins: { y: tensor([1, 2, 3]) }, adaptation, compile })).toThrow(want);
        expect(() => windowedAdaptiveNuts(m, { ...quick, pins: { y: tensor([1, 2, 3]) }, adaptation, compile })).toThrow(RangeError);
      });
    }
  }
  it('compileLogDensity too', () => {
    expect(() => compileLogDensity(m, { pins: { y: tensor([1, 2, 3]) } })).toThrow(/compileLogDensity: `model` "Forgot" has a log density of shape \[3\].*node `y`/);
  });
});

it('a callable whose parameter a bundler renamed (alpha → alpha2) suggests the destructured form', () => {
  const make = () => new JointDistributionNamed({ alpha: new Normal({ loc: 0, scale: 1 }), y: (alpha2: Tensor) => new Normal({ loc: alpha2, scale: 1 }) });
  expect(make).toThrow(/argument `alpha2` that names no node.*`alpha` became `alpha2`.*\(\{ alpha \}\) =>/);
});

describe('an untraceable model runs on the tape, and the result says why (never silently)', () => {
  // Reads a value in JavaScript: the tracer cannot follow `item()`.
  const m = new JointDistributionNamed({
    sigma: new HalfNormal({ scale: 1 }),
    y: (sigma: Tensor) => new Normal({ loc: 0, scale: Number(sum(sigma).item()) > 100 ? 100 : sigma }),
  }, { name: 'ReadsValues' });
  for (const adaptation of ['per-chain', 'pooled'] as const) {
    it(adaptation, () => {
      const a = windowedAdaptiveNuts(m, { ...quick, pins: { y: tensor(0.5) }, adaptation });
      expect(a.compiled).toBe(false);
      expect(a.compileReason).toMatch(/Tensor\.item\(\).*reads a traced value/);
      const b = windowedAdaptiveNuts(m, { ...quick, pins: { y: tensor(0.5) }, adaptation, compile: false });
      expect(b.compiled).toBe(false);
      expect(b.compileReason).toBe('compile: false');
      expect(Array.from(a.draws.sigma!.data as Float64Array)).toEqual(Array.from(b.draws.sigma!.data as Float64Array));
      const c = windowedAdaptiveNuts(new JointDistributionNamed({ sigma: new HalfNormal({ scale: 1 }), y: (sigma: Tensor) => new Normal({ loc: 0, scale: sigma }) }), { ...quick, pins: { y: tensor(0.5) }, adaptation });
      expect(c.compiled).toBe(true);
      expect(c.compileReason).toBeUndefined();
    });
  }
  it('an error of the model itself is not a reason to fall back: it propagates', () => {
    const bad = new JointDistributionNamed({ sigma: new HalfNormal({ scale: 1 }), y: () => { throw new Error('boom'); } });
    expect(() => windowedAdaptiveNuts(bad, { ...quick, pins: { y: tensor(0.5) } })).toThrow(/boom/);
  });
});

describe('pinned data are checked before sampling: NaN, and values outside a support that depends on no parameter', () => {
  const logits = tensor([0.5, -0.5, 1, 0]);
  const model = new JointDistributionNamed({
    a: new Normal({ loc: 0, scale: 1 }),
    y: (a: Tensor) => new Independent({ distribution: new Bernoulli({ logits: add(a, logits) }), reinterpretedBatchNdims: 1 }),
    n: new Sample({ distribution: new Poisson({ rate: 3 }), sampleShape: 2 }),
  }, { name: 'Data' });
  const pins = (y: number[], n: number[] = [1, 4]) => ({ y: tensor(y), n: tensor(n) });
  for (const adaptation of ['per-chain', 'pooled'] as const) {
    it(adaptation, () => {
      expect(() => windowedAdaptiveNuts(model, { ...quick, adaptation, pins: pins([0, 1, 2, 1]) })).toThrow(/windowedAdaptiveNuts: `pins\.y\[2\]` must be 0 or 1 \(outside Bernoulli's support\); got 2/);
      expect(() => windowedAdaptiveNuts(model, { ...quick, adaptation, pins: pins([0, NaN, 1, 1]) })).toThrow(/windowedAdaptiveNuts: `pins\.y` has missing values \(NaN\), but node `y` is Bernoulli.*discrete latents, which NUTS cannot sample \(see the discrete-latents work, issue 35\)/);
      expect(() => windowedAdaptiveNuts(model, { ...quick, adaptation, pins: pins([0, 1, 1, 1], [1, 2.5]) })).toThrow(/`pins\.n\[1\]` must be a non-negative integer \(outside Poisson's support\); got 2\.5/);
      expect(windowedAdaptiveNuts(model, { ...quick, adaptation, pins: pins([0, 1, 1, 1]) }).draws.a!.shape).toEqual([10, 2]);
    });
  }
  it('compileLogDensity too; a support that depends on a parameter is left to the log density', () => {
    expect(() => compileLogDensity(model, { pins: pins([0, 1, 3, 1]) })).toThrow(/compileLogDensity: `pins\.y\[2\]` must be 0 or 1/);
    const u = new JointDistributionNamed({ hi: new HalfNormal({ scale: 5 }), y: (hi: Tensor) => new Uniform({ low: 0, high: hi }) });
    expect(compileLogDensity(u, { pins: { y: tensor(7) } }).dim).toBe(1);   // 7 is inside for hi > 7
  });
});
