/**
 * Power-scaling sensitivity (Kallioinen, Paananen, Bürkner and Vehtari 2023, "Detecting and
 * diagnosing prior and likelihood sensitivity with power-scaling", Statistics and Computing
 * 34:57), as the R package priorsense computes `powerscale_sensitivity`: the posterior is
 * reweighted as if the prior (or the likelihood) were raised to a power α near 1, with Pareto
 * smoothed importance weights, and the sensitivity of each parameter is the derivative, in log₂ α,
 * of the cumulative Jensen–Shannon distance between the reweighted and the original draws.
 */
import { checkFinite, checkOptions, fail } from '../../src/checks.js';
import { detExp, detLog } from '../../src/math/index.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { componentChains, drawsLayout, float64Values, isPartRecord, toTensor } from './draws.js';
import { essTailOf } from './internal/arviz-stats.js';
import { gpdFit, gpdQuantile, logSumExp, paretoKThreshold } from './internal/psis.js';
import { label } from './summary.js';

const FN = 'powerscaleSensitivity';
const EPS = 2.220446049250313e-16;
const LN2 = detLog(2);

export type PowerscaleComponent = 'prior' | 'likelihood';

export interface PowerscaleSensitivityOptions {
  /**
   * Log prior density per draw, `[draws, chains]` (trailing dims are summed): priorsense's
   * `lprior`; `logPrior(model, draws, pins)` computes it from a model.
   */
  readonly logPrior: Tensor | readonly unknown[];
  /**
   * Log likelihood per draw, `[draws, chains, ...]` (trailing dims are summed), or
   * `logLikelihood(model, draws, pins)`'s record (all its nodes summed).
   */
  readonly logLikelihood: Tensor | readonly unknown[] | Readonly<Record<string, Tensor>>;
  /** α below 1 (default 0.99, priorsense's `lower_alpha`). */
  readonly lowerAlpha?: number;
  /** α above 1 (default 1.01, priorsense's `upper_alpha`). */
  readonly upperAlpha?: number;
  /** Which components to scale (default both). */
  readonly component?: readonly PowerscaleComponent[];
  /** Sensitivity above which a variable is flagged (default 0.05, priorsense's `sensitivity_threshold`). */
  readonly sensitivityThreshold?: number;
}

/** One variable's sensitivities (priorsense's columns). */
export interface PowerscaleSensitivityRow {
  /** ArviZ-style label: `mu`, `theta[0]`. */
  readonly variable: string;
  /** Sensitivity to power-scaling the prior (NaN when the prior is not scaled). */
  readonly prior: number;
  /** Sensitivity to power-scaling the likelihood (NaN when it is not scaled). */
  readonly likelihood: number;
  /**
   * priorsense's diagnosis: `'potential prior-likelihood conflict'` (both ≥ threshold),
   * `'potential strong prior / weak likelihood'` (prior > threshold, likelihood < threshold),
   * else `'-'`.
   */
  readonly diagnosis: string;
}

/** Pareto k̂ of the smoothed weights at each α (NaN where not fitted). */
export interface PowerscaleParetoK { readonly lower: number; readonly upper: number }

export class PowerscaleSensitivityResult {
  constructor(
    readonly rows: readonly PowerscaleSensitivityRow[],
    /** Pareto k̂ per scaled component and α. */
    readonly paretoK: Readonly<Partial<Record<PowerscaleComponent, PowerscaleParetoK>>>,
    /** k̂ above which the weights are unreliable, min(1 − 1/log₁₀ S, 0.7). */
    readonly paretoKThreshold: number,
    readonly sensitivityThreshold: number,
  ) {}

  /** Messages about unreliable weights (k̂ above the threshold); `[]` when none. */
  get warnings(): string[] {
    const out: string[] = [];
    for (const [c, k] of Object.entries(this.paretoK) as [PowerscaleComponent, PowerscaleParetoK][]) {
      const worst = Math.max(k.lower, k.upper);
      if (worst > this.paretoKThreshold) out.push(`Pareto k̂ of the ${c} power-scaling weights is ${worst.toFixed(2)} > ${this.paretoKThreshold.toFixed(2)}: the ${c} sensitivities are unreliable (a few draws dominate the weights)`);
    }
    return out;
  }

  /** A table like priorsense's print. */
  toString(): string {
    const w = Math.max(8, ...this.rows.map((r) => r.variable.length));
    const f = (x: number) => (Number.isNaN(x) ? 'NA' : x.toFixed(3)).padStart(10);
    return [
      `Sensitivity based on cjs_dist (threshold ${this.sensitivityThreshold})`,
      `${'variable'.padEnd(w)} ${'prior'.padStart(10)} ${'likelihood'.padStart(10)}  diagnosis`,
      ...this.rows.map((r) => `${r.variable.padEnd(w)} ${f(r.prior)} ${f(r.likelihood)}  ${r.diagnosis}`),
      ...this.warnings,
    ].join('\n');
  }
}

