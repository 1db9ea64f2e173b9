/**
 * Shared checks for the scalar distributions whose reference values come from
 * test/fixtures/scipy-distributions/values.json (scipy.stats, cross-checked against mpmath at
 * 400 digits by the generating script beside it), and the compiled-versus-tape check of a small
 * joint model (as test/compile/coverage.test.ts does for the example models).
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Distribution } from '../../distributions/distribution.js';
import { compileLogDensity } from '../../distributions/compile-log-density.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import type { JointDistribution } from '../../distributions/joint/joint-distribution.js';
import type { StructKind } from '../../distributions/joint/values.js';
import { valueAndGrad } from '../../src/index.js';
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

/** The tape's value and gradient of the flat unconstrained target at x (the pre-compiler path). */
function tape(model: JointDistribution<StructKind>, pins: Record<string, unknown>, x: Float64Array, sizes: readonly number[]): [number, number[]] {
  const m = flatModel('test', model.experimentalPin(pins as never));
  let o = 0;
  const parts = sizes.map((n) => { const p = new Tensor(x.slice(o, o + n), [n], 'float64'); o += n; return p; });
  const [v, g] = valueAndGrad((...xs: Tensor[]) => m.target(...xs), parts.map((_, i) => i))(...parts) as [Tensor, Tensor[]];
  return [v.data[0] as number, g.flatMap((t) => Array.from(t.data as Float64Array))];
}

/** compileLogDensity on a model: the tape's bits at two points (invariant 8), finite differences at one. */
export function expectCompiledMatchesTape(model: JointDistribution<StructKind>, pins: Record<string, unknown>): void {
  const ld = compileLogDensity(model, { pins: pins as never });
  const grad = new Float64Array(ld.dim);
  const sizes = ld.params.map((p) => p.size);
  for (const s of [0.3, -0.8]) {
    const x = Float64Array.from({ length: ld.dim }, (_, i) => s * Math.sin(i + 1));
    const lp = ld.logDensityGradient(x, grad);
    const [v, g] = tape(model, pins, x, sizes);
    expect(lp).toBe(v);
    expect(Array.from(grad)).toEqual(g);
    expect([lp, ...grad].every(Number.isFinite)).toBe(true);
  }
  const x = Float64Array.from({ length: ld.dim }, (_, i) => 0.2 * Math.cos(i));
  ld.logDensityGradient(x, grad);
  for (let i = 0; i < ld.dim; i++) {
    const h = 1e-5, up = x.slice(), down = x.slice();
    up[i]! += h; down[i]! -= h;
    const fd = (ld.logDensity(up) - ld.logDensity(down)) / (2 * h);
    expect(Math.abs(fd - grad[i]!), `coordinate ${ld.paramNames[i]}: fd ${fd}, compiled ${grad[i]}`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(grad[i]!)));
  }
}
