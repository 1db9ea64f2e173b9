/**
 * Predictive model assessment from pointwise log-likelihoods, as ArviZ 0.23 computes it:
 * `loo` (PSIS-LOO-CV with Pareto k diagnostics), `waic`, `psislw` (Pareto-smoothed importance
 * weights) and `compare` (elpd differences, their standard errors, stacking and pseudo-BMA
 * weights). The log-likelihood is in the draws layout `[draws, chains, ...observations]`, as
 * `logLikelihood` returns it.
 */
import { checkFinite, checkOptions, fail } from '../../src/checks.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { type Draws, type DrawsStructure, componentChains, drawsLayout, float64Values, isPartRecord, mapStructure, toTensor } from './draws.js';
import { essMeanOf } from './internal/arviz-stats.js';
import { mean, variance } from './internal/chains.js';
import { logSumExp, logSumExpMax, logSumExpOf, paretoKThreshold, psisSmooth, psisSmoothFrom, smoothedMax, tailLength } from './internal/psis.js';
import { stackingWeights } from './internal/stacking.js';
import { detExp } from '../../src/math/index.js';
import { afterAddMax, detExpSumAfterAdd, detSumsArena } from '../../src/compile/det-sums.js';

/** ArviZ's output scales: `'log'` (elpd, higher is better), `'negative_log'` (−elpd), `'deviance'` (−2·elpd). */
export type IcScale = 'log' | 'negative_log' | 'deviance';

/**
 * A pointwise log-likelihood: `[draws, chains, ...observations]` (a rank-1 array is one chain
 * of one observation), or a record of such arrays by observed node (as `logLikelihood` returns
 * it; pick one with `varName` when there are several).
 */
export type LogLikelihoodInput = Draws | { readonly [node: string]: Draws };

const SCALES: Readonly<Record<IcScale, number>> = { log: 1, negative_log: -1, deviance: -2 };
const BRAND = Symbol.for('stochax.ElpdResult');

/** Common fields of {@link LooResult} and {@link WaicResult}. */
interface ElpdCommon {
  /** Standard error of the elpd estimate: √(n · var(pointwise)). */
  readonly se: number;
  /** Number of posterior draws (draws × chains). */
  readonly nSamples: number;
  /** Number of observations (the product of the observation dims). */
  readonly nDataPoints: number;
  /** The scale of the elpd numbers. */
  readonly scale: IcScale;
}

/** The result of {@link loo} (ArviZ's `ELPDData` with `pointwise=True`). */
export class LooResult implements ElpdCommon {
  readonly kind = 'loo' as const;
  constructor(
    /** Σ of the pointwise LOO log predictive densities (in `scale`). */
    readonly elpdLoo: number,
    readonly se: number,
    /** Effective number of parameters: lppd − elpd_loo (on the log scale). */
    readonly pLoo: number,
    readonly nSamples: number,
    readonly nDataPoints: number,
    /** True when some Pareto k exceeds `goodK`. */
    readonly warning: boolean,
    /** Pointwise elpd (in `scale`), shaped like the observations. */
    readonly looI: Tensor,
    /** Pareto shape estimates, shaped like the observations (∞ where the tail had < 5 draws). */
    readonly paretoK: Tensor,
    readonly scale: IcScale,
    /** The k threshold for these draws: min(1 − 1/log₁₀ S, 0.7). */
    readonly goodK: number,
    /** The relative efficiency used for the tail length. */
    readonly reff: number,
    /** True when the draws were from an approximation, corrected by importance weights exp(logP − logQ) (`loo`'s `logP`/`logQ`). */
    readonly approximatePosterior = false,
  ) {
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** ArviZ's printout: estimates, SEs and the Pareto k counts. */
  toString(): string {
    const k = float64Values(this.paretoK);
    const bins = [
      [`(-Inf, ${this.goodK.toFixed(2)}]`, 'good', (v: number) => v <= this.goodK],
      [`(${this.goodK.toFixed(2)}, 1]`, 'bad', (v: number) => v > this.goodK && v <= 1],
      ['(1, Inf)', 'very bad', (v: number) => v > 1],
    ] as const;
    const lines = [
      `Computed from ${this.nSamples} posterior samples and ${this.nDataPoints} observations log-likelihood matrix.`,
      ...(this.approximatePosterior ? ['Posterior approximation correction used.'] : []),
      '',
      `${''.padEnd(9)}${'Estimate'.padStart(9)}${'SE'.padStart(9)}`,
      `${label('elpd_loo', this.scale)}${this.elpdLoo.toFixed(2).padStart(9)}${this.se.toFixed(2).padStart(9)}`,
      `${'p_loo'.padEnd(9)}${this.pLoo.toFixed(2).padStart(9)}${'-'.padStart(9)}`,
      '',
      'Pareto k diagnostic values:',
      ...bins.map(([range, name, inBin]) => {
        let count = 0;
        for (const v of k) if (inBin(v)) count++;
        return `${range.padEnd(14)} (${name})`.padEnd(28) + `${String(count).padStart(5)}  ${((100 * count) / k.length).toFixed(1).padStart(5)}%`;
      }),
    ];
    return lines.join('\n');
  }
}

/** The result of {@link waic} (ArviZ's `ELPDData` with `pointwise=True`). */
export class WaicResult implements ElpdCommon {
  readonly kind = 'waic' as const;
  constructor(
    /** Σ of the pointwise WAIC elpds (in `scale`). */
    readonly elpdWaic: number,
    readonly se: number,
    /** Effective number of parameters: Σ of the pointwise posterior variances of the log-likelihood. */
    readonly pWaic: number,
    readonly nSamples: number,
    readonly nDataPoints: number,
    /** True when some pointwise posterior variance of the log-likelihood exceeds 0.4. */
    readonly warning: boolean,
    /** Pointwise elpd (in `scale`), shaped like the observations. */
    readonly waicI: Tensor,
    readonly scale: IcScale,
  ) {
    Object.defineProperty(this, BRAND, { value: true });
  }