/**
 * Prior and likelihood sensitivity by power-scaling (priorsense's `powerscale_sensitivity`, with
 * its defaults): for each component (prior, likelihood) and α in {lowerAlpha, upperAlpha},
 * the draws get importance weights ∝ exp((α − 1)·log component), Pareto smoothed as priorsense
 * smooths them (posterior's `pareto_smooth` of log weights: right tail of ⌊3√(S/r_eff)⌋ draws, or
 * S/5 when S·r_eff ≤ 225, with r_eff = ess_tail/S of the log weights taken — as priorsense passes
 * them — as one chain of all draws, chain after chain; smoothed tail truncated at the largest
 * raw weight). Each scalar variable's sensitivity is the mean of the two one-sided derivatives
 * of its cumulative Jensen–Shannon distance (unsigned: the larger of the distances of x and −x;
 * normalized by its upper bound; square-rooted) between the weighted and the unweighted draws,
 * in log₂ α. Values match priorsense's to 4e-11 (sensitivities) and 3e-12 (k̂) on test/fixtures/priorsense
 * (the rest: R's extended-precision sums, and ArviZ's dropping of negligible grid weights in the
 * Pareto fit, which posterior keeps).
 *
 * @param draws - posterior draws by name, each `[draws, chains, ...event]` (as `windowedAdaptiveNuts` returns).
 * @throws {TypeError} for draws that are not a record of numeric arrays, a missing `logPrior` or
 *   `logLikelihood`, an unknown option.
 * @throws {RangeError} for log densities without the draws' `[draws, chains]` lead or with
 *   non-finite values, a constant log component, α out of range, an unknown component.
 * @example
 * import { JointDistributionNamed, Normal, Sample } from 'stochax/distributions';
 * import { logLikelihood, logPrior, powerscaleSensitivity, windowedAdaptiveNuts } from 'stochax/mcmc';
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 1 }),
 *   y: ({ mu }) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: 4 }),
 * });
 * const y = [9.1, 10.3, 9.8, 10.6];   // far from the prior: prior-likelihood conflict
 * const { draws } = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
 * const ps = powerscaleSensitivity(draws, { logPrior: logPrior(model, draws, { y }), logLikelihood: logLikelihood(model, draws, { y }) });
 * ps.rows[0].diagnosis;   // 'potential prior-likelihood conflict'
 * console.log(String(ps));
 */
