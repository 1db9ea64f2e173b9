// sbcRankHistogram (cli/report/plots/sbc-rank.ts): valid SVG, bar heights proportional to the
// binned counts, the binomial 99% band around the expected count, and bad input. No randomness.
import { describe, expect, it } from 'vitest';
import { sbcRankHistogram } from '../../../cli/report/plots/sbc-rank.js';
import { sbcReportHtml } from '../../../cli/report/sbc-report.js';
import { JointDistributionNamed } from '../../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../../distributions/normal.js';
import { Sample } from '../../../distributions/sample.js';
import { sbc } from '../../../mcmc/sbc.js';
import type { Tensor } from '../../../src/tensor/tensor.js';
import { svgProblems, svgsIn } from './xml.js';

/** The heights of the bar rects, in order. */
const barHeights = (svg: string) => [...svg.matchAll(/<g fill="#1f77b4"[^>]*>(.*?)<\/g>/g)][0]![1]!.match(/height="([\d.]+)"/g)!.map((h) => Number(h.slice(8, -1)));

describe('sbcRankHistogram', () => {
  it('bars follow the binned counts; band and expectation drawn; valid SVG', () => {
    // 120 ranks in 0…19: bins of 4 values (5 bins), counts 40, 20, 20, 20, 20
    const ranks = [...Array.from({ length: 40 }, (_, i) => i % 4), ...Array.from({ length: 80 }, (_, i) => 4 + (i % 16))];
    const svg = sbcRankHistogram(ranks, 19, { name: 'mu', bins: 5 });
    expect(svgProblems(svg)).toEqual([]);
    const h = barHeights(svg);
    expect(h.length).toBe(5);
    expect(h[0]! / h[1]!).toBeCloseTo(2, 1);
    expect(h.slice(1).every((v) => v === h[1])).toBe(true);
    expect(svg).toContain('mu: SBC ranks (120 simulations)');
    expect(svg).toMatch(/fill="#999" fill-opacity="0.25"/);   // the 99% band
    expect(svg).toMatch(/stroke-dasharray="4 3"/);            // the expected count
    // default: 20 bins of one rank value; rank r given r + 1 times, so bar r is (r + 1)/20 of the last
    const ramp = Array.from({ length: 20 }, (_, r) => Array.from({ length: r + 1 }, () => r)).flat();
    const hr = barHeights(sbcRankHistogram(ramp, 19));
    expect(hr.length).toBe(20);
    hr.forEach((v, r) => expect(v / hr[19]!).toBeCloseTo((r + 1) / 20, 2));
  });

  it('bad input names sbcRankHistogram and the argument', () => {
    expect(() => sbcRankHistogram([0, 3], 2)).toThrow(/sbcRankHistogram.*ranks\[1\]/);
    expect(() => sbcRankHistogram([0, 1], 0)).toThrow(/sbcRankHistogram.*maxRank/);
    expect(() => sbcRankHistogram([0, 1], 3, { bins: 5 })).toThrow(/sbcRankHistogram.*bins/);
    expect(() => sbcRankHistogram([], 3)).toThrow(/sbcRankHistogram.*ranks/);
    expect(() => sbcRankHistogram([0, 1], 3, { bin: 2 } as never)).toThrow(/unknown option `bin`/);
  });
});

describe('sbcReportHtml', () => {
  it('a table row and a valid rank histogram per variable, and the warnings', () => {
    const model = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 1 }),
      y: ({ mu }: { mu: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: 3 }),
    });
    const r = sbc(model, { pins: ['y'], simulations: 12, thin: 2, seed: 1, sampler: { nChains: 1, numAdaptationSteps: 20, nDraws: 20 }, ecdfReplicates: 50 });
    const html = sbcReportHtml(r, { title: 'normal model' });
    expect(html).toContain('<title>normal model</title>');
    expect(html).toContain('12 simulations, ranks 0…10');
    expect(html).toMatch(/<td class="name">mu<\/td><td>2<\/td>/);
    const svgs = svgsIn(html);
    expect(svgs.length).toBe(1);
    expect(svgProblems(svgs[0]!)).toEqual([]);
    for (const w of r.warnings) expect(html).toContain(`[${w.kind}]`);
    expect(() => sbcReportHtml({} as never)).toThrow(/sbcReportHtml.*result/);
  });
});
