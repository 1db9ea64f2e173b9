// Log-density terms of joint models (`factor`: Stan's `target +=`, PyMC's pm.Potential, NumPyro's
// numpyro.factor): not nodes — no seed, value or unconstrained coordinate — so draws are those of
// the model without the term, while logProb, unnormalizedLogProb (of pinned models too), logWeight,
// the compiled log density and hence MCMC include it. Oracles: the same model without the term
// (bit-equal draws; log densities differing by exactly the term), the tape (compiled = tape bitwise)
// and a closed-form posterior (a Normal prior times a Gaussian factor is a Normal).
import { describe, expect, it } from 'vitest';
import {
  compileLogDensity, deterministic, factor, HalfNormal, isFactorFn, isFactorNode, JointDistributionCoroutine, JointDistributionNamed,
  JointDistributionSequential, Normal, Root, Sample, type CoroutineModel,
} from '../../../distributions/index.js';
import { summary, windowedAdaptiveNuts } from '../../../mcmc/index.js';
import { add, mul, neg, square, sum, tensor, type Tensor } from '../../../src/index.js';
import { expectModelMatchesTape } from '../../compile/model-tape.js';

const bits = (t: Tensor) => Array.from(t.data as Float64Array);
const num = (t: Tensor) => t.item() as number;
const data = tensor([0.4, -0.3, 1.2, 0.8]);
const penalty = (mu: Tensor, sigma: Tensor) => mul(-2, square(sub2(mu, sigma)));
function sub2(a: Tensor, b: Tensor): Tensor { return add(a, neg(b)); }

const named = (withFactor: boolean) => new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 1 }),
  sigma: new HalfNormal({ scale: 1 }),
  ...(withFactor ? { pen: factor((mu: Tensor, sigma: Tensor) => penalty(mu, sigma)) } : {}),
  y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: 4 }),
});

const sequential = (withFactor: boolean) => new JointDistributionSequential([
  new Normal({ loc: 0, scale: 1 }),
  new HalfNormal({ scale: 1 }),
  ...(withFactor ? [factor((sigma: Tensor, mu: Tensor) => penalty(mu, sigma))] : []),
  (sigma: Tensor, mu: Tensor) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: 4, name: 'y' }),
]);

const coroutine = (withFactor: boolean) => new JointDistributionCoroutine(function* (): CoroutineModel {
  const mu: Tensor = yield Root(new Normal({ loc: 0, scale: 1, name: 'mu' }));
  const sigma: Tensor = yield Root(new HalfNormal({ scale: 1, name: 'sigma' }));
  if (withFactor) yield factor('pen', penalty(mu, sigma));
  yield new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: 4, name: 'y' });
});

const point = { mu: 0.3, sigma: 1.4, y: data };
const term = num(penalty(tensor(0.3), tensor(1.4)));

