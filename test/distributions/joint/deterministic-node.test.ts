// Derived values of joint models (`deterministic`, PyMC's pm.Deterministic): not nodes — no seed,
// no unconstrained coordinate, no density term — so a model with one has the draws, densities
// and compiled log density of the same model with the expression written inline; recorded by
// deterministicValues, samplePriorPredictive, computeDeterministics and windowedAdaptiveNuts.
import { describe, expect, it } from 'vitest';
import {
  compileLogDensity, deterministic, HalfCauchy, Independent, JointDistributionCoroutine, JointDistributionNamed, JointDistributionSequential, Normal, Root, Sample,
  type CoroutineModel,
} from '../../../distributions/index.js';
import { computeDeterministics, samplePriorPredictive, summary, windowedAdaptiveNuts } from '../../../mcmc/index.js';
import { add, mul, tensor, type Tensor } from '../../../src/index.js';
import { nonCentered, sigma, y } from '../../../examples/eight-schools.js';

/** The non-centered eight schools with theta written inline (what examples/eight-schools.ts had before theta became a derived value). */
const inline = new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 5 }),
  tau: new HalfCauchy({ loc: 0, scale: 5 }),
  thetaTilde: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 8 }),
  y: (mu: Tensor, tau: Tensor, thetaTilde: Tensor) => new Independent({ distribution: new Normal({ loc: add(mu, mul(tau, thetaTilde)), scale: sigma }), reinterpretedBatchNdims: 1 }),
}, { name: 'EightSchoolsNonCentered' });

const bits = (t: Tensor) => Array.from(t.data as Float64Array);
const point = { mu: 1.5, tau: 2.25, thetaTilde: [0.1, -1, 0.3, 2, -0.5, 0, 0.7, -1.2], y };

function coroutine(withTheta: boolean): JointDistributionCoroutine {
  return new JointDistributionCoroutine(function* (): CoroutineModel {
    const mu: Tensor = yield Root(new Normal({ loc: 0, scale: 5, name: 'mu' }));
    const tau: Tensor = yield Root(new HalfCauchy({ loc: 0, scale: 5, name: 'tau' }));
    const tt: Tensor = yield Root(new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 8, name: 'thetaTilde' }));
    const loc = add(mu, mul(tau, tt));
    const theta: Tensor = withTheta ? yield deterministic('theta', loc) : loc;
    yield new Independent({ distribution: new Normal({ loc: theta, scale: sigma }), reinterpretedBatchNdims: 1, name: 'y' });
  });
}

