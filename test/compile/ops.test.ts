/**
 * Lowerings of the non-element-wise ops (matmul.ts, linalg.ts, shape.ts's concat and stack,
 * cumulative.ts, moments.ts, special.ts's n-ary functions, eigh.ts): a scalar function of each op
 * is compiled with `compileGradient` at one point, run at two other points (in turn, so a lowering
 * that keeps state between calls, or a value baked in at trace time, shows), and its value and
 * gradient must have exactly the bits of the tape's `valueAndGrad` there. Also: an op without a
 * lowering fails the trace with a TypeError naming it.
 */
import { describe, expect, it } from 'vitest';
import { compileGradient } from '../../src/compile/index.js';
import { formatProgram } from '../../src/compile/trace.js';
import { customGradient, valueAndGrad } from '../../src/tensor/autodiff.js';
import { cumlogsumexp, cumsum } from '../../src/tensor/ops/cumulative.js';
import { eigh } from '../../src/tensor/ops/eigh.js';
import { add, exp, log, mul, square } from '../../src/tensor/ops/elementwise.js';
import { cholesky, choleskySolve, inv, logDet, triangularSolve } from '../../src/tensor/ops/linalg.js';
import { dot, matmul } from '../../src/tensor/ops/matmul.js';
import { std, variance } from '../../src/tensor/ops/moments.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { concat, stack } from '../../src/tensor/ops/shape.js';
import { betainc, igamma, igammac, lbeta } from '../../src/tensor/ops/special.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { Gamma } from '../../distributions/gamma.js';
import { randTensor, spdTensor } from '../helpers.js';

// ---- points ----------------------------------------------------------------------------------------


const rand = randTensor;
/** Matrices [..., n, n] whose symmetric parts are positive definite, plus a small asymmetry. */
const spd = (shape: number[], seed: number): Tensor => spdTensor(shape, seed, 0.01);

/** Matrices [..., n, n] with diagonal entries in ±[1.5, 2.5) and small entries elsewhere (all of them, so the unread triangle must get no gradient). */
function triangular(shape: number[], seed: number): Tensor {
  const n = shape[shape.length - 1]!;
  const t = rand(shape, seed).data as Float64Array;
  for (let o = 0; o < t.length; o += n * n) {
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const k = o + i * n + j;
      t[k] = i === j ? (t[k]! < 0 ? -2 : 2) + 0.5 * t[k]! : 0.3 * t[k]!;
    }
  }
  return new Tensor(t, shape);
}

/**
 * A weight of `shape` for the output adjoint: not all ones, and zero at positions that move with
 * the seed (so a lowering that skips zero adjoints must still clear what an earlier call wrote).
 */
function weight(shape: readonly number[], seed: number): Tensor {
  const w = rand([...shape], seed + 100, -2, 2);
  const d = w.data as Float64Array;
  for (let k = 0; k < d.length; k++) if ((k + seed) % 3 === 0) d[k] = 0;
  return w;
}

/** f's output shape at `xs` (run eagerly). */
const shapeOf = (f: (...xs: Tensor[]) => Tensor, xs: readonly Tensor[]) => f(...xs).shape;

/**
 * Compiles Σ(op(...xs)·w) at `trace` (w, a weight with some zeros, is one more input), then for
 * each point of `points` in turn (each with its own weight) writes it into the inputs, runs value
 * and gradient, and compares both, bit for bit, with the tape's valueAndGrad at that point.
 * Returns the program listing.
 */
