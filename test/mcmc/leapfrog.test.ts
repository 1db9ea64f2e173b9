// The leapfrog integrator (mcmc/internal/leapfrog.ts) and the flat phase-space helpers:
// energy error O(ε²), exact reversibility, masking of inactive chains, the inverse mass
// diagonal as a change of variables, and hand-computed steps. Deterministic: false-failure rate 0.
import { describe, expect, it } from 'vitest';
import { leapfrog, type PhasePoint } from '../../mcmc/internal/leapfrog.js';
import { BatchMetric, diagonalMetric, expandInverseMass } from '../../mcmc/internal/metric.js';
import { batchTarget, expandStepSize } from '../../mcmc/internal/phase-space.js';
import { geometryOf } from '../../mcmc/internal/geometry.js';
import { logaddexpScalar as logAddExp } from '../../src/tensor/ops/elementwise.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import { mul, square } from '../../src/tensor/ops/elementwise.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { correlatedGaussian } from './conjugate.js';

/** A non-Gaussian 2-d target per chain: −x⁴/4 − y²/2 − xy/2 (state [C, 2]). */
const quartic = (x: Tensor) => {
  const [C] = x.shape as [number, number];
  const d = x.data as Float64Array;
  const lp = new Float64Array(C), g = new Float64Array(2 * C);
  for (let c = 0; c < C; c++) {
    const a = d[2 * c]!, b = d[2 * c + 1]!;
    lp[c] = -(a ** 4) / 4 - b * b / 2 - a * b / 2;
    g[2 * c] = -(a ** 3) - b / 2; g[2 * c + 1] = -b - a / 2;
  }
  return [new Tensor(lp, [C]), [new Tensor(g, x.shape)]] as const;
};

function setup(x0: number[][], p0: number[][], fn = quartic, invMass?: Tensor) {
  const x = tensor(x0);
  const [lp, grads] = fn(x);
  const g = geometryOf('test', [x], lp);
  const target = batchTarget('test', { target: undefined, targetAndGrad: fn }, g);
  const start: PhasePoint = { x: [Float64Array.from(x.data as Float64Array)], p: [Float64Array.from(tensor(p0).data as Float64Array)], grad: [grads[0]!.data as Float64Array], lp: lp.data as Float64Array };
  return { g, target, start, invMass: diagonalMetric('test', invMass, g) };
}

const hamiltonian = (pt: PhasePoint, metric: BatchMetric) => {
  const k = metric.kineticEnergy(pt.p);
  return Array.from(pt.lp, (v, c) => -v + k[c]!);
};

