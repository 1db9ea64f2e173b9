// InferenceData in ArviZ's JSON (inferenceData, inferenceDataJson, fromArvizJson): ArviZ reads a
// stochax-written file (test/fixtures/inference-data: make-idata.ts writes it, generate.py loads
// it with az.from_json and records az.loo / az.waic), stochax's loo on the same arrays agrees to
// 1e-8, the file round-trips, and the report shows predictive checks and Pareto k from it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromArvizJson, inferenceData, inferenceDataJson, paretoKPlot, ppcPlot, reportHtml } from '../../../cli/report/index.js';
import { loo, samplePosteriorPredictive, summary, waic, windowedAdaptiveNuts } from '../../../mcmc/index.js';
import { add, mul, tensor, type Tensor } from '../../../src/index.js';
import { HalfCauchy, Independent, JointDistributionNamed, Normal, Sample, deterministic } from '../../../distributions/index.js';
import { coords, dims, nonCentered, y } from '../../../examples/eight-schools.js';
import { expectClose, expectTensorClose } from '../../mcmc/diagnostics/fixture.js';
import arviz from '../../fixtures/inference-data/arviz.json' with { type: 'json' };

const text = readFileSync(new URL('../../fixtures/inference-data/eight-schools-idata.json', import.meta.url), 'utf8');

describe('a stochax-written InferenceData in ArviZ (az.from_json)', () => {
  const back = fromArvizJson(text);

  it('ArviZ sees every group with its dims, and the sample stats under ArviZ\'s names', () => {
    expect(Object.keys(arviz.groups).sort()).toEqual(['log_likelihood', 'observed_data', 'posterior', 'posterior_predictive', 'prior', 'prior_predictive', 'sample_stats']);
    const g = arviz.groups as Record<string, Record<string, { dims: string[]; shape: number[] }>>;
    expect(g.posterior!.theta!.dims).toEqual(['chain', 'draw', 'school']);
    expect(g.log_likelihood!.y!.shape).toEqual([2, 100, 8]);
    expect(g.prior!.mu!.shape).toEqual([1, 60]);
    expect(g.observed_data!.y!.dims).toEqual(['school']);
    expect(Object.keys(g.sample_stats!)).toEqual(expect.arrayContaining(['diverging', 'energy', 'tree_depth', 'step_size', 'lp', 'acceptance_rate', 'n_steps']));
    expect(arviz.coords.school).toEqual(coords.school);
  });

  it('stochax\'s loo and waic on the file\'s arrays equal az.loo and az.waic to 1e-8', () => {
    const ll = back.groups.logLikelihood!;
    expect(ll.y!.shape).toEqual([100, 2, 8]);
    const l = loo(ll, { posterior: back.draws });   // relative ESS from the whole posterior, as az.loo
    expectClose(l.elpdLoo, arviz.loo.elpd_loo, 'elpd_loo');
    expectClose(l.se, arviz.loo.se, 'se');
    expectClose(l.pLoo, arviz.loo.p_loo, 'p_loo');
    expectClose(l.goodK, arviz.loo.good_k, 'good_k');
    expect(l.warning).toBe(arviz.loo.warning);
    expectTensorClose(l.paretoK, arviz.loo.pareto_k, 'pareto_k');
    expectTensorClose(l.looI, arviz.loo.loo_i, 'loo_i');
    const w = waic(ll);
    expectClose(w.elpdWaic, arviz.waic.elpd_waic, 'elpd_waic');
    expectClose(w.pWaic, arviz.waic.p_waic, 'p_waic');
    expectTensorClose(w.waicI, arviz.waic.waic_i, 'waic_i');
  });

  it('reads back in stochax\'s layout and writes the same text again', () => {
    expect(back.draws.theta!.shape).toEqual([100, 2, 8]);
    expect(back.groups.prior!.mu!.shape).toEqual([60]);
    expect(back.groups.priorPredictive!.y!.shape).toEqual([60, 8]);
    expect(Array.from(back.groups.observedData!.y!.data as Float64Array)).toEqual(Array.from(y.data as Float64Array));
    expect(back.groups.dims).toEqual(dims);
    expect(inferenceDataJson({ posterior: back.draws, sampleStats: back.trace, ...back.groups }, { settings: back.settings })).toBe(text);
  });
});

