/**
 * `windowedAdaptiveNuts(model, { adaptation: 'per-chain' })`, the default: the Stan engine. Each
 * chain is an independent computation (`per-chain.ts`: Stan's warm-up and NUTS on Float64Arrays
 * over the flat target), and its draws are mapped to the model's structure one draw at a time.
 */
import { checkFinite, checkNonNegativeInteger, checkOptions, fail } from '../../../src/checks.js';
import { getModes } from '../../../src/config.js';
import { IMPLS, KeyArray } from '../../../src/random/key-array.js';
import type { ImplName } from '../../../src/random/impl.js';
import { asTensor } from '../../../src/tensor/core.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import { compileTarget, flatConstrain, flatTarget } from '../../../distributions/compile-log-density.js';
import type { FlatModel } from '../../../distributions/joint/flat-model.js';
import type { PartialValues, Struct, StructKind } from '../../../distributions/joint/values.js';
import { AbortError } from '../../abort-error.js';
import { chainInit, chainRow, pathfinderRun, unconstrainDraw } from '../../internal/init.js';
import { compiledField, constrainDraws, FN, positiveNumber, type PerChainResume, type WindowedAdaptiveNutsOptions, type WindowedAdaptiveNutsResult, type WindowedPartial, type WindowedTrace } from '../windowed-common.js';
import { perChainSteps, runPlan, type ChainState, type PerChainRun, type PerChainSettings } from './per-chain.js';
import { runChainsOnCores } from './cores.js';
import { failureLocator, whyNotFinite } from '../../internal/locate-failure.js';
import { STAN_DUAL_AVERAGING } from './warmup.js';
import { gibbsFlatTarget, gibbsInfo, GibbsSweeps, type GibbsInfo } from './gibbs.js';

