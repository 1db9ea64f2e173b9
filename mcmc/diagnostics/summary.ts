/**
 * `summary(draws)`: the per-parameter table Stan and ArviZ print after sampling — mean, MCSE,
 * sd, 5%/50%/95% quantiles, ArviZ's 94% HDI, bulk and tail ESS, R-hat — plus the divergence count.
 */
import { brand } from '../../src/brand.js';
import { checkNonNegativeInteger, checkOptions, fail } from '../../src/checks.js';
import { Tensor } from '../../src/tensor/tensor.js';
import {
  type Draws, type DrawsStructure, componentChains, drawsLayout, float64Values, isPartList, isPartRecord, toTensor,
} from './draws.js';
import { sharedMultichainStatistics } from './internal/arviz-stats.js';
import { checkHdiProb, hdiOfSorted } from './hdi.js';
import { anyNaN, mean, variance } from './internal/chains.js';
import { numpyQuantile, sorted } from './internal/quantile.js';
import { coordLabel, groupCoordsDims, type Coords, type Dims } from './coords.js';

/** One row of the table: one scalar parameter or one element of a vector parameter. */
export interface SummaryRow {
  /**
   * `mu`, or `theta[0]`, `L[1, 0]` for elements: `az.summary`'s labels, with the coordinates of
   * the axes that `dims` names and `coords` labels (`theta[Choate]`), else the indices.
   */
  readonly name: string;
  readonly mean: number;
  /** Standard deviation over all draws (ddof = 1). */
  readonly sd: number;
  /** MCSE of the mean (ArviZ's `mcse_mean`). */
  readonly mcseMean: number;
  /** MCSE of the sd (ArviZ's `mcse_sd`). */
  readonly mcseSd: number;
  /** 5%, 50% and 95% quantiles over all draws (NumPy's default linear interpolation). */
  readonly q5: number;
  readonly q50: number;
  readonly q95: number;
  /**
   * Lower and upper ends of the highest-density interval of probability `hdiProb` (default
   * 0.94: ArviZ's `hdi_3%` and `hdi_97%` columns), as `az.summary` computes it.
   */
  readonly hdiLower: number;
  readonly hdiUpper: number;
  readonly essBulk: number;
  readonly essTail: number;
  /** Rank-normalized split R-hat as `az.summary` reports it (NaN with one chain). */
  readonly rHat: number;
}

/** A result holding its draws in `draws`: `windowedAdaptiveNuts`', or an approximation's (`laplace`'s `{ draws, logP, logQ, … }`). */
export interface DrawsResultLike {
  readonly draws: DrawsStructure;
  readonly trace?: unknown;
  /** The run's `coords` and `dims` (`windowedAdaptiveNuts`' result carries its options'). */
  readonly coords?: Coords;
  readonly dims?: Dims;
}

/** What `sampleChain` returns (only the fields `summary` reads). */
export interface SampleChainLike {
  readonly allStates: DrawsStructure;
  readonly trace?: unknown;
  readonly finalKernelResults?: unknown;
  readonly finalSeed?: unknown;
}

export interface SummaryOptions {
  /**
   * Divergent transitions: a count, or per-draw flags (`[draws, chains]`, nonzero = divergent).
   * Default: read from a `sampleChain` result's `trace` (`diverging`, `hasDivergence` or
   * `divergences`), else not reported.
   */
  readonly divergences?: number | Draws | readonly boolean[] | readonly (readonly boolean[])[];
  /** Names for an array of parts (default `x0`, `x1`, …) or a single part (default `x`). */
  readonly names?: readonly string[];
  /** Only these parts, in this order (ArviZ's `var_names`); every name must be one of the draws' (or `names`). */
  readonly varNames?: readonly string[];
  /** Probability of the HDI in `hdiLower`/`hdiUpper`, in (0, 1] (default 0.94, ArviZ's). */
  readonly hdiProb?: number;
  /**
   * Which interval columns the printed table shows: `'hdi'` (default, as `az.summary`: `hdi_3%`,
   * `hdi_97%` for the default `hdiProb`) or `'quantiles'` (5%, 50%, 95%). Rows carry both.
   */
  readonly interval?: 'quantiles' | 'hdi';
  /**
   * Labels per named dimension (ArviZ's `coords`); default a result's `coords`. With `dims`,
   * rows are labelled by coordinate (`theta[Choate]`), exactly as `az.summary` labels them.
   */
  readonly coords?: Coords;
  /**
   * Dimension names per variable, one per event axis (ArviZ's `dims`); default a result's
   * `dims`. Variables not among the draws are left alone (`dims` is shared with other groups,
   * such as the observed data); a named dimension must fit the variable's axis.
   */
  readonly dims?: Dims;
}

