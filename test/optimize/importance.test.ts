// optimize/importance.ts: PSIS weights and resampling of an approximation's draws (Pathfinder's and
// ADVI's). Known answers: weights normalised, equal ratios give equal weights, a failed draw
// (logP = −∞) gets weight 0 and is never picked, every draw failing gives equal weights and
// k̂ = ∞; a fixed key picks the same indices; resampling frequencies follow the weights.
import { describe, expect, it } from 'vitest';
import { psisImportance } from '../../optimize/importance.js';
import { key } from '../../src/random/keys.js';

const sumExp = (a: Float64Array) => a.reduce((t, v) => t + Math.exp(v), 0);

describe('psisImportance', () => {
  it('equal ratios (an exact approximation): equal weights, every candidate picked about equally', () => {
    const n = 200, logP = new Float64Array(n).fill(-3), logQ = new Float64Array(n).fill(-3);
    const r = psisImportance(logP, logQ, 20000, key(1));
    for (const v of r.logWeights) expect(v).toBeCloseTo(-Math.log(n), 12);
    // 20 000 picks of 200: 100 each, binomial sd ≈ 10; 150 is 5 sds (false failure < 1e-4 over 200 counts).
    const counts = new Array<number>(n).fill(0);
    for (const k of r.pick!) counts[k]!++;
    for (const c of counts) expect(Math.abs(c - 100)).toBeLessThan(50);
  });

  it('a failed draw has weight 0 and is never picked; the weights are normalised; the same key the same picks', () => {
    const n = 500;
    const logQ = Float64Array.from({ length: n }, (_, i) => -0.5 * ((i - 250) / 100) ** 2);
    const logP = Float64Array.from(logQ, (v, i) => (i % 50 === 0 ? -Infinity : 1.1 * v));
    const r = psisImportance(logP, logQ, 1000, key(2));
    expect(Math.abs(sumExp(r.logWeights) - 1)).toBeLessThan(1e-12);
    for (let i = 0; i < n; i += 50) expect(r.logWeights[i]).toBe(-Infinity);
    for (const k of r.pick!) expect(k % 50).not.toBe(0);
    expect(Array.from(psisImportance(logP, logQ, 1000, key(2)).pick!)).toEqual(Array.from(r.pick!));
    expect(psisImportance(logP, logQ, undefined, key(2)).pick).toBeUndefined();
    expect(Number.isFinite(r.paretoK)).toBe(true);
  });

  it('every draw failed: k̂ = ∞ and equal weights (the callers warn)', () => {
    const n = 10, r = psisImportance(new Float64Array(n).fill(-Infinity), new Float64Array(n), 5, key(3));
    expect(r.paretoK).toBe(Infinity);
    for (const v of r.logWeights) expect(v).toBeCloseTo(-Math.log(n), 12);
    expect(r.pick).toHaveLength(5);
  });
});