  toString(): string {
    return [
      `Computed from ${this.nSamples} posterior samples and ${this.nDataPoints} observations log-likelihood matrix.`,
      '',
      `${''.padEnd(10)}${'Estimate'.padStart(9)}${'SE'.padStart(9)}`,
      `${label('elpd_waic', this.scale).padEnd(10)}${this.elpdWaic.toFixed(2).padStart(9)}${this.se.toFixed(2).padStart(9)}`,
      `${'p_waic'.padEnd(10)}${this.pWaic.toFixed(2).padStart(9)}${'-'.padStart(9)}`,
      ...(this.warning ? ['', 'There has been a warning during the calculation. Please check the results.'] : []),
    ].join('\n');
  }
}

function label(name: string, scale: IcScale): string {
  return (scale === 'log' ? name : scale === 'deviance' ? name.replace('elpd', 'deviance') : name.replace('elpd', '-elpd')).padEnd(9);
}

/** True for a {@link LooResult} or {@link WaicResult} (from any copy of stochax). */
function isElpd(x: unknown): x is LooResult | WaicResult {
  return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
}

/** The log-likelihood's values as given, `[draws, chains, ...observations]` (row-major), with its sizes. */
export interface LogLikValues {
  readonly values: Float64Array;
  readonly nSamples: number;
  readonly draws: number;
  readonly chains: number;
  readonly nData: number;
  readonly obsShape: readonly number[];
}

/** The log-likelihood as an observation-major matrix: row j holds observation j's S draws, chain-major (ArviZ's `(chain, draw)` stacking). */
export interface LogLikMatrix extends LogLikValues {
  readonly rows: Float64Array;
}

/** The one log-likelihood array of `x` (picked by `varName` from a record), checked, with at least 2 draws. */
export function logLikValues(fn: string, arg: string, x: unknown, varName: string | undefined): LogLikValues {
  let part: unknown = x;
  let where = arg;
  if (isPartRecord(x)) {
    const keys = Object.keys(x);
    if (varName !== undefined) {
      if (!keys.includes(varName)) fail('range', fn, 'varName', `names no entry of \`${arg}\` (its entries are ${keys.join(', ') || 'none'})`, varName);
      part = x[varName];
      where = `${arg}.${varName}`;
    } else {
      if (keys.length !== 1) fail('range', fn, arg, `has ${keys.length} log-likelihood entries (${keys.join(', ')}); pick one with \`varName\``, keys);
      part = x[keys[0]!];
      where = `${arg}.${keys[0]}`;
    }
  } else if (varName !== undefined) {
    fail('type', fn, 'varName', `is only for a record of log-likelihoods by node; \`${arg}\` is a single array`, varName);
  }
  const t = toTensor(fn, where, part);
  const layout = drawsLayout(fn, where, t);
  const S = layout.draws * layout.chains;
  if (S < 2) fail('range', fn, where, 'must have at least 2 draws (draws × chains) for Pareto smoothing', [...t.shape]);
  return { values: float64Values(t), nSamples: S, draws: layout.draws, chains: layout.chains, nData: layout.eventSize, obsShape: layout.eventShape };
}

/**
 * Rows j0 … j0 + count − 1 of the observation-major matrix into `out` (row q at q·S). Reads the
 * values in memory order, a few neighbouring observations at a time (one cache line each draw).
 */
export function logLikRows(v: LogLikValues, j0: number, count: number, out: Float64Array): void {
  const { values, draws: D, chains: C, nData: n, nSamples: S } = v;
  for (let d = 0; d < D; d++) {
    for (let c = 0; c < C; c++) {
      const at = (d * C + c) * n + j0, s = c * D + d;
      for (let q = 0; q < count; q++) out[q * S + s] = values[at + q]!;
    }
  }
}

export function logLikMatrix(fn: string, arg: string, x: unknown, varName: string | undefined): LogLikMatrix {
  const v = logLikValues(fn, arg, x, varName);
  const rows = new Float64Array(v.nData * v.nSamples);
  logLikRows(v, 0, v.nData, rows);
  return { ...v, rows };
}

function scaleOf(fn: string, x: unknown): IcScale {
  if (x === undefined) return 'log';
  if (typeof x !== 'string') fail('type', fn, 'scale', "must be one of 'log', 'negative_log', 'deviance'", x);
  if (!(x in SCALES)) fail('range', fn, 'scale', "must be one of 'log', 'negative_log', 'deviance'", x);
  return x as IcScale;
}

function varNameOf(fn: string, x: unknown): string | undefined {
  if (x !== undefined && typeof x !== 'string') fail('type', fn, 'varName', 'must be a string', x);
  return x;
}

/** √(n · var(x)) (NumPy's population variance), the SE of a sum of n pointwise terms. */
function sumSe(x: Float64Array): number {
  return Math.sqrt(x.length * variance(x, 0));
}

function sum(x: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]!;
  return s;
}