/** One column of the table: its title, the row field it shows, and the decimals it prints. */
export type SummaryColumn = readonly [title: string, key: Exclude<keyof SummaryRow, 'name'>, digits: number];
type Column = SummaryColumn;

const COLUMNS: readonly Column[] = [
  ['mean', 'mean', 3], ['mcse', 'mcseMean', 3], ['sd', 'sd', 3], ['5%', 'q5', 3], ['50%', 'q50', 3],
  ['95%', 'q95', 3], ['ess_bulk', 'essBulk', 0], ['ess_tail', 'essTail', 0], ['r_hat', 'rHat', 2],
];

/** ArviZ's HDI column titles for `hdiProb` (`hdi_3%`, `hdi_97%` for 0.94): Python's `f'{100 * alpha / 2:g}'`. */
export function hdiColumnTitles(hdiProb: number): [string, string] {
  const alpha = 1 - hdiProb;
  const g = (x: number) => String(Number(x.toPrecision(6)));
  return [`hdi_${g((100 * alpha) / 2)}%`, `hdi_${g(100 * (1 - alpha / 2))}%`];
}

function columnsFor(interval: 'quantiles' | 'hdi', hdiProb: number): readonly Column[] {
  if (interval === 'quantiles') return COLUMNS;
  const [lo, hi] = hdiColumnTitles(hdiProb);
  return [COLUMNS[0]!, COLUMNS[1]!, COLUMNS[2]!, [lo, 'hdiLower', 3], [hi, 'hdiUpper', 3], ...COLUMNS.slice(6)];
}

/** The parts named by `varNames`, in its order (a RangeError names an unknown one). */
function selectParts<P extends readonly [string, ...unknown[]]>(parts: readonly P[], varNames: readonly string[]): P[] {
  if (!Array.isArray(varNames) || varNames.some((v) => typeof v !== 'string')) fail('type', FN, 'varNames', 'must be an array of names', varNames);
  return varNames.map((v) => parts.find((p) => p[0] === v) ?? fail('range', FN, 'varNames', `names \`${v}\`, which is not among the draws (${parts.map((p) => p[0]).join(', ')})`, v));
}

/** The result of {@link summary}: rows, the divergence count, and a printable table. */
export class Summary {
  /** The probability of the rows' `hdiLower`/`hdiUpper`. */
  readonly hdiProb: number;
  /** The interval columns `format()` prints. */
  readonly interval: 'quantiles' | 'hdi';

  constructor(
    readonly rows: readonly SummaryRow[],
    /** Number of divergent transitions, when known. */
    readonly divergences: number | undefined,
    options: { readonly hdiProb?: number; readonly interval?: 'quantiles' | 'hdi' } = {},
  ) {
    this.hdiProb = options.hdiProb ?? 0.94;
    this.interval = options.interval ?? 'hdi';
  }

  /**
   * The columns `format()` prints for `interval` (default the summary's): the same ones
   * `reportHtml` shows, so the report and the CLI's table agree.
   */
  columns(interval: 'quantiles' | 'hdi' = this.interval): readonly SummaryColumn[] {
    if (interval !== 'quantiles' && interval !== 'hdi') fail('range', 'Summary.columns', 'interval', "must be 'quantiles' or 'hdi'", interval);
    return columnsFor(interval, this.hdiProb);
  }

  /** The row labelled `name` (`'mu'`, `'theta[2]'`), if any. */
  get(name: string): SummaryRow | undefined {
    return this.rows.find((r) => r.name === name);
  }

  /**
   * The table as text, one row per parameter element, rounded like ArviZ (3 decimals; ESS to
   * integers; R-hat to 2 decimals), with a divergence line when the count is known. The interval
   * columns are the summary's `interval` unless given: `'hdi'` (the default; ArviZ's `hdi_3%`,
   * `hdi_97%`) or `'quantiles'` (5%, 50%, 95%).
   */
  format(options: { readonly interval?: 'quantiles' | 'hdi' } = {}): string {
    const interval = options.interval ?? this.interval;
    if (interval !== 'quantiles' && interval !== 'hdi') fail('range', 'Summary.format', 'interval', "must be 'quantiles' or 'hdi'", interval);
    const columns = columnsFor(interval, this.hdiProb);
    const cell = (x: number, digits: number): string => (Number.isNaN(x) ? 'NaN' : x.toFixed(digits));
    const header = ['', ...columns.map(([title]) => title)];
    const body = this.rows.map((r) => [r.name, ...columns.map(([, key, digits]) => cell(r[key], digits))]);
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
    const line = (row: readonly string[]): string =>
      row.map((s, i) => (i === 0 ? s.padEnd(widths[i]!) : s.padStart(widths[i]!))).join('  ').trimEnd();
    const lines = [line(header), ...body.map(line)];
    if (this.divergences !== undefined) lines.push(`divergences: ${this.divergences}`);
    return lines.join('\n');
  }

