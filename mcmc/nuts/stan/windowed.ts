/**
 * `windowedAdaptiveNuts(model, { adaptation: 'per-chain' })`, the default: the Stan engine. Each
 * chain is an independent computation (`per-chain.ts`: Stan's warm-up and NUTS on Float64Arrays
 * over the flat target), and its draws are mapped to the model's structure one draw at a time.
 */
import { checkFinite, checkNonNegativeInteger, checkOptions, fail } from '../../../src/checks.js';
import { getModes } from '../../../src/config.js';
import type { KeyArray } from '../../../src/random/key-array.js';
import { asTensor } from '../../../src/tensor/core.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import { compileTarget, flatConstrain, flatTarget } from '../../../distributions/compile-log-density.js';
import type { FlatModel } from '../../../distributions/joint/flat-model.js';
import type { PartialValues, Struct, StructKind } from '../../../distributions/joint/values.js';
import { AbortError } from '../../abort-error.js';
import { chainInit, chainRow, unconstrainDraw } from '../../internal/init.js';
import { compiledField, constrainDraws, FN, positiveNumber, type WindowedAdaptiveNutsOptions, type WindowedAdaptiveNutsResult, type WindowedPartial, type WindowedTrace } from '../windowed-common.js';
import { perChainSteps, transitionsFor, type PerChainRun, type PerChainSettings } from './per-chain.js';
import { runChainsOnCores } from './cores.js';
import { failureLocator, whyNotFinite } from '../../internal/locate-failure.js';
import { STAN_DUAL_AVERAGING } from './warmup.js';

/** `adaptation: 'per-chain'`: independent Stan-style chains over the flat log density (see the option). */
export function* perChainNuts<K extends StructKind>(
  m: FlatModel, o: WindowedAdaptiveNutsOptions, seed: KeyArray,
  nChains: number, numWarmup: number, nDraws: number, thin: number, discardTuning: boolean,
): Generator<void, Omit<WindowedAdaptiveNutsResult<K, WindowedTrace>, 'warnings'>, void> {
  const perChain = "with adaptation: 'per-chain'";
  if (o.traceFn !== undefined) fail('range', FN, 'traceFn', `is not available ${perChain} (it reads the batched kernel's results); use adaptation: 'pooled'`, 'traceFn');
  const positive = (arg: string, v: unknown, dflt: number, max = Infinity): number => (v === undefined ? dflt : positiveNumber(arg, v, max));
  const da = checkOptions(FN, o.dualAveraging as { explorationShrinkage?: number; stepCountSmoothing?: number; decayRate?: number } | undefined,
    ['explorationShrinkage', 'stepCountSmoothing', 'decayRate']);
  const dualAveraging = {
    targetAcceptProb: positive('targetAcceptProb', o.targetAcceptProb, STAN_DUAL_AVERAGING.targetAcceptProb, 1),
    explorationShrinkage: positive('dualAveraging.explorationShrinkage', da.explorationShrinkage, STAN_DUAL_AVERAGING.explorationShrinkage),
    stepCountSmoothing: positive('dualAveraging.stepCountSmoothing', da.stepCountSmoothing, STAN_DUAL_AVERAGING.stepCountSmoothing),
    decayRate: positive('dualAveraging.decayRate', da.decayRate, STAN_DUAL_AVERAGING.decayRate),
  };
  if (o.initStepSize !== undefined && typeof o.initStepSize !== 'number') fail('range', FN, 'initStepSize', `must be one number ${perChain} (a chain has one step size)`, o.initStepSize);
  const maxTreeDepth = checkNonNegativeInteger(FN, 'maxTreeDepth', o.maxTreeDepth ?? 10);
  if (maxTreeDepth < 1) fail('range', FN, 'maxTreeDepth', 'must be at least 1', maxTreeDepth);
  let chains = Array.from({ length: nChains }, (_, c) => c);
  if (o.chainIndex !== undefined) {
    const c = checkNonNegativeInteger(FN, 'chainIndex', o.chainIndex);
    if (c >= nChains) fail('range', FN, 'chainIndex', `must be below nChains = ${nChains}`, c);
    chains = [c];
  }
  const dim = m.sizes.reduce((a, b) => a + b, 0);
  const target = flatTarget(FN, m, o.compile !== false);
  const initOption = o.init ?? 'uniform';
  const init = o.currentState !== undefined ? chainStart(m, o.currentState, nChains)
    : initOption === 'uniform' ? undefined : chainInit(FN, m, target.value, initOption, nChains, seed);
  const total = numWarmup + transitionsFor(nDraws, thin);
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
    maxTreeDepth, maxEnergyDiff: positive('maxEnergyDiff', o.maxEnergyDiff, 1000), metric: o.metric ?? 'diagonal',
    initStepSize: positive('initStepSize', o.initStepSize, 1), dualAveraging, modes: getModes(),
    initRadius: positive('initRadius', o.initRadius, 2), whyNotFinite: (x) => whyNotFinite(m, target.value, x),
    ...(init === undefined ? {} : { init }), ...(onRound === undefined ? {} : { onRound }), ...(o.signal === undefined ? {} : { signal: o.signal }),
  };
  // On worker threads when that pays (the same bits), else here, a round of transitions per step.
  const onCores = runChainsOnCores(target.value, target.compiled ? compileTarget(FN, m) : target.reason!, seed, settings, o.cores);
  const run = onCores.run ?? (yield* perChainSteps(target.value, seed, settings));
  const { draws, trace } = perChainResult<K>(m, run, numWarmup, discardTuning, o.compile !== false);
  if (run.aborted) {
    const partial: WindowedPartial<K> = { numResults: run.numResults, draws: run.numResults > 0 ? draws : undefined, trace: run.numResults > 0 ? trace : undefined, chain: undefined };
    throw new AbortError(`${FN}: aborted after ${run.numResults} draws`, partial, o.signal?.reason);
  }
  return { draws, trace, ...compiledField(target), rejections: run.rejections.rejections(failureLocator(m)), parallel: onCores.parallel };
}

