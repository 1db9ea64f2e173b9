/**
 * Simulation-based calibration (Talts, Betancourt, Simpson, Vehtari and Gelman 2018, "Validating
 * Bayesian inference algorithms with simulation-based calibration"), with the names and outputs
 * of the R package `SBC` (Modrák et al.): per simulation, draw parameters from the prior and data
 * from the likelihood, sample the posterior given the data, and rank the true value among the
 * thinned posterior draws. When model and sampler are right the ranks are uniform.
 */
import { checkFunction, checkNonNegativeInteger, checkOptions, fail } from '../src/checks.js';
import { foldIn, sanitizeSeed, splitSeed, type Seed } from '../src/samplers/seeds.js';
import { randint } from '../src/random/randint.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { JointDistribution } from '../distributions/joint/joint-distribution.js';
import { JointDistributionPinned } from '../distributions/joint/joint-distribution-pinned.js';
import type { StructKind } from '../distributions/joint/values.js';
import { windowedAdaptiveNuts, type WindowedAdaptiveNutsOptions } from './windowed-adaptive-nuts.js';
import { componentChains, drawsLayout, float64Values } from './diagnostics/draws.js';
import { essBulkOf, rhatRankOf } from './diagnostics/internal/arviz-stats.js';
import { mean as meanOf, variance } from './diagnostics/internal/chains.js';
import { label } from './diagnostics/summary.js';
import { rankUniformity, type RankUniformity } from './diagnostics/rank-uniformity.js';

const FN = 'sbc';

/** `windowedAdaptiveNuts` options `sbc` passes on to each simulation's run (it sets `pins` and `seed` itself). */
export type SbcSamplerOptions = Omit<WindowedAdaptiveNutsOptions, 'pins' | 'seed' | 'previous' | 'signal' | 'chainIndex' | 'currentState' | 'traceFn' | 'onWarning' | 'warn' | 'onProgress'>;

