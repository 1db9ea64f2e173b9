/**
 * The autodiff core: element-wise ops' values and gradients (checked against central finite
 * differences with broadcasting), grad/valueAndGrad over structured arguments and control flow,
 * fused nodes, custom gradients, stopGradient and error paths.
 */
import { describe, expect, it } from 'vitest';
import * as T from '../../src/tensor/index.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';

const { add, sub, mul, div, pow, neg, square, sqrt, exp, expm1, log, log1p, abs, maximum, minimum, clip,
  sigmoid, softplus, logSigmoid, tanh, sin, cos, xlogy, xlog1py, log1mexp, logaddexp, where, sum, mean,
  grad, valueAndGrad, fusedNode, customGradient, checkGradient, stopGradient } = T;

const vals = (t: unknown) => Array.from((t as Tensor).data as Float64Array);
const rng = (seed: number) => () => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 2 ** 32; };

describe('element-wise values', () => {
  it('broadcast like NumPy and accept numbers and nested arrays', () => {
    expect(add([[1], [2]], [10, 20, 30]).toArray()).toEqual([[11, 21, 31], [12, 22, 32]]);
    expect(mul(2, [1, 2]).toArray()).toEqual([2, 4]);
    expect(sub(tensor(5), 3).item()).toBe(2);
    expect(div([1, 2], 4).dtype).toBe('float64');
    expect(add(tensor([1], 'float32'), tensor([2], 'float32')).dtype).toBe('float32');
  });

  it('are stable at the extremes', () => {
    expect(vals(softplus([1000, -1000]))).toEqual([1000, 0]);
    expect(vals(sigmoid([-1000, 1000]))).toEqual([0, 1]);
    expect(logSigmoid(-1000).item()).toBe(-1000);
    expect(logaddexp(-Infinity, -Infinity).item()).toBe(-Infinity);
    expect(logaddexp(1000, 1000).item()).toBeCloseTo(1000 + Math.LN2, 12);
    expect(log1mexp(-1e-20).item()).toBeCloseTo(Math.log(1e-20), 10);
    expect(log1mexp(-50).item()).toBeCloseTo(-Math.exp(-50), 30);
    expect(xlogy(0, 0).item()).toBe(0);
    expect(xlog1py(0, -1).item()).toBe(0);
  });

  it('compare and select', () => {
    expect(T.less([1, 2, 3], 2).toArray()).toEqual([true, false, false]);
    expect(where([true, false], [1, 2], [10, 20]).toArray()).toEqual([1, 20]);
    expect(where([[true], [false]], [1, 2], 0).toArray()).toEqual([[1, 2], [0, 0]]);
  });
});

describe('element-wise gradients against finite differences (random inputs, with broadcasting)', () => {
  const r = rng(7);
  const pos = (n: number) => Array.from({ length: n }, () => 0.2 + 2 * r());
  const any = (n: number) => Array.from({ length: n }, () => 4 * r() - 2);
  const cases: [string, (x: Tensor) => Tensor, number[]][] = [
    ['add', (x) => add(x, tensor([[1], [2]])), any(3)],
    ['sub', (x) => sub(tensor([[1], [2]]), x), any(3)],
    ['mul', (x) => mul(x, x), any(4)],
    ['div', (x) => div(tensor([[1, 2, 3]]), x), pos(3)],
    ['pow x^2.5', (x) => pow(x, 2.5), pos(3)],
    ['pow 2^x', (x) => pow(tensor([[2], [3]]), x), any(3)],
    ['neg', neg, any(3)], ['square', square, any(3)], ['sqrt', sqrt, pos(3)], ['exp', exp, any(3)],
    ['expm1', expm1, any(3)], ['log', log, pos(3)], ['log1p', log1p, pos(3)], ['abs', abs, any(3)],
    ['maximum', (x) => maximum(x, tensor([[0.1], [-0.1]])), any(3)], ['minimum', (x) => minimum(x, 0.3), any(3)],
    ['clip', (x) => clip(x, -1, 1), any(5)], ['sigmoid', sigmoid, any(3)], ['softplus', softplus, any(3)],
    ['logSigmoid', logSigmoid, any(3)], ['tanh', tanh, any(3)], ['sin', sin, any(3)], ['cos', cos, any(3)],
    ['xlogy', (x) => xlogy(x, tensor([[0.5], [2]])), any(3)], ['xlogy (y)', (x) => xlogy(tensor([[0.5], [2]]), x), pos(3)],
    ['xlog1py', (x) => xlog1py(x, 0.7), any(3)], ['log1mexp', log1mexp, pos(3).map((v) => -v)],
    ['logaddexp', (x) => logaddexp(x, tensor([[0.5], [-3]])), any(3)],
    ['where', (x) => where([true, false, true], square(x), mul(x, 3)), any(3)],
    ['mean over broadcast', (x) => mean(mul(x, tensor([[1], [2], [3]]))), any(4)],
  ];
  it.each(cases)('%s', (_, f, x) => {
    const check = checkGradient((t) => sum(mul(f(t), tensor([[1.5], [-0.5]]).data.length ? 1 : 1)), x);
    expect(check.maxRelativeError).toBeLessThan(1e-7);
  });
});

