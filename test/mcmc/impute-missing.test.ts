/**
 * Missing values (NaN in a pinned observation) sampled as `y_missing` with the parameters: a
 * linear regression with 4 of 40 responses missing (10%), checked against the same regression with
 * those rows dropped — the parameters' posterior must be the same, and `y_missing` must be
 * distributed as the posterior predictive of those rows.
 *
 * Each statistical check runs at a fixed seed (a pass is reproducible) on draws thinned by 4 so
 * they are close to independent (NUTS on this model has ESS near the number of draws), with
 * two runs on different seeds so the two samples are independent of each other. Per check the
 * false-failure rate is α = 1e-4 (two-sample KS) or |z| > 4.4 (6e-5 two-sided) for the means;
 * 7 KS checks and 3 z-tests: below 1e-3 for the file.
 */
import { describe, expect, it, vi } from 'vitest';
import { add, linspace, mul, random, type Tensor } from '../../src/index.js';
import { HalfNormal, Independent, JointDistributionNamed, Normal } from '../../distributions/index.js';
import { mcseMean, samplePosteriorPredictive, summary, windowedAdaptiveNuts } from '../../mcmc/index.js';
import { ksTwoSamplePValue } from '../stats.js';

/** The model as a function of its covariate (the documented way to change data: see new-data.test.ts). */
const regression = (x: Tensor) => new JointDistributionNamed({
  a: new Normal({ loc: 0, scale: 5 }),
  b: new Normal({ loc: 0, scale: 5 }),
  sigma: new HalfNormal({ scale: 2 }),
  y: ({ a, b, sigma }: { a: Tensor; b: Tensor; sigma: Tensor }) => new Independent({ distribution: new Normal({ loc: add(a, mul(b, x)), scale: sigma }), reinterpretedBatchNdims: 1 }),
});

const N = 40;
const x = linspace(-2, 2, N);
const yFull = add(add(1, mul(2, x)), mul(0.7, random.normal(random.key(11), [N]))).data as Float64Array;
const missing = [3, 14, 25, 36];
const kept = Array.from({ length: N }, (_, i) => i).filter((i) => !missing.includes(i));
const yNaN = Array.from(yFull, (v, i) => (missing.includes(i) ? Number.NaN : v));
const pick = (t: Tensor, idx: readonly number[]) => new (t.constructor as typeof Tensor)(Float64Array.from(idx, (i) => t.data[i] as number), [idx.length], 'float64');

/** Every 4th draw of coordinate k of a [draws, chains, ...] tensor, all chains. */
function thinned(t: Tensor, k = 0, size = 1): number[] {
  const [D, C] = t.shape as [number, number];
  const out: number[] = [];
  for (let d = 0; d < D; d += 4) for (let c = 0; c < C; c++) out.push(t.data[(d * C + c) * size + k] as number);
  return out;
}

describe('missing values: NaN in a pinned observation is sampled as y_missing', () => {
  const settings = { nChains: 4, nDraws: 1000, numAdaptationSteps: 500 };
  const imputed = windowedAdaptiveNuts(regression(x), { pins: { y: yNaN }, seed: 1, ...settings });
  const dropped = windowedAdaptiveNuts(regression(pick(x, kept)), { pins: { y: Float64Array.from(kept, (i) => yFull[i]!) }, seed: 2, ...settings });

  it('returns y_missing beside the parameters, says so in `imputed`, and summary shows it', () => {
    expect(Object.keys(imputed.draws).sort()).toEqual(['a', 'b', 'sigma', 'y_missing']);
    expect(imputed.draws.y_missing!.shape).toEqual([1000, 4, 4]);
    expect(imputed.imputed).toEqual([{ node: 'y', name: 'y_missing', count: 4, indices: missing }]);
    expect(imputed.compiled).toBe(true);
    expect(dropped.imputed).toBeUndefined();
    expect(imputed.warnings).toEqual([]);
    const rows = String(summary(imputed.draws)).split('\n').map((l) => l.trim().split(/\s+/)[0]);
    expect(rows).toEqual(expect.arrayContaining(['y_missing[0]', 'y_missing[3]']));
  });

  it('the parameters\' posterior equals the one with those rows dropped (z-test of means, KS)', () => {
    const mA = mcseMean(imputed.draws), mB = mcseMean(dropped.draws);
    for (const p of ['a', 'b', 'sigma'] as const) {
      const mean = (t: Tensor) => (t.data as Float64Array).reduce((s, v) => s + v, 0) / t.size;
      const z = (mean(imputed.draws[p]!) - mean(dropped.draws[p]!)) / Math.hypot(mA[p]!.item() as number, mB[p]!.item() as number);
      expect(Math.abs(z), p).toBeLessThan(4.4);
      expect(ksTwoSamplePValue(thinned(imputed.draws[p]!), thinned(dropped.draws[p]!)), p).toBeGreaterThan(1e-4);
    }
  });

  it('y_missing is distributed as the posterior predictive of the missing rows (two-sample KS per entry)', () => {
    // The dropped-rows fit predicts at the missing rows' x (the model at new data, same draws).
    const pp = samplePosteriorPredictive(regression(pick(x, missing)), dropped.draws, { seed: 3 });
    expect(pp.y!.shape).toEqual([1000, 4, 4]);
    missing.forEach((_, k) => {
      const p = ksTwoSamplePValue(thinned(imputed.draws.y_missing!, k, 4), thinned(pp.y!, k, 4));
      expect(p, `y_missing[${k}]`).toBeGreaterThan(1e-4);
    });
  });

  it('the pooled engine imputes too; `warn: true` prints the note', () => {
    const pooled = windowedAdaptiveNuts(regression(x), { pins: { y: yNaN }, seed: 1, adaptation: 'pooled', nChains: 2, nDraws: 50, numAdaptationSteps: 100 });
    expect(pooled.draws.y_missing!.shape).toEqual([50, 2, 4]);
    expect(pooled.imputed).toEqual(imputed.imputed);
    const notes: string[] = [];
    const spy = vi.spyOn(console, 'warn').mockImplementation((m: string) => { notes.push(m); });
    try { windowedAdaptiveNuts(regression(x), { pins: { y: yNaN }, seed: 1, nChains: 1, nDraws: 20, numAdaptationSteps: 20, warn: true }); } finally { spy.mockRestore(); }
    expect(notes[0]).toBe('windowedAdaptiveNuts: note: 4 missing values (NaN) of `y` sampled as `y_missing`');
  });

  it('the posterior predictive of the imputing run replicates every row, missing ones included', () => {
    const pp = samplePosteriorPredictive(regression(x), imputed.draws, { seed: 4 });   // y_missing in the draws is not a node of this model: left out
    expect(Object.keys(pp)).toEqual(['y']);
    expect(pp.y!.shape).toEqual([1000, 4, N]);
  });
});