// ---- relative efficiency ----------------------------------------------------------------

/**
 * r_eff as `az.loo` computes it from the posterior: the mean, over every element of every
 * posterior variable, of its ESS of the mean (`az.ess(method='mean')`), divided by the number
 * of log-likelihood draws S; 1 for a single chain.
 */
export function reffFromPosterior(fn: string, posterior: unknown, nSamples: number): number {
  const values: number[] = [];
  let chains = 0;
  mapStructure(fn, 'posterior', posterior, (part, where) => {
    const layout = drawsLayout(fn, where, part);
    chains = layout.chains;
    const v = float64Values(part);
    for (let e = 0; e < layout.eventSize; e++) values.push(essMeanOf(componentChains(v, layout, e)));
  });
  if (values.length === 0) fail('range', fn, 'posterior', 'has no variables', posterior);
  if (chains === 1) return 1;
  return mean(Float64Array.from(values)) / nSamples;
}

// ---- psislw -----------------------------------------------------------------------------

export interface PsislwOptions {
  /** Relative MCMC efficiency ESS/S, > 0 (default 1). */
  readonly reff?: number;
}

/**
 * Pareto-smoothed importance sampling (Vehtari et al. 2024; ArviZ's `az.psislw`): smooths the
 * largest raw log importance weights of each observation with a fitted generalized Pareto
 * distribution and normalizes them over all draws and chains.
 *
 * @param logWeights - raw log weights `[draws, chains, ...observations]` (for LOO: −log-likelihood).
 * @param options - `reff` (default 1): the relative efficiency, which sets the tail length
 *   ⌈min(S/5, 3·√(S/reff))⌉ of the S = draws × chains weights.
 * @returns `logWeights`, smoothed and normalized (log-sum-exp 0 per observation), in the input's
 *   layout, and `paretoK`, the shape estimate per observation (∞ when the tail has < 5 draws:
 *   then no smoothing).
 * @throws {TypeError} for weights that are not an array of numbers, a non-number `reff`, or an unknown option.
 * @throws {RangeError} for fewer than 2 draws or a `reff` that is not positive and finite.
 * @example
 * import { random } from 'stochax';
 * import { psislw } from 'stochax/mcmc';
 * const logLik = random.normal(random.key(0), [500, 4, 10]);
 * const { logWeights, paretoK } = psislw(logLik.neg());    // logWeights [500, 4, 10]; paretoK [10]
 */
export function psislw(logWeights: Draws, options?: PsislwOptions): { logWeights: Tensor; paretoK: Tensor } {
  const fn = 'psislw';
  const o = checkOptions(fn, options, ['reff']);
  const reff = o.reff === undefined ? 1 : positive(fn, 'reff', o.reff);
  const m = logLikMatrix(fn, 'logWeights', logWeights, undefined);
  const { rows, nSamples: S, nData: n } = m;
  const k = new Float64Array(n);
  const tail = tailLength(S, reff);
  for (let j = 0; j < n; j++) k[j] = psisSmooth(rows.subarray(j * S, (j + 1) * S), tail);
  // back to [draws, chains, ...observations]
  const t = toTensor(fn, 'logWeights', logWeights);
  const layout = drawsLayout(fn, 'logWeights', t);
  const out = new Float64Array(S * n);
  for (let j = 0; j < n; j++) {
    for (let c = 0; c < layout.chains; c++) {
      for (let d = 0; d < layout.draws; d++) out[(d * layout.chains + c) * n + j] = rows[j * S + c * layout.draws + d]!;
    }
  }
  return { logWeights: new Tensor(out, [...t.shape], 'float64'), paretoK: new Tensor(k, [...m.obsShape], 'float64') };
}

