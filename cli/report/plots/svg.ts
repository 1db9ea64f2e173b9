/**
 * The small SVG toolkit the report's plots share: an SVG document, linear scales, "nice" axis
 * ticks, a framed panel with axes, polylines, and the chain colours. Plain strings, no DOM; every
 * coordinate goes through {@link coord}, which refuses non-finite numbers, so a plot never
 * writes `NaN` into an attribute.
 */
import { detLog10, detPow } from '../../../src/math/index.js';

/**
 * Chain colours (matplotlib's tab10, as ArviZ uses).
 *
 * @example
 * CHAIN_COLORS[0]; // '#1f77b4'
 */
export const CHAIN_COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'] as const;

/**
 * The colour of divergent transitions in the pair plot.
 *
 * @example
 * `<circle fill="${DIVERGENT_COLOR}"/>`;
 */
export const DIVERGENT_COLOR = '#d62728';

/**
 * The colour of chain `c` (cycling through {@link CHAIN_COLORS}).
 *
 * @example
 * chainColor(1); // '#ff7f0e'
 */
export function chainColor(c: number): string {
  return CHAIN_COLORS[c % CHAIN_COLORS.length]!;
}

/**
 * Escapes text for XML/HTML content and attribute values.
 *
 * @example
 * escapeXml('a < b & "c"'); // 'a &lt; b &amp; &quot;c&quot;'
 */
export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * A coordinate as attribute text, rounded to 0.01 px.
 *
 * @throws {RangeError} for a non-finite number (a bug in a plot, never the data: plots drop
 *   non-finite draws before scaling).
 * @example
 * coord(12.3456); // '12.35'
 */
export function coord(x: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`svg.coord: \`x\` must be finite; got ${x}`);
  const k = Math.round(x * 100);
  // String(k / 100) is k's digits with the point two places left, trailing zeros dropped, while
  // the double k/100 is far closer to that decimal than to any other with two decimals (|k| < 2^40:
  // an ulp below 1e−5); written from the integer k, it costs ~2.5× less than the engine's printing
  // (the report prints ~10⁵ coordinates). Beyond that (never a pixel) the division and String.
  if (!(Math.abs(k) < 2 ** 40)) { const r = k / 100; return String(Object.is(r, -0) ? 0 : r); }
  const a = Math.abs(k), int = Math.floor(a / 100);
  return k < 0 ? `-${int}${FRACTIONS[a - 100 * int]!}` : k === 0 ? '0' : `${int}${FRACTIONS[a - 100 * int]!}`;
}

/** The text after the integer part of a coordinate, by hundredths: '', '.01', …, '.1', …, '.99' (trailing zeros dropped). */
const FRACTIONS = Array.from({ length: 100 }, (_, f) => (f === 0 ? '' : `.${f < 10 ? `0${f}` : f % 10 === 0 ? f / 10 : f}`));

/** A linear map from a data interval to a pixel interval. */
export interface Scale {
  (v: number): number;
  readonly domain: readonly [number, number];
}

/**
 * The linear map `[d0, d1] → [r0, r1]`; a degenerate domain (`d0 = d1`) is widened by ±0.5
 * (or ±|d0|/2) so a constant series plots as a flat line in the middle.
 *
 * @example
 * const x = linearScale(0, 10, 50, 150);
 * x(5); // 100
 */
export function linearScale(d0: number, d1: number, r0: number, r1: number): Scale {
  let lo = Number.isFinite(d0) ? d0 : 0;
  let hi = Number.isFinite(d1) ? d1 : 1;
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) {
    const pad = lo === 0 ? 0.5 : Math.abs(lo) / 2;
    lo -= pad;
    hi += pad;
  }
  const k = (r1 - r0) / (hi - lo);
  const f = ((v: number) => r0 + (v - lo) * k) as Scale;
  Object.defineProperty(f, 'domain', { value: [lo, hi] as const });
  return f;
}