describe('grad and valueAndGrad', () => {
  it('return the value and the gradient', () => {
    const [v, g] = valueAndGrad((x: Tensor) => sum(square(x)))([1, 2, 3]);
    expect(v.item()).toBe(14);
    expect(vals(g)).toEqual([2, 4, 6]);
  });

  it('differentiate through control flow', () => {
    const f = (x: Tensor) => { let y = x; for (let i = 0; i < 3; i++) y = (Number(y.item()) > 10 ? mul(y, 0.5) : mul(y, y)); return y; };
    // x=2 → 4 → 16 → 8: y = (x²)²/2, dy/dx = 2x³ = 16
    expect((grad(f)(2) as Tensor).item()).toBe(16);
  });

  it('handle arrays and plain objects of tensors and several argnums', () => {
    const f = (p: { mu: Tensor; s: Tensor[] }, z: Tensor) => add(mul(p.mu, p.s[0]!), mul(p.s[1]!, z));
    // An array of plain numbers is one tensor; an array holding tensors is structure.
    const g = grad(f)({ mu: 2, s: [tensor(3), tensor(4)] }, 5) as { mu: Tensor; s: Tensor[] };
    expect([g.mu.item(), g.s[0]!.item(), g.s[1]!.item()]).toEqual([3, 2, 5]);
    const both = grad(f, [0, 1])({ mu: 2, s: [tensor(3), tensor(4)] }, 5) as [unknown, Tensor];
    expect(both[1].item()).toBe(4);
  });

  it('give zeros for an argument the output does not depend on, and keep float32', () => {
    expect(vals(grad((x: Tensor, y: Tensor) => sum(y), 0)([1, 2], [3]))).toEqual([0, 0]);
    expect((grad((x: Tensor) => sum(mul(x, x)))(tensor([1, 2], 'float32')) as Tensor).dtype).toBe('float32');
  });

  it('accumulate gradients when a value is used twice, and through reshape', () => {
    const g = grad((x: Tensor) => sum(mul(add(x, x), x.reshape([2, 2]).reshape([4]))))([1, 2, 3, 4]);
    expect(vals(g)).toEqual([4, 8, 12, 16]);
  });

  it('stop gradients where asked', () => {
    expect((grad((x: Tensor) => mul(x, stopGradient(x)))(3) as Tensor).item()).toBe(3);
  });

  it('reject non-scalar outputs and bad arguments', () => {
    expect(() => grad((x: Tensor) => mul(x, 2))([1, 2])).toThrow(/valueAndGrad: `f` must return a scalar; it returned shape \[2\]/);
    expect(() => grad('f' as never)).toThrow(TypeError);
    expect(() => grad((x: Tensor) => x, 3)(1)).toThrow(/argnums/);
    expect(() => grad((x: Tensor) => x)('a' as never)).toThrow(/args\[0\]/);
    expect(() => add([1, 2], [1, 2, 3])).toThrow(/add: the shapes of `x` \[2\] and `y` \[3\] do not broadcast/);
  });
});

