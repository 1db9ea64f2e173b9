/**
 * `summary(draws)`: the per-parameter table Stan and ArviZ print after sampling — mean, MCSE,
 * sd, 5%/50%/95% quantiles, bulk and tail ESS, R-hat — plus the divergence count.
 */
import { checkNonNegativeInteger, checkOptions, fail } from '../../src/checks.js';
import { Tensor } from '../../src/tensor/tensor.js';
import {
  type Draws, type DrawsStructure, componentChains, drawsLayout, float64Values, isPartList, isPartRecord, toTensor,
} from './draws.js';
import { multichainStatistics } from './internal/arviz-stats.js';
import { anyNaN, mean, variance } from './internal/chains.js';
import { numpyQuantile, sorted } from './internal/quantile.js';

/** One row of the table: one scalar parameter or one element of a vector parameter. */
export interface SummaryRow {
  /** `mu`, or `theta[0]`, `L[1, 0]` for elements (ArviZ's labels). */
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
  readonly essBulk: number;
  readonly essTail: number;
  /** Rank-normalized split R-hat as `az.summary` reports it (NaN with one chain). */
  readonly rHat: number;
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
}

const COLUMNS = [
  ['mean', 'mean', 3], ['mcse', 'mcseMean', 3], ['sd', 'sd', 3], ['5%', 'q5', 3], ['50%', 'q50', 3],
  ['95%', 'q95', 3], ['ess_bulk', 'essBulk', 0], ['ess_tail', 'essTail', 0], ['r_hat', 'rHat', 2],
] as const;

/** The result of {@link summary}: rows, the divergence count, and a printable table. */
export class Summary {
  constructor(
    readonly rows: readonly SummaryRow[],
    /** Number of divergent transitions, when known. */
    readonly divergences: number | undefined,
  ) {}

  /** The row labelled `name` (`'mu'`, `'theta[2]'`), if any. */
  get(name: string): SummaryRow | undefined {
    return this.rows.find((r) => r.name === name);
  }

  /**
   * The table as text, one row per parameter element, rounded like ArviZ (3 decimals; ESS to
   * integers; R-hat to 2 decimals), with a divergence line when the count is known.
   */
  format(): string {
    const cell = (x: number, digits: number): string => (Number.isNaN(x) ? 'NaN' : x.toFixed(digits));
    const header = ['', ...COLUMNS.map(([title]) => title)];
    const body = this.rows.map((r) => [r.name, ...COLUMNS.map(([, key, digits]) => cell(r[key], digits))]);
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

const FN = 'summary';

/**
 * Summarises MCMC draws per parameter, matching `az.summary(..., round_to='none')` for mean,
 * sd, mcse_mean, mcse_sd, ess_bulk, ess_tail and r_hat, with NumPy's 5%/50%/95% quantiles in
 * place of ArviZ's HDI. Vector parameters get one row per element, labelled like ArviZ
 * (`theta[0]`, `L[1, 0]`). Diagnostics are NaN (as in ArviZ) for NaN draws or fewer than 4
 * draws, and R-hat is NaN for a single chain.
 *
 * @param draws - draws in TFP layout `[draws, chains, ...event]` per part: a record of named
 *   parts, an array of parts, a single part, or a `sampleChain` result (its `allStates`).
 * @param options - `divergences` (a count or per-draw flags; default from a `sampleChain`
 *   trace), `names` (for an array of parts or a single part).
 * @returns A {@link Summary}; `String(summary(...))` or `.format()` prints the table.
 * @throws {TypeError} for input that is not draws, or mis-typed options.
 * @throws {RangeError} when a part is a scalar or empty, or `names` has the wrong length.
 *
 * @example
 * import { random } from 'stochax';
 * import { summary } from 'stochax/mcmc';
 * const s = summary({ mu: random.normal(random.key(0), [500, 4]), theta: random.normal(random.key(1), [500, 4, 3]) });
 * s.get('theta[2]')!.essBulk;   // → a number near 2000
 * console.log(String(s));       // mean  mcse  sd  5%  50%  95%  ess_bulk  ess_tail  r_hat
 */
export function summary(draws: DrawsStructure | SampleChainLike, options?: SummaryOptions): Summary {
  const o = checkOptions(FN, options);
  let states: unknown = draws;
  let arg = 'draws';
  let divergences: number | undefined;
  if (isPartRecord(draws) && 'allStates' in draws) {
    const result = draws as unknown as SampleChainLike;
    states = result.allStates;
    arg = 'draws.allStates';
    divergences = divergencesFromTrace(result.trace);
  }
  if (o.divergences !== undefined) divergences = countDivergences(o.divergences);

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

  const rows: SummaryRow[] = [];
  for (const [name, t, where] of parts) {
    const layout = drawsLayout(FN, where, t);
    const values = float64Values(t);
    for (let e = 0; e < layout.eventSize; e++) {
      const a = componentChains(values, layout, e);
      const stats = multichainStatistics(a);
      const nan = anyNaN(a.data);
      const x = sorted(a.data);
      const q = (p: number): number => (nan ? Number.NaN : numpyQuantile(x, p));
      rows.push({
        name: label(name, layout.eventShape, e),
        mean: mean(a.data),
        sd: Math.sqrt(variance(a.data, 1)),
        mcseMean: stats.mcseMean,
        mcseSd: stats.mcseSd,
        q5: q(0.05),
        q50: q(0.5),
        q95: q(0.95),
        essBulk: stats.essBulk,
        essTail: stats.essTail,
        rHat: stats.rHat,
      });
    }
  }
  return new Summary(rows, divergences);
}

/** ArviZ's flat label: `name` for a scalar, `name[i, j]` for element (i, j) of the event. */
function label(name: string, eventShape: readonly number[], flat: number): string {
  if (eventShape.length === 0) return name;
  const idx: number[] = [];
  let rem = flat;
  for (let ax = eventShape.length - 1; ax >= 0; ax--) {
    idx.unshift(rem % eventShape[ax]!);
    rem = Math.floor(rem / eventShape[ax]!);
  }
  return `${name}[${idx.join(', ')}]`;
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