/**
 * The per-chain run as the pooled path returns it: draws `[N, C, ...]` in the model's structure
 * (each draw mapped to constrained space on its own, by the compiled joint bijector, so the model
 * never sees a draws or chains axis), the trace `[N, C]`.
 */
function perChainResult<K extends StructKind>(m: FlatModel, run: PerChainRun, numWarmup: number, discardTuning: boolean, compile: boolean): { draws: Struct<K, Tensor>; trace: WindowedTrace } {
  const N = run.numResults, C = run.chains.length, dim = m.sizes.reduce((a, b) => a + b, 0);
  const draws = constrainDraws<K>(m, flatConstrain(FN, m, compile).value, N, C, (t, c) => run.chains[c]!.q.subarray(t * dim, (t + 1) * dim));
  const stat = <A extends Float64Array | Int32Array | Uint8Array>(pick: (d: PerChainRun['chains'][number]) => A, make: (n: number) => A, dtype: 'float64' | 'int32' | 'bool', map = (v: number) => v) => {
    const out = make(N * C);
    for (let t = 0; t < N; t++) for (let c = 0; c < C; c++) out[t * C + c] = map(pick(run.chains[c]!)[t]!);
    return new Tensor(out, [N, C], dtype);
  };
  const f64 = (n: number) => new Float64Array(n), i32 = (n: number) => new Int32Array(n), u8 = (n: number) => new Uint8Array(n);
  const tune = new Uint8Array(N * C);
  if (!discardTuning) tune.fill(1, 0, Math.min(N, numWarmup) * C);
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

/** Chain c's starting point from `currentState` (each node `[nChains, ...event]`), mapped to flat unconstrained coordinates one chain at a time. */
function chainStart(m: FlatModel, state: PartialValues, nChains: number): (c: number) => Float64Array {
  const nodes = m.parts(state).map((v, j) => {
    const t = asTensor(FN, `currentState.${m.names[j]}`, v);
    if (t.shape[0] !== nChains) fail('range', FN, `currentState.${m.names[j]}`, `must have a leading dim of nChains = ${nChains}`, t.shape);
    return t;
  });
  return (c) => unconstrainDraw(m, m.struct(nodes.map((t) => chainRow(t, c, nChains))));
}