describe('deterministic in JointDistributionNamed', () => {
  it('is not a node: same node order, graph, draws and log density as the inline model', () => {
    expect(nonCentered.nodeNames).toEqual(inline.nodeNames);
    expect(nonCentered.resolveGraph()).toEqual(inline.resolveGraph());
    expect(nonCentered.deterministicNames).toEqual(['theta']);
    expect(inline.deterministicNames).toEqual([]);
    for (const seed of [0, 1, 42]) {
      const a = inline.sample([], { seed }) as Record<string, Tensor>, b = nonCentered.sample([], { seed }) as Record<string, Tensor>;
      expect(Object.keys(b)).toEqual(['mu', 'tau', 'thetaTilde', 'y']);
      for (const k of Object.keys(a)) expect(bits(b[k]!)).toEqual(bits(a[k]!));
    }
    expect(nonCentered.logProb(point).item()).toBe(inline.logProb(point).item());
    expect(Object.keys(nonCentered.logProbParts(point))).toEqual(['mu', 'tau', 'thetaTilde', 'y']);
  });

  it('adds no unconstrained coordinate and leaves the compiled log density and gradient bit for bit', () => {
    const a = compileLogDensity(inline, { pins: { y } }), b = compileLogDensity(nonCentered, { pins: { y } });
    expect(b.dim).toBe(10);
    expect(b.paramNames).toEqual(a.paramNames);
    const x = Float64Array.from({ length: 10 }, (_, i) => 0.3 * i - 1.1), ga = new Float64Array(10), gb = new Float64Array(10);
    expect(b.logDensity(x)).toBe(a.logDensity(x));
    expect(b.logDensityGradient(x, gb)).toBe(a.logDensityGradient(x, ga));
    expect(Array.from(gb)).toEqual(Array.from(ga));
  });

  it('deterministicValues runs the model on given values; derived values may feed each other', () => {
    const theta = nonCentered.deterministicValues(point).theta!;
    expect(theta.shape).toEqual([8]);
    expect(bits(theta)).toEqual(point.thetaTilde.map((t) => 1.5 + 2.25 * t));
    const chain = new JointDistributionNamed({
      a: new Normal({ loc: 0, scale: 1 }),
      c: deterministic((b: Tensor) => mul(b, 10)),   // depends on a later derived value
      b: deterministic((a: Tensor) => add(a, 1)),
      y: (c: Tensor) => new Normal({ loc: c, scale: 1 }),
    });
    expect(chain.nodeNames).toEqual(['a', 'y']);
    expect(chain.resolveGraph()).toEqual([['a', []], ['y', ['a']]]);
    expect(chain.deterministicNames).toEqual(['b', 'c']);   // in the order they are computed: y needs c, which needs b
    const v = chain.deterministicValues({ a: 2, y: 0 });
    expect(v.b!.item()).toBe(3);
    expect(v.c!.item()).toBe(30);
  });

  it('rejects bad declarations by name', () => {
    expect(() => deterministic('', 1)).toThrow(TypeError);
    expect(() => deterministic('', 1)).toThrow(/^deterministic: `name`/);
    expect(() => deterministic('x', undefined as never)).toThrow(/^deterministic: `value`/);
    expect(() => deterministic((() => 1) as never, 2 as never)).toThrow(/^deterministic: `value` must not be given with a function/);
    expect(() => new JointDistributionNamed({ a: new Normal({ loc: 0, scale: 1 }), d: deterministic((zz: Tensor) => zz) })).toThrow(/`model\.d` has an argument `zz` that names no node/);
    expect(() => new JointDistributionNamed({
      a: new Normal({ loc: 0, scale: 1 }), d: deterministic((e: Tensor) => e), e: deterministic((d: Tensor) => d),
    })).toThrow(/has a cycle: .*d → e → d|has a cycle: .*e → d → e/);
    expect(() => new JointDistributionNamed({ d: deterministic(() => 1) })).toThrow(/at least one node that is not a deterministic/);
    expect(() => new JointDistributionSequential([new Normal({ loc: 0, scale: 1 }), deterministic((a: Tensor) => a) as never])).toThrow(/^JointDistributionSequential: `model\[1\]` is a deterministic\(\.\.\.\) value/);
  });
});

describe('deterministic in JointDistributionCoroutine', () => {
  it('yield deterministic(name, value) records the value and sends it back; draws, density and compiled code unchanged', () => {
    const a = coroutine(false), b = coroutine(true);
    expect(b.nodeNames).toEqual(['mu', 'tau', 'thetaTilde', 'y']);
    expect(b.deterministicNames).toEqual(['theta']);
    const da = a.sample([], { seed: 3 }), db = b.sample([], { seed: 3 });
    da.forEach((t, i) => expect(bits(db[i]!)).toEqual(bits(t)));
    expect(b.logProb(point).item()).toBe(a.logProb(point).item());
    const ca = compileLogDensity(a, { pins: { y } }), cb = compileLogDensity(b, { pins: { y } });
    const x = Float64Array.from({ length: 10 }, (_, i) => 0.2 * i - 0.7);
    expect(cb.logDensity(x)).toBe(ca.logDensity(x));
    expect(bits(b.deterministicValues(point).theta!)).toEqual(point.thetaTilde.map((t) => 1.5 + 2.25 * t));
  });

  it('a derived value named like a node, or twice, is a RangeError', () => {
    const clash = new JointDistributionCoroutine(function* (): CoroutineModel {
      const a: Tensor = yield Root(new Normal({ loc: 0, scale: 1, name: 'a' }));
      yield deterministic('a', a);
    });
    expect(() => clash.deterministicNames).toThrow(/a derived value and a node both named "a"/);
    const twice = new JointDistributionCoroutine(function* (): CoroutineModel {
      const a: Tensor = yield Root(new Normal({ loc: 0, scale: 1, name: 'a' }));
      yield deterministic('d', a);
      yield deterministic('d', a);
    });
    expect(() => twice.deterministicValues({ a: 1 })).toThrow(/two derived values named "d"/);
  });
});