describe('inferenceData', () => {
  const run = windowedAdaptiveNuts(nonCentered, { pins: { y }, seed: 1, nChains: 2, nDraws: 40, numAdaptationSteps: 60 });

  it('assembles posterior (with derived values), sample stats, log-likelihood, predictive, prior and data', () => {
    const idata = inferenceData(nonCentered, run, { pins: { y }, seed: 5, prior: 25, dims, coords });
    expect(Object.keys(idata.posterior)).toEqual(['mu', 'tau', 'thetaTilde', 'theta']);
    expect(idata.logLikelihood!.y!.shape).toEqual([40, 2, 8]);
    expect(idata.posteriorPredictive!.y!.shape).toEqual([40, 2, 8]);
    expect(Object.keys(idata.prior!)).toEqual(['thetaTilde', 'tau', 'mu', 'theta']);
    expect(idata.priorPredictive!.y!.shape).toEqual([25, 8]);
    expect(idata.observedData!.y).toBe(y);
    // chain 1 alone (its posterior predictive keyed by its index) equals chain 1 of the pair
    const one = windowedAdaptiveNuts(nonCentered, { pins: { y }, seed: 1, nChains: 2, nDraws: 40, numAdaptationSteps: 60, chainIndex: 1 });
    const solo = inferenceData(nonCentered, one, { pins: { y }, seed: 5, prior: 0, chains: [1] });
    const col = (t: Tensor, c: number, C: number) => Array.from(t.data as Float64Array).filter((_, i) => Math.floor(i / 8) % C === c);
    expect(col(solo.posteriorPredictive!.y!, 0, 1)).toEqual(col(idata.posteriorPredictive!.y!, 1, 2));
    expect(solo.prior).toBeUndefined();
  });

  it('leaves groups out on request, and needs no observed data', () => {
    const idata = inferenceData(nonCentered.experimentalPin({ y }), run, { logLikelihood: false, posteriorPredictive: false, prior: 0 });
    expect(Object.keys(idata).sort()).toEqual(['observedData', 'posterior', 'sampleStats']);
    const free = inferenceData(nonCentered, { draws: { mu: tensor([[0]]), tau: tensor([[1]]), thetaTilde: tensor([[[0, 0, 0, 0, 0, 0, 0, 0]]]), y: tensor([[y.toArray() as number[]]]) } }, { prior: 0 });
    expect(Object.keys(free).sort()).toEqual(['posterior']);
  });

  it('rejects bad input by name', () => {
    expect(() => inferenceData({} as never, run)).toThrow(/^inferenceData: `model` must be a joint distribution/);
    expect(() => inferenceData(nonCentered, run, { pins: { y }, bogus: 1 } as never)).toThrow(TypeError);
    expect(() => inferenceData(nonCentered, run, { pins: { y }, bogus: 1 } as never)).toThrow(/inferenceData.*bogus/);
    expect(() => inferenceData(nonCentered, run, { pins: { y }, prior: -1 })).toThrow(/`prior`/);
    expect(() => inferenceData(nonCentered, run, { pins: { y }, logLikelihood: 'yes' as never })).toThrow(/`logLikelihood`/);
  });
});

