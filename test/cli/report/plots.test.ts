import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromArvizJson } from '../../../cli/report/draws-files.js';
import { flattenParameters, type ChainSeries } from '../../../cli/report/parameters.js';
import { autocorrelationPlot } from '../../../cli/report/plots/autocorrelation.js';
import { energyBfmi, energyPlot } from '../../../cli/report/plots/energy.js';
import { histogramDensity, histogramEdges, histogramPlot } from '../../../cli/report/plots/histogram.js';
import { pairPlot } from '../../../cli/report/plots/pair.js';
import { rankCounts, rankPlot, ranks } from '../../../cli/report/plots/rank.js';
import { coord, escapeXml, linearScale, niceTicks, tickLabel } from '../../../cli/report/plots/svg.js';
import { tracePlot } from '../../../cli/report/plots/trace.js';
import { sampleStats, statValues } from '../../../cli/report/sample-stats.js';
import { bfmi } from '../../../mcmc/diagnostics/index.js';
import { svgProblems } from './xml.js';

const fixture = fromArvizJson(readFileSync(new URL('./fixtures/eight-schools-small.json', import.meta.url), 'utf8'));
const params = flattenParameters('test', fixture.draws);
const stats = sampleStats('test', fixture.trace, 50, 4);
const energy: ChainSeries = { name: 'energy', chains: 4, draws: 50, values: statValues(stats, 'energy')! };

function series(name: string, chains: number, draws: number, f: (c: number, d: number) => number): ChainSeries {
  return { name, chains, draws, values: Float64Array.from({ length: chains * draws }, (_, i) => f(Math.floor(i / draws), i % draws)) };
}

/** Awkward inputs every plot must survive without writing NaN. */
const awkward: ChainSeries[] = [
  series('with NaN & ±∞ <x>', 2, 30, (c, d) => (d === 3 ? NaN : d === 7 ? Infinity : d === 9 ? -Infinity : Math.sin(d + c))),
  series('constant', 3, 20, () => 2.5),
  series('all zero', 2, 10, () => 0),
  series('all NaN', 2, 10, () => NaN),
  series('one chain', 1, 40, (_, d) => d * d),
  series('two draws', 2, 2, (c, d) => c + d),
  series('one draw', 3, 1, (c) => c),
  series('huge', 2, 25, (c, d) => 1e300 * (d % 3) + c),
  series('tiny', 2, 25, (c, d) => 1e-300 * (d % 4) - c * 1e-301),
  series('twelve chains', 12, 15, (c, d) => c + 0.1 * d),
];

const plots: [string, (s: ChainSeries) => string][] = [
  ['tracePlot', (s) => tracePlot(s)],
  ['rankPlot', (s) => rankPlot(s)],
  ['histogramPlot', (s) => histogramPlot(s)],
  ['autocorrelationPlot', (s) => autocorrelationPlot(s)],
  ['energyPlot', (s) => energyPlot(s)],
];

describe('the SVG checker itself', () => {
  it('finds unbalanced tags, NaN coordinates, a missing viewBox and bare ampersands', () => {
    const ok = '<svg viewBox="0 0 10 10"><g><line x1="1" y1="2" x2="3" y2="4"/></g><text>a &amp; b</text></svg>';
    expect(svgProblems(ok)).toEqual([]);
    expect(svgProblems('<svg viewBox="0 0 10 10"><g></svg>').join()).toMatch(/closes <g>/);
    expect(svgProblems('<svg viewBox="0 0 10 10"><line x1="NaN"/></svg>').length).toBeGreaterThan(0);
    expect(svgProblems('<svg width="10"></svg>').join()).toMatch(/viewBox/);
    expect(svgProblems('<svg viewBox="0 0 1 1"><text>a & b</text></svg>').join()).toMatch(/bare '&'/);
    expect(svgProblems('<svg viewBox="0 0 1 1"><text>a < b</text></svg>').join()).toMatch(/stray '<'/);
  });
});