/** `adaptation: 'per-chain'`: independent Stan-style chains over the flat log density (see the option). */
export function* perChainNuts<K extends StructKind>(
  m: FlatModel, o: WindowedAdaptiveNutsOptions, seed: KeyArray,
  nChains: number, numWarmup: number, nDraws: number, thin: number, discardTuning: boolean, resume?: PerChainResume,
): Generator<void, Omit<WindowedAdaptiveNutsResult<K, WindowedTrace>, 'warnings'>, void> {
  const perChain = "with adaptation: 'per-chain'";
  if (o.traceFn !== undefined) fail('range', FN, 'traceFn', `is not available ${perChain} (it reads the batched kernel's results); use adaptation: 'pooled'`, 'traceFn');
  const positive = (arg: string, v: unknown, dflt: number, max = Infinity): number => (v === undefined ? dflt : positiveNumber(arg, v, max));
  const da = checkOptions(FN, o.dualAveraging as { explorationShrinkage?: number; stepCountSmoothing?: number; decayRate?: number } | undefined,
    ['explorationShrinkage', 'stepCountSmoothing', 'decayRate']);
  const daBase = resume === undefined ? STAN_DUAL_AVERAGING : { targetAcceptProb: resume.targetAcceptProb, ...resume.dualAveraging };
  const dualAveraging = {
    targetAcceptProb: positive('targetAcceptProb', o.targetAcceptProb, daBase.targetAcceptProb, 1),
    explorationShrinkage: positive('dualAveraging.explorationShrinkage', da.explorationShrinkage, daBase.explorationShrinkage),
    stepCountSmoothing: positive('dualAveraging.stepCountSmoothing', da.stepCountSmoothing, daBase.stepCountSmoothing),
    decayRate: positive('dualAveraging.decayRate', da.decayRate, daBase.decayRate),
  };
  if (o.initStepSize !== undefined && typeof o.initStepSize !== 'number') fail('range', FN, 'initStepSize', `must be one number ${perChain} (a chain has one step size)`, o.initStepSize);
  const maxTreeDepth = checkNonNegativeInteger(FN, 'maxTreeDepth', o.maxTreeDepth ?? resume?.maxTreeDepth ?? 10);
  if (maxTreeDepth < 1) fail('range', FN, 'maxTreeDepth', 'must be at least 1', maxTreeDepth);
  const maxEnergyDiff = positive('maxEnergyDiff', o.maxEnergyDiff, resume?.maxEnergyDiff ?? 1000), metric = o.metric ?? resume?.metric ?? 'diagonal';
  let chains = resume === undefined ? Array.from({ length: nChains }, (_, c) => c) : resume.chains.map((st) => st.chain);
  if (o.chainIndex !== undefined) {
    const c = checkNonNegativeInteger(FN, 'chainIndex', o.chainIndex);
    if (c >= nChains) fail('range', FN, 'chainIndex', `must be below nChains = ${nChains}`, c);
    if (!chains.includes(c)) fail('range', FN, 'chainIndex', `must be one of previous's chains (${chains.join(', ')})`, c);
    chains = [c];
  }
  const dim = m.sizes.reduce((a, b) => a + b, 0);
  let from: ChainState[] | undefined;
  if (resume !== undefined) {
    same('maxTreeDepth', maxTreeDepth, resume.maxTreeDepth);
    same('maxEnergyDiff', maxEnergyDiff, resume.maxEnergyDiff);
    same('metric', metric, resume.metric);
    same('targetAcceptProb', dualAveraging.targetAcceptProb, resume.targetAcceptProb);
    for (const k of ['explorationShrinkage', 'stepCountSmoothing', 'decayRate'] as const) same(`dualAveraging.${k}`, dualAveraging[k], resume.dualAveraging[k]);
    if (resume.dim !== dim) fail('range', FN, 'previous', `comes from a model of ${resume.dim} unconstrained coordinates, and this one has ${dim}: give the same model and pins`, resume.dim);
    from = chains.map((c) => resume.chains.find((st) => st.chain === c)!);
  }
  if (m.gibbs !== undefined) checkGibbsOptions(m, o);
  const gibbsTarget = m.gibbs === undefined ? undefined : gibbsFlatTarget(FN, m, o.compile !== false);
  const target = gibbsTarget === undefined ? flatTarget(FN, m, o.compile !== false) : { ...gibbsTarget, value: gibbsTarget.value.target };
  const gibbs = gibbsTarget === undefined ? undefined : new GibbsSweeps(FN, m.gibbs!, gibbsTarget.value, getModes(), m.gibbs!.given);
  const initOption = o.init ?? 'uniform';
  // One Pathfinder run gives the starts and the initial metric when either asks for it.
  const pf = resume === undefined && (initOption === 'pathfinder' || o.initInvMetric === 'pathfinder')
    ? pathfinderRun(FN, initOption === 'pathfinder' ? 'init' : 'initInvMetric', 'pathfinder', m, target.value, nChains, seed) : undefined;
  const init = resume !== undefined ? undefined : o.currentState !== undefined ? chainStart(m, o.currentState, nChains)
    : initOption === 'uniform' ? undefined : chainInit(FN, m, target.value, initOption, nChains, seed, pf);
  const initInvMetric = resume === undefined && o.initInvMetric === 'pathfinder' ? pf!.invMetric() : undefined;
  const plan = runPlan({ numWarmup, nDraws, thin, discardTuning, ...(from === undefined ? {} : { from }) });
  if (from !== undefined && from.some((st) => st.transition > plan.end)) {
    fail('range', FN, 'nDraws', `must keep at least the draws some chains of previous already hold (they stopped at transition ${Math.max(...from.map((st) => st.transition))})`, nDraws);
  }
  const total = plan.end;
  let onRound: ((round: number, divergences: readonly number[], warmupDivergences: readonly number[]) => void) | undefined;
  if (o.onProgress !== undefined) {
    const report = o.onProgress, interval = checkFinite(FN, 'progressInterval', o.progressInterval ?? 100);
    if (interval < 0) fail('range', FN, 'progressInterval', 'must be non-negative', interval);
    let last = -Infinity;
    onRound = (round, divergences, warmupDivergences) => {
      const now = performance.now();
      if (round !== 1 && round !== total && now - last < interval) return;
      last = now;
      chains.forEach((c, j) => report({ chain: c, step: round, total, phase: round <= numWarmup ? 'warmup' : 'sampling', divergences: divergences[j]!, warmupDivergences: warmupDivergences[j]! }));
    };
  }
  const settings: PerChainSettings = {
    fn: FN, modelName: m.pinned.distribution.name, dim, chains, numWarmup, nDraws, thin, discardTuning,
    maxTreeDepth, maxEnergyDiff, metric,
    initStepSize: positive('initStepSize', o.initStepSize, 1), dualAveraging, modes: getModes(),
    initRadius: positive('initRadius', o.initRadius, 2), whyNotFinite: (x) => whyNotFinite(m, target.value, x),
    ...(init === undefined ? {} : { init }), ...(initInvMetric === undefined ? {} : { initInvMetric }), ...(onRound === undefined ? {} : { onRound }), ...(o.signal === undefined ? {} : { signal: o.signal }),
    ...(from === undefined ? {} : { from }), ...(gibbs === undefined ? {} : { gibbs }),
  };
  // On worker threads when that pays (the same bits), else here, a round of transitions per step.
  // With Gibbs steps the program sent is the one with the discrete values as an input.
  const program = !target.compiled ? target.reason! : gibbsTarget !== undefined ? gibbsTarget.value.compiled! : compileTarget(FN, m);
  const onCores = runChainsOnCores(target.value, program, seed, settings, o.cores);
  const run = onCores.run ?? (yield* perChainSteps(target.value, seed, settings));
  const { draws, trace } = perChainResult<K>(m, run, Math.max(0, numWarmup - plan.first), discardTuning, o.compile !== false);
  const gibbsOut: { gibbs?: GibbsInfo } = m.gibbs === undefined ? {} : { gibbs: gibbsInfo(m.gibbs, run.states.map((st) => st.gibbs!)) };
  const before = plan.first <= numWarmup ? 0 : Math.ceil((plan.first - numWarmup) / (thin + 1));
  const resumeOut: PerChainResume = {
    seed: { impl: seed.impl.name, data: seed.data.slice() }, modes: settings.modes, nChains, dim, numAdaptationSteps: numWarmup, numStepsBetweenResults: thin, discardTuning,
    metric, maxTreeDepth, maxEnergyDiff, targetAcceptProb: dualAveraging.targetAcceptProb,
    dualAveraging: { explorationShrinkage: dualAveraging.explorationShrinkage, stepCountSmoothing: dualAveraging.stepCountSmoothing, decayRate: dualAveraging.decayRate },
    nDraws: before + nDraws, chains: run.states,
  };
  const rejections = run.rejections.rejections(failureLocator(m));
  if (run.aborted) {
    const partial: WindowedPartial<K> = { numResults: run.numResults, draws: run.numResults > 0 ? draws : undefined, trace: run.numResults > 0 ? trace : undefined, chain: undefined, resume: resumeOut, rejections };
    throw new AbortError(`${FN}: aborted after ${run.numResults} draws`, partial, o.signal?.reason);
  }
  return { draws, trace, ...compiledField(target), rejections, parallel: onCores.parallel, resume: resumeOut, ...gibbsOut };
}

