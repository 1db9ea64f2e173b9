/**
 * `windowedAdaptiveNuts(model, { adaptation: 'pooled' })`: the TFP engine, TFP's
 * `windowed_adaptive_nuts` as TFP runs it — the chains in lockstep as one batch through
 * `WindowedAdaptation(DiagonalMassMatrixAdaptation(DualAveragingStepSizeAdaptation(
 * PreconditionedNoUTurnSampler)))` under `sampleChain`, sharing one adapted step size. The model is
 * written for one draw: the kernel runs its flat target chain by chain.
 *
 * A failure of the log density at a proposal (it throws, or a value or gradient is not finite) is
 * a divergent leaf of that chain's trajectory only, and the run goes on: `trace.rejections` counts
 * them per chain and draw, `result.rejections` by kind with the node located on the tape
 * (`mcmc/internal/rejections.ts`); a programming error (TypeError, ReferenceError, SyntaxError)
 * propagates.
 */
import { checkOptions, fail } from '../../../src/checks.js';
import { detExp, detLog2, detPow } from '../../../src/math/index.js';
import type { KeyArray } from '../../../src/random/key-array.js';
import { splitSeed } from '../../../src/samplers/seeds.js';
import { ones, zeros } from '../../../src/tensor/ops/create.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import { flatConstrain, flatTarget } from '../../../distributions/compile-log-density.js';
import type { FlatModel } from '../../../distributions/joint/flat-model.js';
import { isPlainObject, type StructKind } from '../../../distributions/joint/values.js';
import { AbortError } from '../../abort-error.js';
import type { State } from '../../kernel.js';
import { DiagonalMassMatrixAdaptation } from '../../kernels/diagonal-mass-matrix-adaptation.js';
import { DualAveragingStepSizeAdaptation, type DualAveragingStepSizeAdaptationOptions } from '../../kernels/dual-averaging-step-size-adaptation.js';
import type { NoUTurnSamplerResults } from '../../kernels/no-u-turn-sampler.js';
import { PreconditionedNoUTurnSampler } from '../../kernels/preconditioned-no-u-turn-sampler.js';
import { chainInit } from '../../internal/init.js';
import { failureLocator } from '../../internal/locate-failure.js';
import { RejectionLog } from '../../internal/rejections.js';
import { innermostWith } from '../../internal/kernel-results.js';
import { reduceLogHarmonicMeanExp } from '../../internal/log-mean-exp.js';
import type { Trace } from '../../internal/stack.js';
import { addDivergencesPerChain, sampleChainObserved, type PartialChain } from '../../sample-chain.js';
import { compiledField, constrainDraws, FN, positiveNumber, type WindowedAdaptiveNutsOptions, type WindowedAdaptiveNutsResult, type WindowedPartial, type WindowedProgress, type WindowedTrace } from '../windowed-common.js';
import { runningVarianceFromStats } from './running-variance.js';
import { WindowedAdaptation, type WindowedAdaptationResults } from './windowed-adaptation.js';
import { fromOrder, initialState, tfpPartOrder, toOrder } from './windowed-setup.js';

type Results = WindowedAdaptationResults<NoUTurnSamplerResults>;