describe('plots are well-formed SVG', () => {
  for (const [name, plot] of plots) {
    it(`${name}: real draws (eight schools) and awkward series`, () => {
      for (const s of [...params.slice(0, 3), energy, ...awkward]) {
        const svg = plot(s);
        expect(svgProblems(svg), `${name}(${s.name})`).toEqual([]);
        expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+"/);
        expect(svg).not.toMatch(/undefined|="[^"]*NaN/);
        expect(svg).toContain(`<title>`);
      }
    });
  }

  it('pairPlot: real draws with divergences, and awkward series', () => {
    const divergent = Float64Array.from({ length: 200 }, (_, i) => (i % 37 === 0 ? 1 : 0));
    const svg = pairPlot(params.slice(0, 4), { divergent });
    expect(svgProblems(svg)).toEqual([]);
    // Six scatter panels, each with its 6 divergent points drawn as one red path.
    const red = svg.match(/<path d="([^"]*)"[^>]*stroke="#d62728"/g) ?? [];
    expect(red).toHaveLength(6);
    for (const p of red) expect(p.match(/h0/g)).toHaveLength(6);
    expect(svg).toContain('divergent (6)');
    expect(svgProblems(pairPlot([awkward[0]!, series('b', 2, 30, (c, d) => d - c)]))).toEqual([]);
    expect(svgProblems(pairPlot([awkward[1]!, series('b', 3, 20, (c, d) => d), series('c', 3, 20, () => NaN)]))).toEqual([]);
    expect(svgProblems(pairPlot(params.slice(0, 2), { maxPoints: 0 }))).toEqual([]);
  });
});

describe('plot contents', () => {
  it('tracePlot draws one line per chain, marks divergences, keeps spikes when thinning', () => {
    const s = params[0]!;
    const svg = tracePlot(s, { divergent: Float64Array.from({ length: 200 }, (_, i) => (i === 5 || i === 120 ? 1 : 0)) });
    expect(svg.match(/<polyline /g)).toHaveLength(4);
    expect(svg.match(/<g class="divergences"[^>]*>(.*?)<\/g>/)![1]!.match(/<line /g)).toHaveLength(2);
    expect(tracePlot(s)).not.toContain('divergences');
    // 20000 draws with one spike: the line is thinned to ≤ 3 points per pixel column, the spike survives.
    const long = series('long', 1, 20000, (_, d) => (d === 12345 ? 100 : Math.sin(d / 50)));
    const pts = tracePlot(long).match(/<polyline points="([^"]*)"/)![1]!.split(' ').map((p) => p.split(',').map(Number) as [number, number]);
    expect(pts.length).toBeLessThan(3 * 600);
    const top = Math.min(...pts.map(([, y]) => y));
    expect(top).toBeLessThan(40);   // the spike reaches the top of the plot
  });

  it('ranks are scipy rankdata "average"; rank counts sum to the draws of each chain', () => {
    expect(Array.from(ranks(Float64Array.of(3, 1, 3, 2)))).toEqual([3.5, 1, 3.5, 2]);
    expect(Array.from(ranks(Float64Array.of(NaN, 1, 0)))).toEqual([NaN, 2, 1]);
    const { counts, expected } = rankCounts(params[1]!, 12);
    for (const row of counts) expect(row.reduce((a, b) => a + b, 0)).toBe(50);
    expect(expected).toBeCloseTo(50 / 12, 12);
    expect(rankCounts(series('x', 2, 2, (c, d) => 2 * c + d), 2).counts).toEqual([[2, 0], [0, 2]]);
  });

  it('histogram densities integrate to one over the bins', () => {
    const v = params[1]!.values;
    const edges = histogramEdges(v);
    expect(edges.length - 1).toBeGreaterThanOrEqual(10);
    expect(edges.length - 1).toBeLessThanOrEqual(60);
    const dens = histogramDensity(v, edges);
    let total = 0;
    for (let b = 0; b < dens.length; b++) total += dens[b]! * (edges[b + 1]! - edges[b]!);
    expect(total).toBeCloseTo(1, 12);
    expect(Array.from(histogramDensity(Float64Array.of(0, 1, 2, 3), Float64Array.of(0, 1.5, 3)))).toEqual([1 / 3, 1 / 3]);
  });

  it('energyPlot prints E-BFMI per chain as az.bfmi computes it', () => {
    const b = energyBfmi(energy);
    const want = bfmi(fixture.trace.energy!);
    b.forEach((v, c) => expect(v).toBeCloseTo(Number(want.data[c]), 14));
    const svg = energyPlot(energy);
    b.forEach((v, c) => expect(svg).toContain(`chain ${c}: ${v.toFixed(3)}`));
    const low = energyPlot(series('energy', 1, 100, (_, d) => d));   // a trend: tiny steps, big variance
    expect(low).toMatch(/chain 0: 0\.00\d \(low\)/);
  });

  it('autocorrelationPlot honours maxLag and checks it', () => {
    const svg = autocorrelationPlot(params[0]!, { maxLag: 10 });
    const line = svg.match(/<polyline points="([^"]*)" fill="none" stroke="#1f77b4"/)![1]!;
    expect(line.split(' ')).toHaveLength(11);
    expect(() => autocorrelationPlot(params[0]!, { maxLag: 50 })).toThrow(/^autocorrelationPlot: `options\.maxLag` must be in \[0, 49\]/);
  });

  it('malformed input is a TypeError or RangeError naming the plot and argument', () => {
    expect(() => tracePlot({ name: 'x', chains: 2, draws: 3, values: new Float64Array(5) })).toThrow(/^tracePlot: `series\.values` must hold chains · draws = 6 values/);
    expect(() => tracePlot({ name: 'x', chains: 2, draws: 3, values: new Float64Array(6) }, { divergent: [1] })).toThrow(RangeError);
    expect(() => rankPlot({ name: 'x', chains: 0, draws: 3, values: new Float64Array(0) })).toThrow(/^rankPlot: `series\.chains` must be at least 1/);
    expect(() => rankPlot(params[0]!, { bins: 0 })).toThrow(RangeError);
    expect(() => histogramPlot({ name: 1, chains: 1, draws: 1, values: Float64Array.of(1) } as never)).toThrow(TypeError);
    expect(() => histogramPlot(params[0]!, { bins: 2.5 })).toThrow(/^histogramPlot: `options\.bins` must be an integer/);
    expect(() => pairPlot([params[0]!])).toThrow(/^pairPlot: `series` must hold at least two series/);
    expect(() => pairPlot([params[0]!, awkward[0]!])).toThrow(/^pairPlot: `series\[1\]` must have as many draws/);
    expect(() => energyPlot([] as never)).toThrow(TypeError);
  });
});