/** Options a compound (NUTS + Gibbs) run cannot honour: a clear error naming them, never a silent fallback. */
function checkGibbsOptions(m: FlatModel, o: WindowedAdaptiveNutsOptions): void {
  const nodes = m.gibbs!.sites.map((s) => `\`${s.name}\``).join(', ');
  const why = `the model's discrete node(s) ${nodes} take Gibbs steps`;
  if (o.init !== undefined && o.init !== 'uniform') fail('range', FN, 'init', `must be 'uniform' or not given: ${why} (their starts are drawn from the prior); give continuous starts with \`currentState\``, o.init);
  if (o.initInvMetric === 'pathfinder') fail('range', FN, 'initInvMetric', `must be 'identity': ${why}, and Pathfinder needs the continuous block alone`, o.initInvMetric);
}

/** A setting given with `previous` must be the one the chains ran with. */
function same(arg: string, given: unknown, previous: unknown): void {
  if (given !== previous) fail('range', FN, arg, `must be ${String(previous)}, as in previous (a continued chain keeps its settings)`, given);
}

/**
 * `previous`' resume state, checked (its shape, and the modes and model it needs), or a
 * TypeError/RangeError naming `previous`. Typed arrays are checked for their lengths, so a state
 * that went through storage and came back with the wrong arrays is caught here.
 * @example
 * const resume = checkResume(result);   // result.resume, checked
 */