function positive(fn: string, arg: string, x: unknown): number {
  const v = checkFinite(fn, arg, x);
  if (!(v > 0)) fail('range', fn, arg, 'must be positive', x);
  return v;
}

// ---- loo --------------------------------------------------------------------------------

export interface LooOptions {
  /** Relative MCMC efficiency ESS/S (> 0). Default: from `posterior` when given, else 1. */
  readonly reff?: number;
  /**
   * The posterior draws (`[draws, chains, ...event]` per variable, e.g. `windowedAdaptiveNuts`'
   * `draws`): r_eff is then computed exactly as `az.loo` computes it from an InferenceData's
   * posterior (mean ESS of the mean over all elements / S; 1 for one chain).
   */
  readonly posterior?: DrawsStructure;
  /** Output scale (default `'log'`). */
  readonly scale?: IcScale;
  /** Which entry of a record of log-likelihoods to use (needed when there are several). */
  readonly varName?: string;
  /**
   * For draws from an approximation q of the posterior (`laplace`, Pathfinder, ADVI): the
   * unnormalised log posterior density at each draw, `[draws, chains]` like the
   * log-likelihood's leading dims (`laplace(...).logP`). Give it with `logQ`.
   */
  readonly logP?: Draws;
  /** The approximation's log density log q at each draw, `[draws, chains]` (`laplace(...).logQ`). */
  readonly logQ?: Draws;
}

/**
 * Pareto-smoothed importance-sampling leave-one-out cross-validation (PSIS-LOO-CV; Vehtari,
 * Gelman and Gabry 2017, with the Pareto smoothing of Vehtari et al. 2024), the same numbers
 * as ArviZ 0.23's `az.loo(idata, pointwise=True)`:
 *
 * - per observation i, the raw log weights −log p(yᵢ | θˢ) over all S = draws × chains draws are
 *   Pareto-smoothed ({@link psislw}, tail length from r_eff) giving normalized log weights lwᵢˢ
 *   and the shape estimate kᵢ;
 * - elpd_loo,i = log Σₛ exp(lwᵢˢ + log p(yᵢ | θˢ)); elpd_loo = Σᵢ elpd_loo,i;
 *   se = √(n·var(elpd_loo,i)); p_loo = lppd − elpd_loo with lppd = Σᵢ log(mean_s p(yᵢ | θˢ));
 * - `warning` when some kᵢ > goodK = min(1 − 1/log₁₀ S, 0.7) (k > 0.7: the estimate for that
 *   observation is unreliable; refit without it or use a more robust model).
 *
 * With `logP` and `logQ`, the draws are from an approximation q (Laplace, Pathfinder, ADVI), not
 * from the posterior: importance-weighted LOO (Magnusson, Andersen, Jonasson and Vehtari 2019;
 * R's `loo::loo_approximate_posterior`). Each draw's raw log ratio for observation i is
 * logP − logQ − log p(yᵢ | θˢ) (so the weights correct both q → posterior and posterior →
 * leave-one-out posterior), Pareto-smoothed with r_eff = 1 (the draws are independent), and the
 * kᵢ judge the combined weights. lppd (hence p_loo) is the plain mean over the draws, as
 * `loo_approximate_posterior` computes it. Tested against loo 2.5.1.
 *
 * @param logLik - pointwise log-likelihood `[draws, chains, ...observations]` (e.g. from
 *   `logLikelihood`), or a record of them by node (see `varName`).
 * @param options - `reff` or `posterior` (r_eff; default 1), `scale` (default `'log'`), `varName`;
 *   `logP` and `logQ` for approximate draws (then neither `reff` nor `posterior`).
 * @returns A {@link LooResult}: `elpdLoo`, `se`, `pLoo`, `paretoK`, `looI`, `warning`, `goodK`, …;
 *   `String(result)` prints ArviZ's summary.
 * @throws {TypeError} for a log-likelihood that is not an array of numbers, mis-typed options, or an unknown option.
 * @throws {RangeError} for fewer than 2 draws, both `reff` and `posterior`, a non-positive `reff`,
 *   an unknown scale, or a record with several entries and no `varName`.
 * @example
 * import { JointDistributionNamed, Normal, Sample } from 'stochax/distributions';
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 10 }),
 *   y: ({ mu }) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: 3 }),
 * });
 * import { loo, logLikelihood, windowedAdaptiveNuts } from 'stochax/mcmc';
 * const y = [1.2, 0.7, 2.1];
 * const { draws } = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
 * const ll = logLikelihood(model, draws, { y });         // { y: Tensor [1000, 4, 3] }
 * const result = loo(ll, { posterior: draws });
 * result.elpdLoo;                                        // → a number (elpd, higher is better)
 * Math.max(...result.paretoK.data);                      // → below 0.7 when every observation is fine
 * console.log(String(result));                           // ArviZ's printout
 * // draws from the Laplace approximation instead: weighted by exp(logP − logQ)
 * import { laplace } from 'stochax/optimize';
 * const fit = laplace(model, { pins: { y }, seed: 0 });
 * loo(logLikelihood(model, fit.draws, { y }), { logP: fit.logP, logQ: fit.logQ }).elpdLoo;   // → about the NUTS value
 */
