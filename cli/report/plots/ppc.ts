/**
 * The posterior predictive check plot (ArviZ's `plot_ppc`): the density of the observed data
 * against the densities of replicated data sets, one per posterior draw.
 */
import { checkOptions, fail } from '../../../src/checks.js';
import { gridGaussianKde, linspace, scottBandwidth, scottBandwidthOfSum } from './kde.js';
import { axes, coord, coordTexts, escapeXml, finiteRange, legend, linearScale, polyline, svgDocument } from './svg.js';

/** What {@link ppcPlot} compares: one observed node's data and its replicates. */
export interface PpcSeries {
  /** The observed node's name. */
  readonly name: string;
  /** The observed values (every observation of the node, flattened). */
  readonly observed: ArrayLike<number>;
  /** Replicated data sets, each as many values as `observed` (one per posterior draw). */
  readonly replicated: readonly ArrayLike<number>[];
}

/** Options of {@link ppcPlot}. */
export interface PpcPlotOptions {
  /** Replicates drawn as thin lines (default 50, spread evenly over the draws). */
  readonly lines?: number;
  /** Size in px (default 420 × 240). */
  readonly width?: number;
  readonly height?: number;
}

/**
 * A posterior predictive check as a standalone SVG. Continuous data: the Gaussian KDE (Scott's
 * bandwidth) of the observed values (black), of `lines` replicated data sets (thin blue) and of
 * all replicates pooled (dashed orange, ArviZ's "posterior predictive mean"). Integer data with
 * at most 30 distinct values, spanning fewer than 1,000 integers: the share of each integer
 * among the observations (black dots) against the replicates' mean share, with the 5–95% range
 * over the replicates (blue bars).
 *
 * @param series - `{ name, observed, replicated }`.
 * @param options - `lines`, `width`, `height`.
 * @returns SVG text.
 * @throws {TypeError} for a missing name or non-numeric data; {RangeError} for no replicates,
 *   replicates of another size than the data, or `lines` < 1.
 * @example
 * ppcPlot({ name: 'y', observed: [28, 8, -3], replicated: [[20, 1, 4], [31, 9, -8]] }); // '<svg …>'
 */
export function ppcPlot(series: PpcSeries, options: PpcPlotOptions = {}): string {
  const FN = 'ppcPlot';
  checkOptions(FN, options, ['lines', 'width', 'height']);
  if (series === null || typeof series !== 'object') fail('type', FN, 'series', 'must be { name, observed, replicated }', series);
  if (typeof series.name !== 'string') fail('type', FN, 'series.name', 'must be a string', series.name);
  const obs = asFloat64(series.observed ?? []);
  if (obs.length === 0) fail('range', FN, 'series.observed', 'must hold at least one value', series.observed);
  if (!Array.isArray(series.replicated) || series.replicated.length === 0) fail('range', FN, 'series.replicated', 'must hold at least one replicated data set', series.replicated);
  const reps = series.replicated.map((r, i) => {
    const a = asFloat64(r);
    if (a.length !== obs.length) fail('range', FN, `series.replicated[${i}]`, `must hold ${obs.length} values like series.observed`, a.length);
    return a;
  });
  return ppcRowsPlot(series.name, obs, consecutiveRows(reps), reps.length, options);
}

/**
 * {@link ppcPlot} of replicates given as `count` consecutive rows of `flat` (each as many values
 * as `observed`), as the report holds them: no view per replicate (the report has thousands). @internal
 *
 * @example
 * ppcRowsPlot('y', Float64Array.of(28, 8, -3), Float64Array.of(20, 1, 4, 31, 9, -8), 2); // '<svg …>', as ppcPlot's
 */
