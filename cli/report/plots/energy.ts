/**
 * The energy plot (Betancourt 2016; ArviZ's `plot_energy`): the marginal distribution of the
 * Hamiltonian energy (centred) against the distribution of its draw-to-draw transitions. When
 * the transition histogram is much narrower than the marginal one, momentum resampling cannot
 * move through the energy levels and the sampler explores slowly: E-BFMI, printed per chain,
 * is then small (below 0.3 is a warning sign).
 */
import { checkOptions } from '../../../src/checks.js';
import { bfmiOf } from '../../../mcmc/diagnostics/internal/arviz-stats.js';
import { checkSeries, type ChainSeries } from '../parameters.js';
import { histogramDensity, histogramEdges } from './histogram.js';
import { axes, coord, escapeXml, finiteRange, legend, linearScale, svgDocument } from './svg.js';

/** Options of {@link energyPlot}. */
export interface EnergyPlotOptions {
  /** Size in px (default 560 × 280). */
  readonly width?: number;
  readonly height?: number;
}

/**
 * E-BFMI per chain of chain-major energies (ArviZ's `bfmi`): `mean((E_t − E_{t−1})²) / var(E)`.
 *
 * @example
 * energyBfmi({ name: 'energy', chains: 1, draws: 4, values: Float64Array.of(10, 12, 9, 11) }); // [≈ 4.1]
 */
export function energyBfmi(energy: ChainSeries): number[] {
  const e = checkSeries('energyBfmi', 'energy', energy);
  return Array.from({ length: e.chains }, (_, c) => bfmiOf(e.values.subarray(c * e.draws, (c + 1) * e.draws)));
}

/**
 * The energy plot as a standalone SVG: overlaid density histograms of the centred marginal
 * energy `E − mean(E)` and of the transitions `E_t − E_{t−1}` (within each chain), on shared
 * bins, with each chain's E-BFMI written beside them (in red below 0.3).
 *
 * @param energy - the trace's `energy` as a series (`{ name, chains, draws, values }`, chain-major).
 * @param options - `width`, `height`.
 * @returns SVG text.
 * @throws {TypeError} / {RangeError} for a malformed series.
 *
 * @example
 * const energy = statValues(stats, 'energy')!;
 * writeFileSync('energy.svg', energyPlot({ name: 'energy', chains: 4, draws: 1000, values: energy }));
 */
export function energyPlot(energy: ChainSeries, options: EnergyPlotOptions = {}): string {
  checkOptions('energyPlot', options, ['width', 'height']);
  const e = checkSeries('energyPlot', 'energy', energy);
  const width = options.width ?? 560;
  const height = options.height ?? 280;
  const box = { x: 52, y: 30, w: width - 74 - 110, h: height - 72 };
  const { values: finite } = finiteRange(e.values);
  let mean = 0;
  for (const v of finite) mean += v;
  mean /= Math.max(1, finite.length);
  const marginal = finite.map((v) => v - mean);
  const transitions: number[] = [];
  for (let c = 0; c < e.chains; c++) {
    for (let d = 1; d < e.draws; d++) {
      const t = e.values[c * e.draws + d]! - e.values[c * e.draws + d - 1]!;
      if (Number.isFinite(t)) transitions.push(t);
    }
  }
  const both = Float64Array.from([...marginal, ...transitions]);
  const edges = histogramEdges(both, 40);
  const hm = histogramDensity(marginal, edges);
  const ht = histogramDensity(Float64Array.from(transitions), edges);
  const x = linearScale(edges[0]!, edges[edges.length - 1]!, box.x, box.x + box.w);
  const y = linearScale(0, Math.max(...hm, ...ht, 1e-300) * 1.08, box.y + box.h, box.y);
  const body: string[] = [axes(box, x, y, { xLabel: 'energy − mean (marginal), ΔE (transition)', yLabel: 'density' })];
  const bars = (h: Float64Array, fill: string, opacity: number): string => {
    const r = Array.from(h, (d, b) => {
      const x0 = x(edges[b]!);
      const x1 = x(edges[b + 1]!);
      return `<rect x="${coord(x0)}" y="${coord(y(d))}" width="${coord(Math.max(0, x1 - x0))}" height="${coord(y(0) - y(d))}"/>`;
    });
    return `<g fill="${fill}" fill-opacity="${opacity}">${r.join('')}</g>`;
  };
  body.push(bars(hm, '#1f77b4', 0.55), bars(ht, '#ff7f0e', 0.55));
  body.push(legend(box.x, 14, [['marginal energy', '#1f77b4'], ['energy transition', '#ff7f0e']]));
  const tx = box.x + box.w + 14;
  const lines = [`<text x="${coord(tx)}" y="${coord(box.y + 10)}" class="ax-title">E-BFMI</text>`];
  energyBfmi(e).forEach((b, c) => {
    const low = b < 0.3;
    const text = `chain ${c}: ${Number.isFinite(b) ? b.toFixed(3) : 'NaN'}${low ? ' (low)' : ''}`;
    lines.push(`<text x="${coord(tx)}" y="${coord(box.y + 28 + c * 16)}"${low ? ' style="fill:#d62728"' : ''}>${escapeXml(text)}</text>`);
  });
  body.push(lines.join(''));
  return svgDocument(width, height, body.join(''), 'Energy plot (E-BFMI)');
}