describe('derived values in the workflow', () => {
  it('windowedAdaptiveNuts: the same draws as the inline model, and deterministics = mu + tau·thetaTilde per draw', () => {
    const opts = { pins: { y }, seed: 4, nChains: 2, nDraws: 30, numAdaptationSteps: 40 };
    const a = windowedAdaptiveNuts(inline, opts), b = windowedAdaptiveNuts(nonCentered, opts);
    for (const k of ['mu', 'tau', 'thetaTilde']) expect(bits(b.draws[k]!)).toEqual(bits(a.draws[k]!));
    expect(a.deterministics).toBeUndefined();
    const theta = b.deterministics!.theta!;
    expect(theta.shape).toEqual([30, 2, 8]);
    const mu = b.draws.mu!.data, tau = b.draws.tau!.data, tt = b.draws.thetaTilde!.data;
    expect(bits(theta)).toEqual(Array.from(tt as Float64Array, (v, i) => (mu[Math.floor(i / 8)] as number) + (tau[Math.floor(i / 8)] as number) * v));
    expect(bits(computeDeterministics(nonCentered, b.draws, { y }).theta!)).toEqual(bits(theta));
    // summarised with the draws
    const s = summary({ ...b.draws, ...b.deterministics });
    expect(s.get('theta[7]')).toBeDefined();
  });

  it('pooled adaptation records them too', () => {
    const m = new JointDistributionNamed({ a: new Normal({ loc: 0, scale: 1 }), twice: deterministic((a: Tensor) => mul(a, 2)), y: (a: Tensor) => new Normal({ loc: a, scale: 1 }) });
    const r = windowedAdaptiveNuts(m, { pins: { y: 0.5 }, seed: 1, nChains: 2, nDraws: 10, numAdaptationSteps: 20, adaptation: 'pooled' });
    expect(bits(r.deterministics!.twice!)).toEqual(bits(r.draws.a!).map((v) => 2 * v));
  });

  it('samplePriorPredictive returns derived values after the nodes, with the nodes\' draws unchanged', () => {
    const a = samplePriorPredictive(inline, { seed: 2, samples: 20 }), b = samplePriorPredictive(nonCentered, { seed: 2, samples: 20 });
    expect(Object.keys(b)).toEqual([...nonCentered.nodeNames, 'theta']);
    for (const k of Object.keys(a)) expect(bits(b[k]!)).toEqual(bits(a[k]!));
    expect(b.theta!.shape).toEqual([20, 8]);
  });

  it('computeDeterministics checks its input by name', () => {
    const draws = { mu: tensor([[0]]), tau: tensor([[1]]) };
    expect(() => computeDeterministics(nonCentered, draws, { y })).toThrow(/^computeDeterministics: `draws` has no draws of `thetaTilde`/);
    expect(() => computeDeterministics(nonCentered, draws, { z: 1 } as never)).toThrow(/`pins` names unknown nodes/);
    expect(() => computeDeterministics({} as never, draws)).toThrow(TypeError);
    expect(computeDeterministics(inline, draws)).toEqual({});
  });
});