export function checkResume(previous: unknown): PerChainResume {
  const bad = (why: string, v: unknown = previous): never => fail('type', FN, 'previous', why, v);
  if (previous === null || typeof previous !== 'object') return bad("must be a per-chain windowedAdaptiveNuts result, or an aborted run's partial");
  const r = (previous as { resume?: unknown }).resume as PerChainResume | undefined;
  if (r === undefined || r === null || typeof r !== 'object' || !Array.isArray(r.chains)) {
    return bad("must be a per-chain windowedAdaptiveNuts result, or an aborted run's partial (it has no `resume`: pooled runs are not resumable this way; resume their `chain` with sampleChain)");
  }
  if (!(typeof r.seed?.impl === 'string' && r.seed.impl in IMPLS && r.seed.data instanceof Uint32Array)) bad('has no valid `resume.seed`', r.seed);
  const modes = getModes();
  if (r.modes?.x64 !== modes.x64 || r.modes?.partitionable !== modes.partitionable) fail('range', FN, 'previous', `ran with modes ${JSON.stringify(r.modes)}, and configure() now gives ${JSON.stringify(modes)}: continue it under the same modes`, r.modes);
  const n = r.metric === 'dense' ? r.dim * r.dim : r.dim;
  r.chains.forEach((st, j) => {
    const ok = st !== null && typeof st === 'object' && Number.isInteger(st.chain) && st.chain >= 0 && st.chain < r.nChains && Number.isInteger(st.transition) && st.transition >= 0
      && st.q instanceof Float64Array && st.q.length === r.dim && st.grad instanceof Float64Array && st.grad.length === r.dim && st.invMetric instanceof Float64Array && st.invMetric.length === n
      && typeof st.lp === 'number' && typeof st.stepSize === 'number' && typeof st.warmup === 'object' && st.warmup !== null;
    if (!ok) bad(`has a malformed state for resume.chains[${j}]`, st);
  });
  return r;
}

/**
 * The run's key from a resume state.
 * @example
 * resumeSeed(result.resume!).data;   // the words of sanitizeSeed(seed)
 */
export function resumeSeed(r: PerChainResume): KeyArray {
  return new KeyArray(IMPLS[r.seed.impl as ImplName], r.seed.data.slice(), []);
}

/**
 * The per-chain run as the pooled path returns it: draws `[N, C, ...]` in the model's structure
 * (each draw mapped to constrained space on its own, by the compiled joint bijector, so the model
 * never sees a draws or chains axis), the trace `[N, C]`.
 */