  toString(): string {
    return this.format();
  }
}
brand(Summary, 'Summary');   // recognised across copies of stochax (src/brand.ts)

const FN = 'summary';

/**
 * Summarises MCMC draws per parameter, matching `az.summary(..., round_to='none')` for mean,
 * sd, hdi_3% / hdi_97% (`hdiLower`, `hdiUpper`; see `hdiProb`), mcse_mean, mcse_sd, ess_bulk,
 * ess_tail and r_hat, plus NumPy's 5%/50%/95% quantiles. The table prints ArviZ's HDI columns
 * by default, the quantiles with `interval: 'quantiles'`. Vector parameters get one row per element, labelled like ArviZ
 * (`theta[0]`, `L[1, 0]`; with `dims` and `coords`, by coordinate: `theta[Choate]`, as `az.summary`). Diagnostics are NaN (as in ArviZ) for NaN draws or fewer than 4
 * draws, and R-hat is NaN for a single chain.
 *
 * @param draws - draws in TFP layout `[draws, chains, ...event]` per part: a record of named
 *   parts, an array of parts, a single part, a `sampleChain` result (its `allStates`), or a
 *   result with its draws in `draws` (`windowedAdaptiveNuts`'; `laplace`'s and the other
 *   approximations', whose one chain of independent draws gives ESS ≈ draws and R-hat NaN).
 * @param options - `divergences` (a count or per-draw flags; default from a `sampleChain`
 *   trace), `names` (for an array of parts or a single part), `hdiProb` (default 0.94),
 *   `interval` (`'hdi'`, the default, or `'quantiles'`: the printed interval columns), `coords`
 *   and `dims` (ArviZ's; default a result's, which `windowedAdaptiveNuts` carries).
 * @returns A {@link Summary}; `String(summary(...))` or `.format()` prints the table.
 * @throws {TypeError} for input that is not draws, or mis-typed options.
 * @throws {RangeError} when a part is a scalar or empty, `names` has the wrong length,
 *   `hdiProb` is outside (0, 1] or leaves too few draws for an interval, or a `dims` entry does
 *   not fit its variable (naming the variable, the dimension and both sizes).
 *
 * @example
 * import { random } from 'stochax';
 * import { summary } from 'stochax/mcmc';
 * const s = summary({ mu: random.normal(random.key(0), [500, 4]), theta: random.normal(random.key(1), [500, 4, 3]) });
 * s.get('theta[2]')!.essBulk;   // → a number near 2000
 * console.log(String(s));       // mean  mcse  sd  5%  50%  95%  ess_bulk  ess_tail  r_hat
 * s.get('mu')!.hdiLower;        // → about -1.88 (ArviZ's hdi_3%)
 * console.log(summary({ mu: random.normal(random.key(0), [500, 4]) }, { interval: 'hdi' }).format());
 * summary({ theta: random.normal(random.key(1), [500, 4, 2]) }, { coords: { s: ['a', 'b'] }, dims: { theta: ['s'] } }).rows[1]!.name;   // 'theta[b]'
 * // a result: summary(windowedAdaptiveNuts(model, { pins, seed: 0 })), summary(laplace(model, { pins, seed: 0 }))
 * //     mean  mcse  sd  hdi_3%  hdi_97%  ess_bulk  ess_tail  r_hat
 */