function check(name: string, op: (...xs: Tensor[]) => Tensor, trace: readonly Tensor[], ...points: (readonly Tensor[])[]): string {
  const shape = shapeOf(op, trace);
  const f = (...xs: Tensor[]) => sum(mul(op(...xs.slice(0, -1)), xs[xs.length - 1]!));
  const t0 = [...trace, weight(shape, 0)];
  const c = compileGradient(name, f, t0);
  expect(points.length).toBeGreaterThan(0);
  points.forEach((p, j) => {
    const point = [...p, weight(shape, j + 1)];
    point.forEach((x, i) => {
      expect(x.shape).toEqual(t0[i]!.shape);
      c.inputs[i]!.set(x.data as Float64Array);
    });
    c.run(true);
    const [value, grads] = valueAndGrad(f, point.map((_, i) => i))(...point) as [Tensor, Tensor[]];
    expect(Array.from(c.outputs[0]!)).toEqual(Array.from(value.data as Float64Array));
    grads.forEach((g, i) => expect(Array.from(c.grads[i]!), `${name}: gradient ${i}`).toEqual(Array.from(g.data as Float64Array)));
    // The point differs from the trace point, so the value does too (nothing was baked in).
    expect(Array.from(c.outputs[0]!)).not.toEqual(Array.from(f(...t0).data as Float64Array));
  });
  return formatProgram(c.program);
}

/** Three points of the same shapes: the trace point and two others. */
function points(make: (seed: number) => Tensor[]): [Tensor[], Tensor[], Tensor[]] {
  return [make(1), make(2), make(3)];
}

// ---- tests -------------------------------------------------------------------------------------------

describe('compiled matmul and dot match the tape bit for bit', () => {
  const cases: [string, number[], number[]][] = [
    ['matrix·matrix', [3, 4], [4, 2]],
    ['vector·matrix', [4], [4, 2]],
    ['matrix·vector', [3, 4], [4]],
    ['vector·vector', [4], [4]],
    ['broadcast batches', [2, 1, 3, 4], [3, 4, 2]],
    ['batch·matrix', [2, 3, 4], [4, 5]],
  ];
  for (const [what, sa, sb] of cases) {
    it(`matmul: ${what}`, () => {
      const [p0, p1, p2] = points((s) => [rand(sa, s), rand(sb, s + 10)]);
      expect(check('matmul', matmul, p0, p1, p2)).toContain('matmul(');
    });
  }
  it('matmul with a constant operand (only one gradient part)', () => {
    const b = rand([4, 3], 7), a = rand([2, 4], 8);
    const [p0, p1, p2] = points((s) => [rand([2, 4], s)]);
    check('matmul', (x) => matmul(x, b), p0, p1, p2);
    check('matmul', (x) => matmul(a, matmul(x.reshape([4, 2]), a)), [rand([8], 4)], [rand([8], 5)], [rand([8], 6)]);
  });
  it('matmul with a float32 constant operand', () => {
    const b = new Tensor(Float32Array.from(rand([4, 3], 7).data as Float64Array), [4, 3], 'float32');
    const [p0, p1, p2] = points((s) => [rand([2, 4], s)]);
    check('matmul', (x) => matmul(x, b), p0, p1, p2);
  });
  it('a matmul used twice (adjoints accumulate over parts)', () => {
    const [p0, p1, p2] = points((s) => [rand([3, 3], s)]);
    check('matmul', (x) => matmul(matmul(x, x), x), p0, p1, p2);
  });
  const dots: [string, number[], number[]][] = [
    ['matrix·matrix', [3, 4], [4, 2]],
    ['N-D·M-D', [2, 3, 4], [5, 4, 2]],
    ['N-D·vector', [2, 3, 4], [4]],
    ['vector·vector', [4], [4]],
    ['vector·N-D', [4], [2, 4, 3]],
  ];
  for (const [what, sa, sb] of dots) {
    it(`dot: ${what}`, () => {
      const [p0, p1, p2] = points((s) => [rand(sa, s), rand(sb, s + 10)]);
      expect(check('dot', dot, p0, p1, p2)).toContain('dot(');
    });
  }
});

