/**
 * The pair plot: scatter plots of every pair of a few parameters (lower triangle) with their
 * marginal histograms on the diagonal, divergent transitions marked in red: divergences that
 * cluster (at small `tau` in a funnel, say) show where the sampler cannot follow the posterior.
 */
import { checkOptions, fail } from '../../../src/checks.js';
import { checkFlags, checkSeries, type ChainSeries } from '../parameters.js';
import { histogramDensity, histogramEdges } from './histogram.js';
import { axes, coord, DIVERGENT_COLOR, finiteRange, legend, linearScale, svgDocument } from './svg.js';

/** Options of {@link pairPlot}. */
export interface PairPlotOptions {
  /** Per-draw divergence flags, chain-major like the series' values (nonzero = divergent). */
  readonly divergent?: ArrayLike<number | boolean>;
  /** Most non-divergent points per panel (default 1000, an even stride through the draws); divergent ones are all drawn. */
  readonly maxPoints?: number;
  /** Size of one panel in px (default 150). */
  readonly cell?: number;
}

/**
 * Dots as one path: a zero-length segment per point, drawn by the round line caps.
 */
function dots(xs: readonly number[], ys: readonly number[], attrs: string): string {
  if (xs.length === 0) return '';
  const d = xs.map((x, i) => `M${coord(x)} ${coord(ys[i]!)}h0`).join('');
  return `<path d="${d}" fill="none" stroke-linecap="round" ${attrs}/>`;
}

/**
 * The pair plot of a few parameters as a standalone SVG: for parameters `p_0..p_{k−1}`, panel
 * (i, j) with i > j scatters `p_j` (x) against `p_i` (y), the diagonal shows each marginal
 * histogram, divergent draws are red dots drawn last. Draws with a non-finite value in the
 * pair are skipped.
 *
 * @param series - two or more `{ name, chains, draws, values }` with the same chains and draws
 *   (values chain-major); keep it to a handful, the plot grows quadratically.
 * @param options - `divergent` flags, `maxPoints`, `cell`.
 * @returns SVG text.
 * @throws {TypeError} / {RangeError} for fewer than two or mismatched series, malformed flags or options.
 *
 * @example
 * const params = flattenParameters('report', draws);
 * writeFileSync('pairs.svg', pairPlot(params.slice(0, 4), { divergent: statValues(stats, 'diverging') }));
 */
export function pairPlot(series: readonly ChainSeries[], options: PairPlotOptions = {}): string {
  checkOptions('pairPlot', options, ['divergent', 'maxPoints', 'cell']);
  const FN = 'pairPlot';
  if (!Array.isArray(series)) fail('type', FN, 'series', 'must be an array of series', series);
  if (series.length < 2) fail('range', FN, 'series', 'must hold at least two series', series.length);
  const ss = series.map((s, i) => checkSeries(FN, `series[${i}]`, s));
  const n = ss[0]!.values.length;
  ss.forEach((s, i) => {
    if (s.values.length !== n) fail('range', FN, `series[${i}]`, `must have as many draws as series[0] (${n})`, s.values.length);
  });
  const divergent = checkFlags(FN, 'options.divergent', options.divergent, n);
  const maxPoints = options.maxPoints ?? 1000;
  if (typeof maxPoints !== 'number' || !Number.isInteger(maxPoints) || maxPoints < 0) {
    fail(typeof maxPoints === 'number' ? 'range' : 'type', FN, 'options.maxPoints', 'must be a non-negative integer', maxPoints);
  }
  const cell = options.cell ?? 150;
  const k = ss.length;
  const left = 56;
  const top = 28;
  const gap = 10;
  const width = left + k * (cell + gap) + 4;
  const height = top + k * (cell + gap) + 36;

  const isDiv = (i: number): boolean => divergent !== undefined && divergent[i] !== 0 && !Number.isNaN(divergent[i]);
  const nDiv = divergent === undefined ? 0 : Array.from({ length: n }, (_, i) => i).filter(isDiv).length;
  const stride = Math.max(1, Math.ceil((n - nDiv) / Math.max(1, maxPoints)));
  const kept: number[] = [];
  const div: number[] = [];
  let seen = 0;
  for (let i = 0; i < n; i++) {
    if (isDiv(i)) div.push(i);
    else if (maxPoints > 0 && seen++ % stride === 0) kept.push(i);
  }

  const ranges = ss.map((s) => {
    const { min, max } = finiteRange(s.values);
    const pad = Number.isFinite(min) ? (max - min) * 0.04 : 0;
    return [min - pad, max + pad] as const;
  });
  const body: string[] = [];
  for (let i = 0; i < k; i++) {
    for (let j = 0; j <= i; j++) {
      const box = { x: left + j * (cell + gap), y: top + i * (cell + gap), w: cell, h: cell };
      const x = linearScale(ranges[j]![0], ranges[j]![1], box.x, box.x + box.w);
      const xLabel = i === k - 1 ? ss[j]!.name : undefined;
      if (i === j) {
        const { values } = finiteRange(ss[i]!.values);
        const edges = histogramEdges(values, 20);
        const dens = histogramDensity(values, edges);
        const y = linearScale(0, Math.max(...dens, 1e-300) * 1.08, box.y + box.h, box.y);
        body.push(axes(box, x, y, { xLabel, yTicks: [], xTicks: i === k - 1 ? undefined : [] }));
        const bars = Array.from(dens, (d, b) => {
          const x0 = x(edges[b]!);
          const x1 = x(edges[b + 1]!);
          return `<rect x="${coord(x0)}" y="${coord(y(d))}" width="${coord(Math.max(0, x1 - x0 - 0.5))}" height="${coord(y(0) - y(d))}"/>`;
        });
        body.push(`<g fill="#9ecae1">${bars.join('')}</g>`);
        continue;
      }
      const y = linearScale(ranges[i]![0], ranges[i]![1], box.y + box.h, box.y);
      body.push(axes(box, x, y, {
        xLabel, yLabel: j === 0 ? ss[i]!.name : undefined,
        xTicks: i === k - 1 ? undefined : [], yTicks: j === 0 ? undefined : [],
      }));
      const pts = (idx: readonly number[]): [number[], number[]] => {
        const xs: number[] = [];
        const ys: number[] = [];
        for (const t of idx) {
          const a = ss[j]!.values[t]!;
          const b = ss[i]!.values[t]!;
          if (Number.isFinite(a) && Number.isFinite(b)) { xs.push(x(a)); ys.push(y(b)); }
        }
        return [xs, ys];
      };
      body.push(dots(...pts(kept), 'stroke="#1f77b4" stroke-opacity="0.45" stroke-width="3"'));
      body.push(dots(...pts(div), `stroke="${DIVERGENT_COLOR}" stroke-width="4.5"`));
    }
  }
  const label = `draws (${kept.length}${kept.length < n - nDiv ? ` of ${n - nDiv}` : ''})`;
  body.push(legend(left, 14, [[label, '#1f77b4'], [`divergent (${nDiv})`, DIVERGENT_COLOR]]));
  return svgDocument(width, height, body.join(''), `Pair plot of ${ss.map((s) => s.name).join(', ')}`);
}