function perChainResult<K extends StructKind>(m: FlatModel, run: PerChainRun, warmupLeft: number, discardTuning: boolean, compile: boolean): { draws: Struct<K, Tensor>; trace: WindowedTrace } {
  const N = run.numResults, C = run.chains.length, dim = m.sizes.reduce((a, b) => a + b, 0);
  const continuous = constrainDraws<K>(m, flatConstrain(FN, m, compile).value, N, C, (t, c) => run.chains[c]!.q.subarray(t * dim, (t + 1) * dim));
  const draws = m.gibbs === undefined ? continuous : withDiscreteDraws<K>(m, continuous, run, N, C);
  const stat = <A extends Float64Array | Int32Array | Uint8Array>(pick: (d: PerChainRun['chains'][number]) => A, make: (n: number) => A, dtype: 'float64' | 'int32' | 'bool', map = (v: number) => v) => {
    const out = make(N * C);
    for (let t = 0; t < N; t++) for (let c = 0; c < C; c++) out[t * C + c] = map(pick(run.chains[c]!)[t]!);
    return new Tensor(out, [N, C], dtype);
  };
  const f64 = (n: number) => new Float64Array(n), i32 = (n: number) => new Int32Array(n), u8 = (n: number) => new Uint8Array(n);
  const tune = new Uint8Array(N * C);
  if (!discardTuning) tune.fill(1, 0, Math.min(N, warmupLeft) * C);
  return {
    draws,
    trace: {
      stepSize: stat((d) => d.stepSize, f64, 'float64'),
      tune: new Tensor(tune, [N, C], 'bool'),
      nSteps: stat((d) => d.nSteps, i32, 'int32'),
      treeDepth: stat((d) => d.treeDepth, i32, 'int32'),
      diverging: stat((d) => d.diverging, u8, 'bool'),
      acceptRatio: stat((d) => d.acceptStat, f64, 'float64', (a) => Math.min(1, a)),
      energy: stat((d) => d.energy, f64, 'float64'),
      targetLogProb: stat((d) => d.lp, f64, 'float64'),
      isAccepted: stat((d) => d.moved, u8, 'bool'),
      rejections: stat((d) => d.rejections, i32, 'int32'),
    },
  };
}

/**
 * The draws with the Gibbs sites' added (`[N, C, ...shape]` in each node's dtype), placed in the
 * model's order among the continuous nodes (records keep the model's key order).
 */
function withDiscreteDraws<K extends StructKind>(m: FlatModel, continuous: Struct<K, Tensor>, run: PerChainRun, N: number, C: number): Struct<K, Tensor> {
  const plan = m.gibbs!, size = plan.size, byName = new Map<string, Tensor>();
  let at = 0;
  for (const s of plan.sites) {
    const n = s.unit * s.units, out = s.dtype === 'float64' ? new Float64Array(N * C * n) : s.dtype === 'float32' ? new Float32Array(N * C * n) : new Int32Array(N * C * n);
    for (let t = 0; t < N; t++) for (let c = 0; c < C; c++) {
      const d = run.chains[c]!.discrete!;
      for (let k = 0; k < n; k++) out[(t * C + c) * n + k] = d[t * size + at + k]!;
    }
    byName.set(s.name, new Tensor(out, [N, C, ...s.shape], s.dtype));
    at += n;
  }
  const jd = plan.given.distribution, names = jd.nodeNames;
  if (Array.isArray(continuous)) {
    // Array-structured: the unpinned nodes in model order.
    const cont = [...continuous];
    const out: Tensor[] = [];
    for (const name of names) {
      const g = byName.get(name);
      if (g !== undefined) out.push(g);
      else if (m.names.includes(name)) out.push(cont.shift()!);
    }
    return out as unknown as Struct<K, Tensor>;
  }
  const rec = continuous as Record<string, Tensor>;
  const keyOrder = Object.keys(jd.unflattenParts(names) as Record<string, string>);
  return Object.fromEntries(keyOrder.filter((k) => k in rec || byName.has(k)).map((k) => [k, rec[k] ?? byName.get(k)!])) as Struct<K, Tensor>;
}

/** Chain c's starting point from `currentState` (each node `[nChains, ...event]`), mapped to flat unconstrained coordinates one chain at a time. */
function chainStart(m: FlatModel, state: PartialValues, nChains: number): (c: number) => Float64Array {
  const nodes = m.parts(state).map((v, j) => {
    const t = asTensor(FN, `currentState.${m.names[j]}`, v);
    if (t.shape[0] !== nChains) fail('range', FN, `currentState.${m.names[j]}`, `must have a leading dim of nChains = ${nChains}`, t.shape);
    return t;
  });
  return (c) => unconstrainDraw(m, m.struct(nodes.map((t) => chainRow(t, c, nChains))));
}
