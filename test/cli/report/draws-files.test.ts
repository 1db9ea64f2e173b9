import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromArvizJson, runDrawsFiles, toArvizJson, toDrawsCsv } from '../../../cli/report/draws-files.js';
import { bfmi, summary } from '../../../mcmc/diagnostics/index.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import expected from './fixtures/arviz-summary.json' with { type: 'json' };

const fixtureText = readFileSync(new URL('./fixtures/eight-schools-small.json', import.meta.url), 'utf8');

/** [draws, chains, ...event] tensor whose value encodes its index: d + 100·c + 10000·(e + 1) for events. */
function coded(nDraws: number, nChains: number, event: number[] = []): Tensor {
  const eventSize = event.reduce((a, b) => a * b, 1);
  const data = new Float64Array(nDraws * nChains * eventSize);
  for (let d = 0; d < nDraws; d++) {
    for (let c = 0; c < nChains; c++) {
      for (let e = 0; e < eventSize; e++) data[(d * nChains + c) * eventSize + e] = d + 100 * c + (event.length > 0 ? 10000 * (e + 1) : 0);
    }
  }
  return new Tensor(data, [nDraws, nChains, ...event], 'float64');
}

/** A tensor's values as numbers. */
const arr = (t: Tensor): number[] => Array.from(t.data as ArrayLike<number>);

/** A minimal RFC 4180 reader (quoted cells may hold commas). */
function parseCsv(text: string): string[][] {
  return text.trimEnd().split('\n').map((line) => {
    const cells: string[] = [];
    for (const m of line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)) {
      if (m.index === line.length && m[0] === '') break;
      const raw = m[1]!;
      cells.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw);
    }
    return cells;
  });
}

const trace = {
  stepSize: new Tensor(Float64Array.from({ length: 6 }, () => 0.25), [3, 2], 'float64'),
  treeDepth: new Tensor(Int32Array.of(1, 2, 3, 4, 5, 6), [3, 2], 'int32'),
  diverging: new Tensor(Uint8Array.of(0, 1, 0, 0, 1, 0), [3, 2], 'bool'),
  acceptRatio: new Tensor(Float64Array.of(0.9, 0.8, 0.7, 0.6, 0.5, 0.4), [3, 2], 'float64'),
  energy: new Tensor(Float64Array.of(10, 11, 12, 13, 14, 15), [3, 2], 'float64'),
  targetLogProb: new Tensor(Float64Array.of(-1, -2, -3, -4, -5, -6), [3, 2], 'float64'),
  finalStepSize: new Tensor(Float64Array.of(0.25), [1], 'float64'),   // not per draw: skipped
  nested: { a: 1 },                                                    // not a tensor: skipped
};

