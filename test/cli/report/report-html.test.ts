import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromArvizJson } from '../../../cli/report/draws-files.js';
import { reportHtml } from '../../../cli/report/report-html.js';
import { summary } from '../../../mcmc/diagnostics/index.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import { svgProblems, svgsIn } from './xml.js';

const { draws, trace } = fromArvizJson(readFileSync(new URL('./fixtures/eight-schools-small.json', import.meta.url), 'utf8'));
const settings = { seed: 1, chains: 4, draws: 50, warmup: 200, model: 'eight <schools> & co', versions: { stochax: '0.1.0', node: 'v20.0.0' } };
const html = reportHtml({ draws, trace, settings });
const names = ['mu', 'tau', ...Array.from({ length: 8 }, (_, j) => `thetaTilde[${j}]`), ...Array.from({ length: 8 }, (_, j) => `theta[${j}]`)];

describe('reportHtml', () => {
  it('is one HTML document with every section, linked from the top', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    for (const id of ['summary', 'sampler', 'trace', 'marginals', 'autocorrelation', 'pairs', 'energy', 'settings']) {
      expect(html, id).toContain(`<section id="${id}">`);
      expect(html, id).toContain(`<a href="#${id}">`);
    }
  });

  it('the summary table: the CLI table\'s columns (94% HDI), every parameter, the divergence count, values from summary()', () => {
    const head = summary(draws).format().split('\n')[0]!.trim().split(/\s+/);   // the columns `stochax sample` prints
    expect(head).toEqual(['mean', 'mcse', 'sd', 'hdi_3%', 'hdi_97%', 'ess_bulk', 'ess_tail', 'r_hat']);
    expect(html).toContain(`<tr><th class="name"></th>${head.map((h) => `<th>${h}</th>`).join('')}</tr>`);
    expect(html).not.toContain('<th>5%</th>');
    for (const n of names) expect(html).toContain(`<td class="name">${n}</td>`);
    expect(html).toContain('divergences: 0');
    const mu = summary(draws).get('mu')!;
    expect(html).toContain(`<td class="name">mu</td><td>${mu.mean.toFixed(3)}</td><td>${mu.mcseMean.toFixed(3)}</td><td>${mu.sd.toFixed(3)}</td>`);
  });

  it('all plots: a forest plot, a trace and rank plot, marginal and autocorrelation per parameter, a pair plot, the energy plot', () => {
    const svgs = svgsIn(html);
    expect(svgs).toHaveLength(4 * names.length + 3);
    expect(html).toContain('<title>Forest plot (94.0% HDI)</title>');
    expect(html.split('<section id="forest">')[1]!.split('</section>')[0]!.match(/<circle /g)).toHaveLength(4 * names.length);   // a row per chain
    for (const svg of svgs) expect(svgProblems(svg)).toEqual([]);
    for (const n of names) {
      for (const kind of ['Trace plot of', 'Rank plot of', 'Marginal posterior of', 'Autocorrelation of']) expect(html).toContain(`<title>${kind} ${n}</title>`);
    }
    expect(html).toContain('<title>Pair plot of mu, tau, thetaTilde[0], thetaTilde[1]</title>');
    expect(html).toContain('<title>Energy plot (E-BFMI)</title>');
  });

  it("the run's settings, escaped", () => {
    for (const [k, v] of [['seed', '1'], ['chains', '4'], ['draws', '50'], ['warmup', '200'], ['stochax_version', '0.1.0'], ['node_version', 'v20.0.0']]) {
      expect(html).toContain(`<th class="name">${k}</th><td class="name">${v}</td>`);
    }
    expect(html).toContain('eight &lt;schools&gt; &amp; co');
    expect(html).not.toContain('<schools>');
  });

  it('is self-contained: no URL, no script, no external resource', () => {
    expect(html).not.toMatch(/https?:|\/\/[a-z]/i);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|@import|url\(/i);
    for (const m of html.matchAll(/href="([^"]*)"/g)) expect(m[1]!.startsWith('#')).toBe(true);
  });

  it('works without a trace or settings, with a given summary and chosen pair parameters', () => {
    const bare = reportHtml({ draws: { mu: draws.mu!, tau: draws.tau! } });
    expect(bare).toContain('divergences: not recorded');
    expect(bare).toContain('The trace records no energy.');
    expect(bare).toContain('The trace records no sampler statistics.');
    for (const svg of svgsIn(bare)) expect(svgProblems(svg)).toEqual([]);
    const s = summary(draws, { divergences: 3 });
    const custom = reportHtml({ draws, trace, summary: s, pairParameters: ['tau', 'theta[7]'], title: 'My run' });
    expect(custom).toContain('<title>My run</title>');
    expect(custom).toContain('divergences: 3');
    expect(custom).toContain('<title>Pair plot of tau, theta[7]</title>');
  });

  it('plots the first maxSubplots parameters (default 40, ArviZ\'s plot.max_subplots) and says how many it left out; the table keeps all', () => {
    // 45 parameters: mu, tau and a 43-vector, 50 draws × 4 chains
    let u = 7;
    const next = () => { u = (u * 1103515245 + 12345) >>> 0; return u / 2 ** 32 - 0.5; };
    const wide = { mu: draws.mu!, tau: draws.tau!, z: new Tensor(Float64Array.from({ length: 50 * 4 * 43 }, next), [50, 4, 43], 'float64') };
    const titles = (h: string, kind: string) => [...h.matchAll(new RegExp(`<title>${kind} of ([^<]*)</title>`, 'g'))].map((m) => m[1]);
    const capped = reportHtml({ draws: wide, trace });
    const first40 = ['mu', 'tau', ...Array.from({ length: 38 }, (_, j) => `z[${j}]`)];
    for (const kind of ['Trace plot', 'Rank plot', 'Marginal posterior', 'Autocorrelation']) expect(titles(capped, kind), kind).toEqual(first40);
    expect(capped.match(/Plots of the first 40 of 45 parameters/g)).toHaveLength(3);
    expect(capped).toContain('<td class="name">z[42]</td>');
    const all = reportHtml({ draws: wide, trace, maxSubplots: Infinity });
    expect(titles(all, 'Trace plot')).toHaveLength(45);
    expect(all).not.toContain('Plots of the first');
    const five = reportHtml({ draws: wide, trace, maxSubplots: 5, varNames: ['z'] });
    expect(titles(five, 'Autocorrelation')).toEqual(['z[0]', 'z[1]', 'z[2]', 'z[3]', 'z[4]']);
    expect(five).toContain('Plots of the first 5 of 43 parameters');
    // at the limit: no note
    expect(reportHtml({ draws: wide, trace, maxSubplots: 45 })).not.toContain('Plots of the first');
  });

  it('marks divergences in the trace and pair plots and flags them in the tables', () => {
    const flags = new Uint8Array(200);
    flags[7] = 1; flags[150] = 1;
    const html2 = reportHtml({ draws, trace: { ...trace, diverging: new Tensor(flags, [50, 4], 'bool') } });
    expect(html2).toContain('<p class="note warn">divergences: 2</p>');
    expect(html2).toContain('<g class="divergences"');
    expect(html2).toContain('divergent (2)');
  });

  it('rejects bad input naming reportHtml and the argument', () => {
    expect(() => reportHtml(null as never)).toThrow(/^reportHtml: `input`/);
    expect(() => reportHtml({ draws: 'x' as never })).toThrow(TypeError);
    expect(() => reportHtml({ draws, pairParameters: ['mu', 'nope'] })).toThrow(/^reportHtml: `input\.pairParameters\[1\]` must name a parameter/);
    expect(() => reportHtml({ draws, summary: {} as never })).toThrow(/`input\.summary` must be a Summary/);
    expect(() => reportHtml({ draws, settings: { seed: [1] } as never })).toThrow(/^reportHtml: `settings\.seed`/);
    for (const bad of [0, 2.5, -1, Number.NaN]) expect(() => reportHtml({ draws, maxSubplots: bad })).toThrow(/^reportHtml: `input\.maxSubplots` must be a positive integer or Infinity/);
    expect(() => reportHtml({ draws, maxSubplots: '40' as never })).toThrow(TypeError);
    expect(() => reportHtml({ draws, maxSubplot: 40 } as never)).toThrow(/maxSubplot/);
  });
});

