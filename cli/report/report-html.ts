/**
 * `report.html`: one self-contained page (inline CSS and SVG, no scripts, no network) with the
 * summary table, the sampler's per-chain statistics, trace and rank plots, marginal
 * histograms with KDEs, autocorrelations, a pair plot with divergences, the energy plot with
 * E-BFMI, posterior predictive checks and LOO's Pareto k (when an InferenceData holds the
 * data for them), and the run's settings.
 */
import { checkOptions, fail } from '../../src/checks.js';
import { Summary, summary as summarize, type SummaryColumn, type SummaryRow } from '../../mcmc/diagnostics/summary.js';
import { flattenParameters, type FlatParameter, type ReportDraws } from './parameters.js';
import { sampleStats, statValues, type SampleStat } from './sample-stats.js';
import { flatSettings, type RunSettings } from './settings.js';
import { autocorrelationPlot } from './plots/autocorrelation.js';
import { energyBfmi, energyPlot } from './plots/energy.js';
import { forestPlot } from './plots/forest.js';
import { modelGraphPlot } from './plots/model-graph.js';
import type { ModelGraph } from '../../distributions/joint/model-graph.js';
import { histogramPlot } from './plots/histogram.js';
import { pairPlot } from './plots/pair.js';
import { rankPlot } from './plots/rank.js';
import { escapeXml } from './plots/svg.js';
import { tracePlot } from './plots/trace.js';
import { ppcRowsPlot } from './plots/ppc.js';
import { paretoKPlot } from './plots/pareto-k.js';
import { loo as psisLoo } from '../../mcmc/diagnostics/loo.js';
import { float64Values, isPartRecord } from '../../mcmc/diagnostics/draws.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { InferenceData } from './inference-data-groups.js';
import type { Coords, CoordsDims, Dims } from '../../mcmc/diagnostics/coords.js';
import { samplingWarnings, type SamplingWarning } from '../../mcmc/diagnostics/warnings.js';

/** What {@link reportHtml} reports on. */
export interface ReportInput {
  /** Draws in TFP layout `[draws, chains, ...event]`: a record of named parts (as `windowedAdaptiveNuts` returns), an array of parts or one part. Default: `inferenceData.posterior`. */
  readonly draws?: ReportDraws;
  /**
   * An InferenceData (`inferenceData(...)`): its posterior and sample stats stand in for
   * `draws` and `trace`; with `posteriorPredictive` and `observedData` the report shows
   * posterior predictive checks, with `logLikelihood` LOO's Pareto k per observation.
   */
  readonly inferenceData?: InferenceData;
  /** Variables to show (ArviZ's `var_names`; default all), in this order: the summary, plots and pair plot show only these. */
  readonly varNames?: readonly string[];
  /** The sampler's trace (`windowedAdaptiveNuts`'s `{ stepSize, treeDepth, diverging, acceptRatio, energy, … }`, each `[draws, chains]`). */
  readonly trace?: unknown;
  /** The summary table (default `summary(draws, { divergences: trace.diverging })`). */
  readonly summary?: Summary;
  /** The run's settings: seed, versions, chains, draws, warmup, model (and any extra fields). */
  readonly settings?: RunSettings;
  /** Page title (default "stochax report: <model>"). */
  readonly title?: string;
  /** Parameters for the pair plot, by label (default the first four shown; the page lists the ones left out). */
  readonly pairParameters?: readonly string[];
  /** The run's warnings (`windowedAdaptiveNuts`' `warnings`; default `samplingWarnings(draws, trace)`). */
  readonly warnings?: readonly Pick<SamplingWarning, 'kind' | 'message'>[];
  /** Labels per named dimension (ArviZ's `coords`; default `inferenceData.coords`): tables and plot titles say `theta[Choate]`. */
  readonly coords?: Coords;
  /** Dimension names per variable (ArviZ's `dims`; default `inferenceData.dims`). */
  readonly dims?: Dims;
  /**
   * Parameters (scalar components) that get the per-parameter plots — trace and rank, marginal,
   * autocorrelation — the first ones in the summary's order; the page says how many were left
   * out (ArviZ's `rcParams['plot.max_subplots']`, default 40; `Infinity` for all). A 300-group
   * hierarchical model plotted whole makes a 23 MB page of 1,200 plots.
   */
  readonly maxSubplots?: number;
  /** The model's graph (`modelGraph(model, { pins, dims })`, as `stochax sample` gives it): drawn in a `model` section. */
  readonly modelGraph?: ModelGraph;
}

