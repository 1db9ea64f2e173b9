import { describe, expect, it } from 'vitest';
import { key } from '../../../src/random/keys.js';
import { normal } from '../../../src/random/normal.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import { Summary, summary } from '../../../mcmc/diagnostics/index.js';
import { expectClose, fixture, tensorOf } from './fixture.js';

const COLS = [
  ['mean', 'mean'], ['sd', 'sd'], ['mcseMean', 'mcse_mean'], ['mcseSd', 'mcse_sd'],
  ['essBulk', 'ess_bulk'], ['essTail', 'ess_tail'], ['rHat', 'r_hat'],
] as const;

describe('summary matches az.summary(round_to="none") to 1e-8', () => {
  for (const [name, set] of Object.entries(fixture.sets)) {
    it(`${name}: ${set.note}`, () => {
      const row = summary({ x: tensorOf(set.shape, set.draws) }).rows[0]!;
      const want = set.arviz.summary;
      expect(row.name).toBe('x');
      for (const [ours, theirs] of COLS) expectClose(row[ours], want[theirs], `${name} ${theirs}`);
      expectClose(row.q5, want.q5, `${name} 5%`);
      expectClose(row.q50, want.q50, `${name} 50%`);
      expectClose(row.q95, want.q95, `${name} 95%`);
    });
  }

  it('a record of a scalar and a vector parameter: ArviZ labels and numbers', () => {
    const { mu, theta, summary: rows, quantiles } = fixture.multi;
    const s = summary({ mu: tensorOf(mu.shape, mu.draws), theta: tensorOf(theta.shape, theta.draws) });
    expect(s.rows.map((r) => r.name)).toEqual(rows.map((r) => r.label));
    for (const want of rows) {
      const got = s.get(want.label)!;
      for (const [ours, theirs] of COLS) expectClose(got[ours], want[theirs], `${want.label} ${theirs}`);
    }
    const q = [quantiles.mu, ...quantiles.theta];
    s.rows.forEach((r, i) => {
      expectClose(r.q5, q[i]![0], `${r.name} 5%`);
      expectClose(r.q50, q[i]![1], `${r.name} 50%`);
      expectClose(r.q95, q[i]![2], `${r.name} 95%`);
    });
  });
});

describe('summary input forms and printing', () => {
  const a = normal(key(1), [100, 2]);
  const b = normal(key(2), [100, 2, 2, 2]);

  it('labels matrix elements like ArviZ (name[i, j]) in row-major order', () => {
    const s = summary({ L: b });
    expect(s.rows.map((r) => r.name)).toEqual(['L[0, 0]', 'L[0, 1]', 'L[1, 0]', 'L[1, 1]']);
  });

  it('accepts an array of parts (named x0, x1 or by `names`) and a single part (x)', () => {
    expect(summary([a, b]).rows.map((r) => r.name).slice(0, 2)).toEqual(['x0', 'x1[0, 0]']);
    expect(summary([a, b], { names: ['mu', 'L'] }).rows[0]!.name).toBe('mu');
    expect(summary(a).rows[0]!.name).toBe('x');
    expect(summary(a).rows[0]).toEqual(summary({ x: a }).rows[0]);
  });

  it('varNames selects parts in its order (ArviZ var_names); an unknown name or option is an error', () => {
    const all = summary({ mu: a, L: b });
    const picked = summary({ mu: a, L: b }, { varNames: ['L', 'mu'] });
    expect(picked.rows.map((r) => r.name)).toEqual(['L[0, 0]', 'L[0, 1]', 'L[1, 0]', 'L[1, 1]', 'mu']);
    expect(picked.rows[4]).toEqual(all.rows[0]);
    expect(summary([a, b], { names: ['mu', 'L'], varNames: ['mu'] }).rows.map((r) => r.name)).toEqual(['mu']);
    expect(() => summary({ mu: a }, { varNames: ['tau'] })).toThrow(/varNames.*`tau`.*mu/);
    expect(() => summary({ mu: a }, { varNames: 'mu' as never })).toThrow(TypeError);
    expect(() => summary({ mu: a }, { var_names: ['mu'] } as never)).toThrow(/unknown option `var_names`/);
  });

  it('accepts a sampleChain result and counts divergences from its trace', () => {
    const diverging = new Tensor(new Uint8Array(200), [100, 2], 'bool');
    diverging.data[5] = 1;
    diverging.data[77] = 1;
    const s = summary({ allStates: { mu: a }, trace: { diverging }, finalKernelResults: {}, finalSeed: undefined });
    expect(s.rows[0]!.name).toBe('mu');
    expect(s.divergences).toBe(2);
    expect(summary({ allStates: [a], trace: { hasDivergence: [[true, false], [true, true]] } }).divergences).toBe(3);
    expect(summary({ allStates: [a], trace: {} }).divergences).toBeUndefined();
  });

  it('takes divergences as a count or per-draw flags', () => {
    expect(summary({ mu: a }, { divergences: 4 }).divergences).toBe(4);
    expect(summary({ mu: a }, { divergences: new Float64Array([0, 1, 0, 1, 1]) }).divergences).toBe(3);
    expect(summary({ mu: a }).divergences).toBeUndefined();
  });

  it('prints a table with the issue\'s columns and the divergence count', () => {
    const s = summary({ mu: a, theta: normal(key(3), [100, 2, 2]) }, { divergences: 1 });
    expect(s).toBeInstanceOf(Summary);
    const text = String(s);
    const lines = text.split('\n');
    expect(lines[0]!.trim().split(/\s+/)).toEqual(['mean', 'mcse', 'sd', 'hdi_3%', 'hdi_97%', 'ess_bulk', 'ess_tail', 'r_hat']);
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(['', 'mu', 'theta[0]', 'theta[1]', 'divergences:']);
    expect(lines.at(-1)).toBe('divergences: 1');
    const mu = s.get('mu')!;
    expect(lines[1]).toContain(mu.mean.toFixed(3));
    expect(lines[1]).toContain(mu.rHat.toFixed(2));
    expect(lines[1]).toContain(mu.essBulk.toFixed(0));
    expect(text).toBe(s.format());
  });

  it('prints NaN diagnostics (one chain has no R-hat)', () => {
    const s = summary({ mu: normal(key(4), [50]) });
    expect(s.rows[0]!.rHat).toBeNaN();
    expect(s.format().split('\n')[1]!.trim().endsWith('NaN')).toBe(true);
  });
});
