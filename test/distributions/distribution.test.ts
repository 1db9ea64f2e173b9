// The Distribution base class's option checks: an unknown (misspelt) parameter name is a
// TypeError naming the distribution and the name, instead of being ignored.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as D from '../../distributions/index.js';
import { Bernoulli, Distribution, Gamma, Independent, JointDistributionNamed, JointDistributionSequential, Normal, Sample } from '../../distributions/index.js';
import { tensor } from '../../src/tensor/tensor.js';
import { declaredOptionNames } from '../declared-options.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

describe('Distribution constructors', () => {
  it('reject an unknown parameter with a TypeError naming the distribution and the parameter', () => {
    expect(() => new Normal({ loc: 0, scal: 1 } as never)).toThrow(TypeError);
    expect(() => new Normal({ loc: 0, scal: 1 } as never)).toThrow(/^Normal: unknown parameter `scal` \(Normal takes loc, scale, name, validateArgs, allowNanStats, defaultEventSpaceBijector, enumerate\)$/);
    expect(() => new Gamma({ concentration: 1, rates: 2 } as never)).toThrow(/Gamma: unknown parameter `rates`/);
    expect(() => new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sample_shape: 3 } as never)).toThrow(/Sample: unknown parameter `sample_shape`/);
    expect(() => new Independent({ distribution: new Normal({ loc: [0], scale: 1 }), reinterpretedBatchNDims: 1 } as never)).toThrow(/Independent: unknown parameter `reinterpretedBatchNDims`/);
    expect(() => new Normal({ loc: 0, scale: 1, validate_args: true } as never)).toThrow(/Normal: unknown parameter `validate_args`/);
    expect(() => new Normal({ loc: 0, scale: 1 }).copy({ scal: 2 })).toThrow(/Normal: unknown parameter `scal`/);
  });

  it('accept every documented option', () => {
    expect(new Bernoulli({ probs: 0.5, dtype: 'int32', name: 'b', validateArgs: true, allowNanStats: false }).dtype).toBe('int32');
    expect(new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 3 }).eventShape).toEqual([3]);
    expect(new Normal({ loc: 0, scale: 1 }).copy({ scale: 2 }).stddev().item()).toBe(2);
  });

  // Whatever an options type declares, the runtime accepts (and nothing else): the parameter
  // table, `optionNames` and the common options together equal each constructor's option type.
  it('accept exactly the option names each constructor\'s type declares', () => {
    const isDist = (c: unknown) => typeof c === 'function' && c !== Distribution && c.prototype instanceof Distribution;
    const declared = declaredOptionNames(join(repo, 'distributions', 'index.ts'), D as Record<string, unknown>, isDist);
    for (const [name, names] of declared) {
      const cls = (D as Record<string, unknown>)[name] as typeof Distribution;
      const accepted = new Set([...Object.keys(cls.parameterProperties), ...cls.optionNames, 'name', 'validateArgs', 'allowNanStats', 'defaultEventSpaceBijector', 'enumerate']);
      expect([...accepted].sort(), name).toEqual([...names].sort());
    }
    expect(declared.size).toBeGreaterThan(40);
  }, 120_000);

  it('sample rejects an unknown option (a misspelt seed would draw a fresh, unreproducible one)', () => {
    expect(() => new Normal({ loc: 0, scale: 1 }).sample([2], { sed: 1 } as never)).toThrow(/Normal\.sample: `options` has unknown option `sed` \(known: seed\)/);
  });
});

describe('joint distribution constructors and sample', () => {
  const model = () => new JointDistributionNamed({ a: new Normal({ loc: 0, scale: 1 }) });

  it('reject unknown options naming them', () => {
    expect(() => new JointDistributionNamed({ a: new Normal({ loc: 0, scale: 1 }) }, { nmae: 'x' } as never)).toThrow(/JointDistributionNamed: `options` has unknown option `nmae` \(known: validateArgs, name\)/);
    expect(() => new JointDistributionSequential([new Normal({ loc: 0, scale: 1 })], { validate: true } as never)).toThrow(TypeError);
    expect(() => model().sample([], { seed: 0, values: {} } as never)).toThrow(/JointDistributionNamed\.sample: `options` has unknown option `values` \(known: seed, value\)/);
    expect(() => model().experimentalPin({ a: tensor(0) }).sampleUnpinned([], { sed: 1 } as never)).toThrow(TypeError);
    expect(model().sample([], { seed: 0, value: { a: 1 } }).a!.item()).toBe(1);
  });
});