export function loo(logLik: LogLikelihoodInput, options?: LooOptions): LooResult {
  const fn = 'loo';
  const o = checkOptions(fn, options, ['reff', 'posterior', 'scale', 'varName', 'logP', 'logQ']);
  const scale = scaleOf(fn, o.scale);
  const m = logLikValues(fn, 'logLik', logLik, varNameOf(fn, o.varName));
  if (o.reff !== undefined && o.posterior !== undefined) fail('range', fn, 'options', 'give `reff` or `posterior`, not both', options);
  if ((o.logP === undefined) !== (o.logQ === undefined)) fail('range', fn, o.logP === undefined ? 'logP' : 'logQ', 'must be given with `' + (o.logP === undefined ? 'logQ' : 'logP') + '` (the log densities of the posterior and of the approximation at each draw)', undefined);
  if (o.logP !== undefined) {
    if (o.reff !== undefined || o.posterior !== undefined) fail('range', fn, o.reff !== undefined ? 'reff' : 'posterior', 'does not apply with `logP`/`logQ`: approximate draws are independent (r_eff = 1)', o.reff ?? 'posterior');
    const lp = perDraw(fn, 'logP', o.logP, m), lq = perDraw(fn, 'logQ', o.logQ!, m);
    return looOf(m, 1, scale, lp.map((v, s) => v - lq[s]!));
  }
  const reff = o.reff !== undefined ? positive(fn, 'reff', o.reff)
    : o.posterior !== undefined ? reffFromPosterior(fn, o.posterior, m.nSamples) : 1;
  return looOf(m, reff, scale);
}

/** logP or logQ as one value per draw, chain-major like the log-likelihood's rows; −∞ allowed (a draw where the density failed). */
function perDraw(fn: string, arg: string, x: unknown, m: LogLikValues): Float64Array {
  const t = toTensor(fn, arg, x);
  const layout = drawsLayout(fn, arg, t);
  if (layout.eventSize !== 1 || layout.draws !== m.draws || layout.chains !== m.chains) {
    fail('range', fn, arg, `must have one value per draw, shaped [draws, chains] = [${m.draws}, ${m.chains}] like the log-likelihood`, [...t.shape]);
  }
  const v = componentChains(float64Values(t), layout, 0).data;
  for (let s = 0; s < v.length; s++) if (Number.isNaN(v[s]!) || v[s] === Infinity) fail('range', fn, arg, `must be finite or −∞ at every draw (draw ${s} is ${v[s]})`, v[s]);
  return v;
}

/** Observations gathered per pass over the log-likelihood in {@link looOf} (two cache lines of each draw). */
const LOO_BLOCK = 16;

/** PSIS-LOO; with `correction` (logP − logQ per draw) importance-weighted LOO for approximate draws. */
function looOf(m: LogLikValues, reff: number, scale: IcScale, correction?: Float64Array): LooResult {
  const { nSamples: S, nData: n } = m;
  const sv = SCALES[scale];
  const k = new Float64Array(n);
  const looI = new Float64Array(n);
  const tail = tailLength(S, reff);
  // the rows and the weights where the WebAssembly sums read them without a copy
  const nb = Math.min(LOO_BLOCK, n);
  const arena = detSumsArena((nb + 1) * S);
  const block = arena.subarray(0, nb * S);
  const lw = arena.subarray(nb * S);
  let lppd = 0;
  for (let j0 = 0; j0 < n; j0 += LOO_BLOCK) {
    const count = Math.min(LOO_BLOCK, n - j0);
    logLikRows(m, j0, count, block);
    for (let q = 0; q < count; q++) {
      const j = j0 + q;
      const ll = block.subarray(q * S, (q + 1) * S);
      // lw = −ll (+ correction), smoothed; then normalized and plus ll, in one pass
      k[j] = psisSmoothFrom(lw, ll, tail, true, correction);
      const norm = logSumExpMax(lw, smoothedMax, 1);
      const sum = detExpSumAfterAdd(lw, ll, norm);
      looI[j] = sv * logSumExpOf(sum, afterAddMax[0]!, 1);
      lppd += logSumExpMax(ll, afterAddMax[1]!, S);
    }
  }
  const elpd = sum(looI);
  const goodK = paretoKThreshold(S);
  const warning = k.some((v) => v > goodK);
  return new LooResult(elpd, sumSe(looI), lppd - elpd / sv, S, n, warning,
    new Tensor(looI, [...m.obsShape], 'float64'), new Tensor(k, [...m.obsShape], 'float64'), scale, goodK, reff, correction !== undefined);
}

