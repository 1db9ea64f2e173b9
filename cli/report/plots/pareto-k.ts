/**
 * PSIS-LOO's Pareto k diagnostic per observation (ArviZ's `plot_khat`): one point per
 * observation, with the threshold above which its importance-sampling estimate is unreliable.
 */
import { checkOptions, fail } from '../../../src/checks.js';
import { axes, coord, escapeXml, linearScale, svgDocument } from './svg.js';

/** Options of {@link paretoKPlot}. */
export interface ParetoKPlotOptions {
  /** The threshold drawn and flagged (default 0.7; `loo`'s `goodK` is min(1 − 1/log10(S), 0.7)). */
  readonly threshold?: number;
  /** Labels of the observations (default their indices). */
  readonly labels?: readonly string[];
  /** Title (default "Pareto k"). */
  readonly title?: string;
  /** Size in px (default 420 × 220). */
  readonly width?: number;
  readonly height?: number;
}

/**
 * The Pareto k of every observation as a standalone SVG: points at (observation, k), those
 * above `threshold` in red, dashed lines at `threshold` and at 1.
 *
 * @param k - one Pareto k per observation (`loo(...).paretoK.data`).
 * @param options - `threshold`, `labels`, `title`, `width`, `height`.
 * @returns SVG text.
 * @throws {TypeError} when `k` is not an array of numbers; {RangeError} for no observations or
 *   labels of another length.
 * @example
 * paretoKPlot(loo(logLik).paretoK.data, { threshold: 0.7 }); // '<svg …>'
 */
export function paretoKPlot(k: ArrayLike<number>, options: ParetoKPlotOptions = {}): string {
  const FN = 'paretoKPlot';
  checkOptions(FN, options, ['threshold', 'labels', 'title', 'width', 'height']);
  if (k === null || typeof k !== 'object' || typeof k.length !== 'number') fail('type', FN, 'k', 'must be an array of Pareto k values', k);
  const ks = Float64Array.from(k, Number);
  if (ks.length === 0) fail('range', FN, 'k', 'must hold at least one value', k);
  const threshold = options.threshold ?? 0.7;
  if (typeof threshold !== 'number' || !Number.isFinite(threshold)) fail('type', FN, 'options.threshold', 'must be a finite number', threshold);
  if (options.labels !== undefined && options.labels.length !== ks.length) fail('range', FN, 'options.labels', `must hold ${ks.length} labels`, options.labels.length);
  const width = options.width ?? 420, height = options.height ?? 220;
  const box = { x: 48, y: 26, w: width - 64, h: height - 62 };
  let lo = Math.min(0, threshold), hi = Math.max(1.05, threshold);
  for (const v of ks) if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  const x = linearScale(-0.5, ks.length - 0.5, box.x, box.x + box.w), y = linearScale(lo - 0.05, hi + 0.05, box.y + box.h, box.y);
  const ticks = ks.length <= 12 ? Array.from(ks, (_, i) => i) : undefined;
  const body = [axes(box, x, y, { xLabel: 'observation', yLabel: 'Pareto k', title: options.title ?? 'Pareto k', ...(ticks === undefined ? {} : { xTicks: ticks }) })];
  for (const [v, dash, color] of [[threshold, '5 3', '#d62728'], [1, '2 3', '#999']] as const) {
    if (v > hi + 0.05) continue;
    body.push(`<line x1="${coord(box.x)}" y1="${coord(y(v))}" x2="${coord(box.x + box.w)}" y2="${coord(y(v))}" stroke="${color}" stroke-dasharray="${dash}"/>`);
  }
  ks.forEach((v, i) => {
    if (!Number.isFinite(v)) return;
    const bad = v > threshold;
    const label = options.labels?.[i] ?? String(i);
    body.push(`<circle cx="${coord(x(i))}" cy="${coord(y(v))}" r="${ks.length > 200 ? 2 : 3.5}" fill="${bad ? '#d62728' : '#1f77b4'}"><title>${escapeXml(`${label}: k = ${v.toFixed(3)}`)}</title></circle>`);
  });
  return svgDocument(width, height, body.join(''), options.title ?? 'Pareto k diagnostic');
}
