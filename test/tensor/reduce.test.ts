/**
 * Reductions: values against reference loops written here (grouping by multi-index), edge cases
 * (zeros, ties, NaN, ±∞, empty axes), gradients with checkGradient over axis/keepdims/broadcast
 * combinations, and error paths.
 */
import { describe, expect, it } from 'vitest';
import { checkGradient, grad, valueAndGrad } from '../../src/tensor/autodiff.js';
import { add, mul } from '../../src/tensor/ops/elementwise.js';
import { argmax, argmin, logsumexp, max, mean, min, prod, sum, type Axes } from '../../src/tensor/ops/reduce.js';
import { cumlogsumexp, cumsum } from '../../src/tensor/ops/cumulative.js';
import { std, variance } from '../../src/tensor/ops/moments.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';

const vals = (t: Tensor) => Array.from(t.data as ArrayLike<number>);
const rng = (seed: number) => () => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 2 ** 32; };
const rand = (shape: number[], r = rng(7), lo = -2, hi = 2) => {
  const n = shape.reduce((a, b) => a * b, 1);
  return new Tensor(Float64Array.from({ length: n }, () => lo + (hi - lo) * r()), shape);
};
const strides = (s: readonly number[]) => s.map((_, i) => s.slice(i + 1).reduce((a, b) => a * b, 1));
const unravel = (k: number, s: readonly number[]) => s.map((d, i) => Math.floor(k / strides(s)[i]!) % d);

/** Reference reduction: groups input values by their kept coordinates, in row-major order. */
function refReduce(x: Tensor, axis: Axes, keepdims: boolean, f: (v: number[]) => number): { shape: number[]; values: number[] } {
  const nd = x.ndim;
  const axes = axis === undefined ? [...Array(nd).keys()] : (typeof axis === 'number' ? [axis] : [...axis]).map((a) => (a + nd) % nd);
  const shape = x.shape.flatMap((d, i) => (axes.includes(i) ? (keepdims ? [1] : []) : [d]));
  const groups = new Map<string, number[]>();
  for (let k = 0; k < x.size; k++) {
    const key = unravel(k, x.shape).filter((_, i) => !axes.includes(i)).join(',');
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(Number(x.data[k]));
  }
  return { shape, values: [...groups.values()].map(f) };
}

const AXES: [Axes, boolean][] = [[undefined, false], [undefined, true], [0, false], [1, true], [-1, false], [[0, 2], false], [[2, 0], true], [[], false]];
const weights = (shape: readonly number[], seed = 3) => rand([...shape], rng(seed));
const TOL = 1e-7;

const refs: [string, (x: Tensor, a: Axes, k: boolean) => Tensor, (v: number[]) => number][] = [
  ['sum', sum, (v) => v.reduce((a, b) => a + b, 0)],
  ['mean', mean, (v) => v.reduce((a, b) => a + b, 0) / v.length],
  ['prod', prod, (v) => v.reduce((a, b) => a * b, 1)],
  ['max', max, (v) => Math.max(...v)],
  ['min', min, (v) => Math.min(...v)],
  ['logsumexp', logsumexp, (v) => Math.log(v.reduce((a, b) => a + Math.exp(b), 0))],
  ['variance', variance, (v) => { const m = v.reduce((a, b) => a + b, 0) / v.length; return v.reduce((a, b) => a + (b - m) ** 2, 0) / v.length; }],
  ['std', std, (v) => { const m = v.reduce((a, b) => a + b, 0) / v.length; return Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / v.length); }],
];