describe('reportHtml: the warnings it computes name parameters as its table does', () => {
  it('with coords and dims, theta[Choate] in the warnings, not theta[0]', () => {
    // 50 draws per chain: ESS below 100 per chain for every parameter, so each one is named
    const schools = ['Choate', 'Deerfield', 'Phillips Andover', 'Phillips Exeter', 'Hotchkiss', 'Lawrenceville', "St. Paul's", 'Mt. Hermon'];
    const page = reportHtml({ draws, trace, coords: { school: schools }, dims: { theta: ['school'], thetaTilde: ['school'] } });
    const warnings = page.split('<li class="warn">').slice(1).join('').split('</ul>')[0]!;
    expect(warnings).toMatch(/theta\[[A-Z][^\]]*\]/);
    expect(warnings).not.toMatch(/theta(Tilde)?\[\d\]/);
    expect(html.split('<li class="warn">').slice(1).join('')).toMatch(/theta(Tilde)?\[\d\]/);   // without labels, the indices
  });
});

describe('reportHtml: the forest plot', () => {
  it('every parameter shown, a row per chain up to maxSubplots parameters; beyond, one row each, with a note', () => {
    const forest = (page: string) => page.split('<section id="forest">')[1]!.split('</section>')[0]!;
    const capped = reportHtml({ draws, trace, maxSubplots: 5 });
    expect(forest(capped).match(/<circle /g)).toHaveLength(names.length);
    expect(forest(capped)).toContain(`All chains in one row per parameter (${names.length} parameters, more than maxSubplots, 5)`);
    for (const n of names) expect(forest(capped)).toContain(`>${n}</text>`);
    expect(forest(html)).not.toContain('All chains in one row');
    const some = reportHtml({ draws, trace, varNames: ['mu', 'tau'] });
    expect(forest(some).match(/<circle /g)).toHaveLength(8);
  });
});