/** ArviZ's `rcParams['plot.max_subplots']` (arviz 0.23). */
export const MAX_SUBPLOTS = 40;

const SECTIONS = [
  ['warnings', 'Warnings'], ['summary', 'Summary'], ['sampler', 'Sampler'], ['model', 'Model graph'], ['forest', 'Forest plot'], ['trace', 'Trace and rank plots'], ['marginals', 'Marginal posteriors'],
  ['autocorrelation', 'Autocorrelation'], ['pairs', 'Pair plot'], ['energy', 'Energy'],
  ['ppc', 'Posterior predictive checks'], ['loo', 'LOO (Pareto k)'], ['settings', 'Settings'],
] as const;

/** The report's style sheet (shared with `approximateReportHtml`). @internal */
export const CSS = `
*{box-sizing:border-box}
body{margin:0;padding:24px 32px 48px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#222;background:#fafafa}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:17px;margin:32px 0 10px;padding-bottom:4px;border-bottom:1px solid #ddd}
p.lede{margin:0 0 12px;color:#555}
nav a{margin-right:14px;color:#1f5fa8;text-decoration:none}
nav a:hover{text-decoration:underline}
table{border-collapse:collapse;background:#fff;font-variant-numeric:tabular-nums}
th,td{padding:3px 10px;border-bottom:1px solid #eee;text-align:right;white-space:nowrap}
th{background:#f0f0f0;font-weight:600}
td.name,th.name{text-align:left;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
td.warn{color:#b3261e;font-weight:600}
.note{color:#555;margin:8px 0}
.note.warn{color:#b3261e;font-weight:600}
ul.warnings{margin:0;padding-left:20px}
li.warn{color:#b3261e;margin:4px 0;max-width:70em}
.grid{display:flex;flex-wrap:wrap;gap:8px}
.row{display:flex;flex-wrap:wrap;gap:8px;margin-bottom:6px}
figure{display:inline-block;margin:0;background:#fff;border:1px solid #e4e4e4;border-radius:4px;padding:2px}
svg{display:block;max-width:100%;height:auto}
`;

/** Significant-digit formatting for the tables. */
function num(x: number | undefined, digits: number): string {
  if (x === undefined) return '';
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '−∞';
  return x.toFixed(digits);
}

/** An SVG for inlining: the namespace attribute is implied in HTML, so the page names no URL at all. @internal */
export function inline(svg: string): string {
  return `<figure>${svg.replace(' xmlns="http://www.w3.org/2000/svg"', '')}</figure>`;
}

/**
 * The summary table as HTML (shared with `approximateReportHtml`): the columns the CLI prints
 * (`Summary.columns()`: ArviZ's 94% HDI by default, the quantiles with `interval: 'quantiles'`),
 * rows labelled as the CLI labels them (coordinates with `dims`). @internal
 */