describe('leapfrog', () => {
  it('conserves energy to O(ε²): halving ε divides the energy error at a fixed time by ≈ 4', () => {
    const { g, target, start, invMass } = setup([[1.2, -0.3], [0.2, 0.9]], [[0.5, 1], [-1.5, 0.2]]);
    const h0 = hamiltonian(start, invMass);
    const errors = [0.1, 0.05, 0.025].map((e) => {
      const eps = expandStepSize('test', e, g);
      const end = leapfrog(target, start, eps, invMass, Math.round(1 / e), g);
      const h1 = hamiltonian(end, invMass);
      return h1.map((h, c) => Math.abs(h - h0[c]!));
    });
    for (let c = 0; c < 2; c++) {
      expect(errors[0]![c]).toBeLessThan(0.05);
      for (let i = 0; i < 2; i++) {
        const ratio = errors[i]![c]! / errors[i + 1]![c]!;
        expect(ratio).toBeGreaterThan(3.5);
        expect(ratio).toBeLessThan(4.5);
      }
    }
  });

  it('is reversible: negating the momentum and integrating again returns to the start', () => {
    const { g, target, start, invMass } = setup([[1.2, -0.3], [0.2, 0.9]], [[0.5, 1], [-1.5, 0.2]], quartic, tensor([0.5, 2]));
    const eps = expandStepSize('test', 0.1, g);
    const end = leapfrog(target, start, eps, invMass, 25, g);
    const back = leapfrog(target, { ...end, p: end.p.map((a) => a.map((v) => -v)) }, eps, invMass, 25, g);
    back.x[0]!.forEach((v, i) => expect(v).toBeCloseTo(start.x[0]![i]!, 12));
    back.p[0]!.forEach((v, i) => expect(-v).toBeCloseTo(start.p[0]![i]!, 12));
    // ... and so is integrating with −ε from the end point.
    const neg = expandStepSize('test', 0.1, g).map((a) => a.map((v) => -v));
    const back2 = leapfrog(target, end, neg, invMass, 25, g);
    back2.x[0]!.forEach((v, i) => expect(v).toBeCloseTo(start.x[0]![i]!, 12));
  });

  it('takes the textbook step: half kick, drift by ε·invMass·p, new gradient, half kick', () => {
    const { g, target, start, invMass } = setup([[1, 2]], [[0.5, -1]], quartic, tensor([2, 0.5]));
    const end = leapfrog(target, start, expandStepSize('test', 0.1, g), invMass, 1, g);
    const m = [2, 0.5], gr0 = start.grad[0]!;
    const pHalf = [0.5 + 0.05 * gr0[0]!, -1 + 0.05 * gr0[1]!];
    const x1 = [1 + 0.1 * m[0]! * pHalf[0]!, 2 + 0.1 * m[1]! * pHalf[1]!];
    const [, [g1]] = quartic(tensor([x1]));
    expect(Array.from(end.x[0]!)).toEqual(x1);
    expect(Array.from(end.p[0]!)).toEqual([pHalf[0]! + 0.05 * (g1!.data[0] as number), pHalf[1]! + 0.05 * (g1!.data[1] as number)]);
  });

  it('with an inverse mass diagonal equals the identity-mass integrator in rescaled coordinates', () => {
    // x = s·y: target N(0, s²) in x with invMass s² ⇔ N(0, 1) in y with identity mass, p_y = s·p_x.
    const s = [0.5, 3];
    const gaussX = (x: Tensor) => {
      const d = x.data as Float64Array, C = d.length / 2;
      const lp = new Float64Array(C), gr = new Float64Array(d.length);
      for (let i = 0; i < d.length; i++) { lp[i >> 1] -= 0.5 * (d[i]! / s[i % 2]!) ** 2; gr[i] = -d[i]! / s[i % 2]! ** 2; }
      return [new Tensor(lp, [C]), [new Tensor(gr, x.shape)]] as const;
    };
    const gaussY = (y: Tensor) => [sum(mul(-0.5, square(y)), -1), [mul(-1, y)]] as const;
    const X = setup([[1, -2]], [[0.4, 0.1]], gaussX, tensor(s.map((v) => v * v)));
    const Y = setup([[1 / s[0]!, -2 / s[1]!]], [[0.4 * s[0]!, 0.1 * s[1]!]], gaussY);
    const ex = leapfrog(X.target, X.start, expandStepSize('test', 0.2, X.g), X.invMass, 7, X.g);
    const ey = leapfrog(Y.target, Y.start, expandStepSize('test', 0.2, Y.g), Y.invMass, 7, Y.g);
    ex.x[0]!.forEach((v, i) => expect(v / s[i]!).toBeCloseTo(ey.x[0]![i]!, 12));
    ex.p[0]!.forEach((v, i) => expect(v * s[i]!).toBeCloseTo(ey.p[0]![i]!, 12));
    expect(X.invMass.kineticEnergy(ex.p)[0]).toBeCloseTo(Y.invMass.kineticEnergy(ey.p)[0]!, 12);
  });

  it('leaves inactive chains where they are and moves the others exactly as alone', () => {
    const both = setup([[1, 2], [0.3, -0.4]], [[0.5, -1], [1, 1]]);
    const alone = setup([[0.3, -0.4]], [[1, 1]]);
    const eps = expandStepSize('test', 0.1, both.g);
    const end = leapfrog(both.target, both.start, eps, both.invMass, 5, both.g, Uint8Array.of(0, 1));
    const ref = leapfrog(alone.target, alone.start, expandStepSize('test', 0.1, alone.g), alone.invMass, 5, alone.g);
    expect(Array.from(end.x[0]!.subarray(0, 2))).toEqual([1, 2]);
    expect(Array.from(end.p[0]!.subarray(0, 2))).toEqual([0.5, -1]);
    expect(Array.from(end.x[0]!.subarray(2))).toEqual(Array.from(ref.x[0]!));
    expect(Array.from(end.p[0]!.subarray(2))).toEqual(Array.from(ref.p[0]!));
  });

  it('carries a NaN gradient along instead of throwing', () => {
    const nanGrad = (x: Tensor) => [sum(mul(-0.5, square(x)), -1), [new Tensor(new Float64Array(x.size).fill(NaN), x.shape)]] as const;
    const { g, target, start, invMass } = setup([[1, 2]], [[0, 0]], nanGrad);
    const end = leapfrog(target, start, expandStepSize('test', 0.1, g), invMass, 3, g);
    expect(Number.isNaN(end.x[0]![0]!)).toBe(true);
  });

  it('works through autodiff targets (per-chain gradients of Σ log p)', () => {
    const m = correlatedGaussian(3);
    const x = tensor([[0.1, 0.2, 0.3], [1, -1, 0.5]]);
    const [lp] = m.targetLogProbAndGradFn(x);
    const g = geometryOf('test', [x], lp);
    const auto = batchTarget('test', { target: m.targetLogProbFn, targetAndGrad: undefined }, g)([x.data as Float64Array]);
    const hand = batchTarget('test', { target: undefined, targetAndGrad: m.targetLogProbAndGradFn }, g)([x.data as Float64Array]);
    auto.lp.forEach((v, i) => expect(v).toBeCloseTo(hand.lp[i]!, 12));
    auto.grad[0]!.forEach((v, i) => expect(v).toBeCloseTo(hand.grad[0]![i]!, 12));
  });
});

