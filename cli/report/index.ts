/**
 * `stochax/report`: what `stochax sample` writes after sampling, as a library — `draws.csv`,
 * `draws.json` (an ArviZ InferenceData: `inferenceData` assembles it from a model and a run,
 * `inferenceDataJson` writes the file `az.from_json` reads, `fromArvizJson` reads it back) and
 * `report.html` (`reportHtml`: summary table and SVG plots, posterior predictive checks and
 * Pareto k), plus the plots on their own. It imports only from the library's layers
 * (`src/`, `distributions/`, `mcmc/`); the CLI is its first user.
 */
export { toDrawsCsv, toArvizJson, fromArvizJson, type ArvizJsonOptions, type ArvizDraws } from './draws-files.js';
export { reportHtml, type ReportInput } from './report-html.js';
export { approximateReportHtml, type ApproximateReportInput } from './approximate-report.js';
export { inferenceDataJson, inferenceDataNetcdf, type InferenceData, type InferenceDataGroups, type InferenceDataJsonOptions, type InferenceDataNetcdfOptions, type CoordValues } from './inference-data-groups.js';
export { inferenceData, type InferenceDataOptions, type SamplingRun } from './inference-data.js';
export type { RunSettings } from './settings.js';
export { flattenParameters, type FlatParameter, type ChainSeries, type ReportDraws } from './parameters.js';
export { sampleStats, statValues, arvizStatName, traceKey, type SampleStat } from './sample-stats.js';
export { tracePlot, type TracePlotOptions } from './plots/trace.js';
export { rankPlot, ranks, type RankPlotOptions } from './plots/rank.js';
export { sbcRankHistogram, type SbcRankHistogramOptions } from './plots/sbc-rank.js';
export { sbcReportHtml } from './sbc-report.js';
export { histogramPlot, type HistogramPlotOptions } from './plots/histogram.js';
export { gaussianKde, scottBandwidth } from './plots/kde.js';
export { autocorrelation, autocorrelationPlot, type AutocorrelationPlotOptions } from './plots/autocorrelation.js';
export { pairPlot, type PairPlotOptions } from './plots/pair.js';
export { energyPlot, energyBfmi, type EnergyPlotOptions } from './plots/energy.js';
export { modelGraphPlot } from './plots/model-graph.js';
export { forestPlot, forestRows, type ForestRow, type ForestOptions, type ForestPlotOptions } from './plots/forest.js';
export { ppcPlot, type PpcSeries, type PpcPlotOptions } from './plots/ppc.js';
export { paretoKPlot, type ParetoKPlotOptions } from './plots/pareto-k.js';