describe.each(refs)('%s', (_, op, ref) => {
  const x = rand([2, 3, 4]);

  it('matches a reference loop for every axis and keepdims combination', () => {
    for (const [axis, keepdims] of AXES) {
      const y = op(x, axis, keepdims);
      const r = refReduce(x, axis, keepdims, ref);
      expect(y.shape).toEqual(r.shape);
      vals(y).forEach((v, i) => expect(Math.abs(v - r.values[i]!)).toBeLessThanOrEqual(2e-15 * Math.max(1, Math.abs(r.values[i]!))));
    }
  });

  it('has gradients that match finite differences, with keepdims and broadcasting', () => {
    for (const [axis, keepdims] of AXES) {
      const w = weights(op(x, axis, keepdims).shape);
      expect(checkGradient((t) => sum(mul(op(t, axis, keepdims), w)), x).maxRelativeError, `axis ${axis}`).toBeLessThan(TOL);
    }
    // keepdims output broadcast back against a full-shape tensor (softmax-like patterns).
    const big = weights([2, 3, 4], 9);
    expect(checkGradient((t) => sum(mul(add(t, op(t, 1, true)), big)), x).maxRelativeError).toBeLessThan(TOL);
    // A broadcast input: x of shape [3, 1] stretched against [3, 4] before reducing.
    const c = weights([3, 4], 5), w = weights([4], 6);
    expect(checkGradient((t) => sum(mul(op(add(t, c), 0, false), w)), rand([3, 1], rng(2))).maxRelativeError).toBeLessThan(TOL);
  });

  it('computes float32 input to a float32 result', () => {
    expect(op(tensor([[1, 2], [3, 4]], 'float32'), 0, false).dtype).toBe('float32');
    expect(op(tensor([[1, 2], [3, 4]], 'int32'), 0, false).dtype).toBe('float64');
  });
});

describe('prod', () => {
  it('has the exact gradient when the input holds zeros', () => {
    const g = (x: number[]) => vals(grad((t: Tensor) => prod(t))(x) as Tensor);
    expect(g([2, 0, 5])).toEqual([0, 10, 0]);
    expect(g([0, 0, 3])).toEqual([0, 0, 0]);
    expect(g([2, 3, 5])).toEqual([15, 10, 6]);
    expect(g([1e-300, 1e-300, 1e300])).toEqual([1, 1, 1e-300 * 1e-300]); // no overflow or underflow from a division
    const x = new Tensor(Float64Array.of(0, 1.5, -2, 0, 0.5, 3, 1, 0, 2, -1, 0.5, 4), [3, 4]);
    for (const axis of [0, 1, undefined]) {
      const w = weights(prod(x, axis).shape);
      expect(checkGradient((t) => sum(mul(prod(t, axis), w)), x).maxRelativeError).toBeLessThan(TOL);
    }
    expect(prod([]).item()).toBe(1);
  });
});

describe('max and min', () => {
  it('split the gradient equally among ties', () => {
    expect(vals(grad((t: Tensor) => max(t))([1, 3, 3]) as Tensor)).toEqual([0, 0.5, 0.5]);
    expect(vals(grad((t: Tensor) => min(t))([2, 2, 2, 5]) as Tensor)).toEqual([1 / 3, 1 / 3, 1 / 3, 0]);
    expect(vals(grad((t: Tensor) => sum(mul(max(t, 1), [1, 10])))([[4, 4], [1, 7]]) as Tensor)).toEqual([0.5, 0.5, 0, 10]);
    expect(vals(grad((t: Tensor) => max(t))([-Infinity, -Infinity]) as Tensor)).toEqual([0.5, 0.5]);
  });

  it('propagate NaN and give ∓∞ for empty reductions', () => {
    expect(max([1, NaN, 3]).item()).toBeNaN();
    expect(min([NaN, 1]).item()).toBeNaN();
    expect(vals(max([[1, 2], [NaN, 0]], 1))).toEqual([2, NaN]);
    expect(max(new Tensor(new Float64Array(0), [0])).item()).toBe(-Infinity);
    expect(vals(min(new Tensor(new Float64Array(0), [2, 0]), 1))).toEqual([Infinity, Infinity]);
    expect(max([-Infinity, -Infinity]).item()).toBe(-Infinity);
  });
});