/** The pooled run (options already checked by the front end). */
export function pooledNuts<K extends StructKind>(
  m: FlatModel, o: WindowedAdaptiveNutsOptions, seed: KeyArray,
  nChains: number, n: number, nDraws: number, thin: number, discardTuning: boolean, initRadius: number,
): Omit<WindowedAdaptiveNutsResult<K>, 'warnings'> {
  // One draw's log density over the parts in TFP's order: the kernel runs it chain by chain, so the
  // model is written for one draw (no chains axis), as on the per-chain path.
  const order = tfpPartOrder(m);
  const target = flatTarget(FN, m, o.compile !== false, order);
  const init0 = o.init ?? 'uniform';
  const given = o.currentState !== undefined ? m.flatten(m.parts(m.bijector.inverse(o.currentState)), 1)
    : init0 === 'uniform' ? undefined : stackStarts(m, nChains, chainInit(FN, m, flatTarget(FN, m, o.compile !== false).value, init0, nChains, seed));
  given?.forEach((p, j) => {
    if (p.shape[0] !== nChains) fail('range', FN, `currentState.${m.names[j]}`, `must have a leading dim of nChains = ${nChains}`, p.shape);
  });
  const [setupSeed, sampleSeed] = splitSeed(seed, { n: 2 }) as [KeyArray, KeyArray];
  // The chain's state parts are in TFP's flattening order (a record's nodes sorted by name).
  const init = given === undefined ? initialState(FN, m, nChains, setupSeed, order, initRadius) : toOrder(order, given);
  const stepSize = stepSizeOption(o.initStepSize, m.names, m.sizes);

  const nuts = new PreconditionedNoUTurnSampler({
    targetLogProbFn: target.value,
    stepSize: Array.isArray(stepSize) ? toOrder(order, stepSize) : stepSize,
    maxTreeDepth: o.maxTreeDepth ?? 10,
    maxEnergyDiff: o.maxEnergyDiff ?? 500,
  });
  const da = checkOptions(`${FN}: dualAveraging`, o.dualAveraging, ['explorationShrinkage', 'stepCountSmoothing', 'decayRate', 'reduceFn', 'shrinkageTarget']) as {
    explorationShrinkage?: unknown; stepCountSmoothing?: unknown; decayRate?: unknown; reduceFn?: unknown; shrinkageTarget?: unknown;
  };
  // TFP's DualAveragingStepSizeAdaptation converts its Python-float parameters to float32 (its
  // dtype hint) and widens them at bootstrap: the target 0.85 is 0.8500000238418579, γ = 0.05 is
  // 0.05000000074505806.
  const f32 = <T>(v: T): T => (typeof v === 'number' ? Math.fround(v) as T : v);
  const dassa = new DualAveragingStepSizeAdaptation({
    reduceFn: reduceLogHarmonicMeanExp,
    ...da,
    explorationShrinkage: f32(da.explorationShrinkage ?? 0.05),
    stepCountSmoothing: f32(da.stepCountSmoothing ?? 10),
    decayRate: f32(da.decayRate ?? 0.75),
    ...(da.shrinkageTarget === undefined ? {} : { shrinkageTarget: Array.isArray(da.shrinkageTarget) ? da.shrinkageTarget.map(f32) : f32(da.shrinkageTarget) }),
    innerKernel: nuts,
    numAdaptationSteps: n,
    targetAcceptProb: f32(o.targetAcceptProb ?? 0.85),
  } as unknown as DualAveragingStepSizeAdaptationOptions<NoUTurnSamplerResults>);
  const dmma = new DiagonalMassMatrixAdaptation({
    innerKernel: dassa,
    initialRunningVariance: init.map((p) => runningVarianceFromStats({ numSamples: 0, mean: zeros(p.shape), variance: ones(p.shape) })),
    numEstimationSteps: n,
  });
  const kernel = new WindowedAdaptation({ innerKernel: dmma, numAdaptationSteps: n });

  const nutsResults = (r: Results) => innermostWith(r, 'hasDivergence') as unknown as NoUTurnSamplerResults;
  // Rejections (a failure of the log density at a proposal: a divergent leaf, and the run goes
  // on), seen after every step: the run's log by kind, and each chain's count since the last draw
  // (a thinned draw counts the transitions since the one before).
  const log = new RejectionLog(), pending = new Int32Array(nChains), burnin = discardTuning ? n : 0;
  const fromFlatOrder = modelOrderPoint(m, order);
  const noteRejections = (step: number, r: Results) => {
    const nr = nutsResults(r), count = nr.rejections.data as Int32Array;
    if (step > burnin) for (let c = 0; c < nChains; c++) pending[c] += count[c]!;   // burn-in steps have no draw
    for (const f of nr.rejectionCauses) log.record(f.chain, step - 1, step <= n, f.threw, f.error, f.lp, fromFlatOrder(f.x!));
  };
  const takePending = () => { const out = Int32Array.from(pending); pending.fill(0); return out; };
  const traceFn = o.traceFn === undefined
    ? (_: State, r: Results) => ({ ...defaultTrace(nutsResults(r), r.step <= n, nChains), rejections: new Tensor(takePending(), [nChains], 'int32') })
    : (s: State, r: Results) => o.traceFn!(fromOrder(order, s as Tensor[]), m.bijector, r.step <= n, nutsResults(r));
  const progress = o.onProgress === undefined ? undefined : perChainProgress(nChains, n, o.onProgress);
  const observe = (step: number, r: Results) => { noteRejections(step, r); progress?.observe(step, r); };
  const constrain = flatConstrain(FN, m, o.compile !== false).value;
  const toDraws = (flat: Tensor[]) => {
    const parts = fromOrder(order, flat).map((t) => t.data as Float64Array), [N, C] = flat[0]!.shape as [number, number];
    const x = new Float64Array(m.sizes.reduce((a, b) => a + b, 0));
    return constrainDraws<K>(m, constrain, N, C, (t, c) => {
      for (let j = 0, i = 0; j < parts.length; j++) { const n = m.sizes[j]!, p = parts[j]!, o = (t * C + c) * n; for (let e = 0; e < n; e++) x[i++] = p[o + e]!; }
      return x;
    });
  };
  let run;
  try {
    const chainOptions = {
      numResults: discardTuning ? nDraws : nDraws + n,
      numBurninSteps: discardTuning ? n : 0,
      numStepsBetweenResults: thin,
      currentState: init,
      kernel,
      traceFn,
      seed: sampleSeed,
      ...(o.signal === undefined ? {} : { signal: o.signal }),
      ...(progress === undefined ? {} : { onProgress: progress.report, progressInterval: o.progressInterval ?? 100 }),
    };
    run = sampleChainObserved(chainOptions, observe);
  } catch (e) {
    if (!(e instanceof AbortError)) throw e;
    const p = e.partial as PartialChain<object>;
    const partial: WindowedPartial<K> = {
      numResults: p.numResults,
      draws: p.allStates === undefined ? undefined : toDraws(p.allStates as Tensor[]),
      trace: p.trace as WindowedTrace | Trace | undefined,
      chain: p,
      rejections: log.rejections(failureLocator(m)),
    };
    throw new AbortError(`${FN}: aborted after ${p.numResults} draws`, partial, e.cause);
  }
  return {
    draws: toDraws(run.allStates as Tensor[]), trace: run.trace as WindowedTrace | Trace, ...compiledField(target),
    rejections: log.rejections(failureLocator(m)),
  };
}

