// DiagonalMassMatrixAdaptation and the running variance against hand-computed variances, with a
// deterministic fake kernel whose states follow a fixed sequence. Exact checks only (false-failure
// rate 0).
import { describe, expect, it } from 'vitest';
import { DiagonalMassMatrixAdaptation } from '../../mcmc/kernels/diagonal-mass-matrix-adaptation.js';
import {
  runningVarianceFromStats, runningVarianceValue, updateRunningVariance,
} from '../../mcmc/nuts/tfp/running-variance.js';
import { getInverseMassDiag } from '../../mcmc/internal/kernel-results.js';
import { ones, zeros } from '../../src/tensor/ops/create.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import { FakeKernel, run } from './fake-kernel.js';

/** State at step t (from 1) for chain c, dim d: a fixed, irregular sequence. */
const value = (t: number, c: number, d: number) => Math.sin(1.3 * t + 0.7 * c + 2.1 * d) * (1 + c) + 0.1 * t * d;
const C = 2, D = 3;
const seq = new FakeKernel({
  stepSize: 0.1,
  logAccept: () => 0,
  next: (_parts, t) => [new Tensor(Float64Array.from({ length: C * D }, (_, i) => value(t, Math.floor(i / D), i % D)), [C, D], 'float64')],
});

const popVar = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length;
};

describe('running variance', () => {
  it('chunked and one-at-a-time updates agree with the two-pass population variance', () => {
    const xs = [3.1, -0.4, 2.2, 7.5, 0.05, -1.25, 4.4];
    let a = runningVarianceFromStats({ numSamples: 0, mean: zeros([]), variance: ones([]) });
    for (const x of xs) a = updateRunningVariance(a, tensor(x), false);
    let b = runningVarianceFromStats({ numSamples: 0, mean: zeros([]), variance: ones([]) });
    b = updateRunningVariance(b, tensor(xs.slice(0, 3)));
    b = updateRunningVariance(b, tensor(xs.slice(3)));
    expect(runningVarianceValue(a).data[0]).toBeCloseTo(popVar(xs), 13);
    expect(runningVarianceValue(b).data[0]).toBeCloseTo(popVar(xs), 13);
    expect(runningVarianceValue(b, 1).data[0]).toBeCloseTo(popVar(xs) * 7 / 6, 13);
    // from_stats with samples already seen: (n·v + new) combine like pooled data
    const c = updateRunningVariance(runningVarianceFromStats({ numSamples: 3, mean: tensor(1), variance: tensor(2 / 3) }), tensor([5]));
    expect(runningVarianceValue(c).data[0]).toBeCloseTo(popVar([0, 1, 2, 5]), 13);
    expect(() => updateRunningVariance(a, tensor([[1, 2]]))).toThrow(RangeError);
  });
});

describe('DiagonalMassMatrixAdaptation', () => {
  it('sets inverseMassDiag to each chain’s population variance at numEstimationSteps and stops updating after', () => {
    const k = 5;
    const kernel = new DiagonalMassMatrixAdaptation({ innerKernel: seq, numEstimationSteps: k });
    const { all, results } = run(kernel, zeros([C, D]), 9);
    // before step k the inner kernel still has the identity
    for (let t = 0; t < k - 1; t++) expect(getInverseMassDiag(all[t]!)).toBeUndefined();
    const m = getInverseMassDiag(all[k - 1]!) as Tensor[];
    expect(m[0]!.shape).toEqual([C, D]);
    for (let c = 0; c < C; c++) {
      for (let d = 0; d < D; d++) {
        const want = popVar(Array.from({ length: k }, (_, i) => value(i + 1, c, d)));
        expect(m[0]!.data[c * D + d]).toBeCloseTo(want, 13);
      }
    }
    expect(results.runningVariance[0]!.numSamples).toBe(k);                       // no updates after step k
    expect(getInverseMassDiag(results)).toBe(m);
    // the inner kernel used the new mass matrix from step k + 1 on
    expect(results.innerResults.seen[k]!.inverseMassDiag).toBe(m);
    expect(results.innerResults.seen[k - 1]!.inverseMassDiag).toBeUndefined();
  });

  it('a variance without the chain dim pools the chains; without numEstimationSteps it updates every step', () => {
    const init = runningVarianceFromStats({ numSamples: 0, mean: zeros([D]), variance: ones([D]) });
    const kernel = new DiagonalMassMatrixAdaptation({ innerKernel: seq, initialRunningVariance: init });
    expect(kernel.isCalibrated).toBe(false);
    const { all } = run(kernel, zeros([C, D]), 4);
    all.forEach((r, t) => {
      const m = (getInverseMassDiag(r) as Tensor[])[0]!;
      expect(m.shape).toEqual([D]);
      for (let d = 0; d < D; d++) {
        const xs = Array.from({ length: t + 1 }, (_, i) => [0, 1].map((c) => value(i + 1, c, d))).flat();
        expect(m.data[d]).toBeCloseTo(popVar(xs), 13);
      }
    });
  });

  it('rejects initial variances that do not fit the state', () => {
    const bad = runningVarianceFromStats({ numSamples: 0, mean: zeros([4]), variance: ones([4]) });
    expect(() => new DiagonalMassMatrixAdaptation({ innerKernel: seq, initialRunningVariance: bad }).bootstrapResults(zeros([C, D])))
      .toThrow(/initialRunningVariance\[0\]/);
    expect(() => new DiagonalMassMatrixAdaptation({ innerKernel: seq, initialRunningVariance: [bad, bad] }).bootstrapResults(zeros([C, D])))
      .toThrow(/one running variance per state part/);
    expect(() => new DiagonalMassMatrixAdaptation({ innerKernel: seq, numEstimationSteps: -2 })).toThrow(/numEstimationSteps/);
  });
});