export interface SbcOptions {
  /**
   * The data: names of the nodes simulated from the likelihood and pinned for the sampler. For a
   * pinned model the default is its pinned nodes (their values are ignored: each simulation
   * draws its own); otherwise required.
   */
  readonly pins?: readonly string[];
  /** Number of simulations (R SBC's `n_sims`). */
  readonly simulations: number;
  /**
   * Keep every `thin`-th draw of each chain for the ranks (R SBC's `thin_ranks`, default 10), so
   * the kept draws are nearly independent; ranks go from 0 to maxRank = chains · ⌊nDraws/thin⌋.
   */
  readonly thin?: number;
  /** Seed; simulation i uses `foldIn(sanitizeSeed(seed, { salt: 'sbc' }), i)` only. */
  readonly seed?: Seed;
  /** Options for `windowedAdaptiveNuts` (chains, warm-up, draws, …); its defaults otherwise. */
  readonly sampler?: SbcSamplerOptions;
  /**
   * The model the sampler fits (default: `model`). It must have the same nodes; a different one
   * (another prior, say) is how to see that SBC detects a wrong posterior.
   */
  readonly fitModel?: JointDistribution<StructKind> | JointDistributionPinned<StructKind>;
  /** χ² bins (see `rankUniformity`; default there). */
  readonly bins?: number;
  /** Monte Carlo replicates of the ECDF test (default 1000; 0 skips it). */
  readonly ecdfReplicates?: number;
  /** Called after each simulation with the number done and the total. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** One row per simulation and scalar parameter (R SBC's `stats`). */
export interface SbcStatsRow {
  /** 0-based simulation index. */
  readonly simId: number;
  /** ArviZ-style label: `mu`, `theta[2]`. */
  readonly variable: string;
  /** The value drawn from the prior. */
  readonly simulatedValue: number;
  /** Kept posterior draws below the simulated value (ties split at random), 0…maxRank. */
  readonly rank: number;
  /** (simulatedValue − mean) / sd of the posterior draws. */
  readonly zScore: number;
  readonly mean: number;
  readonly sd: number;
  /** Rank-normalized split R-hat and bulk ESS of this simulation's draws. */
  readonly rhat: number;
  readonly essBulk: number;
  readonly maxRank: number;
}

/** Per simulation: what the sampler reported (R SBC's `backend_diagnostics`). */
export interface SbcBackendDiagnostics {
  readonly simId: number;
  /** Divergent transitions after warm-up. */
  readonly nDivergent: number;
  /** Kinds of the run's sampling warnings (`rhat`, `ess-bulk`, `divergences`, …). */
  readonly warnings: readonly string[];
}

/** A problem seen in some simulations. */
export interface SbcWarning {
  readonly kind: 'divergences' | 'low-ess' | 'rhat' | 'sampler';
  readonly message: string;
  /** The simulations concerned (0-based). */
  readonly simulations: readonly number[];
}

export interface SbcResult {
  /** One row per simulation and scalar parameter, simulation-major. */
  readonly stats: readonly SbcStatsRow[];
  /** The scalar parameters' labels, in model order. */
  readonly variables: readonly string[];
  /** Ranks by variable, one per simulation. */
  readonly ranks: Readonly<Record<string, Int32Array>>;
  /** The largest possible rank (number of kept draws per simulation). */
  readonly maxRank: number;
  /** Uniformity tests of each variable's ranks (χ² on bins and the ECDF test). */
  readonly tests: Readonly<Record<string, RankUniformity>>;
  readonly backendDiagnostics: readonly SbcBackendDiagnostics[];
  /** Divergences, ESS below the number of kept draws (ranks then are not from independent draws), R-hat > 1.01. `[]` when none. */
  readonly warnings: readonly SbcWarning[];
}

type AnyJoint = JointDistribution<StructKind> | JointDistributionPinned<StructKind>;

function jointOf(arg: string, model: unknown): { jd: JointDistribution<StructKind>; pinnedNames: readonly string[] } {
  if (model instanceof JointDistributionPinned) {
    const p = model as JointDistributionPinned<StructKind>;
    return { jd: p.distribution as JointDistribution<StructKind>, pinnedNames: Object.keys(p.pins) };
  }
  if (model instanceof JointDistribution) return { jd: model as JointDistribution<StructKind>, pinnedNames: [] };
  return fail('type', FN, arg, 'must be a joint distribution (e.g. JointDistributionNamed) or a pinned one', model);
}

/**
 * Simulation-based calibration of `windowedAdaptiveNuts` on a model (Talts et al. 2018; names
 * and outputs after the R `SBC` package). For simulation i = 0…simulations−1, with
 * kᵢ = `foldIn(sanitizeSeed(seed, { salt: 'sbc' }), i)` and `[prior, fit, ties] = splitSeed(kᵢ, { n: 3 })`:
 *
 * 1. draw every node from the joint, `model.sample([], { seed: prior })` — the parameters θ̃ and,
 *    for the data nodes (`pins`), a data set y from the likelihood;
 * 2. sample `fitModel` (default `model`) pinned to y, `windowedAdaptiveNuts(fitModel, { ...sampler,
 *    pins: y, seed: fit })`;
 * 3. keep every `thin`-th draw of each chain and, per scalar parameter, count the kept draws
 *    below θ̃ (ties, for discrete values, split uniformly at random with `ties`).
 *
 * Simulation i depends only on the seed and i, so the result is the same whatever `simulations`
 * is (the first n simulations of a longer run are a shorter run). Each variable's ranks get
 * `rankUniformity`'s tests; `warnings` name the simulations with divergences, R-hat > 1.01 or a
 * bulk ESS below the number of kept draws (then the kept draws are autocorrelated and ranks pile
 * up in the middle or the tails even for a right posterior: thin more or draw more).
 *
 * @throws {TypeError} for a model that is not a joint distribution, an unknown option, bad values.
 * @throws {RangeError} for `simulations` < 1, `thin` < 1, no data nodes, names of unknown nodes,
 *   a `fitModel` with other nodes, or fewer than `thin` draws per chain.
 * @example
 * import { JointDistributionNamed, Normal, Sample } from 'stochax/distributions';
 * import { sbc } from 'stochax/mcmc';
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 1 }),
 *   y: ({ mu }) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: 5 }),
 * });
 * const r = sbc(model, { pins: ['y'], simulations: 100, thin: 5, seed: 1,
 *   sampler: { nChains: 1, numAdaptationSteps: 100, nDraws: 100 } });
 * r.ranks.mu;          // Int32Array(100), each in 0…r.maxRank (20)
 * r.tests.mu.pValue;   // χ² test of uniform ranks: small values mean a miscalibrated posterior
 */
export function sbc(model: AnyJoint, options: SbcOptions): SbcResult {
  const o = checkOptions(FN, options, ['pins', 'simulations', 'thin', 'seed', 'sampler', 'fitModel', 'bins', 'ecdfReplicates', 'onProgress']);
  if (options === undefined) fail('type', FN, 'options', 'must be given (at least `simulations`)', options);
  const { jd, pinnedNames } = jointOf('model', model);
  const S = checkNonNegativeInteger(FN, 'simulations', o.simulations);
  if (S < 1) fail('range', FN, 'simulations', 'must be at least 1', o.simulations);
  const thin = checkNonNegativeInteger(FN, 'thin', o.thin ?? 10);
  if (thin < 1) fail('range', FN, 'thin', 'must be at least 1', o.thin);
  if (o.onProgress !== undefined) checkFunction(FN, 'onProgress', o.onProgress);
  const names = jd.nodeNames;
  const dataNames = o.pins ?? pinnedNames;
  if (!Array.isArray(dataNames)) fail('type', FN, 'pins', 'must be an array of node names (the data nodes)', o.pins);
  if (dataNames.length === 0) fail('range', FN, 'pins', `must name the data nodes (model "${jd.name}" has ${names.join(', ')})`, o.pins);
  for (const n of dataNames) if (!names.includes(n)) fail('range', FN, 'pins', `names an unknown node "${String(n)}" (model "${jd.name}" has ${names.join(', ')})`, o.pins);
  const fitJd = o.fitModel === undefined ? jd : jointOf('fitModel', o.fitModel).jd;
  if (fitJd.nodeNames.length !== names.length || fitJd.nodeNames.some((n, i) => n !== names[i])) {
    fail('range', FN, 'fitModel', `must have the nodes of model (${names.join(', ')}), not ${fitJd.nodeNames.join(', ')}`, o.fitModel);
  }
  const sampler = checkOptions(FN, o.sampler ?? {}) as SbcSamplerOptions;
  for (const k of ['pins', 'seed', 'previous', 'signal', 'chainIndex', 'currentState', 'traceFn', 'onWarning', 'warn', 'onProgress']) {
    if (k in sampler) fail('type', FN, `sampler.${k}`, 'is set by sbc (or not supported in it)', (sampler as Record<string, unknown>)[k]);
  }
  const nDraws = sampler.nDraws ?? 1000;
  if (typeof nDraws === 'number' && nDraws < thin) fail('range', FN, 'thin', `must be at most sampler.nDraws (${nDraws})`, thin);
  const isData = names.map((n) => dataNames.includes(n));
  const array = jd.structKind === 'array';
  const base = sanitizeSeed(o.seed, { salt: FN });

  let variables: string[] | undefined;
  let maxRank = -1;
  const stats: SbcStatsRow[] = [];
  const ranks: number[][] = [];
  const backendDiagnostics: SbcBackendDiagnostics[] = [];
  for (let i = 0; i < S; i++) {
    const [kPrior, kFit, kTies] = splitSeed(foldIn(base, i), { n: 3 });
    const values = jd.sample([], { seed: kPrior }) as unknown;
    const valueOf = (j: number): Tensor => (array ? (values as Tensor[])[j]! : (values as Record<string, Tensor>)[names[j]!]!);
    const pins = array
      ? names.map((_, j) => (isData[j] ? valueOf(j) : undefined))
      : Object.fromEntries(names.filter((_, j) => isData[j]).map((n) => [n, valueOf(names.indexOf(n))]));
    const run = windowedAdaptiveNuts(fitJd, { ...sampler, pins: pins as never, seed: kFit });
    const drawsOf = (j: number): Tensor => {
      if (!array) return (run.draws as Record<string, Tensor>)[names[j]!]!;
      let u = 0;
      for (let q = 0; q < j; q++) if (!isData[q]) u++;
      return (run.draws as Tensor[])[u]!;
    };

    // each scalar parameter's kept draws, ranked against its simulated value
    const rowVars: string[] = [];
    for (let j = 0; j < names.length; j++) {
      if (isData[j]) continue;
      const d = drawsOf(j), truth = float64Values(valueOf(j));
      const layout = drawsLayout(FN, `draws.${names[j]}`, d);
      const vals = float64Values(d);
      const kept = Math.floor(layout.draws / thin) * layout.chains;
      if (maxRank < 0) maxRank = kept;
      for (let e = 0; e < layout.eventSize; e++) {
        const a = componentChains(vals, layout, e);
        const t = truth[e]!;
        let less = 0, equal = 0;
        for (let c = 0; c < layout.chains; c++) {
          for (let s = thin - 1; s < layout.draws; s += thin) {
            const x = a.data[c * layout.draws + s]!;
            if (x < t) less++; else if (x === t) equal++;
          }
        }
        // ties (discrete parameters): a uniform share of them counts as below, keyed by the scalar's index
        const rank = less + (equal === 0 ? 0 : Number(randint(foldIn(kTies, rowVars.length), [], 0, equal + 1, { dtype: 'int32' }).item()));
        const m = meanOf(a.data), sd = Math.sqrt(variance(a.data, 1));
        const variable = label(names[j]!, layout.eventShape, e);
        rowVars.push(variable);
        stats.push({ simId: i, variable, simulatedValue: t, rank, zScore: (t - m) / sd, mean: m, sd, rhat: rhatRankOf(a), essBulk: essBulkOf(a), maxRank: kept });
      }
    }
    if (variables === undefined) {
      variables = rowVars;
      for (let v = 0; v < rowVars.length; v++) ranks.push([]);
    } else if (rowVars.length !== variables.length) {
      fail('range', FN, 'model', `has ${rowVars.length} scalar parameters in simulation ${i} but ${variables.length} in simulation 0 (shapes must not change between draws)`, rowVars.length);
    }
    const rows = stats.slice(stats.length - rowVars.length);
    rows.forEach((r, v) => ranks[v]!.push(r.rank));
    const diverging = (run.trace as { diverging?: Tensor }).diverging;
    let nDivergent = 0;
    if (diverging !== undefined) { const dv = diverging.data; for (let k = 0; k < dv.length; k++) if (dv[k]) nDivergent++; }
    backendDiagnostics.push({ simId: i, nDivergent, warnings: [...new Set(run.warnings.map((w) => w.kind))] });
    o.onProgress?.(i + 1, S);
  }

  const vars = variables ?? [];
  const rankArrays = Object.fromEntries(vars.map((v, k) => [v, Int32Array.from(ranks[k]!)]));
  const tests = maxRank < 1 ? {} : Object.fromEntries(vars.map((v) => [v, rankUniformity(rankArrays[v]!, maxRank, {
    ...(o.bins === undefined ? {} : { bins: o.bins }), ...(o.ecdfReplicates === undefined ? {} : { ecdfReplicates: o.ecdfReplicates }), seed: foldIn(base, 'ecdf'),
  })]));
  return { stats, variables: vars, ranks: rankArrays, maxRank, tests, backendDiagnostics, warnings: sbcWarnings(stats, backendDiagnostics, S) };
}

/** Simulations with divergences, R-hat above 1.01, or bulk ESS below the number of kept draws. */
function sbcWarnings(stats: readonly SbcStatsRow[], backend: readonly SbcBackendDiagnostics[], S: number): SbcWarning[] {
  const out: SbcWarning[] = [];
  const sims = (pred: (r: SbcStatsRow) => boolean) => [...new Set(stats.filter(pred).map((r) => r.simId))];
  const div = backend.filter((b) => b.nDivergent > 0).map((b) => b.simId);
  if (div.length > 0) out.push({ kind: 'divergences', simulations: div, message: `${div.length} of ${S} simulations had divergent transitions (the sampler may be biased there; ranks of those simulations are suspect)` });
  const rhat = sims((r) => r.rhat > 1.01);   // NaN (one chain: no R-hat) is not flagged
  if (rhat.length > 0) out.push({ kind: 'rhat', simulations: rhat, message: `${rhat.length} of ${S} simulations had some R-hat above 1.01 (chains not mixed)` });
  const ess = sims((r) => r.essBulk < r.maxRank);
  if (ess.length > 0) out.push({ kind: 'low-ess', simulations: ess, message: `${ess.length} of ${S} simulations had a bulk ESS below the ${stats[0]?.maxRank ?? 0} kept draws (autocorrelated draws skew the ranks: raise thin or nDraws)` });
  const other = backend.filter((b) => b.warnings.some((w) => w !== 'divergences' && w !== 'rhat' && w !== 'ess-bulk' && w !== 'ess-tail')).map((b) => b.simId);
  if (other.length > 0) out.push({ kind: 'sampler', simulations: other, message: `${other.length} of ${S} simulations had other sampler warnings (tree depth, E-BFMI, chains that disagree: see backendDiagnostics)` });
  return out;
}
