import { describe, expect, it } from 'vitest';
import { compileGradient, formatProgram, jit } from '../../src/compile/index.js';
import {
  abs, add, customGradient, div, exp, expm1, greater, less, log, log1p, logaddexp, logSigmoid, logsumexp, maximum, mean, minimum, mul, neg,
  pow, sigmoid, softplus, sqrt, square, sub, sum, tanh, tensor, valueAndGrad, where, xlogy, expandDims, cumsum, matmul, dot, type Tensor,
} from '../../src/index.js';
import { Gamma } from '../../distributions/gamma.js';
import { mulberry32, newSpaceGrowth } from '../helpers.js';

type F = (...xs: Tensor[]) => Tensor;

/** Compiled value and gradient at `point` (after tracing at `tracePoint`) equal the tape's, bit for bit. */
function expectTapeBits(f: F, tracePoint: number[][], point: number[][], shapes?: number[][]): void {
  const t = (v: number[], i: number) => tensor(v).reshape(shapes?.[i] ?? [v.length]);
  const c = compileGradient('test', f, tracePoint.map(t));
  point.forEach((v, i) => c.inputs[i]!.set(v));
  c.run(true);
  const [value, grads] = valueAndGrad((...xs: Tensor[]) => sum(f(...xs)), point.map((_, i) => i))(...point.map(t)) as [Tensor, Tensor[]];
  let total = 0;
  for (const v of Array.from(c.outputs[0]!)) total += v;
  if (c.outputs[0]!.length === 1) expect(Object.is(c.outputs[0]![0], value.data[0]) || (Number.isNaN(c.outputs[0]![0]) && Number.isNaN(value.data[0] as number))).toBe(true);
  else expect(total).toBeCloseTo(value.data[0] as number, 12);
  grads.forEach((g, i) => expect(Array.from(c.grads[i]!)).toEqual(Array.from(g.data as Float64Array)));
}

const rand = mulberry32(7);
const vec = (n: number, lo = -2, hi = 2) => Array.from({ length: n }, () => lo + (hi - lo) * rand());

