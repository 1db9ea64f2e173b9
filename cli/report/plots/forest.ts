/**
 * The forest plot (ArviZ's `plot_forest`, kind `forestplot`, its defaults: one row per chain,
 * quartiles marked): every parameter's interval in one figure, so a hierarchical model's
 * `theta[Choate]` … `theta[Mt. Hermon]`, or all 300 groups of a larger one, compare at a glance,
 * and a chain away from the others stands out.
 */
import { checkBoolean, checkOptions, fail } from '../../../src/checks.js';
import { checkHdiProb, hdiOfSorted } from '../../../mcmc/diagnostics/hdi.js';
import { numpyQuantile } from '../../../mcmc/diagnostics/internal/quantile.js';
import { checkSeries, type ChainSeries } from '../parameters.js';
import { axes, chainColor, coord, escapeXml, legend, linearScale, svgDocument } from './svg.js';

/** One row of a forest plot: a parameter's (or one chain's of it) HDI, quartiles and median. */
export interface ForestRow {
  readonly name: string;
  /** The chain, or undefined for all chains together (`combined`). */
  readonly chain: number | undefined;
  /** The highest-density interval (ArviZ's `hdi`, unimodal) of the row's draws. */
  readonly hdi: readonly [number, number];
  /** NumPy's 25th, 50th and 75th percentiles (linear interpolation) of the row's draws. */
  readonly quartiles: readonly [number, number, number];
}

/** Options of {@link forestRows} and {@link forestPlot}. */
export interface ForestOptions {
  /** Probability of the interval (default 0.94, ArviZ's `stats.ci_prob`). */
  readonly hdiProb?: number;
  /** All chains in one row per parameter (default false: a row per chain, ArviZ's default). */
  readonly combined?: boolean;
}

/** Options of {@link forestPlot}. */
export interface ForestPlotOptions extends ForestOptions {
  /** Width in px (default 640); the height follows the rows. */
  readonly width?: number;
}

/**
 * The numbers a forest plot draws, as ArviZ's `plot_forest` computes them: per parameter and
 * chain (or per parameter with `combined`), `np.percentile(values, [25, 50, 75])` and
 * `hdi(values, hdi_prob, multimodal=False)`. Rows in the order of `series`, chains ascending.
 *
 * @throws {TypeError} / {RangeError} for a malformed series, `hdiProb` outside (0, 1] or too few
 *   draws for it, or an unknown option.
 * @example
 * const [mu] = flattenParameters('report', draws);
 * forestRows([mu], { combined: true })[0]!.hdi;   // [lower, upper]
 */
export function forestRows(series: readonly ChainSeries[], options: ForestOptions = {}): ForestRow[] {
  return bandsOf('forestRows', series, options).flat();
}

/** The rows of each series (its chains', or one with `combined`). */
function bandsOf(fn: string, series: readonly ChainSeries[], options: ForestOptions): ForestRow[][] {
  if (!Array.isArray(series)) fail('type', fn, 'series', 'must be an array of { name, chains, draws, values }', series);
  const prob = options.hdiProb === undefined ? 0.94 : checkHdiProb(fn, 'options.hdiProb', options.hdiProb);
  const combined = options.combined === undefined ? false : checkBoolean(fn, 'options.combined', options.combined);
  return series.map((raw, i) => {
    const s = checkSeries(fn, `series[${i}]`, raw);
    const groups = combined ? [[undefined, s.values] as const] : Array.from({ length: s.chains }, (_, c) => [c, s.values.subarray(c * s.draws, (c + 1) * s.draws)] as const);
    return groups.map(([chain, values]): ForestRow => {
      const x = Float64Array.from(values).sort();
      const hdi = hdiOfSorted(x, prob);
      if (hdi === undefined) fail('range', fn, 'options.hdiProb', `leaves too few draws for an interval of ${x.length}`, prob);
      return { name: s.name, chain, hdi, quartiles: [numpyQuantile(x, 0.25), numpyQuantile(x, 0.5), numpyQuantile(x, 0.75)] };
    });
  });
}

/** Vertical space per row and between parameters (px). */
const ROW = 6, GAP = 9;