describe('logsumexp', () => {
  it('is stable for large and tiny values', () => {
    expect(logsumexp([1000, 1000]).item()).toBe(1000 + Math.LN2);
    expect(logsumexp([-1000, -1000.5]).item()).toBe(-1000 + Math.log1p(Math.exp(-0.5)));
    expect(logsumexp([0, -800]).item()).toBe(0);
    expect(logsumexp([1e-20, -50]).item()).toBeCloseTo(1e-20 + Math.exp(-50), 30);
    expect(vals(logsumexp([[1000, 0], [-Infinity, 5]], 1))).toEqual([1000, 5]);
  });

  it('gives −∞ with a zero (not NaN) gradient when everything is −∞', () => {
    const [v, g] = valueAndGrad((t: Tensor) => logsumexp(t))([-Infinity, -Infinity]);
    expect(v.item()).toBe(-Infinity);
    expect(vals(g as Tensor)).toEqual([0, 0]);
    const g2 = grad((t: Tensor) => sum(logsumexp(t, 1)))([[-Infinity, -Infinity], [0, -Infinity]]) as Tensor;
    expect(vals(g2)).toEqual([0, 0, 1, 0]);
    expect(logsumexp(new Tensor(new Float64Array(0), [0])).item()).toBe(-Infinity);
  });

  it('handles +∞ and NaN', () => {
    expect(logsumexp([Infinity, 0]).item()).toBe(Infinity);
    expect(vals(grad((t: Tensor) => logsumexp(t))([Infinity, 0, Infinity]) as Tensor)).toEqual([0.5, 0, 0.5]);
    expect(logsumexp([NaN, 0]).item()).toBeNaN();
  });

  it('has a softmax gradient that is shift-invariant far from 0', () => {
    const x = rand([5], rng(4));
    const g0 = vals(grad((t: Tensor) => logsumexp(t))(x) as Tensor);
    const g1 = vals(grad((t: Tensor) => logsumexp(t))(add(x, 1e4)) as Tensor);
    g0.forEach((v, i) => expect(g1[i]).toBeCloseTo(v, 10));
    expect(g0.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 15);
  });
});

describe('argmax and argmin', () => {
  const refArg = (v: number[], better: (a: number, b: number) => boolean) =>
    v.reduce((best, a, i) => (better(a, v[best]!) ? i : best), 0);

  it('return int32 positions of the first extreme, like a reference loop', () => {
    // Integers in [0, 4) so that ties are common.
    const x = new Tensor(Float64Array.from({ length: 60 }, (_, i) => Math.floor(4 * rng(i + 1)())), [3, 4, 5]);
    for (const axis of [undefined, 0, 1, 2, -1]) {
      for (const keepdims of [false, true]) {
        for (const [op, better] of [[argmax, (a: number, b: number) => a > b], [argmin, (a: number, b: number) => a < b]] as const) {
          const y = op(x, axis, keepdims);
          const r = refReduce(x, axis, keepdims, (v) => refArg(v, better));
          expect(y.dtype).toBe('int32');
          expect(y.shape).toEqual(r.shape);
          expect(vals(y)).toEqual(r.values);
        }
      }
    }
    expect(argmax([3, 7, 7]).item()).toBe(1);
    expect(argmin([[1, 9], [8, 2]], 0).toArray()).toEqual([0, 1]);
  });

  it('treat NaN as the extreme (first NaN wins, as in NumPy)', () => {
    expect(argmax([1, NaN, 5, NaN]).item()).toBe(1);
    expect(argmin([1, NaN, -5]).item()).toBe(1);
    expect(argmax([Infinity, 1]).item()).toBe(0);
  });

  it('have no gradient', () => {
    const g = grad((t: Tensor) => add(sum(mul(argmax(t, 1), 1)), sum(mul(t, 0))))([[1, 2], [4, 3]]) as Tensor;
    expect(vals(g)).toEqual([0, 0, 0, 0]);
  });

  it('reject empty axes and several axes', () => {
    expect(() => argmax(new Tensor(new Float64Array(0), [0]))).toThrow(/argmax: `x` has no elements/);
    expect(() => argmin(new Tensor(new Float64Array(0), [2, 0]), 1)).toThrow(RangeError);
    expect(() => argmax([[1]], [0, 1] as never)).toThrow(/argmax: `axis` must be an integer/);
    expect(() => argmax([1], 1)).toThrow(/argmax: `axis` must be an axis in \[-1, 1\)/);
  });
});