// ---- waic -------------------------------------------------------------------------------

export interface WaicOptions {
  /** Output scale (default `'log'`). */
  readonly scale?: IcScale;
  /** Which entry of a record of log-likelihoods to use (needed when there are several). */
  readonly varName?: string;
}

/**
 * The widely applicable information criterion (Watanabe 2010; Vehtari, Gelman and Gabry 2017),
 * the same numbers as ArviZ 0.23's `az.waic(idata, pointwise=True)`: per observation,
 * elpd_waic,i = log(mean_s p(yᵢ | θˢ)) − var_s log p(yᵢ | θˢ) (population variance over all
 * draws and chains); elpd_waic = Σᵢ, se = √(n·var(elpd_waic,i)), p_waic = Σᵢ var_s; `warning`
 * when some variance exceeds 0.4 (WAIC may then fail; prefer {@link loo}).
 *
 * @param logLik - pointwise log-likelihood `[draws, chains, ...observations]`, or a record by node (see `varName`).
 * @param options - `scale` (default `'log'`), `varName`.
 * @returns A {@link WaicResult}: `elpdWaic`, `se`, `pWaic`, `waicI`, `warning`, ….
 * @throws {TypeError} for a log-likelihood that is not an array of numbers, mis-typed options, or an unknown option.
 * @throws {RangeError} for fewer than 2 draws, an unknown scale, or several entries and no `varName`.
 * @example
 * import { random } from 'stochax';
 * import { waic } from 'stochax/mcmc';
 * const logLik = random.normal(random.key(0), [500, 4, 10]).mul(0.1).sub(1);   // [draws, chains, observations]
 * const w = waic(logLik);
 * w.pWaic;                               // → about 0.1 (10 observations × variance 0.01)
 */
export function waic(logLik: LogLikelihoodInput, options?: WaicOptions): WaicResult {
  const fn = 'waic';
  const o = checkOptions(fn, options, ['scale', 'varName']);
  const scale = scaleOf(fn, o.scale);
  return waicOf(logLikValues(fn, 'logLik', logLik, varNameOf(fn, o.varName)), scale);
}

function waicOf(m: LogLikValues, scale: IcScale): WaicResult {
  const { nSamples: S, nData: n } = m;
  const rows = new Float64Array(n * S);
  logLikRows(m, 0, n, rows);
  const sv = SCALES[scale];
  const waicI = new Float64Array(n);
  let pWaic = 0;
  let warning = false;
  for (let j = 0; j < n; j++) {
    const ll = rows.subarray(j * S, (j + 1) * S);
    const v = variance(ll, 0);
    if (v > 0.4) warning = true;
    pWaic += v;
    waicI[j] = sv * (logSumExp(ll, S) - v);
  }
  return new WaicResult(sum(waicI), sumSe(waicI), pWaic, S, n, warning, new Tensor(waicI, [...m.obsShape], 'float64'), scale);
}

// ---- compare ----------------------------------------------------------------------------

/** One row of {@link compare}'s table (ArviZ's `az.compare` columns). */
export interface CompareRow {
  readonly name: string;
  /** 0 for the best model. */
  readonly rank: number;
  /** elpd_loo or elpd_waic (in `scale`). */
  readonly elpd: number;
  /** p_loo or p_waic. */
  readonly p: number;
  /** Difference from the best model's elpd (≥ 0 in every scale; 0 for the best). */
  readonly elpdDiff: number;
  /** Stacking or pseudo-BMA weight. */
  readonly weight: number;
  /** SE of the model's elpd. */
  readonly se: number;
  /** SE of the pointwise difference from the best model (0 for the best). */
  readonly dse: number;
  /** The model's loo/waic warning. */
  readonly warning: boolean;
  readonly scale: IcScale;
}

