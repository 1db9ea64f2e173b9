/**
 * `windowedAdaptiveNuts` (TFP's `tfp.experimental.mcmc.windowed_adaptive_nuts`): NUTS on a joint
 * distribution's unconstrained space with windowed adaptation of the step size and the metric,
 * returning draws in the model's structure and an ArviZ-style trace. The front end: it checks the
 * options, pins and flattens the model, and hands the run to one of the two engines —
 * `mcmc/nuts/stan/` (per-chain, the default) or `mcmc/nuts/tfp/` (pooled).
 */
import { checkBoolean, checkFunction, checkNonNegativeInteger, checkOneOf, checkOptions, fail } from '../src/checks.js';
import { sanitizeSeed } from '../src/samplers/seeds.js';
import type { JointDistribution } from '../distributions/joint/joint-distribution.js';
import { pinModel } from '../distributions/compile-log-density.js';
import { flatModel, type FlatModel } from '../distributions/joint/flat-model.js';
import type { JointDistributionPinned } from '../distributions/joint/joint-distribution-pinned.js';
import type { StructKind } from '../distributions/joint/values.js';
import { checkResume, perChainNuts, resumeSeed } from './nuts/stan/windowed.js';
import { runSteps } from './nuts/stan/per-chain.js';
import { pooledNuts } from './nuts/tfp/windowed.js';
import { chainProgress, processStderr, progressByDefault } from './progress.js';
import { warningHooks, withWarnings, type WarningHooks } from './diagnostics/warning-hooks.js';
import { checkCoordsDims } from './diagnostics/coords.js';
import { imputedNodes } from '../distributions/joint/impute-missing.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { FN, positiveNumber, withDeterministics, type PerChainResume, type WindowedAdaptiveNutsOptions, type WindowedAdaptiveNutsResult, type WindowedProgress, type WindowedTrace } from './nuts/windowed-common.js';

export type {
  PerChainResume, WindowedAdaptiveNutsOptions, WindowedAdaptiveNutsResult, WindowedPartial, WindowedProgress, WindowedTrace, WindowedTraceFn,
} from './nuts/windowed-common.js';