describe('toDrawsCsv', () => {
  it('one row per (chain, draw), chain-major; parameters labelled like ArviZ, then sample stats', () => {
    const csv = toDrawsCsv({ mu: coded(3, 2), L: coded(3, 2, [2, 2]) }, trace);
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual(['chain', 'draw', 'mu', 'L[0, 0]', 'L[0, 1]', 'L[1, 0]', 'L[1, 1]',
      'step_size', 'tree_depth', 'diverging', 'acceptance_rate', 'energy', 'lp']);
    expect(csv.split('\n')[0]).toContain('"L[1, 0]"');
    expect(rows).toHaveLength(1 + 6);
    expect(rows.slice(1).map((r) => [r[0], r[1]])).toEqual([['0', '0'], ['0', '1'], ['0', '2'], ['1', '0'], ['1', '1'], ['1', '2']]);
    // chain 1, draw 2: mu = 2 + 100; L[1, 0] is event element 2 → 30000 + 102; stats at [2, 1].
    const r = rows[6]!;
    expect(r.slice(2, 7).map(Number)).toEqual([102, 10102, 20102, 30102, 40102]);
    expect(r.slice(7).map(Number)).toEqual([0.25, 6, 0, 0.4, 15, -6]);
    // diverging is [draw, chain] = [[0, 1], [0, 0], [1, 0]]: chain 0 diverged at draw 2, chain 1 at draw 0.
    expect(rows.slice(1).map((row) => row[9])).toEqual(['0', '0', '1', '1', '0', '0']);
  });

  it('numbers round-trip exactly through Number(), including NaN, ±Infinity and −0', () => {
    const values = Float64Array.of(0.1 + 0.2, -1e-300, 1 / 3, Math.PI * 1e21, NaN, Infinity, -Infinity, -0, 5e-324, 2 ** 53 + 2);
    const t = new Tensor(values, [values.length, 1], 'float64');
    const rows = parseCsv(toDrawsCsv({ x: t }));
    const back = rows.slice(1).map((r) => Number(r[2]));
    back.forEach((v, i) => expect(Object.is(v, values[i]), `row ${i}: ${v} vs ${values[i]}`).toBe(true));
  });

  it('accepts an array of parts (x0, x1, …) and a single part (x)', () => {
    expect(parseCsv(toDrawsCsv([coded(2, 1), coded(2, 1)]))[0]).toEqual(['chain', 'draw', 'x0', 'x1']);
    expect(parseCsv(toDrawsCsv(coded(2, 3)))[0]).toEqual(['chain', 'draw', 'x']);
  });

  it('rejects non-draws and mismatched parts with errors naming the function and argument', () => {
    expect(() => toDrawsCsv('nope')).toThrow(TypeError);
    expect(() => toDrawsCsv('nope')).toThrow(/^toDrawsCsv: `draws`/);
    expect(() => toDrawsCsv({ a: coded(3, 2), b: coded(4, 2) })).toThrow(RangeError);
    expect(() => toDrawsCsv({ a: coded(3, 2), b: coded(4, 2) })).toThrow(/toDrawsCsv: `draws\.b` must have the same draws and chains/);
    expect(() => toDrawsCsv({ a: new Tensor(Float64Array.of(1), [], 'float64') })).toThrow(RangeError);
  });
});

