/**
 * `inferenceData`: a whole ArviZ InferenceData from a joint model and its `windowedAdaptiveNuts`
 * run — the posterior with the derived values, the sampler statistics, the pointwise
 * log-likelihood, the posterior predictive, the prior and prior predictive, and the observed
 * data — ready for `inferenceDataJson` (the file `az.from_json` reads) and `reportHtml`.
 */
import { checkBoolean, checkNonNegativeInteger, checkOptions, fail } from '../../src/checks.js';
import type { Seed } from '../../src/samplers/seeds.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { isPartRecord } from '../../mcmc/diagnostics/draws.js';
import { JointDistribution } from '../../distributions/joint/joint-distribution.js';
import { JointDistributionPinned } from '../../distributions/joint/joint-distribution-pinned.js';
import type { PartialValues, StructKind } from '../../distributions/joint/values.js';
import {
  computeDeterministics, logLikelihood, samplePosteriorPredictive, samplePriorPredictive, type PosteriorDraws, type PredictiveModel,
} from '../../mcmc/predictive.js';
import { inferDiscrete, marginalLogLikelihood } from '../../mcmc/infer-discrete.js';
import { enumerationPlan } from '../../distributions/enumerate/enumerate.js';
import type { CoordValues, InferenceData } from './inference-data-groups.js';
import { checkCoordsDims } from '../../mcmc/diagnostics/coords.js';

/** What {@link inferenceData} reads from a run: `windowedAdaptiveNuts`' result (or the same fields from elsewhere). */
export interface SamplingRun {
  /** Posterior draws of the unpinned nodes, `[draws, chains, ...event]`. */
  readonly draws: PosteriorDraws;
  /** The sampler's trace (written as `sample_stats`). */
  readonly trace?: unknown;
  /** Derived values per draw (computed from `draws` when absent and the model has any). */
  readonly deterministics?: Readonly<Record<string, Tensor>>;
  /** Whether the log density ran as generated code, and why not (`windowedAdaptiveNuts`' fields; not written). */
  readonly compiled?: boolean;
  readonly compileReason?: string;
  /** The run's warnings (accepted so a `windowedAdaptiveNuts` result passes as is; `inferenceDataJson`'s `warnings` option writes them). */
  readonly warnings?: unknown;
  /** The per-chain sampler's rejected proposals by kind (accepted so a result can be passed as it is; not written). */
  readonly rejections?: unknown;
  /** `windowedAdaptiveNuts`' report of the threads its chains ran on (not written). */
  readonly parallel?: unknown;
  /** The per-chain engine's resume state (not written). */
  readonly resume?: unknown;
  /** The Gibbs steps' report (nodes, acceptance rates; accepted so a result can be passed as it is; not written). */
  readonly gibbs?: unknown;
  /** `windowedAdaptiveNuts`' note on missing values imputed (their `y_missing` draws are in `draws`; not written). */
  readonly imputed?: unknown;
  /**
   * An approximate posterior's log density and the approximation's log density per draw,
   * `[draws, chains]` (`laplace()`'s result, and by shape Pathfinder's and ADVI's): written as
   * `sample_stats.log_p` and `log_q`. A run with both is an approximate result: its other
   * fields (`paretoK`, `mode`, `covariance`, …) are accepted and not written.
   */
  readonly logP?: Tensor;
  readonly logQ?: Tensor;
  /** The run's `coords` and `dims` (`windowedAdaptiveNuts` carries its options'): the defaults of the options of those names. */
  readonly coords?: Readonly<Record<string, CoordValues>>;
  readonly dims?: Readonly<Record<string, readonly string[]>>;
}

/** True for a result with per-draw `logP` and `logQ` (laplace's shape). */
function isApproximate(run: object): run is SamplingRun & { logP: Tensor; logQ: Tensor } {
  const r = run as { logP?: unknown; logQ?: unknown };
  return r.logP instanceof Tensor && r.logQ instanceof Tensor;
}