describe('cumsum and cumlogsumexp', () => {
  /** Reference: along `axis` (flattened when undefined), yᵢ = f applied to x₀..xᵢ. */
  const refCum = (x: Tensor, axis: number | undefined, f: (v: number[]) => number) => {
    if (axis === undefined) return Array.from(x.data as Float64Array, (_, i) => f(Array.from(x.data as Float64Array).slice(0, i + 1)));
    const ax = (axis + x.ndim) % x.ndim;
    return Array.from({ length: x.size }, (_, k) => {
      const idx = unravel(k, x.shape);
      const prefix: number[] = [];
      for (let i = 0; i <= idx[ax]!; i++) {
        const j = [...idx];
        j[ax] = i;
        prefix.push(x.data[j.reduce((a, v, d) => a + v * strides(x.shape)[d]!, 0)] as number);
      }
      return f(prefix);
    });
  };
  const ops = [
    ['cumsum', cumsum, (v: number[]) => v.reduce((a, b) => a + b, 0)],
    ['cumlogsumexp', cumlogsumexp, (v: number[]) => Math.log(v.reduce((a, b) => a + Math.exp(b), 0))],
  ] as const;

  it.each(ops)('%s matches a reference loop along every axis and flattened', (_, op, f) => {
    const x = rand([2, 3, 4]);
    for (const axis of [undefined, 0, 1, 2, -1]) {
      const y = op(x, axis);
      expect(y.shape).toEqual(axis === undefined ? [24] : [2, 3, 4]);
      const r = refCum(x, axis, f);
      vals(y).forEach((v, i) => expect(Math.abs(v - r[i]!)).toBeLessThanOrEqual(1e-15 * Math.max(1, Math.abs(r[i]!))));
      const w = weights(y.shape);
      expect(checkGradient((t) => sum(mul(op(t, axis), w)), x).maxRelativeError, `axis ${axis}`).toBeLessThan(TOL);
    }
    expect(op(5).toArray()).toEqual([5]);
    expect(op(tensor([1, 2], 'float32'), 0).dtype).toBe('float32');
    // Broadcast input.
    const c = weights([3, 4], 5), w = weights([3, 4], 6);
    expect(checkGradient((t) => sum(mul(op(add(t, c), 0), w)), rand([4], rng(2))).maxRelativeError).toBeLessThan(TOL);
  });

  it('cumlogsumexp is stable and keeps −∞ inputs from producing NaN gradients', () => {
    expect(vals(cumlogsumexp([1000, 1000, -Infinity]))).toEqual([1000, 1000 + Math.LN2, 1000 + Math.LN2]);
    expect(vals(cumlogsumexp([-1000, -1001]))).toEqual([-1000, -1000 + Math.log1p(Math.exp(-1))]);
    expect(vals(cumlogsumexp([-Infinity, -Infinity, 0]))).toEqual([-Infinity, -Infinity, 0]);
    expect(vals(cumlogsumexp([Infinity, Infinity, 1]))).toEqual([Infinity, Infinity, Infinity]);
    const g = grad((t: Tensor) => sum(cumlogsumexp(t)))([-Infinity, -Infinity, 0, -Infinity]) as Tensor;
    expect(vals(g)).toEqual([0, 0, 2, 0]);
    // Shift invariance of the gradient at large magnitudes (no overflow in exp).
    const x = rand([6], rng(8));
    const w = weights([6]);
    const g0 = vals(grad((t: Tensor) => sum(mul(cumlogsumexp(t), w)))(x) as Tensor);
    const g1 = vals(grad((t: Tensor) => sum(mul(cumlogsumexp(t), w)))(add(x, 5e3)) as Tensor);
    g0.forEach((v, i) => expect(g1[i]).toBeCloseTo(v, 9));
  });

  it('reject a bad axis', () => {
    expect(() => cumsum([[1, 2]], 2)).toThrow(/cumsum: `axis` must be an axis in \[-2, 2\)/);
    expect(() => cumlogsumexp([1, 2], 0.5)).toThrow(TypeError);
    expect(() => cumsum(3, 0)).toThrow(RangeError);
  });
});

