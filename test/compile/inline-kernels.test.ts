// Small take and logsumexp kernels run as generated functions shared per shape
// (src/compile/inline-kernels.ts): the tape's bits, infinities and NaN included.
import { describe, expect, it } from 'vitest';
import { compileGradient } from '../../src/compile/index.js';
import { setRolling } from '../../src/compile/roll.js';
import { concat, gather, logsumexp, mul, neg, reshape, stack, sum, tensor, valueAndGrad, type Tensor } from '../../src/index.js';
import { mulberry32 } from '../helpers.js';

const rand = mulberry32(5);

/** Compiled value and gradient at each point equal the tape's, bit for bit (Object.is: −0 and NaN count). */
function expectTapeBits(f: (x: Tensor) => Tensor, n: number, points: number[][]): string {
  const c = compileGradient('test', f, [tensor(Array.from({ length: n }, () => rand()))]);
  for (const p of points) {
    c.inputs[0]!.set(p);
    c.run(true);
    const [value, grads] = valueAndGrad((x: Tensor) => f(x), [0])(tensor(p)) as [Tensor, Tensor[]];
    expect(Object.is(c.outputs[0]![0], value.data[0]), `value at ${p}`).toBe(true);
    Array.from(grads[0]!.data as Float64Array).forEach((g, k) => expect(Object.is(c.grads[0]![k], g), `gradient ${k} at [${p}]: ${c.grads[0]![k]} vs ${g}`).toBe(true));
  }
  return c.source;
}

const weights = tensor([0.5, -1.25, 2, -0, -0.5, 1.5]);   // a −0 adjoint for index 3: the kernel's part is 0 + (−0) = +0

describe('inline kernels', () => {
  it('logsumexp over either axis of a 3 × 3 table, then a weighted sum: the tape\'s bits, with ±∞ and NaN', () => {
    const points = [
      Array.from({ length: 9 }, () => 4 * rand() - 2),
      [1, 1, 1, 0, 0, 0, -3, 2, 2],                       // ties: the first maximum is the one left out of the sum
      [-Infinity, -Infinity, -Infinity, 0, -Infinity, 1, 2, 3, 4],
      [Infinity, 0, Infinity, 1, 2, 3, Infinity, -Infinity, 0],
      [NaN, 0, 1, 2, NaN, 3, 4, 5, 6],
      [-0, 0, -0, 710, 709, -745, 1e-300, -1e-300, 0],
    ];
    for (const axis of [0, 1]) {
      const f = (x: Tensor) => sum(mul(reshape(logsumexp(reshape(x, [3, 3]), axis, true), [3]), tensor([0.5, -1.25, 2])));
      const source = expectTapeBits(f, 9, points);
      expect(source).toMatch(/function kf\d+\(x, o\)/);            // written as a generated function, not a kernel call
      expect(source).not.toMatch(/\.forward\(/);
    }
  });

  it('take with repeated and missing indices (the part sums repeats in order, zero elsewhere): the tape\'s bits', () => {
    const idx = tensor([2, 0, 2, 3, 2, 0], 'int32');
    const f = (x: Tensor) => sum(mul(gather(x, idx), weights));
    const source = expectTapeBits(f, 5, [[0.1, 0.2, 0.3, 0.4, 0.5], [-0, 1, -0, Infinity, 2], [NaN, 1, 2, 3, 4]]);
    expect(source).toMatch(/function kb\d+\(x, o, g, p\)/);
    expect(source).not.toMatch(/\.backward\(/);
  });

  it('stack and concat (a constant operand, more than one row): the tape\'s bits, as generated functions', () => {
    const fs = [
      (x: Tensor) => sum(mul(stack([mul(gather(x, 0), gather(x, 1)), neg(gather(x, 2)), tensor(-0)]), tensor([0.5, -1.25, 2]))),
      (x: Tensor) => sum(mul(concat([reshape(x, [2, 3]), tensor([[1], [2]]), reshape(mul(x, x), [2, 3])], 1), tensor([[0.5, -1, 2, -0, 3, 1, -2], [1, 1, -0.5, 2, -3, 0.25, 4]]))),
    ];
    for (const f of fs) {
      const source = expectTapeBits(f, 6, [[0.1, -0.2, 0.3, 0.4, -0, 0.5], [-0, 1, -0, Infinity, 2, NaN]]);
      expect(source).toMatch(/function kf\d+\(x0, x1, x2, o\)/);
      expect(source).toMatch(/function kb\d+\(g, p0, p[12]\)/);                 // the constant's part (operand 2, then 1) is not written
      expect(source).not.toMatch(/\.(forward|backward)\(/);
    }
  });

  it('one generated function per kernel shape, shared by every node of that shape', () => {
    const f = (x: Tensor) => {
      let acc = sum(x);
      for (let t = 0; t < 20; t++) acc = mul(acc, sum(logsumexp(reshape(mul(x, 1 + t / 10), [3, 3]), 1)));
      return acc;
    };
    // Straight-line code (rolled, the 20 steps would be one loop with one call: roll.test.ts).
    setRolling(false);
    let source: string;
    try { source = expectTapeBits(f, 9, [Array.from({ length: 9 }, () => rand() - 0.5)]); } finally { setRolling(true); }
    expect(source.match(/function kf\d+/g)).toHaveLength(1);
    expect(source.match(/function kb\d+/g)).toHaveLength(1);
    expect(source.match(/\bkf\d+\(/g)!.length).toBe(21);          // the definition and 20 calls
  });

  it('a kernel over more than 64 elements stays a kernel call', () => {
    const f = (x: Tensor) => sum(logsumexp(reshape(x, [10, 10]), 1));
    const source = expectTapeBits(f, 100, [Array.from({ length: 100 }, () => rand())]);
    expect(source).toMatch(/\.forward\(/);
    expect(source).not.toMatch(/function kf/);
  });
});
