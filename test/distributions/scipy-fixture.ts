/**
 * Shared checks for the scalar distributions whose reference values come from
 * test/fixtures/scipy-distributions/values.json (scipy.stats, cross-checked against mpmath at
 * 400 digits by the generating script beside it), KL divergences by quadrature, and (re-exported)
 * the compiled-versus-tape check of a small joint model.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Distribution } from '../../distributions/distribution.js';
import { Tensor } from '../../src/tensor/tensor.js';

export interface FixtureRow {
  readonly params: Record<string, number>;
  readonly x: number[];
  readonly p: number[];
  readonly logpdf: number[];
  readonly cdf: number[];
  readonly logcdf?: number[];
  readonly sf: number[];
  readonly logsf?: number[];
  readonly ppf: number[];
  readonly mean: number;
  readonly variance: number;
  readonly entropy: number;
}

const FIXTURE = new URL('../fixtures/scipy-distributions/values.json', import.meta.url);
let cache: Record<string, FixtureRow[]> | undefined;

/** The fixture rows of one distribution. */
export function fixtureRows(name: string): FixtureRow[] {
  cache ??= JSON.parse(readFileSync(FIXTURE, 'utf8').replace(/\bNaN\b/g, 'null').replace(/-Infinity/g, '"-inf"').replace(/Infinity/g, '"inf"'), (_k, v) => (v === null ? Number.NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v)) as Record<string, FixtureRow[]>;
  const rows = cache[name];
  if (rows === undefined) throw new Error(`no fixture rows for ${name}`);
  return rows;
}

/** |a − b| ≤ rel·max(floor, |b|), with equal infinities (and NaN = NaN) passing. */
export function close(a: number, b: number, rel: number, label: string, floor = 1e-300): void {
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return;
  const err = Math.abs(a - b), tol = rel * Math.max(floor, Math.abs(b));
  expect(err, `${label}: got ${a}, expected ${b}, error ${err}, tolerance ${tol}`).toBeLessThanOrEqual(tol);
}

type Method = 'logpdf' | 'cdf' | 'logcdf' | 'sf' | 'logsf' | 'ppf' | 'mean' | 'variance' | 'entropy';
const CALL: Record<Exclude<Method, 'mean' | 'variance' | 'entropy'>, (d: Distribution, v: number[]) => Tensor> = {
  logpdf: (d, v) => d.logProb(v), cdf: (d, v) => d.cdf(v), logcdf: (d, v) => d.logCdf(v),
  sf: (d, v) => d.survivalFunction(v), logsf: (d, v) => d.logSurvivalFunction(v), ppf: (d, v) => d.quantile(v),
};

/**
 * Every fixture value of every row against `make(params)`: per-method relative tolerances
 * (default 1e-12; `tol` overrides some), `skip` leaves methods out, `infiniteStatIsNaN` expects NaN
 * where scipy's moment is ±∞ (TFP's convention for undefined moments).
 */
export function expectFixture(name: string, make: (p: Record<string, number>) => Distribution, opts: { tol?: Partial<Record<Method, number>>; skip?: Method[]; infiniteStatIsNaN?: boolean } = {}): void {
  for (const row of fixtureRows(name)) {
    const d = make(row.params);
    const label = (m: string, i?: number) => `${name}(${JSON.stringify(row.params)}).${m}${i === undefined ? '' : ` at ${m === 'ppf' ? row.p[i] : row.x[i]}`}`;
    for (const m of ['logpdf', 'cdf', 'logcdf', 'sf', 'logsf', 'ppf'] as const) {
      if (opts.skip?.includes(m)) continue;
      const want = row[m];
      if (want === undefined) continue;
      const got = CALL[m](d, m === 'ppf' ? row.p : row.x).data as Float64Array;
      want.forEach((w, i) => close(got[i]!, w, opts.tol?.[m] ?? 1e-12, label(m, i)));
    }
    const stats: [Method, () => Tensor][] = [['mean', () => d.mean()], ['variance', () => d.variance()], ['entropy', () => d.entropy()]];
    for (const [m, f] of stats) {
      if (opts.skip?.includes(m)) continue;
      const want = row[m] as number;
      close(f().item() as number, opts.infiniteStatIsNaN && !Number.isFinite(want) ? Number.NaN : want, opts.tol?.[m] ?? 1e-12, label(m), 1e-300);
    }
  }
}

export { expectModelMatchesTape } from '../compile/model-tape.js';

/**
 * KL(a ‖ b) against E_a[log a − log b] by the midpoint rule over a's quantiles (200,000 points),
 * to `rel`; and KL(a ‖ a) = 0 to `zero`.
 */
export function expectKlByQuadrature(a: Distribution, b: Distribution, rel: number, zero: number): void {
  const n = 200000, us = Array.from({ length: n }, (_, i) => (i + 0.5) / n);
  const x = a.quantile(us), la = a.logProb(x).data as Float64Array, lb = b.logProb(x).data as Float64Array;
  let s = 0;
  for (let i = 0; i < n; i++) s += la[i]! - lb[i]!;
  close(a.klDivergence(b).item() as number, s / n, rel, 'KL');
  close(a.klDivergence(a).item() as number, 0, 1, 'KL(a‖a)', zero);
}