/**
 * Each chain's divergences, counted after every kernel step (the `observe` of
 * `sampleChainObserved`), and the `sampleChain` progress callback that fans one report out to one
 * record per chain. Neither touches a seed or a state.
 */
function perChainProgress(
  nChains: number, n: number, onProgress: (p: WindowedProgress) => void,
): { observe: (step: number, results: Results) => void; report: (p: { step: number; total: number }) => void } {
  const counts = new Array<number>(nChains).fill(0), warmupCounts = new Array<number>(nChains).fill(0);
  const observe = (step: number, results: Results) => addDivergencesPerChain(results, step <= n ? warmupCounts : counts);
  const report = ({ step, total }: { step: number; total: number }) => {
    const phase = step <= n ? 'warmup' as const : 'sampling' as const;
    for (let c = 0; c < nChains; c++) onProgress({ chain: c, step, total, phase, divergences: counts[c]!, warmupDivergences: warmupCounts[c]! });
  };
  return { observe, report };
}

/** The initial step size: `0.5·D^(−1/4)` by default, or the user's (a number, or one per unpinned node). */
function stepSizeOption(s: WindowedAdaptiveNutsOptions['initStepSize'], names: readonly string[], sizes: readonly number[]): number | number[] {
  if (s === undefined) return 0.5 * detPow(sizes.reduce((a, b) => a + b, 0), -0.25);  // not `**` (engines differ)
  if (typeof s === 'number') return positiveNumber('initStepSize', s);
  if (Array.isArray(s)) {
    if (s.length !== names.length) fail('range', FN, 'initStepSize', `must give one step size per unpinned node (${names.join(', ')})`, s);
    return s.map((v, i) => positiveNumber(`initStepSize[${i}]`, v));
  }
  if (isPlainObject(s)) return names.map((n) => positiveNumber(`initStepSize.${n}`, (s as Record<string, unknown>)[n]));
  return fail('type', FN, 'initStepSize', 'must be a number, an array, or a record by node name', s);
}

