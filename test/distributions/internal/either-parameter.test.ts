import { describe, expect, it } from 'vitest';
import {
  Bernoulli, Binomial, Categorical, Gamma, Geometric, Multinomial, NegativeBinomial, OneHotCategorical, Poisson,
} from '../../../distributions/index.js';
import { logitsOf, oneMinusProbsOf, probsOf } from '../../../distributions/internal/either-parameter.js';
import { tensor, type Tensor } from '../../../src/tensor/tensor.js';

describe('parameters given in one of two forms', () => {
  // [name, construct with extra options, first form, second form, a valid value]
  const cases: [string, (o: Record<string, unknown>) => unknown, string, string, unknown][] = [
    ['Bernoulli', (o) => new Bernoulli(o), 'logits', 'probs', 0.3],
    ['Binomial', (o) => new Binomial({ totalCount: 5, ...o }), 'logits', 'probs', 0.3],
    ['Geometric', (o) => new Geometric(o), 'logits', 'probs', 0.3],
    ['NegativeBinomial', (o) => new NegativeBinomial({ totalCount: 5, ...o }), 'logits', 'probs', 0.3],
    ['Categorical', (o) => new Categorical(o), 'logits', 'probs', [0.5, 0.5]],
    ['OneHotCategorical', (o) => new OneHotCategorical(o), 'logits', 'probs', [0.5, 0.5]],
    ['Multinomial', (o) => new Multinomial({ totalCount: 5, ...o }), 'logits', 'probs', [0.5, 0.5]],
    ['Poisson', (o) => new Poisson(o), 'rate', 'logRate', 2],
    ['Gamma', (o) => new Gamma({ concentration: 2, ...o }), 'rate', 'logRate', 2],
  ];

  it.each(cases)('%s: neither or both is a TypeError naming the first form', (name, make, first, second, v) => {
    const message = new RegExp(`^${name}: \`${first}\` or \`${second}\` must be given, but not both`);
    expect(() => make({})).toThrow(TypeError);
    expect(() => make({})).toThrow(message);
    expect(() => make({ [first]: v, [second]: v })).toThrow(message);
    expect(() => make({ [first]: v })).not.toThrow();
    expect(() => make({ [second]: v })).not.toThrow();
  });

  it('p, 1 − p and logit p from either form', () => {
    const l = tensor([40, -1, 0, 2]), p = tensor([0.25, 0.5, 0.9]);
    const sig = (x: number) => 1 / (1 + Math.exp(-x));
    const values = (t: Tensor) => Array.from(t.data as Float64Array);
    const close = (got: number[], want: number[]) =>
      want.forEach((w, i) => expect(Math.abs(got[i]! - w)).toBeLessThanOrEqual(4e-16 * Math.abs(w)));
    close(values(probsOf(l, undefined)), [40, -1, 0, 2].map(sig));
    expect(probsOf(undefined, p)).toBe(p);
    // 1 − p from logits is sigmoid(−logits): 4.2e−18 at logits 40, where 1 − sigmoid(40) is 0.
    close(values(oneMinusProbsOf(l, undefined)), [-40, 1, 0, -2].map(sig));
    expect(values(oneMinusProbsOf(undefined, p))).toEqual([0.75, 0.5, 1 - 0.9]);
    expect(logitsOf(l, undefined)).toBe(l);
    const lp = values(logitsOf(undefined, p));
    [0.25, 0.5, 0.9].forEach((q, i) => expect(lp[i]).toBeCloseTo(Math.log(q / (1 - q)), 14));
  });
});
