import { describe, expect, it } from 'vitest';
import { elementLabel, flattenParameters, unravel } from '../../../cli/report/parameters.js';
import { arvizStatName, sampleStats, statColumns, statValues, traceKey } from '../../../cli/report/sample-stats.js';
import { flatSettings } from '../../../cli/report/settings.js';
import { Tensor, tensor } from '../../../src/tensor/tensor.js';

describe('flattenParameters', () => {
  it('labels elements like ArviZ and lays values out chain-major', () => {
    const [mu] = flattenParameters('f', { mu: tensor([[0, 1], [2, 3]]) });
    expect(mu!.name).toBe('mu');
    expect(Array.from(mu!.values)).toEqual([0, 2, 1, 3]);
    const L = flattenParameters('f', { L: new Tensor(Float64Array.from({ length: 8 }, (_, i) => i), [1, 2, 2, 2], 'float64') });
    expect(L.map((p) => p.name)).toEqual(['L[0, 0]', 'L[0, 1]', 'L[1, 0]', 'L[1, 1]']);
    expect(Array.from(L[2]!.values)).toEqual([2, 6]);
    expect(L[2]!.index).toEqual([1, 0]);
    expect(L[2]!.values).toBe(L[2]!.values);   // gathered once, when first read
    expect(elementLabel('x', [], 0)).toBe('x');
    expect(unravel([2, 3], 4)).toEqual([1, 1]);
  });

  it('reads one chain from a rank-1 part, and names array parts x0, x1', () => {
    const ps = flattenParameters('f', [Float64Array.of(1, 2, 3), Float64Array.of(4, 5, 6)]);
    expect(ps.map((p) => [p.name, p.chains, p.draws])).toEqual([['x0', 1, 3], ['x1', 1, 3]]);
  });
});

describe('sample stats', () => {
  it('maps trace keys to ArviZ names and back', () => {
    const pairs = [['stepSize', 'step_size'], ['treeDepth', 'tree_depth'], ['nSteps', 'n_steps'], ['diverging', 'diverging'],
      ['acceptRatio', 'acceptance_rate'], ['energy', 'energy'], ['targetLogProb', 'lp'], ['isAccepted', 'is_accepted'], ['tune', 'tune']];
    for (const [k, n] of pairs) {
      expect(arvizStatName(k!)).toBe(n);
      expect(traceKey(n!)).toBe(k);
    }
  });

  it('keeps per-draw fields only; statistics with extra dims get element columns', () => {
    const trace = {
      energy: tensor([[1, 2], [3, 4], [5, 6]]),
      perPart: new Tensor(Float64Array.from({ length: 12 }, (_, i) => i), [3, 2, 2], 'float64'),
      final: tensor([1, 2]),
      wrongChains: tensor([[1], [2], [3]]),
      other: 'x',
    };
    const stats = sampleStats('f', trace, 3, 2);
    expect(stats.map((s) => s.name)).toEqual(['energy', 'per_part']);
    expect(statColumns(stats[1]!).map((c) => c.label)).toEqual(['per_part[0]', 'per_part[1]']);
    expect(Array.from(statValues(stats, 'energy')!)).toEqual([1, 3, 5, 2, 4, 6]);
    expect(statValues(stats, 'diverging')).toBeUndefined();
    expect(sampleStats('f', undefined, 3, 2)).toEqual([]);
  });
});

describe('flatSettings', () => {
  it('orders the known fields first, spreads versions, rejects odd values', () => {
    expect(flatSettings('f', { model: 'm', extra: true, seed: 2n, versions: { stochax: '1' }, chains: 4 }))
      .toEqual([['seed', '2'], ['chains', 4], ['model', 'm'], ['extra', true], ['stochax_version', '1']]);
    expect(flatSettings('f', undefined)).toEqual([]);
    expect(() => flatSettings('f', { draws: NaN })).toThrow(/^f: `settings\.draws` must be a string, a finite number/);
    expect(() => flatSettings('f', { versions: { node: 20 as never } })).toThrow(/^f: `settings\.versions\.node` must be a string/);
    expect(() => flatSettings('f', 3 as never)).toThrow(TypeError);
  });
});