export function powerscaleSensitivity(draws: Readonly<Record<string, unknown>>, options: PowerscaleSensitivityOptions): PowerscaleSensitivityResult {
  const o = checkOptions(FN, options, ['logPrior', 'logLikelihood', 'lowerAlpha', 'upperAlpha', 'component', 'sensitivityThreshold']);
  if (options === undefined) fail('type', FN, 'options', 'must give `logPrior` and `logLikelihood`', options);
  if (!isPartRecord(draws)) fail('type', FN, 'draws', 'must be a record of draws by name, each [draws, chains, ...event]', draws);
  const lower = checkFinite(FN, 'lowerAlpha', o.lowerAlpha ?? 0.99);
  if (!(lower > 0 && lower < 1)) fail('range', FN, 'lowerAlpha', 'must be in (0, 1)', lower);
  const upper = checkFinite(FN, 'upperAlpha', o.upperAlpha ?? 1.01);
  if (!(upper > 1)) fail('range', FN, 'upperAlpha', 'must be above 1', upper);
  const threshold = checkFinite(FN, 'sensitivityThreshold', o.sensitivityThreshold ?? 0.05);
  if (threshold < 0) fail('range', FN, 'sensitivityThreshold', 'must be at least 0', threshold);
  const given: unknown = o.component ?? ['prior', 'likelihood'];
  if (!Array.isArray(given) || given.length === 0) fail('type', FN, 'component', "must be a non-empty array of 'prior' and/or 'likelihood'", given);
  for (const c of given as readonly unknown[]) if (c !== 'prior' && c !== 'likelihood') fail('range', FN, 'component', `has "${String(c)}"; must be 'prior' or 'likelihood'`, given);
  const components = given as readonly PowerscaleComponent[];

  // the scalar variables, each as chain-major values
  const vars: { name: string; values: Float64Array }[] = [];
  let N = -1, C = -1;
  for (const [name, v] of Object.entries(draws)) {
    const t = toTensor(FN, `draws.${name}`, v);
    const layout = drawsLayout(FN, `draws.${name}`, t);
    if (N < 0) { N = layout.draws; C = layout.chains; } else if (layout.draws !== N || layout.chains !== C) {
      fail('range', FN, `draws.${name}`, `has ${layout.draws} draws × ${layout.chains} chains, but the first part ${N} × ${C}`, [...t.shape]);
    }
    const vals = float64Values(t);
    for (let e = 0; e < layout.eventSize; e++) vars.push({ name: label(name, layout.eventShape, e), values: componentChains(vals, layout, e).data });
  }
  if (vars.length === 0) fail('range', FN, 'draws', 'must have at least one variable', draws);
  const S = N * C;
  const comps: Record<PowerscaleComponent, Float64Array | undefined> = { prior: undefined, likelihood: undefined };
  for (const c of components) comps[c] = perDraw(c === 'prior' ? 'logPrior' : 'logLikelihood', c === 'prior' ? o.logPrior : o.logLikelihood, N, C);

  const sens: Record<PowerscaleComponent, Float64Array> = { prior: new Float64Array(vars.length).fill(Number.NaN), likelihood: new Float64Array(vars.length).fill(Number.NaN) };
  const paretoK: Partial<Record<PowerscaleComponent, PowerscaleParetoK>> = {};
  for (const c of components) {
    const lc = comps[c]!;
    let mn = Infinity, mx = -Infinity;
    for (let i = 0; i < S; i++) { mn = Math.min(mn, lc[i]!); mx = Math.max(mx, lc[i]!); }
    const arg = c === 'prior' ? 'logPrior' : 'logLikelihood';
    if (Math.abs(mx - mn) < EPS) fail('range', FN, arg, `is constant; power-scaling the ${c} changes nothing`, mn);
    const at = (alpha: number) => {
      const lw = Float64Array.from(lc, (v: number) => v * (alpha - 1));
      const k = paretoSmoothLogWeights(lw);
      const norm = logSumExp(lw);
      const w = Float64Array.from(lw, (v) => detExp(v - norm));
      return { k, dist: vars.map((v) => cjsDist(v.values, w)) };
    };
    const lo = at(lower), hi = at(upper);
    paretoK[c] = { lower: lo.k, upper: hi.k };
    const l2lo = detLog(lower) / LN2, l2hi = detLog(upper) / LN2;
    vars.forEach((_, j) => { sens[c][j] = (hi.dist[j]! / l2hi + -lo.dist[j]! / l2lo) / 2; });
  }
  const rows = vars.map((v, j): PowerscaleSensitivityRow => {
    const p = sens.prior[j]!, l = sens.likelihood[j]!;
    const diagnosis = p >= threshold && l >= threshold ? 'potential prior-likelihood conflict'
      : p > threshold && l < threshold ? 'potential strong prior / weak likelihood' : '-';
    return { variable: v.name, prior: p, likelihood: l, diagnosis };
  });
  return new PowerscaleSensitivityResult(rows, paretoK, paretoKThreshold(S), threshold);
}

/** One log density per draw, chain-major (c·N + t), summed over trailing dims and over a record's parts. */
function perDraw(arg: string, x: unknown, N: number, C: number): Float64Array {
  if (x === undefined) fail('type', FN, arg, 'must be given: the log density per draw, [draws, chains, ...]', x);
  const out = new Float64Array(N * C);
  const parts = x instanceof Tensor || Array.isArray(x) ? [['', x] as const] : isPartRecord(x) ? Object.entries(x) : fail('type', FN, arg, 'must be a tensor or array [draws, chains, ...] (or a record of them)', x);
  for (const [name, p] of parts) {
    const where = name === '' ? arg : `${arg}.${name}`;
    const t = toTensor(FN, where, p);
    const layout = drawsLayout(FN, where, t);
    if (layout.draws !== N || layout.chains !== C) fail('range', FN, where, `must have the draws' [draws, chains] = [${N}, ${C}], not [${layout.draws}, ${layout.chains}]`, [...t.shape]);
    const vals = float64Values(t);
    for (let d = 0; d < N; d++) {
      for (let c = 0; c < C; c++) {
        let s = 0;
        for (let e = 0; e < layout.eventSize; e++) s += vals[(d * C + c) * layout.eventSize + e]!;
        out[c * N + d] += s;
      }
    }
  }
  for (let i = 0; i < out.length; i++) if (!Number.isFinite(out[i])) fail('range', FN, arg, `must be finite at every draw (draw ${i % N} of chain ${Math.floor(i / N)} is ${out[i]})`, out[i]);
  return out;
}