describe('factor in each joint distribution class', () => {
  const cases = [
    ['JointDistributionNamed', named, 'pen'],
    ['JointDistributionSequential', sequential, 'model[2]'],
    ['JointDistributionCoroutine', coroutine, 'pen'],
  ] as const;
  for (const [cls, make, name] of cases) {
    it(`${cls}: not a node; draws unchanged; logProb and unnormalizedLogProb add the term`, () => {
      const a = make(false), b = make(true);
      expect(b.nodeNames).toEqual(a.nodeNames);
      expect(b.factorNames).toEqual([name]);
      expect(a.factorNames).toEqual([]);
      for (const seed of [0, 7]) {
        const xa = a.sample([3], { seed }) as unknown as Record<string, Tensor>, xb = b.sample([3], { seed }) as unknown as Record<string, Tensor>;
        for (const k of Object.keys(xa)) expect(bits(xb[k]!)).toEqual(bits(xa[k]!));
      }
      const lpA = num(a.logProb(point)), lpB = num(b.logProb(point));
      expect(lpB).toBe(lpA + term);
      expect(num(b.unnormalizedLogProb(point))).toBe(num(a.unnormalizedLogProb(point)) + term);
      expect(Object.keys(b.logProbParts(point))).toEqual(Object.keys(a.logProbParts(point)));
      expect(num(b.factorValues(point)[name]!)).toBe(term);
      // Pinned: the MCMC target and the importance weight include it.
      const pa = a.experimentalPin({ y: data }), pb = b.experimentalPin({ y: data });
      expect(num(pb.unnormalizedLogProb({ mu: 0.3, sigma: 1.4 }))).toBe(num(pa.unnormalizedLogProb({ mu: 0.3, sigma: 1.4 })) + term);
      expect(num(pb.logWeight({ mu: 0.3, sigma: 1.4 }))).toBe(num(pa.logWeight({ mu: 0.3, sigma: 1.4 })) + term);
      // Batched values (a sample axis): one term per draw.
      const batch = { mu: tensor([0.3, -1]), sigma: tensor([1.4, 0.5]), y: tensor([[0, 1, 2, 3], [1, 1, 1, 1]]) };
      expect(b.logProb(batch).shape).toEqual([2]);
    });

    it(`${cls}: compiled log density = tape, and differs from the model without it by the term`, () => {
      expectModelMatchesTape(make(true), { y: data });
      const a = compileLogDensity(make(false), { pins: { y: data } }), b = compileLogDensity(make(true), { pins: { y: data } });
      expect(b.dim).toBe(2);
      const x = b.unconstrain({ mu: 0.3, sigma: 1.4 });
      expect(b.logDensity(x)).toBeCloseTo(a.logDensity(x) + term, 12);
    });
  }

  it('a factor may take deterministic values as parents (JointDistributionNamed)', () => {
    const jd = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 1 }),
      twice: deterministic((mu: Tensor) => mul(mu, 2)),
      pen: factor((twice: Tensor) => neg(square(twice))),
    });
    expect(num(jd.logProb({ mu: 0.5 }))).toBe(num(new Normal({ loc: 0, scale: 1 }).logProb(0.5)) - 1);
    expect(jd.deterministicNames).toEqual(['twice']);
  });

  it('Sequential: entries after a factor skip it in their arguments; a leading factor with no arguments works', () => {
    const jd = new JointDistributionSequential([
      factor(() => tensor(-1.5)),
      new Normal({ loc: 0, scale: 1 }),
      factor((a: Tensor) => neg(a)),
      (a: Tensor) => new Normal({ loc: a, scale: 1 }),
    ]);
    expect(jd.nodeNames.length).toBe(2);
    expect(jd.factorNames).toEqual(['model[0]', 'model[2]']);
    expect(jd.resolveGraph()).toEqual([['a', []], ['x', ['a']]]);
    const n = new Normal({ loc: 0, scale: 1 });
    expect(num(jd.logProb([0.5, 0.2]))).toBe(num(n.logProb(0.5)) + num(new Normal({ loc: 0.5, scale: 1 }).logProb(0.2)) - 1.5 - 0.5);
  });

  it('NUTS samples the posterior the term changes: N(0, 1) prior × exp(−3μ²/2) is N(0, 1/4)', () => {
    const jd = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 1 }),
      pen: factor((mu: Tensor) => mul(-1.5, square(mu))),
    });
    const { draws } = windowedAdaptiveNuts(jd, { seed: 1, nChains: 2, numAdaptationSteps: 200, nDraws: 500 });
    const s = summary(draws).get('mu')!;
    // 1000 draws: the mean's MCSE is ~0.5/√ESS ≈ 0.02; the sd's relative error ~3%.
    expect(Math.abs(s.mean)).toBeLessThan(0.1);
    expect(Math.abs(s.sd - 0.5)).toBeLessThan(0.06);
  }, 30_000);
});

describe('factor: bad input', () => {
  it('factor() checks its arguments, naming them', () => {
    expect(() => factor(1 as never)).toThrow(TypeError);
    expect(() => factor(1 as never)).toThrow(/factor: `name`/);
    expect(() => factor('' as never, 1)).toThrow(/factor: `name`/);
    expect(() => factor('a', undefined as never)).toThrow(/factor: `logTerm`/);
    expect(() => factor((() => 1) as never, 2 as never)).toThrow(/factor: `logTerm` must not be given with a function/);
    expect(() => factor('a', tensor([true]) as never)).toThrow(/factor: `logTerm` must be a float tensor/);
    expect(isFactorNode(factor('a', 1))).toBe(true);
    expect(isFactorFn(factor(() => 1))).toBe(true);
    expect(isFactorNode(deterministic('a', 1))).toBe(false);
  });

  it('a node cannot take a factor as a parent; names must be unique', () => {
    expect(() => new JointDistributionNamed({
      a: new Normal({ loc: 0, scale: 1 }),
      f: factor((a: Tensor) => a),
      b: (f: Tensor) => new Normal({ loc: f, scale: 1 }),
    })).toThrow(/JointDistributionNamed: `model\.b` has an argument `f` that names a factor/);
    const dup = new JointDistributionCoroutine(function* (): CoroutineModel {
      const a: Tensor = yield Root(new Normal({ loc: 0, scale: 1, name: 'a' }));
      yield factor('f', a);
      yield factor('f', a);
    });
    expect(() => dup.logProb([0.1])).toThrow(RangeError);
    expect(() => dup.factorNames).toThrow(/two log-density terms named "f"/);
    const clash = new JointDistributionCoroutine(function* (): CoroutineModel {
      const a: Tensor = yield Root(new Normal({ loc: 0, scale: 1, name: 'a' }));
      yield factor('a', a);
    });
    expect(() => clash.factorNames).toThrow(/named "a"/);
  });

  it('an error inside a factor names it', () => {
    const jd = new JointDistributionNamed({
      a: new Normal({ loc: 0, scale: 1 }),
      f: factor((a: Tensor) => add(a, tensor([1, 2, 3]).reshape([3, 1]).mul(tensor([1, 2]))) as Tensor),
    });
    expect(() => jd.logProb({ a: tensor([1, 2, 3, 4]) })).toThrow(/in factor `model\.f`/);
    const seq = new JointDistributionSequential([new Normal({ loc: 0, scale: 1 }), factor(() => 'x' as never)]);
    expect(() => seq.logProb([0])).toThrow(/model\[1\]/);
    expect(num(sum(tensor([1])))).toBe(1);
  });
});
