// The forest plot's numbers against ArviZ's own figure: az.plot_forest (arviz 0.23.4, quartiles,
// 94% HDI) of the small eight-schools run, read back from matplotlib's lines by
// test/fixtures/arviz-forest/forest.py (forest.json; the command is in its header). Every row's
// HDI ends, quartiles and median must be ArviZ's doubles exactly (the same sort, the same
// window and NumPy's interpolation), per chain and combined, and the rows in ArviZ's order of
// parameters. Then the SVG: well-formed, one label per parameter, one row per chain.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromArvizJson } from '../../../cli/report/draws-files.js';
import { flattenParameters } from '../../../cli/report/parameters.js';
import { forestPlot, forestRows } from '../../../cli/report/plots/forest.js';
import { svgProblems } from './xml.js';
import arviz from '../../fixtures/arviz-forest/forest.json' with { type: 'json' };

const { draws } = fromArvizJson(readFileSync(new URL('./fixtures/eight-schools-small.json', import.meta.url), 'utf8'));
const series = flattenParameters('forest.test', draws);

describe('forestRows: ArviZ\'s plot_forest numbers', () => {
  it('per chain (ArviZ\'s default): every HDI end, quartile and median as ArviZ drew it', () => {
    const rows = forestRows(series);
    const C = 4;
    expect(rows).toHaveLength(arviz.chains.rows.length);
    // ArviZ draws each parameter's chains bottom-up from chain 0 (its y grows), parameters top-down
    arviz.chains.rows.forEach((want, i) => {
      const k = Math.floor(i / C), c = C - 1 - (i % C);
      const r = rows[k * C + c]!;
      expect(r.chain).toBe(c);
      expect([r.hdi[0], r.hdi[1]], `${r.name} chain ${c}`).toEqual(want.hdi);
      expect([r.quartiles[0], r.quartiles[2]], `${r.name} chain ${c}`).toEqual(want.quartiles);
      expect(r.quartiles[1], `${r.name} chain ${c}`).toBe(want.median);
    });
    // one tick per parameter, in our order (ArviZ abbreviates later elements: `[1]` for thetaTilde[1])
    const names = [...new Set(rows.map((r) => r.name))];
    expect(arviz.chains.ticks).toHaveLength(names.length);
    arviz.chains.ticks.forEach((t, k) => expect(names[k]!.endsWith(t.label), `${names[k]} / ${t.label}`).toBe(true));
  });

  it('combined: one row per parameter from all chains', () => {
    const rows = forestRows(series, { combined: true });
    expect(rows).toHaveLength(arviz.combined.rows.length);
    arviz.combined.rows.forEach((want, k) => {
      const r = rows[k]!;
      expect(r.chain).toBeUndefined();
      expect([...r.hdi], r.name).toEqual(want.hdi);
      expect([r.quartiles[0], r.quartiles[2]], r.name).toEqual(want.quartiles);
      expect(r.quartiles[1], r.name).toBe(want.median);
    });
  });

  it('bad input: errors naming the function and the argument', () => {
    expect(() => forestRows('mu' as never)).toThrow(/forestRows.*series/);
    expect(() => forestRows([{ name: 'a', chains: 2, draws: 3, values: new Float64Array(5) }])).toThrow(/forestRows.*series\[0\]\.values/);
    expect(() => forestRows(series, { hdiProb: 1.5 })).toThrow(RangeError);
    expect(() => forestRows(series, { combined: 'yes' as never })).toThrow(/forestRows.*combined/);
    expect(() => forestPlot(series, { width: 50 })).toThrow(/forestPlot.*width/);
    expect(() => forestPlot(series, { hdi: 0.9 } as never)).toThrow(/forestPlot.*hdi/);
  });
});

describe('forestPlot: the SVG', () => {
  it('well-formed, a label per parameter, a row (two lines and a dot) per chain, ArviZ\'s title, a chain legend', () => {
    const svg = forestPlot(series);
    expect(svgProblems(svg)).toEqual([]);
    expect(svg).toContain('<title>Forest plot (94.0% HDI)</title>');
    for (const s of series) expect(svg).toContain(`text-anchor="end">${s.name.replace(/&/g, '&amp;')}</text>`);
    expect(svg.match(/<circle /g)).toHaveLength(series.length * 4);
    expect(svg.match(/<line [^>]*stroke-width="2\.6"/g)).toHaveLength(series.length * 4);
    expect(svg).toContain('>chain 3<');
    const one = forestPlot(series, { combined: true, hdiProb: 0.5 });
    expect(one.match(/<circle /g)).toHaveLength(series.length);
    expect(one).toContain('50.0% HDI');
    expect(one).not.toContain('>chain 0<');
  });

  it('a chain of NaN draws is left out; the others are drawn', () => {
    const v = Float64Array.from(series[0]!.values);
    v.fill(NaN, 0, series[0]!.draws);
    const svg = forestPlot([{ ...series[0]!, values: v }]);
    expect(svgProblems(svg)).toEqual([]);
    expect(svg.match(/<circle /g)).toHaveLength(3);
  });
});