describe('inferenceDataJson', () => {
  const draws = { mu: tensor([[0.5, 1], [1.5, 2]]), theta: tensor([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]) };

  it('checks dims and coords against the variables, and groups against the posterior', () => {
    const fn = /^inferenceDataJson: /;
    expect(() => inferenceDataJson({ posterior: draws, dims: { theta: ['a', 'b'] } })).toThrow(RangeError);
    expect(() => inferenceDataJson({ posterior: draws, dims: { theta: ['a', 'b'] } })).toThrow(/`dims\.theta` must name 1 dimension/);
    expect(() => inferenceDataJson({ posterior: draws, dims: { theta: ['s'] }, coords: { s: ['x'] } })).toThrow(/`dims\.theta` gives axis 0 of `theta` \(size 2\) dimension "s", which has 1 coordinates/);
    expect(() => inferenceDataJson({ posterior: draws, dims: { theta: ['s'] }, coords: { s: ['x', 'x'] } })).toThrow(/`coords\.s` must hold unique labels; "x" appears twice/);
    expect(() => inferenceDataJson({ posterior: draws, logLikelihood: { y: tensor([[1, 2, 3]]) } })).toThrow(fn);
    expect(() => inferenceDataJson({ posterior: draws, extra: {} } as never)).toThrow(TypeError);
    expect(() => inferenceDataJson({ posterior: draws }, { settings: { seed: 1 }, other: 1 } as never)).toThrow(/inferenceDataJson.*other/);
    expect(() => inferenceDataJson(null as never)).toThrow(/^inferenceDataJson: `idata`/);
  });

  it('writes the prior as one chain and observed data without chain or draw axes', () => {
    const t = inferenceDataJson({ posterior: draws, prior: { mu: tensor([1, 2, 3]) }, observedData: { y: tensor([true, false]) } });
    const j = JSON.parse(t) as Record<string, Record<string, unknown>>;
    expect(j.prior!.mu).toEqual([[1, 2, 3]]);
    expect(j.observed_data!.y).toEqual([true, false]);
    expect(Object.keys(j)).toEqual(['posterior', 'sample_stats', 'prior', 'observed_data', 'attrs']);
  });
});

describe('reportHtml with an InferenceData', () => {
  const run = windowedAdaptiveNuts(nonCentered, { pins: { y }, seed: 2, nChains: 2, nDraws: 30, numAdaptationSteps: 40 });
  const idata = inferenceData(nonCentered, run, { pins: { y }, seed: 0, prior: 0 });

  it('shows posterior predictive checks and the Pareto k plot, and says what the pair plot left out', () => {
    const html = reportHtml({ inferenceData: idata });
    expect(html).toContain('<section id="ppc">');
    expect(html).toContain('Posterior predictive check of y');
    expect(html).toContain('<section id="loo">');
    expect(html).toMatch(/y: elpd_loo -?\d+\.\d\d \(SE \d+\.\d\d\)/);
    expect(html).toContain('The pair plot shows 4 of 18 parameters; left out: thetaTilde[2]');
    expect(html).toContain('theta[0]');   // the derived values are plotted too
  });

  it('varNames chooses the variables; without predictive data the sections are left out', () => {
    const html = reportHtml({ draws: idata.posterior, trace: idata.sampleStats, varNames: ['mu', 'tau'] });
    expect(html).not.toContain('<section id="ppc">');
    expect(html).not.toContain('href="#loo"');
    expect(html).not.toContain('theta[0]');
    expect(html).toContain('16 parameters not in varNames are not shown');
    expect(() => reportHtml({ inferenceData: idata, varNames: ['nope'] })).toThrow(/^reportHtml: `input\.varNames\[0\]` must name a variable/);
    expect(() => reportHtml({} as never)).toThrow(/^reportHtml: `input\.draws` must be given/);
  });
});