describe('fusedNode', () => {
  it('gives the same gradient as the plain graph with one tape node', () => {
    const x = tensor([1, 2, 3, 4, 5]);
    const plain = (mu: Tensor, s: Tensor) => sum(sub(mul(square(div(sub(x, mu), s)), -0.5), log(s)));
    const fused = (mu: Tensor, s: Tensor) => {
      const z = div(sub(stopGradient(x), stopGradient(mu)), stopGradient(s));
      const value = sum(sub(mul(square(z), -0.5), log(stopGradient(s))));
      return fusedNode(value, [[mu, sum(div(z, stopGradient(s)))], [s, sum(sub(div(square(z), stopGradient(s)), div(1, stopGradient(s))))]]);
    };
    const [v1, g1] = valueAndGrad(plain, [0, 1])(2.5, 1.7);
    const [v2, g2] = valueAndGrad(fused, [0, 1])(2.5, 1.7);
    expect(v2.item()).toBeCloseTo(v1.item() as number, 12);
    (g1 as Tensor[]).forEach((g, i) => expect((g2 as Tensor[])[i]!.item()).toBeCloseTo(g.item() as number, 12));
  });

  it('sums broadcast partials back to the input shape, and rejects bad shapes', () => {
    const g = grad((m: Tensor) => sum(fusedNode(mul(m, [[1, 2], [3, 4]]), [[m, [[1, 2], [3, 4]]]])))([1, 1]);
    expect(vals(g)).toEqual([4, 6]);
    expect(() => fusedNode([1, 2], [[[1, 2, 3], 1]])).toThrow(/fusedNode: `partials\[0\]\[0\]`/);
  });
});

describe('customGradient', () => {
  it('uses the supplied vector–Jacobian product', () => {
    const clipGrad = customGradient((x: Tensor) => ({ value: square(x), grad: (dy: Tensor) => [mul(dy, 100)] }));
    expect((grad((x: Tensor) => sum(clipGrad(x)))([1, 2]) as Tensor).toArray()).toEqual([100, 100]);
  });
});

describe('checkGradient', () => {
  it('reports a large error for a wrong gradient', () => {
    const wrong = customGradient((x: Tensor) => ({ value: sum(square(x)), grad: () => [[1, 1]] }));
    expect(checkGradient((x) => wrong(x), [3, 4]).maxRelativeError).toBeGreaterThan(0.5);
  });
});

describe('Tensor methods mirror the functions', () => {
  it('chain and differentiate', () => {
    expect(tensor([1, 2, 3]).mul(2).add(1).sum().item()).toBe(15);
    expect(tensor([[1, 2], [3, 4]]).sum(0).toArray()).toEqual([4, 6]);
    expect(tensor([1, 4]).sqrt().toArray()).toEqual([1, 2]);
    const g = grad((x: Tensor) => x.square().mul(3).sum())([1, 2]);
    expect((g as Tensor).toArray()).toEqual([6, 12]);
    expect(tensor([[1, 2]]).transpose().shape).toEqual([2, 1]);
  });
});

describe('valueAndGrad on bad trees (issue 18)', () => {
  it('a cyclic or 1e5-deep argument is a TypeError naming the argument, not a stack overflow', () => {
    const f = T.valueAndGrad((x: Tensor) => T.sum(x));
    const obj: Record<string, unknown> = { a: tensor(1) };
    obj.self = obj;
    expect(() => f(obj)).toThrow(TypeError);
    expect(() => f(obj)).toThrow(/valueAndGrad: `.*` must not contain itself/);
    let deep: unknown = [1];
    for (let i = 0; i < 1e5; i++) deep = [deep];
    expect(() => f(deep)).toThrow(/must be nested at most 64 levels deep/);
  });
});