describe('toArvizJson / fromArvizJson', () => {
  it('writes ArviZ layout [chain, draw, ...event], TFP layout is [draw, chain, ...event]', () => {
    const json = JSON.parse(toArvizJson({ mu: coded(3, 2), theta: coded(3, 2, [2]) }, trace, { settings: { seed: 7 } }));
    expect(Object.keys(json)).toEqual(['posterior', 'sample_stats', 'attrs']);
    expect(json.posterior.mu).toEqual([[0, 1, 2], [100, 101, 102]]);
    expect(json.posterior.theta).toEqual([[[10000, 20000], [10001, 20001], [10002, 20002]], [[10100, 20100], [10101, 20101], [10102, 20102]]]);
    expect(Object.keys(json.sample_stats)).toEqual(['step_size', 'tree_depth', 'diverging', 'acceptance_rate', 'energy', 'lp']);
    expect(json.sample_stats.diverging).toEqual([[false, false, true], [true, false, false]]);
    expect(json.sample_stats.tree_depth).toEqual([[1, 3, 5], [2, 4, 6]]);
    expect(json.attrs).toEqual({ inference_library: 'stochax', seed: 7 });
  });

  it('round-trips draws, trace and settings', () => {
    const draws = { mu: coded(3, 2), theta: coded(3, 2, [2]) };
    const settings = { seed: 3n, chains: 2, draws: 3, warmup: 10, model: 'm <1>', kernel: 'nuts', versions: { stochax: '0.1.0', node: 'v20' } };
    const text = toArvizJson(draws, trace, { settings });
    const back = fromArvizJson(text);
    expect(back.draws.mu!.shape).toEqual([3, 2]);
    expect(arr(back.draws.mu!)).toEqual(arr(draws.mu));
    expect(back.draws.theta!.shape).toEqual([3, 2, 2]);
    expect(arr(back.draws.theta!)).toEqual(arr(draws.theta));
    expect(Object.keys(back.trace)).toEqual(['stepSize', 'treeDepth', 'diverging', 'acceptRatio', 'energy', 'targetLogProb']);
    expect(back.trace.diverging!.dtype).toBe('bool');
    expect(arr(back.trace.diverging!)).toEqual([0, 1, 0, 0, 1, 0]);
    expect(arr(back.trace.treeDepth!)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(back.settings).toEqual({ seed: '3', chains: 2, draws: 3, warmup: 10, model: 'm <1>', kernel: 'nuts', versions: { stochax: '0.1.0', node: 'v20' } });
    expect(back.attrs.inference_library_version).toBe('0.1.0');
    expect(toArvizJson(back.draws, back.trace, { settings: back.settings })).toBe(text);
    expect(fromArvizJson(JSON.parse(text)).draws.mu!.shape).toEqual([3, 2]);   // a parsed object works too
  });

  it('writes non-finite numbers as Python does and reads them back', () => {
    const x = new Tensor(Float64Array.of(NaN, Infinity, -Infinity, -0, 1e-320, 0.1), [3, 2], 'float64');
    const text = toArvizJson({ x });
    expect(text).toContain('[[NaN, -Infinity, 1e-320], [Infinity, -0.0, 0.1]]');
    const back = arr(fromArvizJson(text).draws.x!);
    arr(x).forEach((v, i) => expect(Object.is(back[i], v)).toBe(true));
    // A string holding the token is left alone.
    expect(fromArvizJson('{"posterior": {"x": [[1, 2]]}, "attrs": {"note": "NaN Infinity"}}').attrs.note).toBe('NaN Infinity');
  });

  it('rejects malformed JSON with errors naming fromArvizJson and the offending field', () => {
    expect(() => fromArvizJson('{')).toThrow(TypeError);
    expect(() => fromArvizJson('{')).toThrow(/^fromArvizJson: `json` must be JSON text/);
    expect(() => fromArvizJson('{"sample_stats": {}}')).toThrow(/`json\.posterior` must be an object of variables/);
    expect(() => fromArvizJson('{"posterior": {}}')).toThrow(RangeError);
    expect(() => fromArvizJson('{"posterior": {"mu": [1, 2]}}')).toThrow(/`json\.posterior\.mu` must be a nested array shaped \[chain, draw, \.\.\.\]/);
    expect(() => fromArvizJson('{"posterior": {"mu": [[1, 2], [3]]}}')).toThrow(/must be rectangular/);
    expect(() => fromArvizJson('{"posterior": {"mu": [[1, "a"]]}}')).toThrow(TypeError);
    expect(() => fromArvizJson('{"posterior": {"mu": [[1, true]]}}')).toThrow(/only numbers or only booleans/);
    expect(() => fromArvizJson('{"posterior": {"mu": [[1, 2]], "nu": [[1, 2, 3]]}}')).toThrow(/`json\.posterior\.nu` must have 1 chains and 2 draws/);
    expect(() => fromArvizJson('{"posterior": {"mu": [[1, 2]]}, "sample_stats": {"lp": [[1], [2]]}}')).toThrow(/json\.sample_stats\.lp/);
    expect(() => toArvizJson({ mu: coded(2, 2) }, undefined, { settings: { seed: {} as never } })).toThrow(/toArvizJson: `settings\.seed`/);
  });
});

describe(`draws.json loads in ArviZ ${expected.versions.arviz} (fixtures/load-arviz.py) and stochax's summary matches az.summary to 1e-8`, () => {
  const { draws, trace, settings } = fromArvizJson(fixtureText);
  const close = (got: number, want: unknown, label: string): void => {
    const w = typeof want === 'string' ? Number(want) : (want as number);
    const err = Math.abs(got - w) / Math.max(1, Math.abs(w));
    expect(err, `${label}: got ${got}, want ${w}`).toBeLessThanOrEqual(1e-8);
  };

  it('the committed fixture round-trips byte for byte', () => {
    expect(toArvizJson(draws, trace, { settings })).toBe(fixtureText);
  });

  it('ArviZ saw the groups, dims and dtypes we wrote', () => {
    expect(expected.posterior_dims).toEqual({
      mu: ['chain', 'draw'], tau: ['chain', 'draw'],
      thetaTilde: ['chain', 'draw', 'thetaTilde_dim_0'], theta: ['chain', 'draw', 'theta_dim_0'],
    });
    expect(Object.keys(expected.sample_stats_dims)).toEqual(['step_size', 'tune', 'n_steps', 'tree_depth', 'diverging', 'acceptance_rate', 'energy', 'lp', 'is_accepted']);
    expect(expected.sample_stats_dtypes.diverging).toBe('bool');
    expect(expected.sample_stats_dtypes.energy).toBe('float64');
    expect(expected.attrs).toMatchObject({ inference_library: 'stochax', seed: 1, chains: 4, draws: 50, warmup: 200 });
  });

  it('every row of az.summary: mean, sd, mcse_mean, mcse_sd, ess_bulk, ess_tail, r_hat, and NumPy quantiles', () => {
    const s = summary(draws, { divergences: trace.diverging });
    expect(s.rows.map((r) => r.name)).toEqual(expected.summary.map((r) => r.label));
    for (const want of expected.summary) {
      const got = s.get(want.label)!;
      close(got.mean, want.mean, `${want.label} mean`);
      close(got.sd, want.sd, `${want.label} sd`);
      close(got.mcseMean, want.mcse_mean, `${want.label} mcse_mean`);
      close(got.mcseSd, want.mcse_sd, `${want.label} mcse_sd`);
      close(got.essBulk, want.ess_bulk, `${want.label} ess_bulk`);
      close(got.essTail, want.ess_tail, `${want.label} ess_tail`);
      close(got.rHat, want.r_hat, `${want.label} r_hat`);
      close(got.q5, want.q5, `${want.label} 5%`);
      close(got.q50, want.q50, `${want.label} 50%`);
      close(got.q95, want.q95, `${want.label} 95%`);
    }
    expect(s.divergences).toBe(expected.divergences);
  });

  it('E-BFMI per chain matches az.bfmi', () => {
    const b = bfmi(trace.energy!);
    expected.bfmi.forEach((want, c) => close(Number(b.data[c]), want, `bfmi chain ${c}`));
  });
});

describe('runDrawsFiles part (the netCDF groups and draws.json made on two threads)', () => {
  const idata = { posterior: { mu: coded(3, 2), theta: coded(3, 2, [4]) }, sampleStats: trace, logLikelihood: { y: coded(3, 2, [5]) }, observedData: { y: new Tensor(Float64Array.of(1, 2, 3, 4, 5), [5], 'float64') } };
  for (const format of ['json', 'netcdf'] as const) {
    it(`'netcdf' and 'json' together are 'all', byte for byte (--draws-format ${format})`, () => {
      const all = runDrawsFiles(idata, { format });
      const nc = runDrawsFiles(idata, { format, part: 'netcdf' }), json = runDrawsFiles(idata, { format, part: 'json' });
      expect(Object.keys(nc.files).every((f) => f.startsWith('idata/'))).toBe(true);
      expect(Object.keys(json.files)).toEqual(['draws.json']);
      expect({ ...nc, files: { ...nc.files, ...json.files } }).toEqual(all);
      expect(Object.keys(nc.files).length).toBe(format === 'netcdf' ? 4 : 0);
    });
  }
  it('refuses an unknown part', () => {
    expect(() => runDrawsFiles(idata, { part: 'csv' as never })).toThrow(/runDrawsFiles: `options.part` must be 'all', 'netcdf' or 'json'/);
  });
});