/** TFP's `default_nuts_trace_fn` in ArviZ's terms, every field per chain. */
function defaultTrace(r: NoUTurnSamplerResults, tune: boolean, nChains: number): WindowedTrace {
  const lar = r.logAcceptRatio.data as Float64Array;
  const steps = r.leapfrogsTaken.data as Int32Array;
  const energy = r.energy.data as Float64Array;
  const chain = (f: (c: number) => number) => new Tensor(Float64Array.from({ length: nChains }, (_, c) => f(c)), [nChains], 'float64');
  return {
    stepSize: chain(chainStepSize(r.stepSize, nChains)),
    tune: new Tensor(new Uint8Array(nChains).fill(tune ? 1 : 0), [nChains], 'bool'),
    nSteps: new Tensor(Int32Array.from(steps), [nChains], 'int32'),
    treeDepth: new Tensor(Int32Array.from(steps, (s) => Math.ceil(detLog2(s + 1))), [nChains], 'int32'),
    diverging: r.hasDivergence,
    acceptRatio: chain((c) => Math.min(1, detExp(lar[c]!))),
    energy: chain((c) => -energy[c]!),
    targetLogProb: r.targetLogProb,
    isAccepted: r.isAccepted,
  };
}

/** The step size each chain used (the first part's, when there is one per part). */
function chainStepSize(s: NoUTurnSamplerResults['stepSize'], nChains: number): (c: number) => number {
  const first = Array.isArray(s) ? s[0]! : s as number | Tensor;
  if (typeof first === 'number') return () => first;
  const d = first.data as ArrayLike<number>;
  return (c) => Number(d.length === nChains ? d[c] : d[0]);
}

/** A flat point in the sampler's part order (`order`) as one in the model's order (what `failureLocator` reads). */
function modelOrderPoint(m: FlatModel, order: readonly number[]): (x: Float64Array) => Float64Array {
  const offsets: number[] = [];
  m.sizes.reduce((at, n, j) => { offsets[j] = at; return at + n; }, 0);
  return (x) => {
    const out = new Float64Array(x.length);
    let at = 0;
    for (const j of order) { const n = m.sizes[j]!; out.set(x.subarray(at, at + n), offsets[j]!); at += n; }
    return out;
  };
}

/** Per-chain starts (flat, model order) stacked into the pooled sampler's parts `[nChains, n_j]`, in model order. */
function stackStarts(m: FlatModel, nChains: number, start: (c: number) => Float64Array): Tensor[] {
  const starts = Array.from({ length: nChains }, (_, c) => start(c));
  let at = 0;
  return m.sizes.map((n) => {
    const out = new Float64Array(nChains * n);
    starts.forEach((x, c) => out.set(x.subarray(at, at + n), c * n));
    at += n;
    return new Tensor(out, [nChains, n], 'float64');
  });
}