describe('variance and std', () => {
  it('honour ddof', () => {
    expect(variance([1, 2, 3, 4]).item()).toBe(1.25);
    expect(variance([1, 2, 3, 4], undefined, false, { ddof: 1 }).item()).toBeCloseTo(5 / 3, 15);
    expect(std([2, 4, 4, 4, 5, 5, 7, 9]).item()).toBe(2);
    expect(vals(std([[1, 3], [2, 2]], 1, false, { ddof: 1 }))).toEqual([Math.SQRT2, 0]);
    expect(variance([1], undefined, false, { ddof: 1 }).item()).toBeNaN();
    const x = rand([3, 4]);
    const w = weights([4]);
    expect(checkGradient((t) => sum(mul(variance(t, 0, false, { ddof: 1 }), w)), x).maxRelativeError).toBeLessThan(TOL);
    expect(checkGradient((t) => sum(mul(std(t, 0, false, { ddof: 1 }), w)), x).maxRelativeError).toBeLessThan(TOL);
  });

  it('check their options: an unknown name is a TypeError naming it', () => {
    expect(() => variance([1, 2, 3], undefined, false, { dof: 1 } as never)).toThrow(TypeError);
    expect(() => variance([1, 2, 3], undefined, false, { dof: 1 } as never)).toThrow(/variance: `options` has unknown option `dof` \(known: ddof\)/);
    expect(() => std([1, 2, 3], undefined, false, { ddof: 1, correction: 1 } as never)).toThrow(/std: `options` has unknown option `correction`/);
    expect(() => std([1, 2, 3], undefined, false, { ddof: -1 })).toThrow(RangeError);
    expect(() => std([1, 2, 3], undefined, false, { ddof: 0.5 })).toThrow(/std: `ddof` must be an integer/);
  });

  it('is accurate for data with a large offset (two-pass)', () => {
    expect(variance([1e9 + 1, 1e9 + 2, 1e9 + 3]).item()).toBeCloseTo(2 / 3, 9);
  });

  it('std has a zero gradient where it is 0', () => {
    expect(vals(grad((t: Tensor) => std(t))([3, 3, 3]) as Tensor)).toEqual([0, 0, 0]);
  });
});

describe('bad arguments', () => {
  it.each([['sum', sum], ['prod', prod], ['max', max], ['logsumexp', logsumexp], ['variance', variance]] as const)('%s names the axis', (name, op) => {
    expect(() => op([[1, 2]], 2)).toThrow(new RegExp(`${name}: \`axis\` must be an axis in \\[-2, 2\\)`));
    expect(() => op([[1, 2]], [0, -2])).toThrow(new RegExp(`${name}: \`axis\` must not repeat an axis`));
    expect(() => op([[1, 2]], 0.5)).toThrow(TypeError);
    expect(() => op([[1, 2]], 0, 'yes' as never)).toThrow(new RegExp(`${name}: \`keepdims\``));
    expect(() => op('x' as never)).toThrow(new RegExp(`${name}: \`x\``));
  });

  it('variance rejects a bad ddof', () => {
    expect(() => variance([1, 2], undefined, false, { ddof: -1 })).toThrow(/variance: `ddof`/);
    expect(() => std([1, 2], undefined, false, 3 as never)).toThrow(/std: `options` must be an object/);
  });
});
