/**
 * The marginal plot: a density histogram of a parameter's draws (all chains pooled) with a
 * Gaussian KDE (Scott's bandwidth) drawn over it.
 */
import { checkOptions, fail } from '../../../src/checks.js';
import { checkSeries, type ChainSeries } from '../parameters.js';
import { gridGaussianKde, linspace, scottBandwidth } from './kde.js';
import { axes, coord, finiteRange, linearScale, polyline, svgDocument } from './svg.js';
import { detPow } from '../../../src/math/index.js';
import { sorted } from '../../../mcmc/diagnostics/internal/quantile.js';

/**
 * Bin edges for `x` (finite values): the Freedman–Diaconis width `2·IQR·n^(−1/3)`, the count
 * clamped to `[10, 60]` (and `bins` when given).
 *
 * @example
 * histogramEdges(Float64Array.of(0, 1, 2, 3), 4); // Float64Array [0, 0.75, 1.5, 2.25, 3]
 */
export function histogramEdges(x: Float64Array, bins?: number): Float64Array {
  const { min, max } = finiteRange(x);
  if (!Number.isFinite(min)) return Float64Array.of(0, 1);
  if (max === min) return Float64Array.of(min - 0.5, max + 0.5);
  let n = bins;
  if (n === undefined) {
    const s = sorted(x);   // read only (shared with the summary inside sharingSortedDraws)
    const q = (p: number): number => {
      const h = (s.length - 1) * p;
      const i = Math.floor(h);
      return s[i]! + (h - i) * ((s[Math.min(i + 1, s.length - 1)] ?? s[i]!) - s[i]!);
    };
    const width = 2 * (q(0.75) - q(0.25)) * detPow(s.length, -1 / 3);
    n = width > 0 ? Math.ceil((max - min) / width) : 10;
    n = Math.min(60, Math.max(10, n));
  }
  return linspace(min, max, n + 1);
}

/**
 * Density-normalised counts of `x` in the bins `edges` (right edge of the last bin included).
 *
 * @example
 * histogramDensity(Float64Array.of(0, 1, 2, 3), Float64Array.of(0, 1.5, 3)); // [0.333…, 0.333…]
 */
export function histogramDensity(x: Float64Array, edges: Float64Array): Float64Array {
  const bins = edges.length - 1;
  const counts = new Float64Array(bins);
  const lo = edges[0]!;
  const hi = edges[bins]!;
  let n = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    if (!(v >= lo && v <= hi)) continue;
    let b = Math.floor(((v - lo) / (hi - lo)) * bins);
    if (b >= bins) b = bins - 1;
    while (b > 0 && v < edges[b]!) b--;
    while (b < bins - 1 && v >= edges[b + 1]!) b++;
    counts[b]! += 1;
    n++;
  }
  for (let b = 0; b < bins; b++) counts[b] = n === 0 ? 0 : counts[b]! / (n * (edges[b + 1]! - edges[b]!));
  return counts;
}

/** Options of {@link histogramPlot}. */
export interface HistogramPlotOptions {
  /** Number of bins (default Freedman–Diaconis, clamped to [10, 60]). */
  readonly bins?: number;
  /** Size in px (default 300 × 200). */
  readonly width?: number;
  readonly height?: number;
}

/**
 * The marginal posterior of one parameter as a standalone SVG: a density histogram of every
 * chain's finite draws with their Gaussian KDE (Scott's bandwidth) over the data's range, and
 * the mean as a dashed line.
 *
 * @param series - `{ name, chains, draws, values }`, values chain-major.
 * @param options - `bins`, `width`, `height`.
 * @returns SVG text.
 * @throws {TypeError} / {RangeError} for a malformed series or a non-positive `bins`.
 *
 * @example
 * const [mu] = flattenParameters('report', draws);
 * writeFileSync('mu-marginal.svg', histogramPlot(mu));
 */
export function histogramPlot(series: ChainSeries, options: HistogramPlotOptions = {}): string {
  checkOptions('histogramPlot', options, ['bins', 'width', 'height']);
  const FN = 'histogramPlot';
  const s = checkSeries(FN, 'series', series);
  if (options.bins !== undefined) {
    if (typeof options.bins !== 'number' || !Number.isInteger(options.bins)) fail('type', FN, 'options.bins', 'must be an integer', options.bins);
    if (options.bins < 1) fail('range', FN, 'options.bins', 'must be at least 1', options.bins);
  }
  const width = options.width ?? 300;
  const height = options.height ?? 200;
  const box = { x: 52, y: 24, w: width - 74, h: height - 64 };
  const { min, max, values } = finiteRange(s.values);
  const edges = histogramEdges(values, options.bins);
  const density = histogramDensity(values, edges);
  const grid = linspace(edges[0]!, edges[edges.length - 1]!, 200);
  const kde = values.length >= 2 && max > min ? gridGaussianKde(values, grid[0]!, grid[grid.length - 1]!, grid.length, scottBandwidth(values)) : new Float64Array(0);
  const top = Math.max(...density, ...kde, 1e-300) * 1.08;
  const x = linearScale(edges[0]!, edges[edges.length - 1]!, box.x, box.x + box.w);
  const y = linearScale(0, top, box.y + box.h, box.y);
  const body: string[] = [axes(box, x, y, { xLabel: s.name, yLabel: 'density', title: `${s.name}: marginal` })];
  const bars: string[] = [];
  for (let b = 0; b < density.length; b++) {
    const x0 = x(edges[b]!);
    const x1 = x(edges[b + 1]!);
    bars.push(`<rect x="${coord(x0)}" y="${coord(y(density[b]!))}" width="${coord(Math.max(0, x1 - x0 - 0.5))}" height="${coord(y(0) - y(density[b]!))}"/>`);
  }
  body.push(`<g fill="#9ecae1" stroke="none">${bars.join('')}</g>`);
  if (kde.length > 0) body.push(polyline(Array.from(grid, x), Array.from(kde, y), 'stroke="#08519c" stroke-width="1.6"'));
  if (values.length > 0) {
    let mean = 0;
    for (const v of values) mean += v / values.length;
    const mx = coord(x(mean));
    body.push(`<line x1="${mx}" y1="${coord(box.y)}" x2="${mx}" y2="${coord(box.y + box.h)}" stroke="#333" stroke-dasharray="4 3"/>`);
  }
  return svgDocument(width, height, body.join(''), `Marginal posterior of ${s.name}`);
}