export function summaryTable(s: Summary, divergences: number | undefined, divergenceLine = true): string {
  const columns = s.columns();
  const cell = (r: SummaryRow, key: SummaryColumn[1], digits: number): string => {
    const v = r[key];
    const warn = ((key === 'essBulk' || key === 'essTail') && v < 400) || (key === 'rHat' && v > 1.01);
    return `<td${warn ? ' class="warn"' : ''}>${num(v, digits)}</td>`;
  };
  const rows = s.rows.map((r) => `<tr><td class="name">${escapeXml(r.name)}</td>${columns.map(([, key, digits]) => cell(r, key, digits)).join('')}</tr>`);
  const div = !divergenceLine ? '' : divergences === undefined
    ? '<p class="note">divergences: not recorded</p>'
    : `<p class="note${divergences > 0 ? ' warn' : ''}">divergences: ${divergences}</p>`;
  const interval = s.interval === 'hdi'
    ? `${columns[3]![0]} and ${columns[4]![0]} bound the ${Number((100 * s.hdiProb).toPrecision(6))}% highest-density interval (as az.summary and the CLI's table); `
    : '5%, 50% and 95% are quantiles; ';
  return `<table><thead><tr><th class="name"></th>${columns.map(([h]) => `<th>${escapeXml(h)}</th>`).join('')}</tr></thead>`
    + `<tbody>${rows.join('')}</tbody></table>${div}`
    + `<p class="note">${escapeXml(interval)}mcse is the Monte Carlo standard error of the mean; r_hat is the rank-normalized split R-hat. `
    + 'Values flagged in red: r_hat above 1.01, ESS below 400 (Vehtari et al. 2021).</p>';
}