describe('compiled linear algebra matches the tape bit for bit', () => {
  for (const shape of [[4, 4], [2, 3, 3], [1, 1]]) {
    it(`cholesky [${shape.join(', ')}]`, () => {
      const [p0, p1, p2] = points((s) => [spd(shape, s)]);
      expect(check('cholesky', cholesky, p0, p1, p2)).toContain('cholesky(');
    });
    it(`inv [${shape.join(', ')}]`, () => {
      const [p0, p1, p2] = points((s) => [spd(shape, s)]);
      expect(check('inv', inv, p0, p1, p2)).toContain('inv(');
    });
    it(`logDet [${shape.join(', ')}]`, () => {
      const [p0, p1, p2] = points((s) => [triangular(shape, s)]);
      expect(check('logDet', logDet, p0, p1, p2)).toContain('logDet(');
    });
  }
  it('logDet of cholesky (a chain of two lowerings)', () => {
    const [p0, p1, p2] = points((s) => [spd([2, 4, 4], s)]);
    check('logDet', (a) => logDet(cholesky(a)), p0, p1, p2);
  });
  const solves: [string, number[], number[]][] = [
    ['vector rhs', [3, 3], [3]],
    ['matrix rhs', [3, 3], [3, 2]],
    ['batched matrix, shared rhs', [2, 3, 3], [3, 2]],
    ['broadcast batches', [2, 1, 3, 3], [4, 3, 2]],
    ['batched vector rhs', [2, 3, 3], [3]],
  ];
  for (const [what, sa, sb] of solves) {
    for (const options of [{}, { transpose: true }, { lower: false }, { lower: false, transpose: true }]) {
      it(`triangularSolve ${JSON.stringify(options)}: ${what}`, () => {
        const [p0, p1, p2] = points((s) => [triangular(sa, s), rand(sb, s + 10)]);
        expect(check('triangularSolve', (a, b) => triangularSolve(a, b, options), p0, p1, p2)).toContain('triangularSolve(');
      });
    }
    it(`choleskySolve: ${what}`, () => {
      const [p0, p1, p2] = points((s) => [triangular(sa, s), rand(sb, s + 10)]);
      expect(check('choleskySolve', choleskySolve, p0, p1, p2)).toContain('choleskySolve(');
    });
  }
  it('solves with one constant operand', () => {
    const l = triangular([3, 3], 5), b = rand([3, 2], 6);
    const [p0, p1, p2] = points((s) => [rand([3, 2], s)]);
    check('triangularSolve', (x) => triangularSolve(l, x, { transpose: true }), p0, p1, p2);
    check('choleskySolve', (x) => choleskySolve(l, x), p0, p1, p2);
    const [q0, q1, q2] = points((s) => [triangular([3, 3], s)]);
    check('triangularSolve', (x) => triangularSolve(x, b), q0, q1, q2);
    check('choleskySolve', (x) => choleskySolve(x, b), q0, q1, q2);
  });
  it('a Gaussian log density: cholesky, triangularSolve and logDet together', () => {
    const [p0, p1, p2] = points((s) => [spd([3, 3], s), rand([3], s + 10)]);
    check('mvn', (sigma, x) => {
      const l = cholesky(sigma);
      const z = triangularSolve(l, x);
      return add(mul(-0.5, sum(mul(z, z))), mul(-0.5, logDet(l)));
    }, p0, p1, p2);
  });
  for (const shape of [[3, 3], [2, 3, 3]]) {
    it(`eigh values and vectors [${shape.join(', ')}]`, () => {
      const [p0, p1, p2] = points((s) => [spd(shape, s)]);
      expect(check('eigh', (a) => eigh(a).values, p0, p1, p2)).toContain('eigh(');
      check('eigh', (a) => eigh(a).vectors, p0, p1, p2);
      check('eigh', (a) => { const e = eigh(a); return add(sum(e.values), sum(mul(e.vectors, e.vectors))); }, p0, p1, p2);
    });
  }
});

