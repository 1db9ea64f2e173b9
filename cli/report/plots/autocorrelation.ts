/**
 * The autocorrelation plot: each chain's sample autocorrelation against the lag (ArviZ's
 * `plot_autocorr`, one line per chain). Fast decay means nearly independent draws.
 */
import { checkOptions, fail } from '../../../src/checks.js';
import { laggedProductSums, laggedProductSumsEach } from '../../../mcmc/diagnostics/internal/autocov.js';
import { checkSeries, type ChainSeries } from '../parameters.js';
import { axes, chainColor, coord, coordTexts, legend, linearScale, polyline, svgDocument } from './svg.js';

/**
 * The sample autocorrelation `ρ_k = Σ_t (x_t − x̄)(x_{t+k} − x̄) / Σ_t (x_t − x̄)²` for lags
 * `0..maxLag` (ArviZ's `autocorr`: biased, normalised so `ρ_0 = 1`), computed by FFT for many
 * lags. NaN everywhere for a constant series or one with non-finite values.
 *
 * @param x - one chain's draws.
 * @param maxLag - the largest lag (at most `x.length − 1`).
 * @example
 * autocorrelation(Float64Array.of(1, 2, 3, 4), 2); // Float64Array [1, 0.25, -0.3]
 */
export function autocorrelation(x: Float64Array, maxLag: number): Float64Array {
  const FN = 'autocorrelation';
  if (typeof maxLag !== 'number' || !Number.isInteger(maxLag)) fail('type', FN, 'maxLag', 'must be an integer', maxLag);
  if (maxLag < 0 || maxLag > x.length - 1) fail('range', FN, 'maxLag', `must be in [0, ${x.length - 1}]`, maxLag);
  const n = x.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i]!;
  mean /= n;
  const centred = new Float64Array(n);
  for (let i = 0; i < n; i++) centred[i] = x[i]! - mean;
  const out = new Float64Array(maxLag + 1);
  if (!Number.isFinite(mean)) return out.fill(NaN);
  const s = laggedProductSums(centred, [0], n, maxLag);
  for (let k = 0; k <= maxLag; k++) out[k] = s[0]! > 0 ? s[k]! / s[0]! : NaN;
  return out;
}

/**
 * {@link autocorrelation} of each chain of chain-major `values` (`draws` each), the finite
 * chains two to a transform ({@link laggedProductSumsEach}): equal to one chain at a time to
 * rounding (~1e−16), half the FFTs. @internal
 *
 * @example
 * chainAutocorrelations(Float64Array.of(1, 2, 3, 4, 4, 3, 2, 1), 2, 4, 2); // [[1, 0.25, -0.3], [1, 0.25, -0.3]]
 */
export function chainAutocorrelations(values: Float64Array, chains: number, draws: number, maxLag: number): Float64Array[] {
  const centred = new Float64Array(chains * draws);
  const finite: number[] = [];
  for (let c = 0; c < chains; c++) {
    let mean = 0;
    for (let i = c * draws; i < (c + 1) * draws; i++) mean += values[i]!;
    mean /= draws;
    if (!Number.isFinite(mean)) continue;   // NaN for this chain; kept out of the shared transforms
    for (let i = c * draws; i < (c + 1) * draws; i++) centred[i] = values[i]! - mean;
    finite.push(c);
  }
  const sums = laggedProductSumsEach(centred, finite.map((c) => c * draws), draws, maxLag);
  const out = Array.from({ length: chains }, () => new Float64Array(maxLag + 1).fill(NaN));
  finite.forEach((c, q) => {
    const s = sums[q]!, rho = out[c]!;
    for (let k = 0; k <= maxLag; k++) rho[k] = s[0]! > 0 ? s[k]! / s[0]! : NaN;
  });
  return out;
}

/** Options of {@link autocorrelationPlot}. */
export interface AutocorrelationPlotOptions {
  /** Largest lag shown (default `min(100, draws − 1)`). */
  readonly maxLag?: number;
  /** Size in px (default 300 × 200). */
  readonly width?: number;
  readonly height?: number;
}

/**
 * The autocorrelation of one parameter as a standalone SVG: one line per chain over lags
 * `0..maxLag`, with a zero line. Chains whose autocorrelation is undefined (constant or
 * non-finite draws) are left out.
 *
 * @param series - `{ name, chains, draws, values }`, values chain-major.
 * @param options - `maxLag`, `width`, `height`.
 * @returns SVG text.
 * @throws {TypeError} / {RangeError} for a malformed series or `maxLag` outside `[0, draws − 1]`.
 *
 * @example
 * const [mu] = flattenParameters('report', draws);
 * writeFileSync('mu-acf.svg', autocorrelationPlot(mu, { maxLag: 50 }));
 */
export function autocorrelationPlot(series: ChainSeries, options: AutocorrelationPlotOptions = {}): string {
  checkOptions('autocorrelationPlot', options, ['maxLag', 'width', 'height']);
  const FN = 'autocorrelationPlot';
  const s = checkSeries(FN, 'series', series);
  const maxLag = options.maxLag ?? Math.min(100, s.draws - 1);
  if (typeof maxLag !== 'number' || !Number.isInteger(maxLag)) fail('type', FN, 'options.maxLag', 'must be an integer', maxLag);
  if (maxLag < 0 || maxLag > s.draws - 1) fail('range', FN, 'options.maxLag', `must be in [0, ${s.draws - 1}]`, maxLag);
  const width = options.width ?? 300;
  const height = options.height ?? 200;
  const box = { x: 52, y: 24, w: width - 74, h: height - 64 };
  const x = linearScale(0, Math.max(1, maxLag), box.x, box.x + box.w);
  const y = linearScale(-1, 1, box.y + box.h, box.y);
  const body: string[] = [axes(box, x, y, { xLabel: 'lag', yLabel: 'autocorrelation', yTicks: [-1, -0.5, 0, 0.5, 1], title: `${s.name}: autocorrelation` })];
  const zero = coord(y(0));
  body.push(`<line x1="${coord(box.x)}" y1="${zero}" x2="${coord(box.x + box.w)}" y2="${zero}" stroke="#666" stroke-width="1"/>`);
  const lags = Array.from({ length: maxLag + 1 }, (_, k) => x(k));
  const lagText = coordTexts(lags);
  const rhos = chainAutocorrelations(s.values, s.chains, s.draws, maxLag);
  for (let c = 0; c < s.chains; c++) {
    const rho = rhos[c]!;
    body.push(polyline(lags, Array.from(rho, (r) => (Number.isFinite(r) ? y(Math.max(-1, Math.min(1, r))) : NaN)), `stroke="${chainColor(c)}" stroke-width="1.2" stroke-opacity="0.85"`, lagText));
  }
  const entries: [string, string][] = Array.from({ length: Math.min(s.chains, 10) }, (_, c) => [`${c}`, chainColor(c)]);
  body.push(legend(box.x + box.w - entries.length * 28.5, box.y + 12, entries));
  return svgDocument(width, height, body.join(''), `Autocorrelation of ${s.name}`);
}