/**
 * About `count` round tick values (steps of 1, 2 or 5 × 10^k) inside `[lo, hi]`.
 *
 * @example
 * niceTicks(0, 9.3, 5); // [0, 2, 4, 6, 8]
 */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(Number.isFinite(lo) && Number.isFinite(hi)) || hi <= lo) return Number.isFinite(lo) ? [lo] : [];
  const raw = (hi - lo) / Math.max(1, count);
  let mag = detPow(10, Math.floor(detLog10(raw)));
  const steps = [1, 2, 5];
  let i = steps.findIndex((m) => m * mag >= raw);
  if (i < 0) { i = 0; mag *= 10; }
  const ticksFor = (step: number): number[] => {
    const out: number[] = [];
    for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k++) out.push(k === 0 ? 0 : Number((k * step).toPrecision(12)));
    return out;
  };
  let ticks = ticksFor(steps[i]! * mag);
  // Too few ticks inside the range (e.g. [-4, 4] with step 5): take the next smaller step.
  while (ticks.length < Math.min(3, count)) {
    if (--i < 0) { i = steps.length - 1; mag /= 10; }
    ticks = ticksFor(steps[i]! * mag);
  }
  return ticks;
}

/**
 * A tick label: up to 4 significant digits, without trailing zeros.
 *
 * @example
 * tickLabel(0.30000000000000004); // '0.3'
 * tickLabel(12500);               // '1.25e+4'
 */
export function tickLabel(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e4 || a < 1e-3) return v.toExponential(2).replace(/\.?0+e/, 'e');
  return String(Number(v.toPrecision(4)));
}

/** Pixel rectangle of a panel's plotting area. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** What {@link axes} draws. */
export interface AxesOptions {
  readonly xLabel?: string;
  readonly yLabel?: string;
  /** Tick values (default {@link niceTicks} of the scale's domain); `[]` for none. */
  readonly xTicks?: readonly number[];
  readonly yTicks?: readonly number[];
  /** A title above the panel. */
  readonly title?: string;
}

/**
 * A panel frame: the box, tick marks with labels on the left and bottom, light grid lines, the
 * axis labels and an optional title.
 *
 * @example
 * const box = { x: 40, y: 10, w: 200, h: 100 };
 * axes(box, linearScale(0, 1, 40, 240), linearScale(0, 5, 110, 10), { xLabel: 'draw' });
 */
export function axes(box: Box, x: Scale, y: Scale, o: AxesOptions = {}): string {
  const parts: string[] = [];
  const xt = (o.xTicks ?? niceTicks(x.domain[0], x.domain[1], Math.max(2, Math.round(box.w / 70)))).filter((t) => inRange(x(t), box.x, box.x + box.w));
  const yt = (o.yTicks ?? niceTicks(y.domain[0], y.domain[1], Math.max(2, Math.round(box.h / 35)))).filter((t) => inRange(y(t), box.y, box.y + box.h));
  const bottom = box.y + box.h;
  for (const t of xt) {
    const px = coord(x(t));
    parts.push(`<line x1="${px}" y1="${coord(box.y)}" x2="${px}" y2="${coord(bottom)}" class="ax-grid"/>`);
    parts.push(`<line x1="${px}" y1="${coord(bottom)}" x2="${px}" y2="${coord(bottom + 4)}" class="ax-tick"/>`);
    parts.push(`<text x="${px}" y="${coord(bottom + 14)}" text-anchor="middle">${escapeXml(tickLabel(t))}</text>`);
  }
  for (const t of yt) {
    const py = coord(y(t));
    parts.push(`<line x1="${coord(box.x)}" y1="${py}" x2="${coord(box.x + box.w)}" y2="${py}" class="ax-grid"/>`);
    parts.push(`<line x1="${coord(box.x - 4)}" y1="${py}" x2="${coord(box.x)}" y2="${py}" class="ax-tick"/>`);
    parts.push(`<text x="${coord(box.x - 6)}" y="${coord(y(t) + 3.5)}" text-anchor="end">${escapeXml(tickLabel(t))}</text>`);
  }
  parts.push(`<rect x="${coord(box.x)}" y="${coord(box.y)}" width="${coord(box.w)}" height="${coord(box.h)}" class="ax-frame"/>`);
  if (o.xLabel !== undefined) {
    parts.push(`<text x="${coord(box.x + box.w / 2)}" y="${coord(bottom + 28)}" text-anchor="middle" class="ax-label">${escapeXml(o.xLabel)}</text>`);
  }
  if (o.yLabel !== undefined) {
    const cx = coord(box.x - 34);
    const cy = coord(box.y + box.h / 2);
    parts.push(`<text x="${cx}" y="${cy}" text-anchor="middle" transform="rotate(-90 ${cx} ${cy})" class="ax-label">${escapeXml(o.yLabel)}</text>`);
  }
  if (o.title !== undefined) {
    parts.push(`<text x="${coord(box.x)}" y="${coord(box.y - 6)}" class="ax-title">${escapeXml(o.title)}</text>`);
  }
  return `<g class="axes">${parts.join('')}</g>`;
}