describe('compiled programs: the tape\'s bits', () => {
  // Sizes 1 and 5 are unrolled over locals, 40 runs in loops.
  for (const n of [1, 5, 40]) {
    it(`element-wise chains with broadcasting and reductions (n = ${n})`, () => {
      const w = tensor(vec(n));
      const f: F = (x, y) => add(add(sum(mul(square(x), y)), mean(div(x, add(exp(y), 1)))),
        add(sum(mul(softplus(sub(x, y)), w)), logsumexp(mul(tanh(x), 3))));
      expectTapeBits(f, [vec(n), vec(n)], [vec(n), vec(n)]);
      const g: F = (x, s) => sum(mul(sigmoid(mul(x, s)), w));   // s is a broadcast scalar: its part is a sum
      expectTapeBits(g, [vec(n), [0.3]], [vec(n), [-1.7]]);
      const h: F = (x, s) => sum(add(logSigmoid(div(s, x)), pow(abs(x), s)));
      expectTapeBits(h, [vec(n, 0.5, 2), [1.5]], [vec(n, 0.5, 2), [2.5]]);
    });
  }

  it('adjoints shared with identity parts and sums stay right over repeated calls (vector outputs, x + x, chains of add)', () => {
    const fs: F[] = [
      (x) => add(add(x, 1), square(x)),                       // a vector output whose last op is an add
      (x) => { const y = exp(x); return add(y, mul(y, 2)); },  // …whose first operand gets a second part later
      (x) => mul(add(x, x), 3),                               // both operands of one add are the same node
      (x, y) => sum(add(add(exp(x), y), sub(x, mul(y, 2)))),  // identity parts down a chain of adds, and a sum
    ];
    for (const f of fs) {
      const n = f.length, t = (v: number[]) => tensor(v);
      const pts = [[vec(7), vec(7)], [vec(7), vec(7)], [vec(7), vec(7)]];
      const c = compileGradient('test', f, pts[0]!.slice(0, n).map(t));
      for (const p of pts) {                                  // the same program, three calls
        p.slice(0, n).forEach((v, i) => c.inputs[i]!.set(v));
        c.run(true);
        const [, g] = valueAndGrad((...xs: Tensor[]) => sum(f(...xs)), p.slice(0, n).map((_, i) => i))(...p.slice(0, n).map(t)) as [Tensor, Tensor[]];
        g.forEach((gi, i) => expect(Array.from(c.grads[i]!)).toEqual(Array.from(gi.data as Float64Array)));
      }
    }
  });

  it('element-wise chains of one size run as one loop, forward and reverse, with the tape\'s order of parts', () => {
    const n = 9;
    const loops = (src: string) => (src.match(/for \(let k = 0; k < 9; k\+\+\) \{\n/g) ?? []).length;
    // Two chains and their sums; a broadcast scalar read inside the loop and outside it (s · s, between members).
    const f: F = (x, s) => {
      const a = sum(mul(exp(mul(s, x)), x)), q = mul(s, s), b = sum(square(sub(x, s)));
      return add(add(a, b), q);
    };
    const c = compileGradient('test', f, [tensor(vec(n)), tensor([0.5])]);
    // One loop: the adjoints reaching it (the sums') are fixed ones, so each element's parts are
    // computed right after its values.
    expect(loops(c.source), c.source).toBe(1);
    expectTapeBits(f, [vec(n), [0.5]], [vec(n), [-1.25]]);
    // A sum whose adjoint depends on values (the output is its exp): a forward loop, then a reverse loop.
    const e: F = (x, s) => exp(sum(mul(s, square(x))));
    const ce = compileGradient('test', e, [tensor(vec(n)), tensor([0.5])]);
    expect(loops(ce.source), ce.source).toBe(2);
    expectTapeBits(e, [vec(n, -1, 1), [0.5]], [vec(n, -2, 1), [-0.3]]);
    // The loop's part for x would go to a buffer an earlier reverse step (cumsum's, after the
    // loop) has already written: the reverse loop keeps its place.
    const w: F = (x) => add(add(sum(exp(x)), 1), sum(cumsum(x)));
    const cw = compileGradient('test', w, [tensor(vec(n))]);
    expect(loops(cw.source), cw.source).toBe(2);
    expectTapeBits(w, [vec(n)], [vec(n, -1, 1)]);
    // x is read by a member, by a node outside the loop between members (cumsum), then by a member
    // again: the first member's part waits for its place, so x's adjoint sums in the tape's order.
    const g: F = (x) => sum(mul(add(mul(x, 3), cumsum(x)), x));
    expectTapeBits(g, [vec(n)], [vec(n)]);
    expectTapeBits(g, [vec(n)], [vec(n, -1e3, 1e3)]);
    // A constant matrix times a traced vector runs inside the loop of its rows, summed as gemm sums.
    const X = tensor(vec(n * 3)).reshape([n, 3]);
    for (const product of [matmul, dot]) {
      const h: F = (b, a) => sum(softplus(add(product(X, b), a)));
      const ch = compileGradient('test', h, [tensor(vec(3)), tensor([0.1])]);
      expect(loops(ch.source), ch.source).toBe(1);
      expectTapeBits(h, [vec(3), [0.1]], [vec(3, -5, 5), [-0.7]]);
    }
    // b is read by the matrix product (a member), by sum(square(b)) between members, then by nothing:
    // the product's part for b waits for its place, written after the loop.
    const k: F = (b, a) => { const t = matmul(X, b), q = sum(square(b)); return add(sum(softplus(add(t, a))), q); };
    expectTapeBits(k, [vec(3), [0.1]], [vec(3, -5, 5), [-0.7]]);
  });

  it('a constant matrix times a traced vector: each row the eager product\'s bits at every width, after the loop that computes the vector', () => {
    // Widths up to 16 sum each row as one expression over the vector in locals, wider ones in a loop;
    // [3, 3] times exp(b) would share exp's loop of 3, but the product reads the whole vector first.
    for (const [rows, d] of [[40, 1], [40, 3], [3, 3], [40, 16], [40, 17]] as const) {
      const X = tensor(vec(rows * d, -3, 3)).reshape([rows, d]);
      const f: F = (b, a) => add(matmul(X, exp(b)), a);
      const c = compileGradient('test', f, [tensor(vec(d)), tensor([0.1])]);
      const b = vec(d, -40, 40), a = [-0.7];
      c.inputs[0]!.set(b); c.inputs[1]!.set(a);
      c.run(false);
      const expected = f(tensor(b), tensor(a)).data as Float64Array;
      expect(Array.from(c.outputs[0]!).every((v, k) => Object.is(v, expected[k])), `${rows} × ${d}\n${c.source}`).toBe(true);
      expectTapeBits((x, y) => sum(softplus(f(x!, y!))), [vec(d), [0.1]], [b, a]);
    }
  });

  it('a selection traced on one side is recomputed on the other (where, comparisons, maximum)', () => {
    const f: F = (x) => sum(add(where(greater(x, 0), log1p(x), expm1(x)), maximum(x, minimum(neg(x), 0.25))));
    // Traced where every element is positive, evaluated where most are not.
    expectTapeBits(f, [[0.1, 0.2, 0.3, 0.4]], [[-0.1, 0.2, -3, 0.5]]);
  });

  it('shapes that broadcast through index maps and matrix-shaped inputs', () => {
    const f: F = (a, b) => sum(mul(logaddexp(a, b), xlogy(a, add(b, 3))));
    expectTapeBits(f, [vec(6, 0.1, 2), vec(3, 0.1, 2)], [vec(6, 0.1, 2), vec(3, 0.1, 2)], [[2, 3], [3]]);
    const g: F = (a, b) => sum(mul(expandDims(a, -1), b));        // [2, 1] × [2, 3]
    expectTapeBits(g, [vec(2), vec(6)], [vec(2), vec(6)], [[2], [2, 3]]);
    const w = tensor(vec(4));
    const h: F = (a) => sum(mul(exp(sum(a, 0)), w));                // a sum over an axis: [3, 4] → [4]
    expectTapeBits(h, [vec(12)], [vec(12)], [[3, 4]]);
    const k: F = (a) => sum(mul(sum(square(a), -1, true), a));      // [3, 4] → [3, 1], broadcast back
    expectTapeBits(k, [vec(12)], [vec(12)], [[3, 4]]);
  });

  it('NaN in gives NaN out, as on the tape', () => {
    const f: F = (x) => sum(mul(log(x), x));
    const c = compileGradient('test', f, [tensor([1, 2])]);
    c.inputs[0]!.set([NaN, 2]);
    c.run(true);
    expect(c.outputs[0]![0]).toBeNaN();
    expect(c.grads[0]![0]).toBeNaN();
    expectTapeBits(f, [[1, 2]], [[-1, 2]]);   // log of a negative number: NaN both ways
  });

  it('a gradient with respect to an input the value does not use is zero', () => {
    const c = compileGradient('test', (x, y) => sum(square(x)), [tensor([1, 2]), tensor([3])]);
    c.run(true);
    expect(Array.from(c.grads[1]!)).toEqual([0]);
  });

  it('values computed from constants only are folded into the program', () => {
    const data = tensor(vec(4));
    const c = compileGradient('test', (x) => sum(mul(x, exp(sqrt(abs(data))))), [tensor(vec(4))]);
    expect(formatProgram(c.program)).not.toMatch(/exp|sqrt|abs/);
  });

  it('allocates nothing per call (new-space growth over 20,000 gradient calls of a softplus model)', () => {
    const w = tensor(vec(8));
    const c = compileGradient('test', (x, s) => add(sum(mul(square(sub(x, s)), w)), sum(softplus(x))), [tensor(vec(8)), tensor([0.5])]);
    const run = () => { for (let i = 0; i < 20_000; i++) { c.inputs[0]![i & 7] = (i % 13) * 0.1; c.run(true); } };
    // One boxed double per softplus element would be 20,000 × 8 × 12 B ≈ 1.9 MB; the tape allocates several KB per call.
    expect(newSpaceGrowth(run)).toBeLessThan(256 * 1024);
  });
});

describe('tracing errors', () => {
  it('reading a traced value in JavaScript fails naming the method and pointing to where', () => {
    const f: F = (x) => (sum(x).item() as number > 0 ? x : neg(x));
    expect(() => compileGradient('test', f, [tensor([1, 2])])).toThrow(TypeError);
    expect(() => compileGradient('test', f, [tensor([1, 2])])).toThrow(/Tensor\.item\(\).*where/);
    expect(() => compileGradient('test', (x) => tensor((x.toArray() as number[]).map((v) => v * 2)), [tensor([1])])).toThrow(/Tensor\.toArray\(\)/);
    expect(() => compileGradient('test', (x) => less(x, 0).astype('int64'), [tensor([1])])).toThrow(/astype\('int64'\)/);
  });

  it('an op without a lowering fails naming it', () => {
    const draw = (a: Tensor) => sum(new Gamma({ concentration: a, rate: 1 }).sample([2], { seed: 0 }));
    expect(() => compileGradient('test', draw, [tensor([1, 2])])).toThrow(/`Gamma\.sample` has no lowering rule/);
  });

  it('customGradient runs its f and vjp on every call (the tape\'s bits)', () => {
    const cg = customGradient((x) => ({ value: square(x), grad: (dy) => [mul(dy, mul(x, 2))] }));
    expectTapeBits((x) => sum(mul(cg(x), x)), [[1, 2]], [[-0.5, 3]]);
  });

  it('a nested grad over traced values fails with a clear message', () => {
    const inner = valueAndGrad((y: Tensor) => sum(square(y)));
    expect(() => compileGradient('test', (x) => sum(mul(x, inner(x)[0])), [tensor([1, 2])])).toThrow(/nested `grad`/);
  });
});

describe('jit', () => {
  it('computes f through generated code, once traced per input shape', () => {
    let traces = 0;
    const f = jit((x) => { traces++; return sum(square(x)); });
    expect(f([1, 2, 3]).item()).toBe(14);
    expect(f([2, 2, 2]).item()).toBe(12);
    expect(traces).toBe(1);
    expect(f([[1, 2], [3, 4]]).item()).toBe(30);
    expect(traces).toBe(2);
    const g = jit((x) => mul(x, 2));
    expect(g([[1, 2], [3, 4]]).toArray()).toEqual([[2, 4], [6, 8]]);
  });

  it('rejects a non-function', () => {
    expect(() => jit(3 as never)).toThrow(TypeError);
    expect(() => jit(3 as never)).toThrow(/jit: `f` must be a function/);
  });
});