/**
 * posterior's `pareto_smooth(lw, are_log_weights = TRUE, r_eff = NULL)` as priorsense calls it,
 * in place: shifted by the maximum, the right tail smoothed (see {@link powerscaleSensitivity}).
 * Returns k̂ (NaN when no tail is fitted: too few draws, a constant tail, or a first quartile of the
 * exceedances at their minimum).
 */
function paretoSmoothLogWeights(lw: Float64Array): number {
  const S = lw.length;
  const reff = essTailOf({ data: lw, chains: 1, draws: S }, 0.05, 0.95) / S;
  let tail = Math.floor(S * reff > 225 ? 3 * Math.sqrt(S / reff) : S / 5);
  if (!Number.isFinite(tail)) return Number.NaN;
  if (tail < 5) tail = 5;
  if (tail >= S) return Number.NaN;
  let max = -Infinity;
  for (let i = 0; i < S; i++) if (lw[i]! > max) max = lw[i]!;
  for (let i = 0; i < S; i++) lw[i] = lw[i]! - max;
  const order = Int32Array.from({ length: S }, (_, i) => i).sort((a, b) => lw[a]! - lw[b]! || a - b);
  const first = S - tail;
  const maxTail = lw[order[S - 1]!]!;
  if (Math.abs(maxTail - lw[order[first]!]!) < EPS) return Number.NaN;   // constant tail
  let cutoff = lw[order[first - 1]!]!;
  if (cutoff === lw[order[first]!]!) cutoff -= EPS;
  const expCutoff = detExp(cutoff);
  const z = new Float64Array(tail);
  for (let j = 0; j < tail; j++) z[j] = detExp(lw[order[first + j]!]!) - expCutoff;
  if (!(z[Math.floor(tail / 4 + 0.5) - 1]! > z[0]!)) return Number.NaN;   // posterior's gpdfit: no fit
  const fit = gpdFit(z);
  const k = Number.isNaN(fit.k) ? Infinity : fit.k;
  if (Number.isFinite(k)) {
    for (let j = 0; j < tail; j++) {
      const v = detLog(expCutoff + gpdQuantile((j + 0.5) / tail, k, fit.sigma));
      lw[order[first + j]!] = v > maxTail ? maxTail : v;
    }
  }
  return k;
}

/**
 * priorsense's `cjs_dist(x, x, NULL, w)`: the cumulative Jensen–Shannon distance between the
 * unweighted draws x and the same draws weighted by w (normalized), unsigned (the larger of the
 * distances of x and −x).
 */
function cjsDist(x: Float64Array, w: Float64Array): number {
  const n = x.length;
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a]! - x[b]! || a - b);
  return Math.max(cjsSorted(x, w, order, false), cjsSorted(x, w, order, true));
}

/** One direction: bins between consecutive sorted draws, ECDFs of uniform and w weights. */
function cjsSorted(x: Float64Array, w: Float64Array, ascending: Int32Array, negate: boolean): number {
  const n = x.length;
  // −x sorted ascending is x sorted descending; R's order() is stable, so equal values keep index order
  const idx = negate ? descendingStable(x, ascending) : ascending;
  let wSum = 0;
  for (let i = 0; i < n; i++) wSum += w[i]!;
  let p = 0, q = 0, pInt = 0, qInt = 0, pq = 0, qp = 0;
  for (let i = 0; i < n - 1; i++) {
    p += 1 / n;
    q += w[idx[i]!]! / wSum;
    const a = negate ? -x[idx[i]!]! : x[idx[i]!]!, b = negate ? -x[idx[i + 1]!]! : x[idx[i + 1]!]!;
    const bw = b - a;
    pInt += p * bw;
    qInt += q * bw;
    const m = detLog(0.5 * p + 0.5 * q) / LN2;
    const tp = bw * (p * (detLog(p) / LN2 - m)), tq = bw * (q * (detLog(q) / LN2 - m));
    if (!Number.isNaN(tp)) pq += tp;   // R's sum(..., na.rm = TRUE): 0·log 0 terms drop out
    if (!Number.isNaN(tq)) qp += tq;
  }
  pq += (0.5 / LN2) * (qInt - pInt);
  qp += (0.5 / LN2) * (pInt - qInt);
  return Math.sqrt((pq + qp) / (pInt + qInt));
}

/** The order of −x ascending (stable): x descending, equal values by index. */
function descendingStable(x: Float64Array, ascending: Int32Array): Int32Array {
  return Int32Array.from(ascending).sort((a, b) => x[b]! - x[a]! || a - b);
}