function inRange(v: number, a: number, b: number): boolean {
  return v >= a - 0.5 && v <= b + 0.5;
}

/**
 * A polyline through `(xs[i], ys[i])`, skipping points where either is non-finite (the line
 * breaks there: one `<polyline>` per finite run). `xText`, the {@link coordTexts} of `xs`, saves
 * printing the same x values again for each of many lines over them (chains, replicates).
 *
 * @example
 * polyline([10, 20, 30], [5, 8, 6], 'stroke="#1f77b4"'); // '<polyline points="10,5 20,8 30,6" fill="none" stroke="#1f77b4"/>'
 */
export function polyline(xs: ArrayLike<number>, ys: ArrayLike<number>, attrs: string, xText?: readonly (string | undefined)[]): string {
  let out = '';
  let run = '';   // the current run's points, appended (no array of point strings to join)
  for (let i = 0; i < xs.length; i++) {
    const a = xs[i]!;
    const b = ys[i]!;
    if (Number.isFinite(a) && Number.isFinite(b)) {
      const point = `${xText === undefined ? coord(a) : xText[i]!},${coord(b)}`;
      run = run === '' ? point : `${run} ${point}`;
    } else if (run !== '') { out += `<polyline points="${run}" fill="none" ${attrs}/>`; run = ''; }
  }
  if (run !== '') out += `<polyline points="${run}" fill="none" ${attrs}/>`;
  return out;
}

/**
 * {@link coord} of each value (undefined where it is not finite), for {@link polyline}'s `xText`.
 *
 * @example
 * coordTexts([1.234, NaN]); // ['1.23', undefined]
 */
export function coordTexts(xs: ArrayLike<number>): (string | undefined)[] {
  const out = new Array<string | undefined>(xs.length);
  for (let i = 0; i < xs.length; i++) { const v = xs[i]!; out[i] = Number.isFinite(v) ? coord(v) : undefined; }
  return out;
}

/** The shared look of every plot (scoped to the SVG). */
const STYLE = [
  'text{font:11px system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;fill:#333}',
  '.ax-title{font-weight:600;font-size:12px}',
  '.ax-label{fill:#555}',
  '.ax-frame{fill:none;stroke:#999;stroke-width:1}',
  '.ax-grid{stroke:#eee;stroke-width:1}',
  '.ax-tick{stroke:#999;stroke-width:1}',
].join('');

/**
 * A standalone SVG document of `width` × `height` px with a `viewBox`, an accessible
 * `<title>`, the plots' shared style, and `body`.
 *
 * @example
 * svgDocument(200, 100, '<circle cx="50" cy="50" r="10"/>', 'a dot');
 */
export function svgDocument(width: number, height: number, body: string, title: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${coord(width)} ${coord(height)}" width="${coord(width)}" height="${coord(height)}" role="img">`
    + `<title>${escapeXml(title)}</title><style>${STYLE}</style>${body}</svg>`;
}

/**
 * A legend row: a coloured swatch and a label per entry, left to right from `(x, y)`.
 *
 * @example
 * legend(40, 12, [['chain 0', '#1f77b4'], ['chain 1', '#ff7f0e']]);
 */
export function legend(x: number, y: number, entries: readonly (readonly [string, string])[]): string {
  let cx = x;
  const parts: string[] = [];
  for (const [label, color] of entries) {
    parts.push(`<rect x="${coord(cx)}" y="${coord(y - 8)}" width="10" height="10" fill="${escapeXml(color)}"/>`);
    parts.push(`<text x="${coord(cx + 14)}" y="${coord(y + 1)}">${escapeXml(label)}</text>`);
    cx += 22 + 6.5 * label.length;
  }
  return `<g class="legend">${parts.join('')}</g>`;
}

/**
 * The finite values of `x` and their range.
 *
 * @example
 * finiteRange(Float64Array.of(3, NaN, -1)); // { min: -1, max: 3, values: Float64Array [3, -1] }
 */
export function finiteRange(x: ArrayLike<number>): { min: number; max: number; values: Float64Array } {
  // one typed buffer, no array of boxed numbers: the report calls this on millions of predictive draws
  const values = new Float64Array(x.length);
  let m = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    if (!Number.isFinite(v)) continue;
    values[m++] = v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max, values: m === values.length ? values : values.slice(0, m) };
}
