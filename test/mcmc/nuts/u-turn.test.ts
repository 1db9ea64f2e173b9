// The no-U-turn criterion (mcmc/nuts/u-turn.ts): the truth tables of Stan's strict and TFP's
// non-strict conventions (positive, zero, negative zero, negative, NaN, ±∞), and the criterion on
// a real trajectory: leapfrog on a standard normal, whose momentum sum turns back against the
// end velocities after about half a period (π). Deterministic.
import { describe, expect, it } from 'vitest';
import { noUTurnStan, noUTurnTfp } from '../../../mcmc/nuts/u-turn.js';

describe('noUTurnStan / noUTurnTfp', () => {
  it('truth tables: both go on for two positive products and stop for a negative or NaN one; only at an exact 0 do they differ', () => {
    const rows: [number, number, boolean, boolean][] = [
      // a, b, Stan, TFP
      [1, 2, true, true],
      [1e-300, Infinity, true, true],
      [0, 2, false, true],
      [2, -0, false, true],
      [0, 0, false, true],
      [-1e-300, 2, false, false],
      [2, -Infinity, false, false],
      [NaN, 2, false, false],
      [2, NaN, false, false],
    ];
    for (const [a, b, stan, tfp] of rows) {
      expect(noUTurnStan(a, b), `stan ${a}, ${b}`).toBe(stan);
      expect(noUTurnTfp(a, b), `tfp ${a}, ${b}`).toBe(tfp);
      expect(noUTurnStan(b, a), `stan ${b}, ${a}`).toBe(stan);   // symmetric in the two ends
      expect(noUTurnTfp(b, a), `tfp ${b}, ${a}`).toBe(tfp);
    }
  });

  it('a leapfrog trajectory on N(0, 1) from (q, p) = (0, 1) goes on until it turns back, a quarter period later', () => {
    const eps = 0.1;
    let q = 0, p = 1;
    const p0 = p;
    let rho = p, stopAt = -1, firstBack = -1;
    for (let n = 1; n <= 100; n++) {
      p -= 0.5 * eps * q; q += eps * p; p -= 0.5 * eps * q;   // ∇ log p(q) = −q
      rho += p;
      if (p < 0 && firstBack < 0) firstBack = n;
      // Identity metric: the velocities are the momenta.
      const stan = noUTurnStan(p0 * rho, p * rho), tfp = noUTurnTfp(p0 * rho, p * rho);
      expect(stan).toBe(tfp);                                // no exact zeros here
      if (!stan) { stopAt = n; break; }
    }
    // In one dimension the trajectory turns when its end velocity reverses: at t ≈ π/2, step ⌈π/(2ε)⌉ = 16.
    expect(stopAt).toBe(firstBack);
    expect(stopAt).toBe(16);
  });
});