/**
 * Samples a joint distribution with NUTS after windowed warm-up.
 *
 * By default (`adaptation: 'per-chain'`) each chain runs on its own, as Stan runs it: chain c's
 * key is `foldIn(sanitizeSeed(seed), c)`; it starts where `init` says (default uniform(−2, 2) in
 * unconstrained space, up to 100 attempts until the log density is finite); its step size starts at
 * `initStepSize` (1) and Stan's heuristic; it adapts its own step size (dual averaging to 0.8)
 * and diagonal metric in Stan's windows (75 / 25, 50, 100, … / 50 steps of 1000, proportionally
 * fewer for short warm-ups); its transitions are Stan's NUTS over the compiled log density
 * (`compileLogDensity`: the model is traced for one draw, so callables see no chains axis). The
 * chains take turns one transition at a time; none waits for another's tree, and chain c's draws
 * are the same whichever and however many chains run (`chainIndex` runs one alone).
 *
 * With `adaptation: 'pooled'` it follows TFP's `windowed_adaptive_nuts` (TFP on JAX's runs, warm-up
 * included, are a known-answer test: test/fixtures/tfp-jax/windowed.py), as its code does:
 *
 * 1. `[setupSeed, sampleSeed] = splitSeed(sanitizeSeed(seed))`;
 * 2. pin the observed nodes; map the unpinned nodes to unconstrained space with the model's
 *    default joint bijector and flatten each to `[nChains, n_j]`;
 * 3. start each chain at uniform(−2, 2) in unconstrained space (or where `init` says), retrying (up to 50 draws, with
 *    `setupSeed`) until the log density is finite;
 * 4. target `lp(f(u)) + log|det ∂f/∂u|` (the flat target of one draw, evaluated chain by chain:
 *    the model is written for one draw, as on the per-chain path), initial step size `0.5·D^(−1/4)`;
 * 5. kernel `WindowedAdaptation(DiagonalMassMatrixAdaptation(DualAveragingStepSizeAdaptation(
 *    PreconditionedNoUTurnSampler)))`: NUTS with TFP's momentum distribution (its own momentum
 *    keys, kinetic energy and leapfrog; identity until the first slow window ends); dual averaging
 *    with target 0.85, chains reduced with `reduceLogHarmonicMeanExp`, its numeric parameters
 *    (target, γ = 0.05, t₀ = 10, κ = 0.75, given or not) rounded to float32 as TFP's kernel
 *    converts Python floats; one mass matrix per chain, estimated from an empty running variance;
 *    windows 3s / s, 2s, 4s, 8s / rest with s = ⌊numAdaptationSteps/20⌋: one dual-averaging run
 *    over the first fast and first slow window (3s + s steps), restarted (from the current step
 *    size; shrinkage target 10× it unless given) at the other slow windows and the last fast window; the
 *    variance estimate starts with the first slow window and restarts at each later one, and
 *    becomes the inverse mass matrix at the end of each slow window (kept through the last fast
 *    window);
 * 6. `sampleChain(nDraws, burn-in numAdaptationSteps, seed: sampleSeed)`; draws mapped back to
 *    constrained space and the model's structure.
 *
 * The draws equal TFP's up to the last bits of a few operations (XLA's fused multiply-adds, log
 * and exp, the model's order of summation), which NUTS amplifies over many transitions; every
 * discrete decision is TFP's. One deliberate difference: a slow window in which a chain's
 * coordinate never moved (always for s = 1, i.e. 20 ≤ numAdaptationSteps < 40) gives a zero
 * variance, which stochax replaces by 1, where TFP makes it a zero momentum precision and that
 * chain diverges at every later step.
 *
 * A per-chain run returns `resume`, each chain's state (plain data); `previous: result` (or an
 * aborted run's `partial`) continues the chains from there, and the pieces joined along the draws
 * axis are the run done in one go, bit for bit — in process or on `cores`.
 *
 * Discrete nodes with a finite support are summed out of the density (`distributions/enumerate/`).
 * A discrete node that cannot be (no finite support, over 4096 values, or `enumerate: false`)
 * takes Gibbs steps with per-chain adaptation: each transition is NUTS on the continuous nodes,
 * then a Metropolis-within-Gibbs sweep over the discrete ones (`mcmc/nuts/stan/gibbs.ts`); their
 * draws are in `draws`, and the result's `gibbs` lists them with their acceptance rates. Such
 * chains resume with `previous` and run on `cores` with the same bits; the pooled engine refuses
 * such a model by name.
 *
 * NaN in a pinned value marks missing values: node `y`'s become the latent node `y_missing`,
 * sampled with the others and returned in `draws`, and the result's `imputed` says so (see
 * `experimentalPin`).
 *
 * `summary(result.draws, { divergences: result.trace.diverging })` prints the usual table. A
 * model with derived values (`deterministic`) also returns them, per draw, as `deterministics`
 * (`summary({ ...draws, ...deterministics })` summarises both). `coords` and `dims` (ArviZ's and
 * PyMC's names) are checked against the model before sampling and carried on the result, so
 * `summary(result)` and `inferenceData(model, result)` label elements `theta[Choate]`; they never
 * change the draws.
 *
 * @throws TypeError/RangeError for bad options (naming them), pins naming unknown nodes, a model
 *   whose unpinned nodes have batch dims, or (naming the model) when some chain's log density is
 *   not finite at any start tried (naming the node, and why); an {@link AbortError} (partial: {@link WindowedPartial})
 *   when `signal` is aborted.
 * @example
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 5 }),
 *   tau: new HalfCauchy({ loc: 0, scale: 5 }),
 *   thetaTilde: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 8 }),
 *   y: (mu, tau, thetaTilde) => new Independent({ distribution: new Normal({
 *     loc: add(mu, mul(tau, thetaTilde)), scale: sigma }), reinterpretedBatchNdims: 1 }),   // one draw: mu, tau scalars
 * });
 * const { draws, trace } = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
 * // draws.mu: Tensor [1000, 4]; draws.thetaTilde: Tensor [1000, 4, 8]; trace.diverging: Tensor bool [1000, 4]
 * console.log(String(summary(draws, { divergences: trace.diverging })));
 * windowedAdaptiveNuts(model, { pins: { y }, seed: 0, chainIndex: 2 });   // chain 2 alone: draws [1000, 1]
 * const labelled = windowedAdaptiveNuts(model, { pins: { y }, seed: 0, coords: { school: ['Choate', …] }, dims: { thetaTilde: ['school'] } });
 * summary(labelled).get('thetaTilde[Choate]');   // the same draws; rows by school
 * // Continue the same chains exactly (invariant 3): 500 more draws, or the rest of an aborted run.
 * const result = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
 * const more = windowedAdaptiveNuts(model, { pins: { y }, previous: result, nDraws: 500 });   // draws 1000…1499 of one 1500-draw run
 * try { windowedAdaptiveNuts(model, { pins: { y }, seed: 0, signal }); } catch (e) { if (e instanceof AbortError) windowedAdaptiveNuts(model, { pins: { y }, previous: e.partial }); }
 */
