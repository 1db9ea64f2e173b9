// powerscaleSensitivity against priorsense itself (test/fixtures/priorsense/priorsense.json, made by
// test/fixtures/priorsense/generate.R from priorsense's own R code: see the command there).
// Deterministic, no sampling: fixed draws, log prior and log likelihood in, sensitivities and
// Pareto k̂ out, compared to 1e-9.
import { describe, expect, it } from 'vitest';
import { powerscaleSensitivity } from '../../../mcmc/diagnostics/powerscale.js';
import { tensor } from '../../../src/tensor/tensor.js';
import raw from '../../fixtures/priorsense/priorsense.json' with { type: 'json' };

interface Case {
  draws: Record<string, number[][] | number[][][]>;
  logPrior: number[][];
  logLikelihood: number[][][];
  expected: {
    sensitivity: { variable: string; prior: number; likelihood: number; diagnosis: string }[];
    khat: Record<string, number>;
  };
}
const cases = (raw as unknown as { cases: Record<string, Case> }).cases;

/** priorsense's 1-based `theta[1]` as stochax's 0-based `theta[0]`. */
const zeroBased = (v: string) => v.replace(/\[(\d+)\]/, (_, i: string) => `[${Number(i) - 1}]`);

describe('powerscaleSensitivity against priorsense', () => {
  for (const [name, c] of Object.entries(cases)) {
    it(name, () => {
      const draws = Object.fromEntries(Object.entries(c.draws).map(([k, v]) => [k, tensor(v)]));
      const r = powerscaleSensitivity(draws, { logPrior: tensor(c.logPrior), logLikelihood: tensor(c.logLikelihood) });
      expect(r.rows.map((row) => row.variable)).toEqual(c.expected.sensitivity.map((e) => zeroBased(e.variable)));
      c.expected.sensitivity.forEach((e, j) => {
        const row = r.rows[j]!;
        expect(row.prior).toBeCloseTo(e.prior, 9);
        expect(row.likelihood).toBeCloseTo(e.likelihood, 9);
        expect(row.diagnosis).toBe(e.diagnosis);
      });
      expect(r.paretoK.prior!.lower).toBeCloseTo(c.expected.khat['prior_0.99']!, 9);
      expect(r.paretoK.prior!.upper).toBeCloseTo(c.expected.khat['prior_1.01']!, 9);
      expect(r.paretoK.likelihood!.lower).toBeCloseTo(c.expected.khat['likelihood_0.99']!, 9);
      expect(r.paretoK.likelihood!.upper).toBeCloseTo(c.expected.khat['likelihood_1.01']!, 9);
    });
  }
});