/** Options of {@link inferenceData}. */
export interface InferenceDataOptions {
  /** The observed data by node name (adds to a pinned model's pins). */
  readonly pins?: PartialValues;
  /** Seed of the posterior predictive and prior draws (any seed `sanitizeSeed` accepts; each function salts it). */
  readonly seed?: Seed;
  /** Include the pointwise log-likelihood of the observed nodes (default true). */
  readonly logLikelihood?: boolean;
  /** Include replicated data for every draw (default true). */
  readonly posteriorPredictive?: boolean;
  /** Prior draws to include (`prior` and `prior_predictive` groups; default 500, PyMC's; 0: none). */
  readonly prior?: number;
  /** The chain index of each chain in the draws (default 0, 1, …), for the posterior predictive keys of a `chainIndex` run. */
  readonly chains?: readonly number[];
  /** Labels per named dimension (ArviZ's `coords`): unique strings or finite numbers; default `run.coords`. */
  readonly coords?: Readonly<Record<string, CoordValues>>;
  /**
   * Dimension names per variable after chain and draw (ArviZ's `dims`), e.g. `{ theta: ['school'],
   * y: ['school'] }`; default `run.dims`. Each variable must be a node or derived value of the
   * model, with one name per event axis; a dimension with coordinates has as many as the axis.
   */
  readonly dims?: Readonly<Record<string, readonly string[]>>;
}

const FN = 'inferenceData';

/**
 * Assembles an InferenceData from a joint model and a sampling run (ArviZ's `from_numpyro` /
 * PyMC's `sample(..., idata_kwargs)`): `posterior` = the draws and the model's derived values
 * (`deterministic`); `sampleStats` = the trace; for the observed (pinned) nodes,
 * `logLikelihood` (`logLikelihood`), `posteriorPredictive` (`samplePosteriorPredictive` with
 * `seed`) and `observedData`; `prior` / `priorPredictive` = `samplePriorPredictive(model,
 * { seed, samples: prior })` split into the latent nodes (with derived values) and the observed
 * ones. Nothing here changes the draws; the predictive draws depend only on `seed` (and each
 * chain's index: `chains`).
 *
 * A model whose discrete nodes the sampler summed out (automatic enumeration) gets them back in
 * the posterior from `inferDiscrete` (seeded with `seed` and `chains`), its derived values
 * computed with them, each observation's marginal log-likelihood (`marginalLogLikelihood`: a
 * RangeError where observations share a discrete node — pass `logLikelihood: false`), and
 * replicates of the observed nodes only.
 *
 * @param model - the joint distribution that was sampled (or it pinned to the data).
 * @param run - `{ draws, trace?, deterministics? }`, e.g. `windowedAdaptiveNuts`' result, or an
 *   approximate posterior's (`laplace()`'s: `{ draws, logP, logQ, … }`, one chain), whose `logP`
 *   and `logQ` become `sample_stats.log_p` and `log_q`.
 * @param options - `pins`, `seed`, `logLikelihood`, `posteriorPredictive`, `prior`, `chains`, `coords`, `dims`
 *   (default the run's: a `windowedAdaptiveNuts` result carries the `coords` and `dims` it was given).
 * @returns An {@link InferenceData} (stochax's layout) for `inferenceDataJson` and `reportHtml`.
 * @throws {TypeError} for a model that is not a joint distribution, an unknown option, or
 *   options of the wrong type.
 * @throws {RangeError} for draws or pins that do not fit the model (see `logLikelihood`), `dims`
 *   naming a variable the model does not have, or a dimension that does not fit its axis (naming
 *   the variable, the dimension and both sizes), repeated coordinates.
 * @example
 * import { inferenceData, inferenceDataJson, reportHtml } from 'stochax/report';
 * import { windowedAdaptiveNuts } from 'stochax/mcmc';
 * import { nonCentered as model, y } from './eight-schools.js';
 * const run = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
 * const idata = inferenceData(model, run, { pins: { y }, seed: 0, dims: { theta: ['school'], thetaTilde: ['school'], y: ['school'] } });
 * idata.logLikelihood!.y.shape;   // [1000, 4, 8]
 * writeFileSync('idata.json', inferenceDataJson(idata));
 * // an approximate posterior: one chain, logP/logQ as sample_stats.log_p/log_q
 * const approx = inferenceData(model, laplace(model, { pins: { y }, seed: 0 }), { pins: { y }, seed: 0 });
 * Object.keys(approx.sampleStats as object);   // ['logP', 'logQ']
 */