export function windowedAdaptiveNuts<K extends StructKind>(
  model: JointDistribution<K> | JointDistributionPinned<K>, options?: WindowedAdaptiveNutsOptions & { readonly traceFn?: undefined },
): WindowedAdaptiveNutsResult<K, WindowedTrace>;
export function windowedAdaptiveNuts<K extends StructKind>(
  model: JointDistribution<K> | JointDistributionPinned<K>, options: WindowedAdaptiveNutsOptions,
): WindowedAdaptiveNutsResult<K>;
export function windowedAdaptiveNuts<K extends StructKind>(
  model: JointDistribution<K> | JointDistributionPinned<K>, options: WindowedAdaptiveNutsOptions = {},
): WindowedAdaptiveNutsResult<K> {
  return runSteps(windowedAdaptiveNutsSteps(model, options));
}

/**
 * `windowedAdaptiveNuts` one step at a time, for asynchronous callers in this thread: with
 * per-chain adaptation it yields after the chains' initialisation and after every round of
 * transitions, so the caller can give the event loop a turn (where a timer or an event may abort
 * `signal`: the next round then stops and the generator throws the AbortError); the pooled
 * sampler runs in one step. Returns what `windowedAdaptiveNuts` returns.
 * @example
 * const steps = windowedAdaptiveNutsSteps(model, { pins: { y }, seed: 0, signal: AbortSignal.timeout(1000) });
 * let r = steps.next();
 * while (!r.done) { await new Promise((ok) => setTimeout(ok, 0)); r = steps.next(); }   // r.value: the result
 */
