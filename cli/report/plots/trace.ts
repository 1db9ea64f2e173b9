/**
 * The trace plot: each chain's draws against the draw index, one colour per chain, with
 * divergent transitions marked as ticks under the plot.
 */
import { checkOptions } from '../../../src/checks.js';
import { checkFlags, checkSeries, type ChainSeries } from '../parameters.js';
import { axes, chainColor, coord, finiteRange, legend, linearScale, polyline, svgDocument } from './svg.js';

/** Divergence ticks are black (as ArviZ draws them): red is a chain colour here. */
const TICK_COLOR = '#000';

/** Options of {@link tracePlot}. */
export interface TracePlotOptions {
  /** Per-draw divergence flags, chain-major like `series.values` (nonzero = divergent). */
  readonly divergent?: ArrayLike<number | boolean>;
  /** Size in px (default 600 × 180). */
  readonly width?: number;
  readonly height?: number;
}

/** Whether any flag is set (nonzero and not NaN). */
function anyFlag(flags: ArrayLike<number>): boolean {
  for (let i = 0; i < flags.length; i++) if (flags[i] !== 0 && !Number.isNaN(flags[i])) return true;
  return false;
}

/**
 * One chain's draws to plot when they do not all fit (`n > 2·columns`): per pixel column the
 * first, smallest and largest draw (in draw order), so spikes survive the thinning.
 */
function thin(values: Float64Array, from: number, n: number, columns: number): number[] {
  const ds: number[] = [];
  for (let col = 0; col < columns; col++) {
    const a = Math.floor((col * n) / columns);
    const b = Math.floor(((col + 1) * n) / columns);
    let lo = a;
    let hi = a;
    for (let d = a; d < b; d++) {
      const v = values[from + d]!;
      if (!(v >= values[from + lo]!)) lo = Number.isNaN(v) ? lo : d;
      if (!(v <= values[from + hi]!)) hi = Number.isNaN(v) ? hi : d;
    }
    for (const d of [...new Set([a, lo, hi])].sort((p, q) => p - q)) ds.push(d);
  }
  return ds;
}

/**
 * The trace plot of one parameter as a standalone SVG: every chain's draws as a line (long
 * chains thinned per pixel column to first/min/max, so spikes stay visible), chains in
 * {@link chainColor} order with a legend, and divergent draws as black ticks along the bottom.
 * Non-finite draws break the line.
 *
 * @param series - `{ name, chains, draws, values }`, values chain-major (`values[c·draws + d]`).
 * @param options - `divergent` flags (chain-major), `width`, `height`.
 * @returns SVG text.
 * @throws {TypeError} / {RangeError} for a malformed series or flags of the wrong length.
 *
 * @example
 * const [mu] = flattenParameters('report', draws);
 * writeFileSync('mu-trace.svg', tracePlot(mu, { divergent: statValues(stats, 'diverging') }));
 */
export function tracePlot(series: ChainSeries, options: TracePlotOptions = {}): string {
  checkOptions('tracePlot', options, ['divergent', 'width', 'height']);
  const FN = 'tracePlot';
  const s = checkSeries(FN, 'series', series);
  const divergent = checkFlags(FN, 'options.divergent', options.divergent, s.chains * s.draws);
  const width = options.width ?? 600;
  const height = options.height ?? 180;
  const box = { x: 52, y: 24, w: width - 74, h: height - 64 };
  const { min, max } = finiteRange(s.values);
  const pad = Number.isFinite(min) ? (max - min) * 0.04 : 0;
  const x = linearScale(0, Math.max(1, s.draws - 1), box.x, box.x + box.w);
  const y = linearScale(min - pad, max + pad, box.y + box.h, box.y);
  const body: string[] = [axes(box, x, y, { xLabel: 'draw', title: `${s.name}: trace` })];
  // each draw's x and its text computed once for every chain and divergence tick
  const px = new Float64Array(s.draws).fill(NaN);
  const xText: string[] = [];
  const xAt = (d: number): string => {
    if (xText[d] === undefined) { px[d] = x(d); xText[d] = coord(px[d]!); }
    return xText[d]!;
  };
  const columns = Math.ceil(box.w);
  const all = s.draws <= 2 * columns;
  if (all) for (let d = 0; d < s.draws; d++) xAt(d);
  const py = new Float64Array(all ? s.draws : 3 * columns);
  for (let c = 0; c < s.chains; c++) {
    const from = c * s.draws, attrs = `stroke="${chainColor(c)}" stroke-width="0.9" stroke-opacity="0.75"`;
    if (all) {
      for (let d = 0; d < s.draws; d++) { const v = s.values[from + d]!; py[d] = Number.isFinite(v) ? y(v) : NaN; }
      body.push(polyline(px, py, attrs, xText));
    } else {
      const ds = thin(s.values, from, s.draws, columns);
      const texts = ds.map(xAt);
      body.push(polyline(ds.map((d) => px[d]!), ds.map((d) => { const v = s.values[from + d]!; return Number.isFinite(v) ? y(v) : NaN; }), attrs, texts));
    }
  }
  if (divergent !== undefined) {
    const ticks: string[] = [];
    for (let c = 0; c < s.chains; c++) {
      for (let d = 0; d < s.draws; d++) {
        if (divergent[c * s.draws + d] === 0 || Number.isNaN(divergent[c * s.draws + d])) continue;
        const px = xAt(d);
        ticks.push(`<line x1="${px}" y1="${coord(box.y + box.h - 8)}" x2="${px}" y2="${coord(box.y + box.h)}"/>`);
      }
    }
    if (ticks.length > 0) body.push(`<g class="divergences" stroke="${TICK_COLOR}" stroke-width="1.2" stroke-opacity="0.8">${ticks.join('')}</g>`);
  }
  const entries: [string, string][] = Array.from({ length: Math.min(s.chains, 10) }, (_, c) => [`chain ${c}`, chainColor(c)]);
  if (divergent !== undefined && anyFlag(divergent)) {
    entries.push(['divergent', TICK_COLOR]);
  }
  body.push(legend(box.x + box.w - entries.reduce((a, [l]) => a + 22 + 6.5 * l.length, 0), 12, entries));
  return svgDocument(width, height, body.join(''), `Trace plot of ${s.name}`);
}