/** The result of {@link compare}: rows from best to worst, and a printable table. */
export class CompareResult {
  constructor(
    readonly rows: readonly CompareRow[],
    readonly ic: 'loo' | 'waic',
    readonly method: 'stacking' | 'pseudo-BMA',
    readonly scale: IcScale,
  ) {}

  /** The row of model `name`, if any. */
  get(name: string): CompareRow | undefined {
    return this.rows.find((r) => r.name === name);
  }

  /** The table as text, like ArviZ's DataFrame (elpd, p, elpd_diff, se, dse to 2 decimals; weight to 3). */
  format(): string {
    const header = ['', 'rank', `elpd_${this.ic}`, `p_${this.ic}`, 'elpd_diff', 'weight', 'se', 'dse', 'warning', 'scale'];
    const body = this.rows.map((r) => [r.name, String(r.rank), r.elpd.toFixed(2), r.p.toFixed(2), r.elpdDiff.toFixed(2),
      r.weight.toFixed(3), r.se.toFixed(2), r.dse.toFixed(2), String(r.warning), r.scale]);
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
    const line = (row: readonly string[]) => row.map((s, i) => (i === 0 ? s.padEnd(widths[i]!) : s.padStart(widths[i]!))).join('  ').trimEnd();
    return [line(header), ...body.map(line)].join('\n');
  }

  toString(): string {
    return this.format();
  }
}

export interface CompareOptions {
  /** `'loo'` (default) or `'waic'`; taken from the results when results are given. */
  readonly ic?: 'loo' | 'waic';
  /** `'stacking'` (default, Yao et al. 2018) or `'pseudo-BMA'` (Akaike-type weights exp(elpd) normalized). */
  readonly method?: 'stacking' | 'pseudo-BMA';
  /** Output scale (default `'log'`); taken from the results when results are given. */
  readonly scale?: IcScale;
}

/**
 * Compares models by their expected log pointwise predictive density, as ArviZ 0.23's
 * `az.compare`: each model's elpd (by {@link loo} or {@link waic}), models ranked best first,
 * elpd differences from the best and the SE of each difference (from the pointwise
 * differences: √(n·var(dᵢ))), and model weights — stacking (the mixture of the models'
 * LOO predictive distributions that maximises Σᵢ log Σₖ wₖ exp(elpd_ik), Yao et al. 2018) or
 * pseudo-BMA (wₖ ∝ exp(elpdₖ − elpd_best)).
 *
 * Stacking weights are the optimum to rounding; ArviZ stops SciPy's SLSQP at its default
 * tolerance (ftol 1e-6 on the objective), so its stacking weights differ from these by about
 * 1e-5 (every other column agrees to rounding). Bayesian-bootstrap pseudo-BMA
 * (`'BB-pseudo-BMA'`) is not offered.
 *
 * @param models - a record of model name → pointwise log-likelihood (`[draws, chains,
 *   ...observations]`, computed with default options), or a {@link LooResult} /
 *   {@link WaicResult} (e.g. `loo(ll, { posterior: draws })`, for r_eff from the posterior).
 *   All must have the same number of observations; results must share one ic and scale.
 * @param options - `ic` (default `'loo'`), `method` (default `'stacking'`), `scale` (default `'log'`).
 * @returns A {@link CompareResult}: `rows` best first (`name`, `rank`, `elpd`, `p`, `elpdDiff`,
 *   `weight`, `se`, `dse`, `warning`), `get(name)`, `format()`.
 * @throws {TypeError} for models that are not a record, an entry that is neither a log-likelihood
 *   nor a result, mis-typed options, or an unknown option.
 * @throws {RangeError} for no models, different observation counts, results of different kinds
 *   or scales (or not the `ic`/`scale` asked for), or an unknown `ic`, `method` or `scale`.
 * @example
 * import { JointDistributionNamed, HalfNormal, Normal, Sample } from 'stochax/distributions';
 * import { compare, loo, logLikelihood, windowedAdaptiveNuts } from 'stochax/mcmc';
 * const y = [1.2, 0.7, 2.1];
 * const fixed = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 10 }),
 *   y: ({ mu }) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: 3 }),
 * });
 * const free = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 10 }),
 *   sigma: new HalfNormal({ scale: 1 }),
 *   y: ({ mu, sigma }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: 3 }),
 * });
 * const fit = (m) => { const { draws } = windowedAdaptiveNuts(m, { pins: { y }, seed: 0 }); return loo(logLikelihood(m, draws, { y }), { posterior: draws }); };
 * const table = compare({ fixed: fit(fixed), free: fit(free) });
 * console.log(table.format());           // rank, elpd_loo, p_loo, elpd_diff, weight, se, dse, warning, scale
 * table.rows[0]!.name;                   // the best model
 */
