// Constant folding (src/compile/constant-fold.ts): a TruncatedNormal log-prob whose loc, scale,
// low and high are constants of the program runs the folded kernel (normalizing mass, Mills
// ratios and log σ computed once when compiled), and
// - its compiled value and gradient are the unfolded program's bit for bit, at points inside the
//   support (both tails, the middle, near the bounds), outside it, and with broadcast parameters
//   (scalar, vector, and an [2, 1] against a [3] value) and narrow intervals (the quadrature branch);
// - a traced parameter leaves the op unfolded;
// - the folded program is portable: rebuilt from its exported description, the same bits;
// - the Lotka–Volterra example's compiled gradient equals the unfolded one bit for bit.
// Deterministic: points from a fixed-seed LCG; no statistical tests.
import { afterEach, describe, expect, it } from 'vitest';
import { compileLogDensity, compileTarget, pinModel } from '../../distributions/compile-log-density.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import { TruncatedNormal } from '../../distributions/truncated-normal.js';
import { model as lvModel, y as lvY, yInit as lvYInit } from '../../examples/lotka-volterra.js';
import { compileGradient } from '../../src/compile/index.js';
import { setConstantFoldingEnabled } from '../../src/compile/constant-fold.js';
import { exportCompiled, importCompiled } from '../../src/compile/portable.js';
import { kernelSource } from '../../src/tensor/lowering.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return (s + 0.5) / 4294967296; };
}
const bits = (v: number) => new BigUint64Array(Float64Array.of(v).buffer)[0]!;

afterEach(() => { setConstantFoldingEnabled(true); });

/** Programs f(x) = sum(logProb) with constant parameters; x's shape, and the values it is drawn from. */
const CASES: { name: string; d: () => TruncatedNormal; shape: number[]; draw: (u: () => number, k: number) => number }[] = [
  { name: "Lotka–Volterra's prior (vector parameters, scalar low)", d: () => new TruncatedNormal({ loc: [1, 0.05, 1, 0.05], scale: [0.5, 0.05, 0.5, 0.05], low: 0, high: [10, 1, 10, 1] }), shape: [4], draw: (u, k) => (k % 2 === 0 ? 10 : 1) * (1.02 * u() - 0.01) },
  { name: 'scalar parameters, far tails', d: () => new TruncatedNormal({ loc: 0, scale: 1, low: 5, high: 40 }), shape: [], draw: (u) => 4 + 40 * u() },
  { name: 'narrow intervals (quadrature of the mass)', d: () => new TruncatedNormal({ loc: [0.3, -2], scale: 2, low: [0, -2.5], high: [0.5, -1.9] }), shape: [2], draw: (u, k) => (k === 0 ? 0.52 * u() - 0.01 : -2.51 + 0.62 * u()) },
  { name: 'parameters [2, 1] broadcast against a value [3]', d: () => new TruncatedNormal({ loc: [[0], [1]], scale: [[1], [0.3]], low: -1, high: 2 }), shape: [3], draw: (u) => 4 * u() - 1.5 },
];

function compiled(d: TruncatedNormal, shape: number[], fold: boolean) {
  const was = setConstantFoldingEnabled(fold);
  try {
    return compileGradient('test', (x) => sum(d.logProb(x)), [new Tensor(new Float64Array(shape.reduce((a, b) => a * b, 1)), shape, 'float64')]);
  } finally { setConstantFoldingEnabled(was); }
}

function evaluate(c: ReturnType<typeof compiled>, x: Float64Array): bigint[] {
  c.flatInput.set(x);
  c.run(true);
  return [bits(c.outputs[0]![0]!), ...Array.from(c.flatGrad, bits)];
}

const factories = (c: ReturnType<typeof compiled>) => c.program.trace.nodes.map((n) => (n.op === null ? undefined : kernelSource(n.op)?.factory));

describe('foldConstants', () => {
  for (const { name, d, shape, draw } of CASES) {
    it(`${name}: folded and unfolded compiled programs give the same value and gradient bits at 300 points`, () => {
      const dist = d();
      const folded = compiled(dist, shape, true), plain = compiled(dist, shape, false);
      expect(factories(folded)).toContain('TruncatedNormal.logProb#folded');
      expect(factories(plain)).not.toContain('TruncatedNormal.logProb#folded');
      const u = lcg(7), n = folded.flatInput.length;
      let inside = 0;
      for (let i = 0; i < 300; i++) {
        const x = Float64Array.from({ length: n }, (_, k) => draw(u, k));
        const a = evaluate(folded, x), b = evaluate(plain, x);
        expect(a, `x = [${Array.from(x).join(', ')}]`).toEqual(b);
        if (a[0] !== bits(-Infinity)) inside++;
      }
      expect(inside).toBeGreaterThan(30);   // the comparison covers finite log densities, not only −∞
    });
  }

  it('a traced parameter leaves the op unfolded', () => {
    const c = compileGradient('test', (x, loc) => sum(new TruncatedNormal({ loc, scale: 1, low: 0, high: 3 }).logProb(x)), [tensor(1), tensor(0.5)]);
    expect(factories(c)).toContain('TruncatedNormal.logProb');
    expect(factories(c)).not.toContain('TruncatedNormal.logProb#folded');
  });

  it("Lotka–Volterra's compiled gradient: folded = unfolded = folded rebuilt from its portable description, bit for bit at 40 points", () => {
    // compileTarget caches per model and pins (by identity): the unfolded program gets copies of the pins.
    const lv = (pins: object) => compileTarget('test', flatModel('test', pinModel('test', lvModel, pins as never) as never));
    const folded = lv({ yInit: lvYInit, y: lvY });
    const was = setConstantFoldingEnabled(false);
    const plain = lv({ yInit: tensor(lvYInit.toArray()), y: tensor(lvY.toArray()) });
    setConstantFoldingEnabled(was);
    const c = compileLogDensity(lvModel, { pins: { yInit: lvYInit, y: lvY } });
    const e = exportCompiled(folded);
    expect(e.ok, e.ok ? '' : e.reason).toBe(true);
    if (!e.ok) return;
    expect(e.program.env.some((v) => 'make' in v && v.make === 'TruncatedNormal.logProb#folded')).toBe(true);
    const rebuilt = importCompiled(structuredClone(e.program));
    const u = lcg(11);
    const x0 = c.unconstrain({ theta: [0.55, 0.028, 0.8, 0.024], zInit: [34, 5.9], sigma: [0.25, 0.25] } as never);
    for (let i = 0; i < 40; i++) {
      const x = x0.map((v) => v + 0.2 * (u() - 0.5));
      const g1 = new Float64Array(c.dim), g2 = new Float64Array(c.dim), g3 = new Float64Array(c.dim);
      const v1 = folded.valueAndGrad!(x, g1), v2 = rebuilt(x, g2), v3 = plain.valueAndGrad!(x, g3);
      expect([bits(v1), ...Array.from(g1, bits)]).toEqual([bits(v2), ...Array.from(g2, bits)]);
      expect([bits(v1), ...Array.from(g1, bits)]).toEqual([bits(v3), ...Array.from(g3, bits)]);
    }
  });
});
