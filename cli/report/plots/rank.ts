/**
 * The rank plot (Vehtari et al. 2021; ArviZ's `plot_rank`): draws of all chains ranked together,
 * then one histogram of ranks per chain. Chains that mix look uniform; a chain stuck in one
 * region shows a sloped or peaked histogram.
 */
import { checkOptions, fail } from '../../../src/checks.js';
import { checkSeries, type ChainSeries } from '../parameters.js';
import { axes, chainColor, coord, escapeXml, linearScale, svgDocument } from './svg.js';
import { detLog2 } from '../../../src/math/index.js';
import { sorted } from '../../../mcmc/diagnostics/internal/quantile.js';

/**
 * Ranks of `values` among themselves, 1-based, ties averaged (scipy's `rankdata`); NaN stays NaN.
 *
 * @example
 * ranks(Float64Array.of(3, 1, 3, 2)); // Float64Array [3.5, 1, 3.5, 2]
 */
export function ranks(values: Float64Array): Float64Array {
  // the engine's numeric sort of a copy (NaN last), each tie run's mean rank, then each value's
  // run found by binary search: no index array sorted by a comparator
  const s = sorted(values);   // read only (shared with the summary inside sharingSortedDraws)
  const runRank = runRanks(s);
  const m = runRank.length;
  const out = new Float64Array(values.length).fill(NaN);
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    if (Number.isNaN(v)) continue;
    let lo = 0, hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    out[k] = runRank[lo]!;
  }
  return out;
}

/** At each tie run's first position of the ascending `s` (NaN last, not ranked), the run's mean 1-based rank. */
function runRanks(s: Float64Array): Float64Array {
  let m = s.length;
  while (m > 0 && Number.isNaN(s[m - 1]!)) m--;
  const runRank = new Float64Array(m);
  for (let i = 0; i < m;) {
    let j = i;
    while (j + 1 < m && s[j + 1] === s[i]) j++;
    runRank[i] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return runRank;
}

/**
 * Per-chain counts of ranks in `bins` equal bins: rank `r` (1..N, N = chains · draws) goes to
 * bin `⌊(r − 1)·bins/N⌋`, so each bin holds N/bins ranks in all (ArviZ's edges over `[0, N]`
 * leave one rank fewer in the first bin). Also the count each bin expects under uniformity.
 *
 * @example
 * rankCounts({ name: 'x', chains: 2, draws: 2, values: Float64Array.of(1, 2, 3, 4) }, 2);
 * // { counts: [[2, 0], [0, 2]], expected: 1 }
 */
export function rankCounts(series: ChainSeries, bins: number): { counts: number[][]; expected: number } {
  // the bins of {@link ranks}' ranks without a rank per draw: along the pooled sort the bin never
  // decreases and is one per tie run, so bin b starts at a value `from[b]`, and a draw's bin is the
  // number of starts ≤ it (a binary search over ≤ bins values, no per-chain sort); the counts are exact
  const s = sorted(series.values);   // read only (shared with the summary inside sharingSortedDraws)
  const runRank = runRanks(s);
  const m = runRank.length;
  const total = series.values.length;
  const from = new Float64Array(bins);   // from[b], b = 1..starts−1: the smallest value in bin ≥ b
  let starts = 1;
  for (let i = 0; i < m;) {
    const b = Math.min(bins - 1, Math.floor(((runRank[i]! - 1) / total) * bins));
    while (starts <= b) from[starts++] = s[i]!;
    let j = i + 1;
    while (j < m && s[j] === s[i]) j++;
    i = j;
  }
  const counts = Array.from({ length: series.chains }, () => new Array<number>(bins).fill(0));
  const v = series.values;
  for (let c = 0; c < series.chains; c++) {
    const row = counts[c]!;
    for (let d = c * series.draws; d < (c + 1) * series.draws; d++) {
      const x = v[d]!;
      if (Number.isNaN(x)) continue;
      let lo = 1, hi = starts;   // first b ≥ 1 with from[b] > x: x's bin is b − 1
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (from[mid]! <= x) lo = mid + 1;
        else hi = mid;
      }
      row[lo - 1]! += 1;
    }
  }
  return { counts, expected: series.draws / bins };
}

/** Options of {@link rankPlot}. */
export interface RankPlotOptions {
  /** Histogram bins (default ArviZ's `⌈2·log₂(draws)⌉ + 1`). */
  readonly bins?: number;
  /** Size in px (default 360 × 180). */
  readonly width?: number;
  readonly height?: number;
}

/**
 * The rank plot of one parameter as a standalone SVG: one row of bars per chain (the chain's
 * histogram of pooled ranks) with a dashed line at the uniform expectation.
 *
 * @param series - `{ name, chains, draws, values }`, values chain-major.
 * @param options - `bins`, `width`, `height`.
 * @returns SVG text.
 * @throws {TypeError} / {RangeError} for a malformed series or a non-positive `bins`.
 *
 * @example
 * const [mu] = flattenParameters('report', draws);
 * writeFileSync('mu-rank.svg', rankPlot(mu));
 */
export function rankPlot(series: ChainSeries, options: RankPlotOptions = {}): string {
  checkOptions('rankPlot', options, ['bins', 'width', 'height']);
  const FN = 'rankPlot';
  const s = checkSeries(FN, 'series', series);
  const bins = options.bins ?? Math.ceil(2 * detLog2(s.draws)) + 1;
  if (typeof bins !== 'number' || !Number.isInteger(bins)) fail('type', FN, 'options.bins', 'must be an integer', bins);
  if (bins < 1) fail('range', FN, 'options.bins', 'must be at least 1', bins);
  const width = options.width ?? 360;
  const height = options.height ?? 180;
  const box = { x: 52, y: 24, w: width - 74, h: height - 64 };
  const { counts, expected } = rankCounts(s, bins);
  const maxCount = Math.max(expected * 1.5, ...counts.flat());
  const band = box.h / s.chains;
  const x = linearScale(0, s.values.length, box.x, box.x + box.w);
  const y = linearScale(0, s.chains, box.y + box.h, box.y);
  const body: string[] = [axes(box, x, y, { xLabel: 'rank (all chains)', yTicks: [], title: `${s.name}: rank` })];
  const binW = box.w / bins;
  for (let c = 0; c < s.chains; c++) {
    const base = box.y + (c + 1) * band;
    const k = (band * 0.9) / maxCount;
    const bars = counts[c]!.map((n, b) => {
      const h = n * k;
      return `<rect x="${coord(box.x + b * binW + 0.5)}" y="${coord(base - h)}" width="${coord(Math.max(0.5, binW - 1))}" height="${coord(h)}"/>`;
    });
    body.push(`<g fill="${chainColor(c)}" fill-opacity="0.85">${bars.join('')}</g>`);
    const ey = coord(base - expected * k);
    body.push(`<line x1="${coord(box.x)}" y1="${ey}" x2="${coord(box.x + box.w)}" y2="${ey}" stroke="#333" stroke-dasharray="4 3" stroke-width="1"/>`);
    body.push(`<text x="${coord(box.x - 6)}" y="${coord(base - band / 2 + 3.5)}" text-anchor="end">${escapeXml(String(c))}</text>`);
  }
  body.push(`<text x="${coord(box.x - 34)}" y="${coord(box.y + box.h / 2)}" text-anchor="middle" transform="rotate(-90 ${coord(box.x - 34)} ${coord(box.y + box.h / 2)})" class="ax-label">chain</text>`);
  return svgDocument(width, height, body.join(''), `Rank plot of ${s.name}`);
}