describe('README snippet (derived quantities, InferenceData, report), run as written', () => {
  it('records theta, summarises it, writes an InferenceData and a report with the predictive sections', () => {
    const scores = [28, 8, -3, 7, -1, 1, 18, 12];
    const schools = new JointDistributionNamed({                 // eight schools, non-centered
      mu: new Normal({ loc: 0, scale: 5 }),
      tau: new HalfCauchy({ loc: 0, scale: 5 }),
      thetaTilde: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 8 }),
      theta: deterministic(({ mu, tau, thetaTilde }) => add(mu, mul(tau, thetaTilde))),   // derived: recorded, not sampled
      y: ({ theta }: { theta: Tensor }) => new Independent({
        distribution: new Normal({ loc: theta, scale: [15, 10, 16, 11, 9, 11, 10, 18] }), reinterpretedBatchNdims: 1 }),
    });
    const run = windowedAdaptiveNuts(schools, { pins: { y: scores }, seed: 0 });
    expect(run.deterministics!.theta!.shape).toEqual([1000, 4, 8]);
    expect(Object.keys(run.draws)).toEqual(['mu', 'tau', 'thetaTilde']);
    const table = summary({ ...run.draws, ...run.deterministics }, { varNames: ['mu', 'tau', 'theta'] });
    expect(table.rows.map((r) => r.name)).toEqual(['mu', 'tau', ...Array.from({ length: 8 }, (_, j) => `theta[${j}]`)]);
    expect(table.get('theta[0]')!.mean).toBeGreaterThan(table.get('theta[2]')!.mean);   // school A's effect shrunk less towards mu than C's
    const idata = inferenceData(schools, run, { pins: { y: scores }, seed: 0, dims: { theta: ['school'], y: ['school'] } });
    const json = inferenceDataJson(idata);
    const back = fromArvizJson(json);
    expect(back.groups.dims).toEqual({ theta: ['school'], y: ['school'] });
    expect(loo(back.groups.logLikelihood!).elpdLoo).toBeCloseTo(loo(idata.logLikelihood!).elpdLoo, 12);
    const html = reportHtml({ inferenceData: idata, varNames: ['mu', 'tau', 'theta'] });
    expect(html).toContain('<section id="ppc">');
    expect(html).toContain('<section id="loo">');
  }, 120_000);
});

describe('ppcPlot and paretoKPlot', () => {
  it('draw continuous data as densities, counts as shares with a 5–95% range, and Pareto k against the threshold', () => {
    const dense = ppcPlot({ name: 'y', observed: [0.1, 1.3, -0.4, 2.2], replicated: [[0, 1, 2, 3.5], [0.2, -1, 1.1, 0.4]] });
    expect(dense).toMatch(/^<svg /);
    expect(dense).toContain('<polyline');
    const counts = ppcPlot({ name: 'damage', observed: [0, 1, 1, 0], replicated: [[0, 0, 1, 0], [1, 1, 1, 0], [0, 1, 0, 0]] });
    expect(counts.match(/<circle /g)!.length).toBe(2);   // one observed share per value (0 and 1)
    const k = paretoKPlot([0.1, 0.8, 0.5], { threshold: 0.7 });
    expect(k.match(/fill="#d62728"/g)!.length).toBe(1);   // the one k above 0.7
  });

  it('reject bad input by name', () => {
    expect(() => ppcPlot({ name: 'y', observed: [1, 2], replicated: [] })).toThrow(/^ppcPlot: `series\.replicated`/);
    expect(() => ppcPlot({ name: 'y', observed: [1, 2], replicated: [[1]] })).toThrow(/^ppcPlot: `series\.replicated\[0\]` must hold 2 values/);
    expect(() => ppcPlot({ name: 'y', observed: [1], replicated: [[1]] }, { lines: 0 })).toThrow(RangeError);
    expect(() => ppcPlot({ name: 'y', observed: [1], replicated: [[1]] }, { colour: 1 } as never)).toThrow(/ppcPlot.*colour/);
    expect(() => paretoKPlot([])).toThrow(/^paretoKPlot: `k`/);
    expect(() => paretoKPlot([0.2], { labels: ['a', 'b'] })).toThrow(/`options\.labels` must hold 1 labels/);
  });

  it('samplePosteriorPredictive checks `chains`', () => {
    const draws = { mu: tensor([[0, 1]]), tau: tensor([[1, 1]]), thetaTilde: tensor([[[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]]]) };
    expect(() => samplePosteriorPredictive(nonCentered, draws, { seed: 0, chains: [3] })).toThrow(/^samplePosteriorPredictive: `chains` must give one index per chain/);
    expect(() => samplePosteriorPredictive(nonCentered, draws, { seed: 0, chains: [0, -1] })).toThrow(/`chains\[1\]`/);
  });
});
