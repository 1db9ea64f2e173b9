/**
 * The SBC rank histogram (Talts et al. 2018, figure 1): the ranks of one parameter's simulated
 * values among its posterior draws, binned, with the 99% band of the count a bin gets under
 * uniform ranks. A right posterior keeps the bars inside the grey band; a U shape means too
 * narrow a posterior, a hump too wide, a slope a shifted one.
 */
import { checkNonNegativeInteger, checkOptions, fail } from '../../../src/checks.js';
import { axes, coord, linearScale, svgDocument } from './svg.js';
import { detExp, detLog, detLog1p } from '../../../src/math/index.js';

/** Options of {@link sbcRankHistogram}. */
export interface SbcRankHistogramOptions {
  /** Bins (default: the largest divisor of maxRank + 1 up to 20 when it is at least 5, else min(maxRank + 1, 20)). */
  readonly bins?: number;
  /** The parameter's label, for the title (default `'rank'`). */
  readonly name?: string;
  /** Size in px (default 360 × 180). */
  readonly width?: number;
  readonly height?: number;
}

/**
 * The SBC rank histogram of one parameter as a standalone SVG: bars of binned ranks (rank r in
 * bin ⌊r·bins/(maxRank + 1)⌋), a dashed line at the count expected under uniform ranks and a
 * grey band from its binomial 0.5% to 99.5% quantile (per bin, for the widest bin).
 *
 * @param ranks - ranks in 0…maxRank, one per simulation (`sbc(...).ranks[v]`).
 * @param maxRank - `sbc(...).maxRank`.
 * @returns SVG text.
 * @throws {TypeError} / {RangeError} for ranks outside 0…maxRank, bad bins or size.
 * @example
 * import { sbcRankHistogram } from 'stochax/report';
 * const r = sbc(model, { pins: ['y'], simulations: 200, thin: 5, sampler: { nChains: 1, nDraws: 100 } });
 * writeFileSync('mu-sbc.svg', sbcRankHistogram(r.ranks.mu, r.maxRank, { name: 'mu', bins: r.tests.mu.bins }));
 */
export function sbcRankHistogram(ranks: ArrayLike<number>, maxRank: number, options: SbcRankHistogramOptions = {}): string {
  const FN = 'sbcRankHistogram';
  const o = checkOptions(FN, options, ['bins', 'name', 'width', 'height']);
  const L = checkNonNegativeInteger(FN, 'maxRank', maxRank);
  if (L < 1) fail('range', FN, 'maxRank', 'must be at least 1', maxRank);
  const K = L + 1, S = ranks.length;
  if (S < 1) fail('range', FN, 'ranks', 'must have at least one rank', S);
  const bins = o.bins === undefined ? largestDivisorUpTo(K, 20) : checkNonNegativeInteger(FN, 'options.bins', o.bins);
  if (bins < 2 || bins > K) fail('range', FN, 'options.bins', `must be in 2…${K} (maxRank + 1)`, o.bins);
  const width = o.width ?? 360, height = o.height ?? 180;
  if (!(width > 0 && height > 0)) fail('range', FN, 'options.width', 'width and height must be positive', [width, height]);
  const counts = new Array<number>(bins).fill(0), share = new Array<number>(bins).fill(0);
  for (let r = 0; r < K; r++) share[Math.floor((r * bins) / K)]! += 1 / K;
  for (let i = 0; i < S; i++) {
    const r = ranks[i]!;
    if (!Number.isInteger(r) || r < 0 || r > L) fail('range', FN, `ranks[${i}]`, `must be an integer in 0…${L}`, r);
    counts[Math.floor((r * bins) / K)]!++;
  }
  const pMax = Math.max(...share);
  const lo = binomialQuantile(0.005, S, pMax), hi = binomialQuantile(0.995, S, pMax);
  const box = { x: 52, y: 24, w: width - 74, h: height - 64 };
  const top = Math.max(hi, ...counts) * 1.1;
  const x = linearScale(0, K, box.x, box.x + box.w);
  const y = linearScale(0, top, box.y + box.h, box.y);
  const body: string[] = [axes(box, x, y, { xLabel: `rank (0…${L})`, yLabel: 'simulations', title: `${o.name ?? 'rank'}: SBC ranks (${S} simulations)` })];
  body.push(`<rect x="${coord(box.x)}" y="${coord(y(hi))}" width="${coord(box.w)}" height="${coord(y(lo) - y(hi))}" fill="#999" fill-opacity="0.25"/>`);
  let left = 0;
  const bars = counts.map((n, b) => {
    const x0 = x(left * K), x1 = x((left + share[b]!) * K);
    left += share[b]!;
    return `<rect x="${coord(x0 + 0.5)}" y="${coord(y(n))}" width="${coord(Math.max(0.5, x1 - x0 - 1))}" height="${coord(y(0) - y(n))}"/>`;
  });
  body.push(`<g fill="#1f77b4" fill-opacity="0.85">${bars.join('')}</g>`);
  const ey = coord(y(S * pMax));
  body.push(`<line x1="${coord(box.x)}" y1="${ey}" x2="${coord(box.x + box.w)}" y2="${ey}" stroke="#333" stroke-dasharray="4 3" stroke-width="1"/>`);
  return svgDocument(width, height, body.join(''), `SBC rank histogram of ${o.name ?? 'rank'}`);
}

/** The largest divisor of K up to `max` when it is at least 5 (equal bins), else min(K, max). */
function largestDivisorUpTo(K: number, max: number): number {
  for (let b = Math.min(K, max); b >= 5; b--) if (K % b === 0) return b;
  return Math.min(K, max);
}

/** The smallest k with P(Binomial(n, p) ≤ k) ≥ q, by summing the pmf (n is a number of simulations). */
function binomialQuantile(q: number, n: number, p: number): number {
  let logPmf = n * detLog1p(-p), cdf = 0;
  for (let k = 0; k <= n; k++) {
    cdf += detExp(logPmf);
    if (cdf >= q) return k;
    logPmf += detLog((n - k) / (k + 1)) + detLog(p) - detLog1p(-p);
  }
  return n;
}