export function inferenceData(model: PredictiveModel, run: SamplingRun, options?: InferenceDataOptions): InferenceData {
  return inferenceDataStaged(model, run, options);
}

/** The stages at which {@link inferenceDataStaged} hands out the groups computed so far. @internal */
export type InferenceDataStage = 'posterior' | 'logLikelihood' | 'posteriorPredictive';

/**
 * {@link inferenceData}, calling `onStage` with the groups each later output needs as soon as
 * they are computed: the posterior with the sample statistics, coords and dims (the report's
 * plots), then the log-likelihood (LOO), then the posterior predictive with the observed data
 * (the PPC plot), each a new object, before the next draws (the CLI's outputs worker starts on
 * each then). @internal
 */
export function inferenceDataStaged(model: PredictiveModel, run: SamplingRun, options?: InferenceDataOptions,
  onStage?: (stage: InferenceDataStage, partial: InferenceData) => void): InferenceData {
  const o = checkOptions(FN, options, ['pins', 'seed', 'logLikelihood', 'posteriorPredictive', 'prior', 'chains', 'coords', 'dims']);
  let pinned: JointDistributionPinned<StructKind> | undefined;
  let jd: JointDistribution<StructKind>;
  if (model instanceof JointDistributionPinned) { pinned = model as JointDistributionPinned<StructKind>; jd = pinned.distribution as JointDistribution<StructKind>; }
  else if (model instanceof JointDistribution) jd = model as JointDistribution<StructKind>;
  else return fail('type', FN, 'model', 'must be a joint distribution (e.g. JointDistributionNamed) or a pinned one', model);
  if (run === null || typeof run !== 'object') fail('type', FN, 'run', 'must be { draws, trace?, deterministics? } (windowedAdaptiveNuts\' result)', run);
  const approximate = isApproximate(run);
  if (!approximate) checkOptions(FN, run, ['draws', 'trace', 'deterministics', 'compiled', 'compileReason', 'warnings', 'rejections', 'parallel', 'resume', 'gibbs', 'imputed', 'logP', 'logQ', 'coords', 'dims']);
  const withLogLik = checkBoolean(FN, 'logLikelihood', o.logLikelihood ?? true);
  const withPredictive = checkBoolean(FN, 'posteriorPredictive', o.posteriorPredictive ?? true);
  const priorSamples = checkNonNegativeInteger(FN, 'prior', o.prior ?? 500);
  const full = o.pins === undefined ? pinned : (pinned ?? jd).experimentalPin(o.pins) as JointDistributionPinned<StructKind>;
  const observed = full === undefined ? {} : full.pins;
  const observedNames = Object.keys(observed);
  // The posterior by name: array-structured draws are the unpinned nodes in model order.
  const draws = run.draws;
  let posterior: Record<string, Tensor>;
  if (Array.isArray(draws)) {
    const free = full === undefined ? jd.nodeNames : full.unpinnedNames;
    posterior = Object.fromEntries((draws as (Tensor | undefined)[]).map((t, j) => [free[j]!, t]).filter(([, t]) => t !== undefined)) as Record<string, Tensor>;
  } else {
    if (draws === null || typeof draws !== 'object') fail('type', FN, 'run.draws', 'must be posterior draws by node name', draws);
    posterior = { ...(draws as Record<string, Tensor>) };
  }
  // Discrete nodes the sampler summed out (enumeration) come back from their conditional posterior (inferDiscrete).
  const sites = full === undefined ? [] : enumerationPlan(FN, full)?.sites.map((s) => s.name) ?? [];
  const enumerated = sites.length > 0 && !Array.isArray(draws) && sites.every((n) => !(n in (draws as object)));
  if (enumerated) {
    const recovered = inferDiscrete(full!, draws, { seed: o.seed, ...(o.chains === undefined ? {} : { chains: o.chains }) });
    for (const n of sites) posterior[n] = recovered[n]!;
  }
  // The sampler's derived values saw the enumerated nodes' placeholders: recompute them with the recovered values.
  const derived = (enumerated ? undefined : run.deterministics) ?? computeDeterministics(full ?? jd, enumerated ? { ...(draws as Record<string, Tensor>), ...Object.fromEntries(sites.map((n) => [n, posterior[n]!])) } : draws);
  Object.assign(posterior, derived);
  const idata: { -readonly [K in keyof InferenceData]: InferenceData[K] } = { posterior };
  if (approximate) idata.sampleStats = { ...(isPartRecord(run.trace) ? run.trace : {}), logP: run.logP, logQ: run.logQ };
  else if (run.trace !== undefined) idata.sampleStats = run.trace;
  // Every variable of the model may have dims (a typo is an error); sizes from the posterior and the data.
  const shapes = new Map<string, readonly number[] | undefined>([...jd.nodeNames, ...jd.deterministicNames].map((n) => [n, undefined]));
  for (const [k, t] of Object.entries(posterior)) shapes.set(k, t.shape.slice(2));
  for (const [k, t] of Object.entries(observed)) shapes.set(k, t.shape);
  const { coords, dims } = checkCoordsDims(FN, o.coords ?? run.coords, o.dims ?? run.dims, shapes, o.coords === undefined && o.dims === undefined ? 'run.' : 'options.');
  const labels = { ...(coords === undefined ? {} : { coords }), ...(dims === undefined ? {} : { dims }) };
  onStage?.('posterior', { posterior, ...(idata.sampleStats === undefined ? {} : { sampleStats: idata.sampleStats }), ...labels });
  if (observedNames.length > 0) {
    // With enumerated nodes: each observation's likelihood with its discrete parents summed out, as NUTS sampled it.
    if (withLogLik) {
      idata.logLikelihood = enumerated ? marginalLogLikelihood(full!, draws) : logLikelihood(full!, draws);
      onStage?.('logLikelihood', { posterior, logLikelihood: idata.logLikelihood });
    }
    if (withPredictive) {
      // Only the observed nodes: enumerated ones are replicated on the way (the model's predictive), not kept.
      const replicated = samplePosteriorPredictive(full!, draws, { seed: o.seed, ...(o.chains === undefined ? {} : { chains: o.chains }) });
      idata.posteriorPredictive = Object.fromEntries(Object.entries(replicated).filter(([k]) => observedNames.includes(k)));
      onStage?.('posteriorPredictive', { posterior, posteriorPredictive: idata.posteriorPredictive, observedData: { ...observed } });
    }
  }
  if (priorSamples > 0) {
    const prior = samplePriorPredictive(jd, { seed: o.seed, samples: priorSamples });
    idata.prior = Object.fromEntries(Object.entries(prior).filter(([k]) => !observedNames.includes(k)));
    if (observedNames.length > 0) idata.priorPredictive = Object.fromEntries(Object.entries(prior).filter(([k]) => observedNames.includes(k)));
  }
  if (observedNames.length > 0) idata.observedData = { ...observed };
  if (coords !== undefined) idata.coords = coords;
  if (dims !== undefined) idata.dims = dims;
  return idata;
}