describe('phase-space helpers', () => {
  it('broadcasts step sizes and inverse masses per part from the right, and checks them', () => {
    const x = tensor([[1, 2, 3], [4, 5, 6]]);
    const g = geometryOf('K', [x, tensor([1, 2])], tensor([0, 0]));
    expect(g.eventSizes).toEqual([3, 1]);
    const [a, b] = expandStepSize('K', [tensor([[0.1], [0.2]]), 0.5], g);
    expect(Array.from(a!)).toEqual([0.1, 0.1, 0.1, 0.2, 0.2, 0.2]);
    expect(Array.from(b!)).toEqual([0.5, 0.5]);
    expect(() => expandStepSize('K', tensor([0.1, 0.2]), g)).toThrow(/K: `stepSize` of shape \[2\] must broadcast to shape \[2, 3\]/);
    expect(() => expandStepSize('K', [0.1, 0.2, 0.3], g)).toThrow(RangeError);
    expect(() => expandStepSize('K', -1, g)).toThrow(/positive/);
    expect(expandInverseMass('K', [tensor([1, 2, 3]), undefined], g)[1]).toBeNull();
    expect(() => expandInverseMass('K', tensor([1, 2, 3]), g)).toThrow(/one entry per state part/);
    expect(() => expandInverseMass('K', [tensor([1, 0, 3]), undefined], g)).toThrow(/inverseMassDiag\[0\]` must be positive/);
  });

  it('names the expected chain shape when a part does not start with the log density’s shape', () => {
    expect(() => geometryOf('K', [tensor([[1, 2]])], tensor([0, 0, 0]))).toThrow(/must have leading \(chain\) dims \[3\]/);
    expect(() => geometryOf('K', [tensor([1, 2, 3]).astype('int32')], tensor([0, 0, 0]))).toThrow(TypeError);
  });

  it('logAddExp handles infinities', () => {
    expect(logAddExp(-Infinity, -Infinity)).toBe(-Infinity);
    expect(logAddExp(-Infinity, 1)).toBe(1);
    expect(logAddExp(Math.log(2), Math.log(3))).toBeCloseTo(Math.log(5), 14);
    expect(logAddExp(Infinity, 0)).toBe(Infinity);
    expect(logAddExp(0.5, 0.5)).toBe(0.5 + Math.LN2);
    expect(logAddExp(NaN, -Infinity)).toBeNaN(); // NaN propagates from either side (NumPy's logaddexp)
    expect(logAddExp(-Infinity, NaN)).toBeNaN();
  });

  it('kinetic energy is ½ Σ invMass·p² over each chain’s elements', () => {
    const g = geometryOf('K', [tensor([[0, 0], [0, 0]])], tensor([0, 0]));
    const k = new BatchMetric([Float64Array.of(1, 0.5, 2, 2)], g).kineticEnergy([Float64Array.of(1, 2, 3, 4)]);
    expect(Array.from(k)).toEqual([0.5 * (1 + 2), 0.5 * (18 + 32)]);
  });
});