/**
 * The forest plot as a standalone SVG: per parameter (top to bottom, in the order given) a row
 * per chain, in the chain's colour (ArviZ colours by model; here the chains keep the colours of
 * the trace plots, so a chain apart from the others is the one the trace shows), each a thin
 * line over the HDI, a thick line over the quartiles and a hollow dot at the median, as ArviZ
 * draws them. Rows with a non-finite number (NaN draws) are left out.
 *
 * @param series - the parameters, each `{ name, chains, draws, values }` (chain-major).
 * @param options - `hdiProb` (default 0.94), `combined` (default false), `width` (default 640).
 * @returns SVG text.
 * @throws as {@link forestRows}; a `width` that is not a finite number of at least 200 (RangeError).
 * @example
 * writeFileSync('forest.svg', forestPlot(flattenParameters('report', draws)));
 */
export function forestPlot(series: readonly ChainSeries[], options: ForestPlotOptions = {}): string {
  const FN = 'forestPlot';
  checkOptions(FN, options, ['hdiProb', 'combined', 'width']);
  const bands = bandsOf(FN, series, options);
  const width = options.width ?? 640;
  if (typeof width !== 'number' || !(width >= 200) || !Number.isFinite(width)) fail('range', FN, 'options.width', 'must be a finite number ≥ 200 (px)', width);
  const prob = options.hdiProb ?? 0.94;
  const drawn = (r: ForestRow): boolean => Number.isFinite(r.hdi[0]) && Number.isFinite(r.hdi[1]) && r.quartiles.every(Number.isFinite);
  let lo = Infinity, hi = -Infinity;
  for (const r of bands.flat()) if (drawn(r)) { lo = Math.min(lo, r.hdi[0]); hi = Math.max(hi, r.hdi[1]); }
  if (!(lo <= hi)) { lo = 0; hi = 1; }
  const pad = (hi - lo) * 0.04 || 0.5;
  // Each band: its rows ROW apart, GAP between bands; the labels' column as wide as the longest name.
  const label = Math.min(240, 12 + 6.6 * Math.max(0, ...bands.map((b) => b[0]?.name.length ?? 0)));
  const tops: number[] = [];
  let h = 0;
  for (const b of bands) { tops.push(h + GAP / 2 + ROW / 2); h += b.length * ROW + GAP; }
  const box = { x: label + 8, y: 40, w: width - label - 28, h: Math.max(1, h) };
  const height = box.y + box.h + 40;
  const x = linearScale(lo - pad, hi + pad, box.x, box.x + box.w);
  const title = `${(100 * prob).toFixed(1)}% HDI`;   // ArviZ's title, f"{hdi_prob:.1%} HDI"
  const body: string[] = [axes(box, x, linearScale(0, box.h, box.y, box.y + box.h), { yTicks: [], title })];
  const labels: string[] = [];
  const marks: string[] = [];
  bands.forEach((band, k) => {
    if (band.length === 0) return;
    labels.push(`<text x="${coord(box.x - 6)}" y="${coord(box.y + tops[k]! + ((band.length - 1) * ROW) / 2 + 3.5)}" text-anchor="end">${escapeXml(band[0]!.name)}</text>`);
    band.forEach((r, j) => {
      if (!drawn(r)) return;
      const py = coord(box.y + tops[k]! + j * ROW);
      marks.push(`<g stroke="${chainColor(r.chain ?? 0)}"><line x1="${coord(x(r.hdi[0]))}" y1="${py}" x2="${coord(x(r.hdi[1]))}" y2="${py}" stroke-width="1.2"/>`
        + `<line x1="${coord(x(r.quartiles[0]))}" y1="${py}" x2="${coord(x(r.quartiles[2]))}" y2="${py}" stroke-width="2.6"/>`
        + `<circle cx="${coord(x(r.quartiles[1]))}" cy="${py}" r="2" fill="#fff" stroke-width="1"/></g>`);
    });
  });
  body.push(`<g class="labels">${labels.join('')}</g>`, marks.join(''));
  const chains = Math.max(0, ...bands.map((b) => (b[0]?.chain === undefined ? 0 : b.length)));
  if (chains > 1) {
    const entries: [string, string][] = Array.from({ length: Math.min(chains, 10) }, (_, c) => [`chain ${c}`, chainColor(c)]);
    body.push(legend(box.x + box.w - entries.reduce((a, [l]) => a + 22 + 6.5 * l.length, 0), 14, entries));
  }
  return svgDocument(width, height, body.join(''), `Forest plot (${title})`);
}
