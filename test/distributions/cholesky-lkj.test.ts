// CholeskyLKJ: log densities against TFP on JAX at TFP's own draws (fixtures/tfp-jax/log-prob.py
// → log-prob-x64.json; relative 1e-12), against the change of variables from LKJ's Cholesky form
// (log|J| = Σᵢ (D − 1 − i)·log Lᵢᵢ; 1e-12), and for D = 2 against the closed form: the density of
// r = L₁₀ integrates to 1 (Simpson, 1e-9). Draws are LKJ's Cholesky draws bit for bit (TFP's
// sample_lkj with cholesky_space=True; TFP's own draws are in tfp-parity.test.ts). Also gradients,
// the CorrelationCholesky bijector and bad input.
import { describe, expect, it } from 'vitest';
import { CholeskyLKJ, LKJ } from '../../distributions/index.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { expectGradients, expectSampleShapeInvariance } from './harness.js';
import { tfpLogProbFixture } from './tfp-log-prob-fixture.js';

interface Case { dimension: number; concentration: number | number[]; x: number[][][] | number[][][][]; logProb: number[] }
const cases = tfpLogProbFixture<Case[]>('choleskyLkj');

const flat = (t: Tensor) => Array.from(t.data as ArrayLike<number>, Number);
const close = (a: number, b: number, rel: number, what = '') => expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));

describe('CholeskyLKJ', () => {
  it('logProb matches TFP on JAX at its draws, and LKJ(Cholesky) plus the log-Jacobian', () => {
    for (const c of cases) {
      const d = new CholeskyLKJ({ dimension: c.dimension, concentration: c.concentration });
      const x = tensor(c.x as number[][][]);
      flat(d.logProb(x)).forEach((v, i) => close(v, c.logProb[i]!, 1e-12, `D=${c.dimension} [${i}]`));
      const lkj = flat(new LKJ({ dimension: c.dimension, concentration: c.concentration, inputOutputCholesky: true }).logProb(x));
      const D = c.dimension, xv = flat(x);
      flat(d.logProb(x)).forEach((v, q) => {
        let jac = 0;
        for (let i = 0; i < D; i++) jac += (D - 1 - i) * Math.log(xv[q * D * D + i * (D + 1)]!);
        close(v, lkj[q]! + jac, 1e-12, 'change of variables');
      });
    }
  });

  it('D = 2: the density of r = L₁₀ integrates to 1', () => {
    // Simpson over θ with r = sin θ (density · cos θ = cos^(2η − 1) θ / Z, bounded for η ≥ ½).
    const m = 2000, h = Math.PI / m;
    const th = Array.from({ length: m - 1 }, (_, i) => -Math.PI / 2 + (i + 1) * h);
    const L = th.map((t) => [[1, 0], [Math.sin(t), Math.cos(t)]]);
    for (const [eta, tol] of [[0.7, 1e-3], [1, 1e-9], [2.5, 1e-9], [10, 1e-9]] as const) {
      const p = flat(new CholeskyLKJ({ dimension: 2, concentration: eta }).prob(L));
      const s = p.reduce((acc, v, i) => acc + (i % 2 === 0 ? 4 : 2) * v * Math.cos(th[i]!), 0);
      close((s * h) / 3, 1, tol, `η=${eta}`);
    }
  }, 30_000);

  it('samples are LKJ(inputOutputCholesky) draws bit for bit (TFP\'s sample_lkj in Cholesky space)', () => {
    const a = new CholeskyLKJ({ dimension: 4, concentration: [0.5, 5] }).sample(3, { seed: 9 });
    const b = new LKJ({ dimension: 4, concentration: [0.5, 5], inputOutputCholesky: true }).sample(3, { seed: 9 });
    expect(a.shape).toEqual([3, 2, 4, 4]);
    expect(flat(a)).toEqual(flat(b));
    expectSampleShapeInvariance(new CholeskyLKJ({ dimension: 3, concentration: [1, 2] }));
    expect(new CholeskyLKJ({ dimension: 2, concentration: tensor(1.5, 'float32') }).sample(2, { seed: 0 }).dtype).toBe('float32');
  });

  it('gradients in the factor and the concentration; normalizer; event-space bijector', () => {
    const L = [[1, 0, 0], [0.3, Math.sqrt(0.91), 0], [-0.2, 0.6, Math.sqrt(0.6)]];
    const make = (p: Record<string, Tensor>) => new CholeskyLKJ({ dimension: 3, concentration: p.concentration! });
    expectGradients(make, { concentration: [0.6, 2.5] }, L);
    close(new CholeskyLKJ({ dimension: 2, concentration: 1 }).logNormalization().item() as number, Math.log(2), 1e-15);
    const d = new CholeskyLKJ({ dimension: 3, concentration: 2, validateArgs: true });
    const b = d.defaultEventSpaceBijector();
    expect(b.name).toBe('CorrelationCholesky');
    const y = b.forward([0.4, -1.3, 2]);
    expect(Number.isFinite(d.logProb(y).item() as number)).toBe(true);
    flat(b.inverse(y)).forEach((v, i) => close(v, [0.4, -1.3, 2][i]!, 1e-12));
    expect(d.eventShape).toEqual([3, 3]);
    expect(new CholeskyLKJ({ dimension: 3, concentration: [[1, 2]] }).batchShape).toEqual([1, 2]);
    // Off the support: a negative or zero diagonal entry.
    const c = new CholeskyLKJ({ dimension: 2, concentration: 2 });
    expect(flat(c.logProb([[[1, 0], [0.6, -0.8]], [[1, 0], [1, 0]]]))).toEqual([-Infinity, -Infinity]);
  });

  it('bad input names the class and the argument', () => {
    expect(() => new CholeskyLKJ({ dimension: -1, concentration: 1 })).toThrow(/CholeskyLKJ: `dimension`/);
    expect(() => new CholeskyLKJ({ dimension: 2.5, concentration: 1 })).toThrow(TypeError);
    expect(() => new CholeskyLKJ({ dimension: 2 } as never)).toThrow(/CholeskyLKJ: `concentration` is required/);
    expect(() => new CholeskyLKJ({ dimension: 2, concentration: 1, inputOutputCholesky: true } as never)).toThrow(/CholeskyLKJ: unknown parameter `inputOutputCholesky`/);
    expect(() => new CholeskyLKJ({ dimension: 2, concentration: [1, 0], validateArgs: true })).toThrow(/CholeskyLKJ: `concentration\[1\]` must be positive/);
    const v = new CholeskyLKJ({ dimension: 2, concentration: 2, validateArgs: true });
    expect(() => v.logProb([[1, 0.1], [0.6, 0.8]])).toThrow(/CholeskyLKJ.logProb: `value` must be lower-triangular/);
    expect(() => v.logProb([[1, 0], [0.6, 0.9]])).toThrow(/must have unit rows/);
    expect(() => v.logProb([[1, 0, 0], [0, 1, 0], [0, 0, 1]])).toThrow(RangeError);
  });
});