export function summary(draws: DrawsStructure | SampleChainLike | DrawsResultLike, options?: SummaryOptions): Summary {
  const o = checkOptions(FN, options, ['divergences', 'names', 'varNames', 'hdiProb', 'interval', 'coords', 'dims']);
  let states: unknown = draws;
  let arg = 'draws';
  let divergences: number | undefined;
  let carried: { coords?: unknown; dims?: unknown } = {};
  if (isPartRecord(draws) && 'allStates' in draws) {
    const result = draws as unknown as SampleChainLike;
    states = result.allStates;
    arg = 'draws.allStates';
    divergences = divergencesFromTrace(result.trace);
  } else if (isPartRecord(draws) && (isPartRecord(draws.draws) || isPartList(draws.draws))) {
    // A result with its draws in `draws`: windowedAdaptiveNuts', or an approximation's (laplace's, by shape Pathfinder's and ADVI's).
    const result = draws as unknown as { draws: unknown; trace?: unknown };
    states = result.draws;
    arg = 'draws.draws';
    divergences = divergencesFromTrace(result.trace);
    carried = draws as { coords?: unknown; dims?: unknown };
  }
  if (o.divergences !== undefined) divergences = countDivergences(o.divergences);
  const hdiProb = o.hdiProb === undefined ? 0.94 : checkHdiProb(FN, 'hdiProb', o.hdiProb);
  const interval = o.interval ?? 'hdi';
  if (interval !== 'quantiles' && interval !== 'hdi') fail(typeof interval === 'string' ? 'range' : 'type', FN, 'interval', "must be 'quantiles' or 'hdi'", interval);

  const parts: [string, Tensor, string][] = [];
  if (isPartRecord(states)) {
    for (const [k, v] of Object.entries(states)) parts.push([k, toTensor(FN, `${arg}.${k}`, v), `${arg}.${k}`]);
  } else if (isPartList(states) || (Array.isArray(states) && states.length === 0)) {
    const list = states as readonly unknown[];
    const names = o.names ?? list.map((_, i) => `x${i}`);
    if (names.length !== list.length) fail('range', FN, 'names', `must give one name per part (${list.length})`, o.names);
    list.forEach((v, i) => parts.push([String(names[i]), toTensor(FN, `${arg}[${i}]`, v), `${arg}[${i}]`]));
  } else {
    const names = o.names ?? ['x'];
    if (names.length !== 1) fail('range', FN, 'names', 'must give one name for a single part', o.names);
    parts.push([String(names[0]), toTensor(FN, arg, states), arg]);
  }

  const labels = groupCoordsDims(FN, o.coords ?? carried.coords, o.dims ?? carried.dims, new Map(parts.map(([n, t]) => [n, t.shape.slice(2)])), o.coords === undefined && o.dims === undefined ? 'draws.' : '');
  const rows: SummaryRow[] = [];
  for (const [name, t, where] of o.varNames === undefined ? parts : selectParts(parts, o.varNames)) {
    const layout = drawsLayout(FN, where, t);
    const values = float64Values(t);
    for (let e = 0; e < layout.eventSize; e++) {
      const a = componentChains(values, layout, e);
      const stats = sharedMultichainStatistics(values, `0/${layout.draws}x${layout.chains}x${layout.eventSize}/${e}`, a);
      const nan = anyNaN(a.data);
      const x = sorted(a.data);
      const q = (p: number): number => (nan ? Number.NaN : numpyQuantile(x, p));
      const h = hdiOfSorted(x, hdiProb);   // hdiOf(a.data, hdiProb) without sorting the draws again
      if (h === undefined) fail('range', FN, 'hdiProb', `leaves too few draws for an interval (⌊hdiProb·n⌋ = ${Math.floor(hdiProb * a.data.length)} of n = ${a.data.length} draws)`, hdiProb);
      rows.push({
        name: coordLabel(name, layout.eventShape, e, labels.coords, labels.dims),
        mean: mean(a.data),
        sd: Math.sqrt(variance(a.data, 1)),
        mcseMean: stats.mcseMean,
        mcseSd: stats.mcseSd,
        q5: q(0.05),
        q50: q(0.5),
        q95: q(0.95),
        hdiLower: h[0],
        hdiUpper: h[1],
        essBulk: stats.essBulk,
        essTail: stats.essTail,
        rHat: stats.rHat,
      });
    }
  }
  return new Summary(rows, divergences, { hdiProb, interval });
}


/** ArviZ's flat label: `name` for a scalar, `name[i, j]` for element (i, j) of the event. */
export function label(name: string, eventShape: readonly number[], flat: number): string {
  return coordLabel(name, eventShape, flat);
}

function countDivergences(x: unknown): number {
  if (typeof x === 'number') return checkNonNegativeInteger(FN, 'divergences', x);
  let t: Tensor;
  if (Array.isArray(x) && x.flat(Infinity).every((v) => typeof v === 'boolean')) {
    const flat = x.flat(Infinity) as boolean[];
    t = new Tensor(Float64Array.from(flat, (b) => (b ? 1 : 0)), [flat.length]);
  } else {
    t = toTensor(FN, 'divergences', x);
  }
  const v = float64Values(t);
  let count = 0;
  for (let i = 0; i < v.length; i++) if (v[i] !== 0 && !Number.isNaN(v[i])) count++;
  return count;
}

const TRACE_KEYS = ['diverging', 'hasDivergence', 'divergences'] as const;

function divergencesFromTrace(trace: unknown): number | undefined {
  if (trace === null || typeof trace !== 'object' || trace instanceof Tensor) return undefined;
  for (const key of TRACE_KEYS) {
    const v = (trace as Record<string, unknown>)[key];
    if (v !== undefined) return countDivergences(v);
  }
  return undefined;
}