describe('compiled concat and stack match the tape bit for bit', () => {
  it('concat along axis 1', () => {
    const [p0, p1, p2] = points((s) => [rand([2, 3], s), rand([2, 2], s + 10)]);
    expect(check('concat', (a, b) => concat([a, b], 1), p0, p1, p2)).toContain('concat(');
  });
  it('concat of three along axis 0, one of them twice', () => {
    const [p0, p1, p2] = points((s) => [rand([2, 3], s), rand([1, 3], s + 10)]);
    check('concat', (a, b) => concat([a, b, a]), p0, p1, p2);
  });
  it('concat with constants (float64, float32 and int32)', () => {
    const c64 = rand([2, 2, 1], 7);
    const c32 = new Tensor(Float32Array.of(0.1, 0.2, 0.3, 0.4), [2, 2, 1], 'float32');
    const i32 = new Tensor(Int32Array.of(1, -2, 3, 4), [2, 2, 1], 'int32');
    const [p0, p1, p2] = points((s) => [rand([2, 2, 3], s)]);
    check('concat', (a) => concat([c64, a, c32, i32], -1), p0, p1, p2);
  });
  it('stack along axes 0, 1 and -1', () => {
    const [p0, p1, p2] = points((s) => [rand([2, 3], s), rand([2, 3], s + 10)]);
    for (const axis of [0, 1, -1]) check('stack', (a, b) => stack([a, b, a], axis), p0, p1, p2);
  });
});

describe('compiled cumulative ops match the tape bit for bit', () => {
  const cases: [number[], number | undefined][] = [[[7], undefined], [[3, 4], undefined], [[3, 4], 1], [[3, 4, 2], 0], [[3, 4, 2], -2]];
  for (const [shape, axis] of cases) {
    it(`cumsum [${shape.join(', ')}] axis ${axis}`, () => {
      const [p0, p1, p2] = points((s) => [rand(shape, s)]);
      expect(check('cumsum', (x) => cumsum(x, axis), p0, p1, p2)).toContain('cumsum(');
    });
    it(`cumlogsumexp [${shape.join(', ')}] axis ${axis}`, () => {
      const [p0, p1, p2] = points((s) => [rand(shape, s, -3, 3)]);
      expect(check('cumlogsumexp', (x) => cumlogsumexp(x, axis), p0, p1, p2)).toContain('cumlogsumexp(');
    });
  }
  it('cumlogsumexp through −∞ entries (log of zeros)', () => {
    const mask = new Tensor(Float64Array.of(1, 0, 1, 1, 0, 1), [6]);
    const [p0, p1, p2] = points((s) => [rand([6], s, 0.5, 2)]);
    check('cumlogsumexp', (x) => cumlogsumexp(add(log(mul(mask, x)), exp(x))), p0, p1, p2);
    check('cumlogsumexp', (x) => cumlogsumexp(log(mul(mask, x))), p0, p1, p2);
  });
});

describe('compiled variance and std match the tape bit for bit', () => {
  const cases: [number[], number | number[] | undefined, boolean, number][] = [
    [[3, 4], undefined, false, 0],
    [[3, 4], 1, true, 1],
    [[3, 4, 2], [0, 2], false, 1],
    [[3, 4, 2], -1, false, 0],
  ];
  for (const [shape, axis, keepdims, ddof] of cases) {
    const label = `[${shape.join(', ')}] axis ${JSON.stringify(axis)} keepdims ${keepdims} ddof ${ddof}`;
    it(`variance ${label}`, () => {
      const [p0, p1, p2] = points((s) => [rand(shape, s)]);
      expect(check('variance', (x) => variance(x, axis, keepdims, { ddof }), p0, p1, p2)).toContain('variance(');
    });
    it(`std ${label}`, () => {
      const [p0, p1, p2] = points((s) => [rand(shape, s)]);
      expect(check('std', (x) => std(x, axis, keepdims, { ddof }), p0, p1, p2)).toContain('std(');
    });
  }
  it('std where a group is constant (zero gradient there)', () => {
    const [p0, p1, p2] = points((s) => [rand([3], s)]);
    check('std', (x) => std(concat([x, mul(x, 0)]).reshape([2, 3]), 1), p0, p1, p2);
  });
});