export function compare(models: { readonly [name: string]: LogLikelihoodInput | LooResult | WaicResult }, options?: CompareOptions): CompareResult {
  const fn = 'compare';
  const o = checkOptions(fn, options, ['ic', 'method', 'scale']);
  if (!isPartRecord(models)) fail('type', fn, 'models', 'must be a record of model name → log-likelihood or loo/waic result', models);
  const names = Object.keys(models);
  if (names.length === 0) fail('range', fn, 'models', 'must name at least one model', models);
  if (o.ic !== undefined && o.ic !== 'loo' && o.ic !== 'waic') {
    fail(typeof o.ic === 'string' ? 'range' : 'type', fn, 'ic', "must be 'loo' or 'waic'", o.ic);
  }
  const method = o.method ?? 'stacking';
  if (method !== 'stacking' && method !== 'pseudo-BMA') {
    fail(typeof method === 'string' ? 'range' : 'type', fn, 'method', "must be 'stacking' or 'pseudo-BMA' ('BB-pseudo-BMA' is not offered)", method);
  }
  const given = names.filter((n) => isElpd(models[n]));
  let ic = o.ic;
  let scale = o.scale === undefined ? undefined : scaleOf(fn, o.scale);
  for (const n of given) {
    const r = models[n] as unknown as LooResult | WaicResult;
    if (ic !== undefined && r.kind !== ic) fail('range', fn, `models.${n}`, `is a ${r.kind} result, but ${o.ic === undefined ? `models.${given[0]} is a ${ic} result` : `ic is '${ic}'`}`, r.kind);
    if (scale !== undefined && r.scale !== scale) fail('range', fn, `models.${n}`, `has scale '${r.scale}', but ${o.scale === undefined ? `models.${given[0]} has '${scale}'` : `scale is '${scale}'`}`, r.scale);
    ic = r.kind;
    scale = r.scale;
  }
  const useIc = ic ?? 'loo';
  const useScale = scale ?? 'log';
  const results = names.map((n) => {
    const x = models[n];
    if (isElpd(x)) return x;
    let m: LogLikValues;
    try {
      m = logLikValues(fn, `models.${n}`, x, undefined);
    } catch (e) {
      if (e instanceof TypeError) fail('type', fn, `models.${n}`, 'must be a pointwise log-likelihood [draws, chains, ...observations] or a loo/waic result', x);
      throw e;
    }
    return useIc === 'loo' ? looOf(m, 1, useScale) : waicOf(m, useScale);
  });
  const nData = results[0]!.nDataPoints;
  results.forEach((r, i) => {
    if (r.nDataPoints !== nData) fail('range', fn, `models.${names[i]}`, `has ${r.nDataPoints} observations, but models.${names[0]} has ${nData} (all models must predict the same data)`, r.nDataPoints);
  });

  const sv = SCALES[useScale];
  const elpdOf = (r: LooResult | WaicResult) => (r.kind === 'loo' ? r.elpdLoo : r.elpdWaic);
  const pOf = (r: LooResult | WaicResult) => (r.kind === 'loo' ? r.pLoo : r.pWaic);
  const pointwise = (r: LooResult | WaicResult) => float64Values(r.kind === 'loo' ? r.looI : r.waicI);
  // best first: highest elpd on the log scale, lowest on the others
  const order = names.map((_, i) => i).sort((a, b) => {
    const d = elpdOf(results[b]!) - elpdOf(results[a]!);
    return (sv > 0 ? d : -d) || a - b;
  });
  const K = order.length;
  let weights: Float64Array;
  if (method === 'stacking') {
    const mat = new Float64Array(nData * K);
    order.forEach((m, k) => { const p = pointwise(results[m]!); for (let i = 0; i < nData; i++) mat[i * K + k] = p[i]! / sv; });
    weights = stackingWeights(mat, nData, K);
  } else {
    const best = elpdOf(results[order[0]!]!);
    const z = Float64Array.from(order, (m) => detExp((elpdOf(results[m]!) - best) / sv));
    const total = sum(z);
    weights = z.map((v) => v / total);
  }
  const bestI = pointwise(results[order[0]!]!);
  const rows = order.map((m, rank): CompareRow => {
    const r = results[m]!;
    const pi = pointwise(r);
    const diff = Float64Array.from(pi, (v, i) => (sv < 0 ? v - bestI[i]! : bestI[i]! - v));
    return {
      name: names[m]!, rank, elpd: elpdOf(r), p: pOf(r), elpdDiff: sum(diff), weight: weights[rank]!,
      se: r.se, dse: sumSe(diff), warning: r.warning, scale: useScale,
    };
  });
  return new CompareResult(rows, useIc, method, useScale);
}