export function* windowedAdaptiveNutsSteps<K extends StructKind>(
  model: JointDistribution<K> | JointDistributionPinned<K>, options: WindowedAdaptiveNutsOptions = {},
): Generator<void, WindowedAdaptiveNutsResult<K>, void> {
  const o = checkOptions(FN, options, ['nChains', 'numAdaptationSteps', 'nDraws', 'numStepsBetweenResults', 'seed', 'pins', 'initStepSize', 'targetAcceptProb', 'dualAveraging',
    'maxTreeDepth', 'maxEnergyDiff', 'discardTuning', 'currentState', 'init', 'initRadius', 'initInvMetric', 'traceFn', 'onProgress', 'progress', 'progressInterval', 'compile', 'signal', 'adaptation', 'metric', 'chainIndex', 'onWarning', 'warn', 'cores', 'previous', 'coords', 'dims']);
  const warnHooks = warningHooks(FN, o);
  const resume = o.previous === undefined ? undefined : checkResume(o.previous);
  if (resume !== undefined) {
    for (const k of ['init', 'currentState', 'initStepSize', 'initRadius', 'initInvMetric'] as const) if (o[k] !== undefined) fail('type', FN, k, 'must not be given with `previous` (it says how a run starts; the chains continue from their states)', o[k]);
    if (o.adaptation === 'pooled') fail('range', FN, 'adaptation', "must be 'per-chain' with `previous` (its chains are per-chain ones)", o.adaptation);
    const given = { nChains: o.nChains, numAdaptationSteps: o.numAdaptationSteps, numStepsBetweenResults: o.numStepsBetweenResults, discardTuning: o.discardTuning };
    for (const [k, v] of Object.entries(given)) if (v !== undefined && v !== resume[k as keyof typeof given]) fail('range', FN, k, `must be ${String(resume[k as keyof typeof given])}, as in previous (a continued chain keeps its settings)`, v);
    if (o.seed !== undefined) {
      const key = sanitizeSeed(o.seed);
      if (key.impl.name !== resume.seed.impl || key.data.length !== resume.seed.data.length || key.data.some((w, i) => w !== resume.seed.data[i])) fail('range', FN, 'seed', "must be previous's seed, or not given (a continued chain keeps its key)", o.seed);
    }
  }
  if (o.init !== undefined && o.currentState !== undefined) fail('type', FN, 'init', 'must not be given together with `currentState` (both say where the chains start)', o.init);
  const initRadius = positiveNumber('initRadius', o.initRadius ?? 2);
  const nChains = checkNonNegativeInteger(FN, 'nChains', o.nChains ?? resume?.nChains ?? 4);
  if (nChains < 1) fail('range', FN, 'nChains', 'must be at least 1', nChains);
  const nDraws = checkNonNegativeInteger(FN, 'nDraws', o.nDraws ?? (resume === undefined ? 1000 : restOf(resume)));
  if (nDraws < 1) fail('range', FN, 'nDraws', 'must be at least 1', nDraws);
  const discardTuning = checkBoolean(FN, 'discardTuning', o.discardTuning ?? resume?.discardTuning ?? true);
  const thin = checkNonNegativeInteger(FN, 'numStepsBetweenResults', o.numStepsBetweenResults ?? resume?.numStepsBetweenResults ?? 0);
  if (thin > 0 && !discardTuning) fail('range', FN, 'numStepsBetweenResults', 'needs discardTuning: true (warm-up draws are not thinned)', thin);
  checkBoolean(FN, 'compile', o.compile ?? true);
  if (o.cores !== undefined && checkNonNegativeInteger(FN, 'cores', o.cores) < 1) fail('range', FN, 'cores', 'must be at least 1', o.cores);
  if (o.traceFn !== undefined) checkFunction(FN, 'traceFn', o.traceFn);
  if (o.onProgress !== undefined) checkFunction(FN, 'onProgress', o.onProgress);

  const adaptation = checkOneOf(FN, 'adaptation', o.adaptation ?? 'per-chain', ['per-chain', 'pooled']);
  const n = checkNonNegativeInteger(FN, 'numAdaptationSteps', o.numAdaptationSteps ?? resume?.numAdaptationSteps ?? defaultWarmup(adaptation));
  if (o.chainIndex !== undefined && adaptation !== 'per-chain') fail('range', FN, 'chainIndex', "needs adaptation: 'per-chain' (pooled chains run as one batch)", o.chainIndex);
  if (o.cores !== undefined && o.cores > 1 && adaptation !== 'per-chain') fail('range', FN, 'cores', "above 1 needs adaptation: 'per-chain' (pooled chains run as one batch)", o.cores);
  const metric = checkOneOf(FN, 'metric', o.metric ?? 'diagonal', ['diagonal', 'dense']);
  if (checkOneOf(FN, 'initInvMetric', o.initInvMetric ?? 'identity', ['identity', 'pathfinder']) === 'pathfinder' && adaptation !== 'per-chain') fail('range', FN, 'initInvMetric', "'pathfinder' needs adaptation: 'per-chain' (TFP's pooled pipeline starts from the identity)", o.initInvMetric);
  if (metric === 'dense' && adaptation !== 'per-chain') fail('range', FN, 'metric', "'dense' needs adaptation: 'per-chain' (TFP's pooled pipeline adapts a diagonal mass matrix)", metric);

  const seed = resume === undefined ? sanitizeSeed(o.seed) : resumeSeed(resume);
  const pinned = pinModel<K>(FN, model, o.pins);
  // Discrete nodes that cannot be summed out take Gibbs steps in the per-chain engine (mcmc/nuts/stan/gibbs.ts).
  const m = flatModel(FN, pinned as JointDistributionPinned<StructKind>, {
    gibbs: adaptation === 'per-chain',
    gibbsHow: "the pooled engine has no discrete steps: sample with adaptation: 'per-chain' (the default), which gives them Gibbs steps",
  });
  const carried = (o.previous ?? {}) as { coords?: unknown; dims?: unknown };   // a continued run keeps its labels unless given
  const [coords, dims] = [o.coords ?? carried.coords, o.dims ?? carried.dims];
  // Before sampling, so a typo costs no run (and a run without them computes nothing).
  const labels: ReturnType<typeof checkCoordsDims> = coords === undefined && dims === undefined ? { coords: undefined, dims: undefined } : checkCoordsDims(FN, coords, dims, variableShapes(m.pinned));
  const display = checkBoolean(FN, 'progress', o.progress ?? progressByDefault())
    ? chainProgress(processStderr(), o.chainIndex === undefined ? Array.from({ length: nChains }, (_, c) => c) : [o.chainIndex]) : undefined;
  const user = o.onProgress;
  const oo = display === undefined ? o : { ...o, onProgress: (p: WindowedProgress) => { display.update(p); user?.(p); } };
  let run;
  try {
    run = adaptation === 'per-chain'
      ? yield* perChainNuts<K>(m, oo, seed, nChains, n, nDraws, thin, discardTuning, resume)
      : pooledNuts<K>(m, oo, seed, nChains, n, nDraws, thin, discardTuning, initRadius);
  } finally {
    display?.end();
  }
  const first = resume === undefined ? 0 : Math.min(...resume.chains.map((st) => st.transition));   // a continued run's warm-up draws are those left
  const done = withImputed(warnHooks, m.pinned.distribution, withDeterministics(withoutGibbsPins(m), run, { seed, ...(o.chainIndex === undefined ? {} : { chains: [o.chainIndex] }) }));
  if (labels.dims !== undefined) checkCoordsDims(FN, labels.coords, labels.dims, resultShapes(m.pinned, done.draws, done.deterministics));   // the derived values' shapes are known now
  return withWarnings(warnHooks, { ...done, ...(labels.coords === undefined ? {} : { coords: labels.coords }), ...(labels.dims === undefined ? {} : { dims: labels.dims }) }, { maxTreeDepth: o.maxTreeDepth ?? resume?.maxTreeDepth ?? 10, warmupDraws: discardTuning ? 0 : Math.max(0, n - first) });
}