describe('svg helpers', () => {
  it('scales, ticks, labels, coordinates and escaping', () => {
    const x = linearScale(0, 10, 50, 150);
    expect(x(5)).toBe(100);
    expect(linearScale(3, 3, 0, 10)(3)).toBe(5);
    expect(niceTicks(0, 9.3, 5)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(-4.1, 4.2, 3)).toEqual([-4, -2, 0, 2, 4]);
    expect(niceTicks(0.1, 0.35, 3)).toEqual([0.1, 0.2, 0.3]);
    expect(tickLabel(0.30000000000000004)).toBe('0.3');
    expect(tickLabel(12500)).toBe('1.25e+4');
    expect(coord(-0.001)).toBe('0');
    expect(() => coord(NaN)).toThrow(RangeError);
    expect(escapeXml(`a<b & "c" 'd'`)).toBe('a&lt;b &amp; &quot;c&quot; &#39;d&#39;');
  });
});

describe('plot options (issue 18)', () => {
  it('reject unknown option names with a TypeError naming the function and the option', () => {
    const s = series('x', 2, 50, (c, d) => Math.sin(c + d));
    expect(() => tracePlot(s, { widht: 100 } as never)).toThrow(TypeError);
    expect(() => tracePlot(s, { widht: 100 } as never)).toThrow(/^tracePlot: `options` has unknown option `widht` \(known: divergent, width, height\)/);
    expect(() => rankPlot(s, { bin: 5 } as never)).toThrow(/rankPlot: `options` has unknown option `bin`/);
    expect(() => histogramPlot(s, { bin: 5 } as never)).toThrow(/histogramPlot: `options` has unknown option `bin`/);
    expect(() => autocorrelationPlot(s, { maxlag: 5 } as never)).toThrow(/autocorrelationPlot: `options` has unknown option `maxlag`/);
    expect(() => energyPlot(s, { hieght: 5 } as never)).toThrow(/energyPlot: `options` has unknown option `hieght`/);
    expect(() => pairPlot([s, s], { maxpoints: 5 } as never)).toThrow(/pairPlot: `options` has unknown option `maxpoints`/);
  });
});