export function ppcRowsPlot(name: string, obs: Float64Array, flat: Float64Array, count: number, options: PpcPlotOptions = {}): string {
  const FN = 'ppcPlot';
  checkOptions(FN, options, ['lines', 'width', 'height']);
  const n = obs.length;
  if (n === 0) fail('range', FN, 'series.observed', 'must hold at least one value', obs);
  if (!(count >= 1 && flat.length === count * n)) fail('range', FN, 'series.replicated', `must hold at least one replicated data set of ${n} values`, count);
  const lines = options.lines ?? 50;
  if (!Number.isInteger(lines) || lines < 1) fail('range', FN, 'options.lines', 'must be a positive integer', lines);
  const width = options.width ?? 420, height = options.height ?? 240;
  const box = { x: 56, y: 26, w: width - 76, h: height - 78 };
  // one pass over the observed values and every replicate: the finite values' range and whether
  // they are few integers (no copy of the millions of replicated values)
  const scan = rangeScan([obs, flat], 30);
  const repsFinite = scan.finiteFrom <= 1;   // no non-finite value after the observed ones
  if (!Number.isFinite(scan.min)) return svgDocument(width, height, `<text x="10" y="20">${escapeXml(name)}: no finite values</text>`, `Posterior predictive check of ${name}`);
  const title = `${name}: observed vs replicated`;
  if (scan.few) return discretePpc(name, obs, flat, count, [scan.min, scan.max], { width, height, box, title });
  const lo = scan.min, hi = scan.max === scan.min ? scan.min + 1 : scan.max;
  const grid = linspace(lo, hi, 160);
  const kde = (finite: Float64Array, sum?: number) => {
    const h = sum === undefined ? scottBandwidth(finite) : scottBandwidthOfSum(finite, sum);
    if (!(finite.length >= 2 && h > 0)) return new Float64Array(grid.length);
    return gridGaussianKde(finite, lo, hi, grid.length, h);
  };
  // replicates 0, step, 2·step, … (at most `lines`)
  const step = Math.max(1, Math.floor(count / lines));
  const shown = Array.from({ length: Math.min(lines, Math.ceil(count / step)) }, (_, i) => kde(finiteRange(flat.subarray(i * step * n, (i * step + 1) * n)).values));
  const obsKde = kde(finiteRange(obs).values), meanKde = repsFinite ? kde(flat, scan.lastSum) : kde(finiteRange(flat).values);
  let top = 1e-300;
  for (const d of [obsKde, meanKde, ...shown]) for (const v of d) if (v > top) top = v;
  const x = linearScale(lo, hi, box.x, box.x + box.w), y = linearScale(0, top * 1.08, box.y + box.h, box.y);
  const px = Array.from(grid, x);
  const pxText = coordTexts(px);
  const body = [axes(box, x, y, { xLabel: name, yLabel: 'density', title })];
  body.push(`<g stroke="#6baed6" stroke-opacity="0.35" stroke-width="0.8">${shown.map((d) => polyline(px, Array.from(d, y), '', pxText)).join('')}</g>`);
  body.push(polyline(px, Array.from(meanKde, y), 'stroke="#ff7f0e" stroke-width="1.6" stroke-dasharray="5 3"', pxText));
  body.push(polyline(px, Array.from(obsKde, y), 'stroke="#111" stroke-width="2"', pxText));
  body.push(legend(box.x, height - 10, [['observed', '#111'], [`replicated (${shown.length} of ${count})`, '#6baed6'], ['replicated, pooled', '#ff7f0e']]));
  return svgDocument(width, height, body.join(''), `Posterior predictive check of ${name}`);
}

/** `x` as a Float64Array: itself when it is one (read only here), else a converted copy. */
function asFloat64(x: ArrayLike<number>): Float64Array {
  return x instanceof Float64Array ? x : Float64Array.from(x, Number);
}

/**
 * The finite values' minimum and maximum over `arrays`, and `few`: every finite value is an
 * integer and there are at most `limit` distinct ones. `finiteFrom`: the index after the last
 * array holding a non-finite value (0 when every value is finite). `lastSum`: the last array's
 * values summed in order from 0, as {@link scottBandwidth} sums them for their mean (the pooled
 * replicates': one pass fewer over millions of values). @internal
 *
 * @example
 * rangeScan([Float64Array.of(1, 2), Float64Array.of(2.5, NaN)], 30); // { min: 1, max: 2.5, few: false, finiteFrom: 2, lastSum: NaN }
 */
