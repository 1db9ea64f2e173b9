/**
 * The short `report.html` of `stochax optimize | laplace | pathfinder | variational`: the method
 * and its results, the summary table (the point, for optimize), a forest plot of the draws, the
 * model graph, the warnings and the settings. No sampler plots: the draws are one chain of
 * independent draws (or one point), and the sampler's diagnostics do not apply.
 */
import { checkOptions, fail } from '../../src/checks.js';
import { Summary } from '../../mcmc/diagnostics/summary.js';
import { flattenParameters, type ReportDraws } from './parameters.js';
import { forestPlot } from './plots/forest.js';
import { modelGraphPlot } from './plots/model-graph.js';
import { escapeXml } from './plots/svg.js';
import type { ModelGraph } from '../../distributions/joint/model-graph.js';
import { CSS, inline, summaryTable } from './report-html.js';
import { flatSettings, type RunSettings } from './settings.js';

/** What {@link approximateReportHtml} reports on. */
export interface ApproximateReportInput {
  /** `optimize`, `laplace`, `pathfinder` or `variational` (any name is shown as given). */
  readonly method: string;
  /** The draws `[draws, chains, ...event]` (for optimize, the point as one draw). */
  readonly posterior: ReportDraws;
  /** The summary table of the draws (omit for a point: the report lists the values instead). */
  readonly summary?: Summary;
  /** Settings and results, as in draws.json's attrs (seed, model, pareto_k, converged, …). */
  readonly settings?: RunSettings;
  readonly warnings?: readonly { readonly kind: string; readonly message: string }[];
  /** Only these variables (ArviZ's var_names). */
  readonly varNames?: readonly string[];
  /** The model's graph (`modelGraph(model, { pins, dims })`): drawn in a `model` section. */
  readonly modelGraph?: ModelGraph;
}

/**
 * The report page of an optimisation or approximate-inference run: one self-contained HTML
 * string (inline CSS, no scripts, no network) with the warnings, the summary table (for a point:
 * parameter and value), for draws a forest plot (ArviZ's, one row per parameter), with
 * `modelGraph` the model's graph, and the settings and results.
 *
 * @throws {TypeError} for a malformed input or an unknown field.
 * @throws {RangeError} for a `varNames` entry that names no variable.
 * @example
 * const fit = laplace(model, { pins: { y }, seed: 0 });
 * const html = approximateReportHtml({ method: 'laplace', posterior: fit.draws, summary: summary(fit.draws),
 *   settings: { seed: 0, pareto_k: fit.paretoK } });
 */
export function approximateReportHtml(input: ApproximateReportInput): string {
  const FN = 'approximateReportHtml';
  if (input === null || typeof input !== 'object') fail('type', FN, 'input', 'must be { method, posterior, summary?, settings?, warnings? }', input);
  checkOptions(FN, input, ['method', 'posterior', 'summary', 'settings', 'warnings', 'varNames', 'modelGraph']);
  if (typeof input.method !== 'string') fail('type', FN, 'input.method', 'must be a string', input.method);
  if (input.summary !== undefined && !(input.summary instanceof Summary)) fail('type', FN, 'input.summary', 'must be a Summary (from summary())', input.summary);
  const params = flattenParameters(FN, input.posterior);
  const parts = [...new Set(params.map((p) => p.part))];
  input.varNames?.forEach((v, i) => { if (!parts.includes(v)) fail('range', FN, `input.varNames[${i}]`, `must name a variable (${parts.join(', ')})`, v); });
  const shown = input.varNames === undefined ? params : input.varNames.flatMap((v) => params.filter((p) => p.part === v));
  const settings = flatSettings(FN, input.settings);
  const model = settings.find(([k]) => k === 'model')?.[1];
  const title = `stochax ${input.method}${model === undefined ? '' : `: ${String(model)}`}`;
  const first = params[0]!;
  const lede = first.draws === 1 && first.chains === 1 ? 'one point' : `${first.chains} chain${first.chains === 1 ? '' : 's'} × ${first.draws} draws`;
  const warnings = input.warnings ?? [];
  const table = input.summary !== undefined
    ? summaryTable(input.summary, undefined, false) + '<p class="note">The draws are independent draws of the approximation, not of the posterior: judge it by Pareto k̂ (below 0.7).</p>'
    : `<table><thead><tr><th class="name"></th><th>value</th></tr></thead><tbody>${shown.map((p) => `<tr><td class="name">${escapeXml(p.name)}</td><td>${escapeXml(String(p.values[0]))}</td></tr>`).join('')}</tbody></table>`;
  const body = [
    `<header><h1>${escapeXml(title)}</h1><p class="lede">${escapeXml(lede)}</p></header>`,
    `<section id="warnings"><h2>Warnings</h2>${warnings.length === 0 ? '<p class="note">None.</p>'
      : `<ul class="warnings">${warnings.map((w) => `<li class="warn">[${escapeXml(w.kind)}] ${escapeXml(w.message)}</li>`).join('')}</ul>`}</section>`,
    `<section id="summary"><h2>${input.summary !== undefined ? 'Summary' : 'Point'}</h2>${table}</section>`,
    ...(input.summary === undefined ? [] : [`<section id="forest"><h2>Forest plot</h2>${inline(forestPlot(shown, { combined: true }))}</section>`]),
    ...(input.modelGraph === undefined ? [] : [`<section id="model"><h2>Model graph</h2>${inline(modelGraphPlot(input.modelGraph))}</section>`]),
    `<section id="settings"><h2>Method, settings and results</h2><table><tbody>${settings.map(([k, v]) => `<tr><th class="name">${escapeXml(k)}</th><td class="name">${escapeXml(String(v))}</td></tr>`).join('')}</tbody></table></section>`,
  ];
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n`
    + `<title>${escapeXml(title)}</title>\n<style>${CSS}</style>\n</head>\n<body>\n${body.join('\n')}\n</body>\n</html>\n`;
}