/**
 * Event shapes by variable for checking `dims` before sampling: the sampled nodes' (batch and
 * event: one draw), the pinned ones' values, the derived values' unknown until they are computed.
 */
function variableShapes(pinned: JointDistributionPinned<StructKind>): Map<string, readonly number[] | undefined> {
  const jd = pinned.distribution;
  const dists = jd.singleSampleDistributions();
  const pins = pinned.pins;
  const shapes = new Map<string, readonly number[] | undefined>();
  jd.nodeNames.forEach((name, i) => shapes.set(name, pins[name]?.shape ?? [...dists[i]!.batchShape, ...dists[i]!.eventShape]));
  for (const name of jd.deterministicNames) shapes.set(name, undefined);
  return shapes;
}

/** Event shapes by variable after sampling: the draws' and derived values' (after `[draws, chains]`), the pins'. */
function resultShapes(pinned: JointDistributionPinned<StructKind>, draws: unknown, deterministics: Readonly<Record<string, Tensor>> | undefined): Map<string, readonly number[] | undefined> {
  const shapes = variableShapes(pinned);
  const parts = Array.isArray(draws) ? pinned.unpinnedNames.map((n, j) => [n, (draws as Tensor[])[j]] as const) : Object.entries(draws as Record<string, Tensor>);
  for (const [name, t] of [...parts, ...Object.entries(deterministics ?? {})]) if (t !== undefined) shapes.set(name, t.shape.slice(2));
  return shapes;
}

/**
 * The flat model with its Gibbs sites unpinned again (their values are in the draws), for the derived values.
 * @example
 * withDeterministics(withoutGibbsPins(m), run, { seed });
 */
export function withoutGibbsPins(m: FlatModel): FlatModel {
  if (m.gibbs === undefined) return m;
  const sites = new Set(m.gibbs.sites.map((s) => s.name));
  const pins = Object.fromEntries(Object.entries(m.pinned.pins).filter(([k]) => !sites.has(k)));
  return { ...m, pinned: m.pinned.distribution.experimentalPin(pins) };
}

/** The result with `imputed` (pins with NaN: see `impute-missing.ts`), printed as a note with `warn: true`. */
function withImputed<R extends object>(hooks: WarningHooks, jd: unknown, result: R): R {
  const imputed = imputedNodes(jd);
  if (imputed === undefined) return result;
  if (hooks.warn) for (const m of imputed) console.warn(`${FN}: note: ${m.count} missing value${m.count === 1 ? '' : 's'} (NaN) of \`${m.node}\` sampled as \`${m.name}\``);
  return { ...result, imputed };
}

/** A continuation's default `nDraws`: the rest of the previous run's, or 1000 after a finished one. */
function restOf(r: PerChainResume): number {
  const t = Math.min(...r.chains.map((st) => st.transition)), w = r.numAdaptationSteps;
  const done = t <= w ? 0 : Math.ceil((t - w) / (r.numStepsBetweenResults + 1));
  return r.nDraws > done ? r.nDraws - done : 1000;
}

/** Warm-up steps when none are given: Stan's 1000 for per-chain adaptation, TFP's 500 pooled. */
export function defaultWarmup(adaptation: 'per-chain' | 'pooled'): number {
  return adaptation === 'per-chain' ? 1000 : 500;
}