describe('compiled special functions match the tape bit for bit', () => {
  it('lbeta with broadcasting', () => {
    const [p0, p1, p2] = points((s) => [rand([3, 1], s, 0.5, 3), rand([4], s + 10, 0.5, 3)]);
    expect(check('lbeta', lbeta, p0, p1, p2)).toContain('lbeta(');
  });
  it('lbeta with a constant operand', () => {
    const [p0, p1, p2] = points((s) => [rand([2, 3], s, 0.5, 3)]);
    check('lbeta', (a) => lbeta(a, 2.5), p0, p1, p2);
    check('lbeta', (b) => lbeta(rand([3], 7, 0.5, 3), b), p0, p1, p2);
  });
  it('igamma and igammac with a scalar and same-shape operands', () => {
    const [p0, p1, p2] = points((s) => [rand([3, 4], s, 0.5, 3), rand([], s + 10, 0.5, 3)]);
    expect(check('igamma', igamma, p0, p1, p2)).toContain('igamma(');
    expect(check('igammac', igammac, p0, p1, p2)).toContain('igammac(');
    const [q0, q1, q2] = points((s) => [rand([2, 3], s, 0.5, 3), rand([2, 3], s + 10, 0.5, 3)]);
    check('igamma', igamma, q0, q1, q2);
    check('igammac', igammac, q0, q1, q2);
    check('igammac', (x) => igammac(1.5, x), [q0[1]!], [q1[1]!], [q2[1]!]);
  });
  it('betainc over three broadcast operands', () => {
    const [p0, p1, p2] = points((s) => [rand([2, 1, 3], s, 0.5, 3), rand([4, 1], s + 10, 0.5, 3), rand([3], s + 20, 0.05, 0.95)]);
    expect(check('betainc', betainc, p0, p1, p2)).toContain('betainc(');
  });
  it('betainc with constants (only some partials)', () => {
    const b = new Tensor(Float32Array.of(1.5, 2.5), [2, 1], 'float32');
    const [p0, p1, p2] = points((s) => [rand([2, 3], s, 0.05, 0.95)]);
    check('betainc', (x) => betainc(2, b, x), p0, p1, p2);
    check('betainc', (a) => betainc(a, b, 0.3), [rand([3], 4, 0.5, 3)], [rand([3], 5, 0.5, 3)], [rand([3], 6, 0.5, 3)]);
  });
});

describe('ops without a lowering, and customGradient', () => {
  it('a reparameterized draw: a TypeError naming the op', () => {
    const f = (a: Tensor) => sum(new Gamma({ concentration: a, rate: 1 }).sample([2], { seed: 0 }));
    expect(() => compileGradient('t', f, [rand([3], 1, 0.5, 2)])).toThrow(TypeError);
    expect(() => compileGradient('t', f, [rand([3], 1, 0.5, 2)])).toThrow(/`Gamma\.sample` has no lowering rule/);
  });
  it('customGradient runs its own f and vjp on each call: the tape\'s bits', () => {
    const twice = customGradient((x) => ({ value: mul(square(x), 2), grad: (dy) => [mul(dy, mul(x, 4))] }));
    const [p0, p1, p2] = points((s) => [rand([3], s)]);
    check('t', (x) => twice(x), p0, p1, p2);
  });
  it('customGradient of a constant inside the traced function records nothing, so it traces', () => {
    const twice = customGradient((x) => ({ value: mul(x, 2), grad: (dy) => [mul(dy, 2)] }));
    const c = rand([3], 2);
    const [p0, p1, p2] = points((s) => [rand([3], s)]);
    check('t', (x) => mul(x, twice(c)), p0, p1, p2);
  });
});