export function rangeScan(arrays: readonly Float64Array[], limit: number): { min: number; max: number; few: boolean; finiteFrom: number; lastSum: number } {
  // one pass for the range and whether all are integers (branches that rarely change: it runs
  // over millions of replicated values; once a value is not an integer, a loop without that
  // test), then, for integers, the distinct ones counted
  let min = Infinity, max = -Infinity, integers = true, finiteFrom = 0, sum = 0;
  for (let a = 0; a < arrays.length; a++) {
    const x = arrays[a]!;
    sum = 0;
    let i = 0;
    for (; i < x.length && integers; i++) {
      const v = x[i]!;
      sum += v;
      if (!Number.isFinite(v)) { finiteFrom = a + 1; continue; }
      if (v < min) min = v;
      if (v > max) max = v;
      if (Math.floor(v) !== v) integers = false;
    }
    for (; i < x.length; i++) {
      const v = x[i]!;
      sum += v;
      if (!Number.isFinite(v)) { finiteFrom = a + 1; continue; }
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  return { min, max, few: integers && Number.isFinite(min) && max - min < DISCRETE_SPAN && fewDistinct(arrays, min, max, limit), finiteFrom, lastSum: sum };
}

/**
 * The widest range of integers the discrete plot takes: it draws a bar for every integer between
 * the smallest and the largest value (a few integers spread wide, {0, 10⁹}, would otherwise
 * allocate one entry per integer between).
 */
const DISCRETE_SPAN = 1000;

/** Whether the finite values (integers in [min, max], max − min < DISCRETE_SPAN) take at most `limit` distinct values. */
function fewDistinct(arrays: readonly Float64Array[], min: number, max: number, limit: number): boolean {
  const seen = new Uint8Array(max - min + 1);
  for (const x of arrays) for (let i = 0; i < x.length; i++) { const k = x[i]! - min; if (k >= 0 && k < seen.length) seen[k] = 1; }
  let n = 0;
  for (let k = 0; k < seen.length; k++) n += seen[k]!;
  return n <= limit;
}

/** The replicates as one array: a view of their buffer when they are its consecutive rows, else a copy. */
function consecutiveRows(reps: readonly Float64Array[]): Float64Array {
  const n = reps[0]!.length, first = reps[0]!;
  let view = true;
  for (let i = 0; i < reps.length && view; i++) {
    const r = reps[i]!;
    view = r.buffer === first.buffer && r.byteOffset === first.byteOffset + 8 * n * i;
  }
  if (view) return new Float64Array(first.buffer, first.byteOffset, n * reps.length);
  const out = new Float64Array(n * reps.length);
  reps.forEach((r, i) => out.set(r, i * n));
  return out;
}

function discretePpc(name: string, obs: Float64Array, flat: Float64Array, count: number, [min, max]: [number, number], o: { width: number; height: number; box: { x: number; y: number; w: number; h: number }; title: string }): string {
  const values = Array.from({ length: max - min + 1 }, (_, k) => min + k);
  // one counting pass per data set (values are the integers min..max; non-finite ones are not counted)
  const counts = new Float64Array(values.length);
  const n = obs.length;
  const share = (v: Float64Array, from: number): Float64Array => {
    counts.fill(0);
    for (let i = from; i < from + n; i++) { const k = v[i]! - min; if (k >= 0 && k < counts.length) counts[k]!++; }   // every finite value is an integer here
    return counts.map((c) => c / n);
  };
  const observed = share(obs, 0);
  const perRep = Array.from({ length: count }, (_, i) => share(flat, i * n));
  const stats = values.map((_, k) => {
    const col = Float64Array.from(perRep, (r) => r[k]!).sort();   // shares: finite, non-negative (no −0), so the numeric sort is the comparator's
    const q = (p: number) => col[Math.min(col.length - 1, Math.floor(p * (col.length - 1) + 0.5))]!;
    return { mean: col.reduce((a, b) => a + b, 0) / col.length, lo: q(0.05), hi: q(0.95) };
  });
  const top = Math.max(...observed, ...stats.map((s) => s.hi), 1e-9) * 1.1;
  const { box, width, height } = o;
  const x = linearScale(min - 0.6, max + 0.6, box.x, box.x + box.w), y = linearScale(0, top, box.y + box.h, box.y);
  const bw = Math.max(2, Math.min(40, (box.w / values.length) * 0.5));
  const body = [axes(box, x, y, { xLabel: name, yLabel: 'share of observations', title: o.title, ...(values.length <= 12 ? { xTicks: values } : {}) })];
  values.forEach((v, k) => {
    const s = stats[k]!, cx = x(v);
    body.push(`<rect x="${coord(cx - bw / 2)}" y="${coord(y(s.mean))}" width="${coord(bw)}" height="${coord(y(0) - y(s.mean))}" fill="#9ecae1"/>`);
    body.push(`<line x1="${coord(cx)}" y1="${coord(y(s.lo))}" x2="${coord(cx)}" y2="${coord(y(s.hi))}" stroke="#08519c" stroke-width="1.5"/>`);
    body.push(`<circle cx="${coord(cx)}" cy="${coord(y(observed[k]!))}" r="3.5" fill="#111"/>`);
  });
  body.push(legend(box.x, height - 10, [['observed', '#111'], [`replicated mean, 5–95% (${count})`, '#9ecae1']]));
  return svgDocument(width, height, body.join(''), `Posterior predictive check of ${name}`);
}