function samplerTable(stats: readonly SampleStat[], chains: number, draws: number): string {
  const col = (key: string) => statValues(stats, key);
  const perChain = (v: Float64Array | undefined, f: (xs: Float64Array) => number): number[] | undefined =>
    v === undefined ? undefined : Array.from({ length: chains }, (_, c) => f(v.subarray(c * draws, (c + 1) * draws)));
  const mean = (xs: Float64Array) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const sum = (xs: Float64Array) => xs.reduce((a, b) => a + (b !== 0 && !Number.isNaN(b) ? 1 : 0), 0);
  const energy = col('energy');
  const columns: [string, number[] | undefined, number][] = [
    ['step size', perChain(col('stepSize'), (xs) => xs[xs.length - 1]!), 4],
    ['mean acceptance', perChain(col('acceptRatio'), mean), 3],
    ['mean tree depth', perChain(col('treeDepth'), mean), 2],
    ['max tree depth', perChain(col('treeDepth'), (xs) => Math.max(...xs)), 0],
    ['mean leapfrog steps', perChain(col('nSteps'), mean), 1],
    ['divergences', perChain(col('diverging'), sum), 0],
    ['E-BFMI', energy === undefined ? undefined : energyBfmi({ name: 'energy', chains, draws, values: energy }), 3],
  ];
  const present = columns.filter(([, v]) => v !== undefined) as [string, number[], number][];
  if (present.length === 0) return '<p class="note">The trace records no sampler statistics.</p>';
  const rows = Array.from({ length: chains }, (_, c) => `<tr><td class="name">chain ${c}</td>${present.map(([name, v, d]) => {
    const x = v[c]!;
    const warn = (name === 'divergences' && x > 0) || (name === 'E-BFMI' && x < 0.3);
    return `<td${warn ? ' class="warn"' : ''}>${num(x, d)}</td>`;
  }).join('')}</tr>`);
  return `<table><thead><tr><th class="name"></th>${present.map(([h]) => `<th>${escapeXml(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function settingsTable(settings: RunSettings | undefined, params: readonly FlatParameter[], stats: readonly SampleStat[]): string {
  const rows: [string, string][] = flatSettings('reportHtml', settings).map(([k, v]) => [k, String(v)]);
  const p = params[0]!;
  rows.push(['draws × chains in this report', `${p.draws} × ${p.chains}`]);
  rows.push(['parameters', String(params.length)]);
  if (stats.length > 0) rows.push(['sample stats', stats.map((s) => s.name).join(', ')]);
  return `<table><tbody>${rows.map(([k, v]) => `<tr><th class="name">${escapeXml(k)}</th><td class="name">${escapeXml(v)}</td></tr>`).join('')}</tbody></table>`;
}

/**
 * The HTML report of a sampling run, as one self-contained string: inline CSS, inline SVG
 * plots, no scripts and no network access. Sections (each an `<section id>` linked from the
 * top): `warnings` (the run's warnings: `input.warnings`, else `samplingWarnings` of the draws and
 * trace), `summary` (the CLI table's columns: mean, mcse, sd, ArviZ's 94% HDI, ess_bulk, ess_tail,
 * r_hat — or the quantiles of a `summary` made with `interval: 'quantiles'`; divergences; the
 * variables' dims and coordinates), `sampler` (per-chain step size, acceptance, tree depth, divergences, E-BFMI),
 * `model` (with `modelGraph`: the model's graph, as PyMC's `model_to_graphviz` draws it),
 * `forest` (ArviZ's forest plot of every parameter shown: HDI, quartiles and median, a row per
 * chain, or per parameter beyond `maxSubplots` parameters), `trace` (trace
 * and rank plot per parameter, divergences marked), `marginals` (histogram + KDE),
 * `autocorrelation`, `pairs` (pair plot of a few parameters with divergences in red), `energy`
 * (marginal energy vs transitions, E-BFMI per chain), `ppc` (observed vs replicated densities
 * per observed node, with `inferenceData.posteriorPredictive` and `observedData`), `loo`
 * (elpd_loo and the Pareto k of every observation, with `inferenceData.logLikelihood`) and
 * `settings` (seed, versions, …). Elements are labelled by coordinate where `dims` and
 * `coords` (or `inferenceData`'s) say so: `theta[Choate]` in the table, plot titles and
 * `pairParameters`. `varNames` chooses the variables shown; the pair plot shows
 * `pairParameters` (default: the first four shown) and names the ones it leaves out. The
 * per-parameter plots (trace and rank, marginal, autocorrelation) stop at `maxSubplots`
 * parameters (default 40, ArviZ's `plot.max_subplots`), with a note; the table lists all.
 *
 * @param input - `draws` (TFP layout) or `inferenceData`, `trace`, `summary`, `settings`,
 *   `title`, `varNames`, `pairParameters`, `warnings`, `coords`, `dims`, `maxSubplots`, `modelGraph`.
 * @returns The page's HTML.
 * @throws {TypeError} / {RangeError} for malformed draws, settings or options, a `varNames`
 *   entry that names no variable, or a `pairParameters` label that is not a parameter.
 *
 * @example
 * const { draws, trace } = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
 * const html = reportHtml({ draws, trace, settings: { seed: 0, chains: 4, draws: 1000, warmup: 500, model: 'eight schools',
 *   versions: { stochax: '0.1.0', node: process.version } } });
 * writeFileSync('report.html', html);
 * // with an InferenceData: predictive checks and Pareto k too; only some variables
 * writeFileSync('report.html', reportHtml({ inferenceData: inferenceData(model, run, { pins: { y } }), varNames: ['mu', 'tau', 'theta'] }));
 * // coordinates: rows and plot titles thetaTilde[Choate], …
 * reportHtml({ draws, trace, coords: { school: ['Choate', …] }, dims: { thetaTilde: ['school'] } });
 * // a 300-group model: every group's plots instead of the first 40
 * reportHtml({ draws, trace, maxSubplots: Infinity });
 */
export function reportHtml(input: ReportInput): string {
  return reportHtmlWith(input);
}

/**
 * The report's plot, posterior predictive and LOO sections, when another thread computes them
 * (`reportPlots`, `ppcSection` and `looSection` of the same input, e.g. through the CLI's
 * outputs worker): each is called once, after every other section is built. @internal
 */
export interface ReportSections {
  readonly plots: () => string[];
  readonly ppc: () => string | undefined;
  readonly loo: () => string | undefined;
}

/** What the report's sections are made from: the input checked, its parameters flattened, the trace's statistics. */
function prepare(input: ReportInput) {
  const FN = 'reportHtml';
  if (input === null || typeof input !== 'object') fail('type', FN, 'input', 'must be { draws, trace?, summary?, settings? }', input);
  checkOptions(FN, input, ['draws', 'trace', 'summary', 'settings', 'title', 'pairParameters', 'inferenceData', 'varNames', 'warnings', 'coords', 'dims', 'maxSubplots', 'modelGraph']);
  const maxSubplots = input.maxSubplots ?? MAX_SUBPLOTS;
  if (typeof maxSubplots !== 'number') fail('type', FN, 'input.maxSubplots', 'must be a positive integer or Infinity', maxSubplots);
  if (!(maxSubplots >= 1 && (Number.isInteger(maxSubplots) || maxSubplots === Infinity))) fail('range', FN, 'input.maxSubplots', 'must be a positive integer or Infinity', maxSubplots);
  const idata = input.inferenceData;
  if (idata !== undefined && (idata === null || typeof idata !== 'object')) fail('type', FN, 'input.inferenceData', 'must be an InferenceData ({ posterior, sampleStats?, … })', idata);
  const drawsIn = input.draws ?? idata?.posterior;
  if (drawsIn === undefined) fail('type', FN, 'input.draws', 'must be given (or input.inferenceData)', drawsIn);
  const traceIn = input.trace ?? idata?.sampleStats;
  const given = { coords: input.coords ?? idata?.coords, dims: input.dims ?? idata?.dims };
  const labels = { ...(given.coords === undefined ? {} : { coords: given.coords }), ...(given.dims === undefined ? {} : { dims: given.dims }) };
  const allParams = flattenParameters(FN, drawsIn, labels);
  if (allParams.length === 0) fail('range', FN, 'input.draws', 'must have at least one part', drawsIn);
  const varNames = input.varNames;
  if (varNames !== undefined && (!Array.isArray(varNames) || varNames.some((v) => typeof v !== 'string'))) fail('type', FN, 'input.varNames', 'must be an array of variable names', varNames);
  const parts = [...new Set(allParams.map((p) => p.part))];
  varNames?.forEach((v, i) => { if (!parts.includes(v)) fail('range', FN, `input.varNames[${i}]`, `must name a variable (${parts.join(', ')})`, v); });
  const params = varNames === undefined ? allParams : varNames.flatMap((v) => allParams.filter((p) => p.part === v));
  if (params.length === 0) fail('range', FN, 'input.varNames', 'must name at least one variable', varNames);
  const { chains, draws } = params[0]!;
  const stats = sampleStats(FN, traceIn, draws, chains);
  const divergent = statValues(stats, 'diverging');
  const pairNames = input.pairParameters ?? params.slice(0, PAIR_DEFAULT).map((p) => p.name);
  if (!Array.isArray(pairNames)) fail('type', FN, 'input.pairParameters', 'must be an array of parameter labels', pairNames);
  const pairs = pairNames.map((n, i) => {
    const p = params.find((q) => q.name === n);
    if (p === undefined) fail('range', FN, `input.pairParameters[${i}]`, `must name a parameter (${params.slice(0, 6).map((q) => q.name).join(', ')}, …)`, n);
    return p;
  });
  return { FN, idata, drawsIn, traceIn, labels, allParams, varNames, parts, params, plotted: params.slice(0, maxSubplots), maxSubplots, chains, draws, stats, divergent, pairs };
}

/** One section of the page. */
function section(id: (typeof SECTIONS)[number][0], content: string): string {
  return `<section id="${id}"><h2>${escapeXml(SECTIONS.find(([s]) => s === id)![1])}</h2>${content}</section>`;
}

/**
 * The report's plot sections (trace and rank, marginals, autocorrelation, pairs, energy) of
 * `input`, as {@link reportHtml} makes them: the bulk of its work, which the CLI's outputs
 * worker makes beside the summary (`ReportSections.plots`). @internal
 */
export function reportPlots(input: ReportInput): string[] {
  return plotSections(prepare(input));
}

/** {@link reportPlots} of an input already prepared. */
function plotSections({ allParams, params, plotted, maxSubplots, chains, draws, stats, divergent, pairs }: ReturnType<typeof prepare>): string[] {
  const divOpt = divergent === undefined ? {} : { divergent };
  const energy = statValues(stats, 'energy');
  const capped = cappedNote(plotted.length, params.length);
  // Every parameter shown (one plot, a row each): a row per chain as ArviZ draws it, up to the subplot limit; beyond, one per parameter.
  const combined = chains > 1 && params.length > maxSubplots;
  return [
    section('forest', inline(forestPlot(params, { combined }))
      + (combined ? `<p class="note">All chains in one row per parameter (${params.length} parameters, more than maxSubplots, ${maxSubplots}); the trace plots show each chain.</p>` : '')),
    section('trace', capped + plotted.map((p) => `<div class="row">${inline(tracePlot(p, divOpt))}${inline(rankPlot(p))}</div>`).join('')),
    section('marginals', `${capped}<div class="grid">${plotted.map((p) => inline(histogramPlot(p))).join('')}</div>`),
    section('autocorrelation', draws < 2
      ? '<p class="note">One draw per chain: no autocorrelation.</p>'
      : `${capped}<div class="grid">${plotted.map((p) => inline(autocorrelationPlot(p))).join('')}</div>`),
    section('pairs', (pairs.length < 2
      ? '<p class="note">The pair plot needs at least two parameters.</p>'
      : inline(pairPlot(pairs, { ...divOpt, cell: pairs.length > 4 ? 120 : 150 }))) + leftOutNote(pairs.map((p) => p.name), params.map((p) => p.name), allParams.length - params.length)),
    section('energy', energy === undefined
      ? '<p class="note">The trace records no energy.</p>'
      : inline(energyPlot({ name: 'energy', chains, draws, values: energy }))
        + '<p class="note">E-BFMI below 0.3 suggests the sampler explores the energy distribution poorly.</p>'),
  ];
}

/** {@link reportHtml}, with the plots, PPC and LOO sections given by `sections` instead of computed here. @internal */
export function reportHtmlWith(input: ReportInput, sections?: ReportSections): string {
  const prepared = prepare(input);
  const { FN, idata, drawsIn, traceIn, labels, varNames, parts, params, chains, draws, stats, divergent } = prepared;
  let divergences: number | undefined;
  if (divergent !== undefined) divergences = divergent.reduce((a, b) => a + (b !== 0 && !Number.isNaN(b) ? 1 : 0), 0);
  if (input.summary !== undefined && !(input.summary instanceof Summary)) fail('type', FN, 'input.summary', 'must be a Summary (from summary())', input.summary);
  const table = input.summary ?? summarize(drawsIn, { ...(divergent === undefined ? {} : { divergences: divergences! }), ...(varNames === undefined ? {} : { varNames }), ...labels });
  divergences = table.divergences ?? divergences;
  const settings = input.settings;
  const flat = flatSettings(FN, settings);

  const model = typeof settings?.model === 'string' ? settings.model : undefined;
  const title = input.title ?? `stochax report${model === undefined ? '' : `: ${model}`}`;
  const get = (k: string) => flat.find(([name]) => name === k)?.[1];
  const lede = [
    `${chains} chain${chains === 1 ? '' : 's'} × ${draws} draws`,
    get('warmup') === undefined ? undefined : `${String(get('warmup'))} warm-up steps`,
    get('seed') === undefined ? undefined : `seed ${String(get('seed'))}`,
    divergences === undefined ? undefined : `${divergences} divergence${divergences === 1 ? '' : 's'}`,
  ].filter((s) => s !== undefined).join(' · ');

  const head = [
    section('warnings', warningsList(FN, input.warnings, drawsIn, traceIn, labels)),
    section('summary', summaryTable(table, divergences) + coordsTable(labels, parts)),
    section('sampler', samplerTable(stats, chains, draws)),
    ...(input.modelGraph === undefined ? [] : [section('model', inline(modelGraphPlot(input.modelGraph)))]),
  ];
  // Last, so that another thread computing them overlaps everything above.
  const plots = sections === undefined ? plotSections(prepared) : sections.plots();
  const ppc = sections === undefined ? ppcSection(FN, idata) : sections.ppc();
  const looPart = sections === undefined ? looSection(idata) : sections.loo();
  const shown = SECTIONS.filter(([id]) => (id !== 'ppc' || ppc !== undefined) && (id !== 'loo' || looPart !== undefined) && (id !== 'model' || input.modelGraph !== undefined));
  const body = [
    `<header><h1>${escapeXml(title)}</h1><p class="lede">${escapeXml(lede)}</p>`,
    `<nav>${shown.map(([id, name]) => `<a href="#${id}">${escapeXml(name)}</a>`).join('')}</nav></header>`,
    ...head,
    ...plots,
    ...(ppc === undefined ? [] : [section('ppc', ppc)]),
    ...(looPart === undefined ? [] : [section('loo', looPart)]),
    section('settings', settingsTable(settings, params, stats)),
  ];
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n`
    + `<title>${escapeXml(title)}</title>\n<style>${CSS}</style>\n</head>\n<body>\n${body.join('\n')}\n</body>\n</html>\n`;
}

/** The run's warnings as a list (computed from the draws and trace when not given, parameters named as in the table). */
function warningsList(fn: string, given: unknown, draws: unknown, trace: unknown, labels: CoordsDims): string {
  let warnings: readonly Pick<SamplingWarning, 'kind' | 'message'>[];
  if (given !== undefined) {
    if (!Array.isArray(given) || given.some((w) => w === null || typeof w !== 'object' || typeof w.kind !== 'string' || typeof w.message !== 'string')) {
      fail('type', fn, 'input.warnings', 'must be an array of { kind, message } warnings', given);
    }
    warnings = given;
  } else {
    try {
      warnings = samplingWarnings(draws as never, trace !== null && typeof trace === 'object' ? trace : undefined, labels);
    } catch (e) {
      return `<p class="note">The warnings could not be computed: ${escapeXml(e instanceof Error ? e.message : String(e))}</p>`;
    }
  }
  if (warnings.length === 0) return '<p class="note">None: R-hat, ESS, divergences, tree depth, E-BFMI and the chains\' agreement look healthy.</p>';
  return `<ul class="warnings">${warnings.map((w) => `<li class="warn"><b>${escapeXml(w.kind)}</b>: ${escapeXml(w.message)}</li>`).join('')}</ul>`;
}

/** The variables' dimensions and their coordinates (empty without `dims`). */
function coordsTable(labels: CoordsDims, parts: readonly string[]): string {
  const dims = Object.entries(labels.dims ?? {}).filter(([v]) => parts.includes(v));
  if (dims.length === 0) return '';
  const used = [...new Set(dims.flatMap(([, ds]) => ds))];
  const coords = labels.coords ?? {};
  const list = (xs: readonly (string | number)[]) => (xs.length > 12 ? `${xs.slice(0, 12).join(', ')}, … (${xs.length})` : xs.join(', '));
  return '<h3>Dimensions and coordinates</h3><table><tbody>'
    + dims.map(([v, ds]) => `<tr><th class="name">${escapeXml(v)}</th><td class="name">${escapeXml(ds.join(', '))}</td></tr>`).join('')
    + '</tbody></table><table><tbody>'
    + used.map((d) => `<tr><th class="name">${escapeXml(d)}</th><td class="name">${escapeXml(coords[d] === undefined ? 'no coordinates: positions 0, 1, …' : list(coords[d]!))}</td></tr>`).join('')
    + '</tbody></table>';
}

/** The note above each per-parameter section when `maxSubplots` left parameters out, or ''. */
function cappedNote(plotted: number, shown: number): string {
  if (plotted === shown) return '';
  return `<p class="note">Plots of the first ${plotted} of ${shown} parameters (maxSubplots, ArviZ's plot.max_subplots); the summary lists them all. `
    + 'Choose others with varNames (stochax sample --var-names) or plot more with maxSubplots (--max-subplots).</p>';
}

/** Parameters the pair plot shows when `pairParameters` is not given. */
const PAIR_DEFAULT = 4;

/** What the pair plot leaves out of the parameters shown (and how many `varNames` hid), or ''. */
function leftOutNote(inPlot: readonly string[], shown: readonly string[], hidden: number): string {
  const out = shown.filter((n) => !inPlot.includes(n));
  const notes: string[] = [];
  if (out.length > 0) {
    const list = out.length > 12 ? `${out.slice(0, 12).join(', ')} and ${out.length - 12} more` : out.join(', ');
    notes.push(`The pair plot shows ${inPlot.length} of ${shown.length} parameters; left out: ${list} (choose them with pairParameters or varNames).`);
  }
  if (hidden > 0) notes.push(`${hidden} parameter${hidden === 1 ? '' : 's'} not in varNames ${hidden === 1 ? 'is' : 'are'} not shown in this report.`);
  return notes.map((n) => `<p class="note">${escapeXml(n)}</p>`).join('');
}

/** Observed vs replicated densities for every observed node with replicates, or undefined. @internal */
export function ppcSection(fn: string, idata: InferenceData | undefined): string | undefined {
  const pp = idata?.posteriorPredictive, obs = idata?.observedData;
  if (!isPartRecord(pp) || !isPartRecord(obs)) return undefined;
  const names = Object.keys(pp).filter((k) => k in obs);
  if (names.length === 0) return undefined;
  const plots = names.map((k) => {
    const rep = pp[k]!, o = obs[k]!;
    if (rep.ndim < 2 || rep.size !== rep.shape[0]! * rep.shape[1]! * o.size) fail('range', fn, `input.inferenceData.posteriorPredictive.${k}`, `must be [draws, chains, ...] replicates of observedData.${k} (shape [${o.shape.join(', ')}])`, [...rep.shape]);
    return inline(ppcRowsPlot(k, float64Values(o), float64Values(rep), rep.shape[0]! * rep.shape[1]!));
  });
  return `<div class="grid">${plots.join('')}</div><p class="note">Each replicated data set is drawn from the model at one posterior draw `
    + '(samplePosteriorPredictive); the observed data should look like a typical replicate.</p>';
}

/** elpd_loo and the Pareto k plot of every observed node's log-likelihood, or undefined. @internal */
export function looSection(idata: InferenceData | undefined): string | undefined {
  const ll = idata?.logLikelihood;
  if (!isPartRecord(ll) || Object.keys(ll).length === 0) return undefined;
  const parts = Object.keys(ll).map((k) => {
    const r = psisLoo(ll as Record<string, Tensor>, { varName: k, posterior: idata!.posterior });   // relative ESS from the posterior, as az.loo
    const k7 = Array.from(r.paretoK.data as ArrayLike<number>).filter((v) => v > r.goodK).length;
    const head = `<p class="note${r.warning ? ' warn' : ''}">${escapeXml(k)}: elpd_loo ${num(r.elpdLoo, 2)} (SE ${num(r.se, 2)}), p_loo ${num(r.pLoo, 2)}; `
      + `${k7} of ${r.nDataPoints} observation${r.nDataPoints === 1 ? '' : 's'} with Pareto k above ${num(r.goodK, 2)}.</p>`;
    return head + inline(paretoKPlot(r.paretoK.data as ArrayLike<number>, { threshold: r.goodK, title: `${k}: Pareto k` }));
  });
  return parts.join('') + '<p class="note">PSIS-LOO (Vehtari, Gelman and Gabry 2017); observations with k above the threshold have unreliable '
    + 'leave-one-out estimates: the model is sensitive to them.</p>';
}
