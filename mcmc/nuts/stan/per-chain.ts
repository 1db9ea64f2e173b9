/**
 * Independent NUTS chains with Stan's per-chain warm-up, over a log density on flat
 * unconstrained coordinates: `windowedAdaptiveNuts(model, { adaptation: 'per-chain' })`.
 *
 * Chain c owns the key `foldIn(seed, c)` and nothing else: its initial point comes from
 * `foldIn(key_c, 0)` (with Stan's first step-size heuristic) and transition t (0-based, warm-up included) from `foldIn(key_c, t + 1)`,
 * so chain c's draws do not depend on how many chains run, which of them, or in what order.
 * Chains take turns one transition at a time, so progress and an abort see every chain at the
 * same step, but no chain ever waits for another's tree.
 *
 * A proposal at which the log density throws or is not finite is rejected and the run goes on
 * (the rule, and what still throws, in `rejections.ts`): each draw counts the proposals rejected
 * in its transition and in the step-size heuristic run just before it, and the run keeps a
 * {@link RejectionLog} of them by kind.
 *
 * The run returns each chain's state between two transitions (`states`: position, log density and
 * gradient, step size, metric, warm-up schedule with its dual averaging and running moments), as
 * plain data; `from` continues the chains from such states, and the pieces' draws joined are the
 * uninterrupted run's, bit for bit (ARCHITECTURE.md's invariant 3). No PRNG position is carried:
 * transition t's random numbers come from `foldIn(key_c, t + 1)` alone.
 *
 * `signal` is read before every round of transitions, so an abort stops the run within one
 * transition per chain and the draws kept so far are returned. `runPerChain` is synchronous: the
 * signal can become aborted during it only from `onRound` (the caller's progress callback) or
 * from another thread (a worker's signal backed by shared memory), never from a timer or an event
 * of this thread, whose turn comes only after the run; `perChainSteps` runs the same steps one at
 * a time, so an asynchronous caller can give the event loop turns between them.
 */
import { fail } from '../../../src/checks.js';
import type { Modes } from '../../../src/config.js';
import { KeyArray } from '../../../src/random/key-array.js';
import type { FlatTarget } from '../../../src/compile/flat-target.js';
import { ChainRandom, NutsChain, type LogDensityGradient } from './nuts-chain.js';
import type { DualAveragingSettings } from '../dual-averaging.js';
import { errorMessage, isProgrammingError, RejectionLog } from '../../internal/rejections.js';
import { StanWarmup, type WarmupState } from './warmup.js';
import { INIT_ATTEMPTS } from '../../internal/init.js';
import type { GibbsChain, GibbsSweeps } from './gibbs.js';

export interface PerChainSettings {
  readonly fn: string;
  /** A name for errors about the model. */
  readonly modelName: string;
  readonly dim: number;
  /** The chains to run (indices into the full set; each runs as it would among all). */
  readonly chains: readonly number[];
  readonly numWarmup: number;
  /** Draws after warm-up this run keeps (a continued run: this many more, see {@link runPlan}). */
  readonly nDraws: number;
  /** Transitions skipped between kept draws after warm-up (thinning; 0 keeps every one). */
  readonly thin: number;
  readonly discardTuning: boolean;
  readonly maxTreeDepth: number;
  readonly maxEnergyDiff: number;
  readonly metric: 'diagonal' | 'dense';
  /** Step size before Stan's heuristic (Stan's default 1). */
  readonly initStepSize: number;
  readonly dualAveraging: DualAveragingSettings;
  /** Initial unconstrained point of chain c; default uniform(−initRadius, initRadius) per coordinate, retried until finite. */
  readonly init?: (c: number) => Float64Array;
  /** The half-width R of the default uniform start (Stan's `init` radius, default 2). */
  readonly initRadius: number;
  /** The diagonal inverse metric every chain's warm-up starts from (`dim`; a dense metric starts from its diagonal matrix); default the identity. */
  readonly initInvMetric?: Float64Array;
  /** Why the log density is not finite at a point (names the node), for errors. */
  readonly whyNotFinite: (x: Float64Array) => string;
  readonly modes: Modes;
  /** After each round of transitions: the round (1-based) and, per chain run, its divergences so far after and during warm-up. */
  readonly onRound?: (round: number, divergences: readonly number[], warmupDivergences: readonly number[]) => void;
  readonly signal?: AbortSignal;
  /**
   * Continue these chains instead of starting them: one state per entry of `chains` (the same
   * chains, in order), all at the same transition, from a previous run with these settings. The
   * run then takes the rest of warm-up and keeps `nDraws` more draws after it (see {@link runPlan}).
   */
  readonly from?: readonly ChainState[];
  /**
   * The discrete block of a compound kernel (`gibbs.ts`): after each chain's NUTS transition, a
   * Metropolis-within-Gibbs sweep over the discrete values, which the target reads. With `from`,
   * each state's `gibbs` (its discrete values and tuned steps) continues the discrete block.
   */
  readonly gibbs?: GibbsSweeps;
}

/**
 * One chain between two transitions, as plain data (typed arrays and numbers, so it crosses
 * worker boundaries and storage): with the run's seed and settings, all a chain needs to
 * continue exactly as if it had never stopped (its random numbers are a function of its key
 * `foldIn(seed, chain)` and the transition index, so no PRNG position is carried).
 */
export interface ChainState {
  /** The chain's index c. */
  readonly chain: number;
  /** The next transition to run (0-based, warm-up included). */
  readonly transition: number;
  /** The position (unconstrained), and the log density and its gradient there. */
  readonly q: Float64Array;
  readonly lp: number;
  readonly grad: Float64Array;
  readonly stepSize: number;
  /** The inverse metric: the diagonal (`dim`), or the dense covariance (`dim × dim`, row-major). */
  readonly invMetric: Float64Array;
  /** Proposals the step-size heuristic rejected after the last transition (they count in the next draw's `rejections`). */
  readonly failures: number;
  /** Divergent transitions so far, after and during warm-up (for progress reports). */
  readonly divergences: number;
  readonly warmupDivergences: number;
  /** Where Stan's warm-up schedule is (unused once it has ended). */
  readonly warmup: WarmupState;
  /**
   * Draws this chain kept beyond the run's returned ones (`numResults`): chains on worker threads
   * see an abort at different transitions, and the partial keeps the prefix every chain reached.
   * A continued run returns them first, so the pieces still join into the uninterrupted run.
   */
  readonly pending?: ChainDraws;
  /** With Gibbs steps: the chain's discrete block (values, acceptance counts, random-walk scales and the warm-up interval's counts). */
  readonly gibbs?: GibbsChain;
}

/** Per chain run: kept draws (row-major `[numResults, dim]`) and their statistics. */
export interface ChainDraws {
  readonly q: Float64Array;
  readonly stepSize: Float64Array;
  readonly nSteps: Int32Array;
  readonly treeDepth: Int32Array;
  readonly diverging: Uint8Array;
  readonly acceptStat: Float64Array;
  readonly energy: Float64Array;
  readonly lp: Float64Array;
  /** With Gibbs steps: the discrete values, row-major `[numResults, size]` (flat in site order). */
  readonly discrete?: Float64Array;
  /** 1 when the draw differs from the previous point. */
  readonly moved: Uint8Array;
  /** Proposals rejected (a log density that threw or was not finite) in the draw's transition and the step-size heuristic just before it. */
  readonly rejections: Int32Array;
}

export interface PerChainRun {
  /** Draws kept per chain (all `nDraws` unless aborted). */
  readonly numResults: number;
  /** True when `signal` stopped the run. */
  readonly aborted: boolean;
  readonly chains: readonly ChainDraws[];
  /** The rejected proposals of every chain, warm-up included, by kind. */
  readonly rejections: RejectionLog;
  /** Each chain's state after its last transition (the abort's point when aborted), to continue it with `from`. */
  readonly states: readonly ChainState[];
}

/** Transitions after warm-up that keep `nDraws` draws with `thin` skipped between them (sampleChain's count). */
export function transitionsFor(nDraws: number, thin: number): number {
  return nDraws + (nDraws - 1) * thin;
}

/**
 * The transitions a run takes and the draws it keeps: from `first` (0, or the transition of the
 * states it continues) to `end` (exclusive), keeping the warm-up draws still to come (unless
 * `discardTuning`) and `nDraws` more after warm-up. A continued run's thinning follows the
 * transition index, so pieces keep the draws one longer run would.
 * @example
 * runPlan({ numWarmup: 10, nDraws: 5, thin: 0, discardTuning: true });   // { first: 0, end: 15, kept: 5 }
 */
export function runPlan(s: Pick<PerChainSettings, 'numWarmup' | 'nDraws' | 'thin' | 'discardTuning' | 'from'>): { first: number; end: number; kept: number } {
  const { numWarmup, thin } = s;
  const kept = (t: number) => (t < numWarmup ? !s.discardTuning : (t - numWarmup) % (thin + 1) === 0);
  // Where each continued chain's returned draws stop: its transition, or the one of its first pending draw.
  const start = (f: ChainState) => { let t = f.transition; for (let p = f.pending?.stepSize.length ?? 0; p > 0 && t > 0;) if (kept(--t)) p--; return t; };
  const first = s.from === undefined || s.from.length === 0 ? 0 : Math.min(...s.from.map(start));
  const before = first <= numWarmup ? 0 : Math.ceil((first - numWarmup) / (thin + 1));   // draws after warm-up kept before `first`
  return { first, end: numWarmup + transitionsFor(before + s.nDraws, thin), kept: (s.discardTuning ? 0 : Math.max(0, numWarmup - first)) + s.nDraws };
}

function allocDraws(n: number, dim: number, discrete = 0): ChainDraws {
  return {
    ...(discrete > 0 ? { discrete: new Float64Array(n * discrete) } : {}),
    q: new Float64Array(n * dim), stepSize: new Float64Array(n), nSteps: new Int32Array(n), treeDepth: new Int32Array(n),
    diverging: new Uint8Array(n), acceptStat: new Float64Array(n), energy: new Float64Array(n), lp: new Float64Array(n), moved: new Uint8Array(n),
    rejections: new Int32Array(n),
  };
}

/** Runs the chains; returns what was kept (a prefix of every chain when aborted). */
export function runPerChain(target: FlatTarget, seed: KeyArray, s: PerChainSettings): PerChainRun {
  const run = startChains(target, seed, s);
  for (let t = run.first; t < run.end; t++) {
    if (s.signal?.aborted) return run.result(true);
    run.round(t);
  }
  return run.result(false);
}

/**
 * Runs a generator of steps to its end; returns its value.
 * @example
 * runSteps((function* () { yield; return 7; })());   // 7
 */
export function runSteps<T>(steps: Generator<void, T, void>): T {
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}

/**
 * {@link runPerChain} one step at a time: it yields once the chains are initialised and after
 * every round of transitions (after `onRound`), so an asynchronous caller can give the event loop
 * a turn between steps, where a timer or an event may abort `signal`; the next step then stops.
 * (The rounds run in `startChains`' plain closure: a loop body inside a generator measured 15–25%
 * slower on eight schools.)
 * @throws as `runPerChain` (TypeError for a `signal` that is not an AbortSignal).
 * @example
 * const steps = perChainSteps(target, key, settings);
 * let r = steps.next();
 * while (!r.done) { await yieldToEventLoop(); r = steps.next(); }   // r.value: the PerChainRun
 */
export function* perChainSteps(target: FlatTarget, seed: KeyArray, s: PerChainSettings): Generator<void, PerChainRun, void> {
  const run = startChains(target, seed, s);
  yield;
  for (let t = run.first; t < run.end; t++) {
    if (s.signal?.aborted) return run.result(true);
    run.round(t);
    yield;
  }
  return run.result(false);
}

/** The chains initialised (start, step-size heuristic, warm-up begun; or restored from `from`), with the round of transition t and the result so far. */
function startChains(target: FlatTarget, seed: KeyArray, s: PerChainSettings): { first: number; end: number; round(t: number): void; result(aborted: boolean): PerChainRun } {
  const { dim, numWarmup } = s;
  const f: LogDensityGradient = (x, g) => target.logDensityGradient(x, g);
  if (s.signal !== undefined && (s.signal === null || typeof s.signal !== 'object' || typeof s.signal.aborted !== 'boolean')) fail('type', s.fn, 'signal', 'must be an AbortSignal', s.signal);
  const { first, end, kept } = runPlan(s);
  // Checked before allocating: each chain keeps kept × dim doubles.
  if (kept * dim * s.chains.length > 2 ** 28) fail('range', s.fn, 'nDraws', `keeps ${kept} draws × ${dim} coordinates × ${s.chains.length} chains, more than 2^28 doubles (2 GiB); keep fewer draws or chains`, s.nDraws);
  const log = new RejectionLog();
  const gibbs = s.gibbs;
  gibbs?.reset();
  let now = -1;                  // the transition under way (−1: the first step-size heuristic)
  const runs = s.chains.map((c, j) => {
    const chainKey = new KeyArray(seed.impl, seed.impl.foldIn(seed.data, c, s.modes), []);
    const rng = new ChainRandom(chainKey, s.modes);
    gibbs?.addChain(chainKey);
    const chain = new NutsChain(f, dim, rng, {
      maxTreeDepth: s.maxTreeDepth, maxEnergyDiff: s.maxEnergyDiff, metric: s.metric,
      // With Gibbs steps the point is (q, the chain's discrete values), so the locator evaluates the model there.
      onReject: (threw, error, lp, q) => log.record(c, now, now < numWarmup, threw, error, lp, q, gibbs === undefined ? undefined : { discrete: gibbs.chains[j]!.values }),
    });
    const warmup = new StanWarmup(numWarmup, dim, s.dualAveraging, s.metric);
    const from = s.from?.[j];
    if (from !== undefined) {
      restoreChain(chain, warmup, from, s.fn);
      if (gibbs !== undefined) gibbs.restore(j, from.gibbs, 'previous');
    } else {
      rng.begin(0);
      let x0 = s.init?.(c);
      if (gibbs !== undefined) x0 = gibbsInit(s, gibbs, chain, c, j, x0);
      else if (x0 === undefined) x0 = uniformInit(s, chain, c);
      else if (tryPosition(chain, x0) !== undefined) fail('range', s.fn, 'currentState', `gives chain ${c} a start where ${s.whyNotFinite(x0)}`, x0);
      if (s.initInvMetric !== undefined) setInvMetric(chain, s.initInvMetric, s.fn);
      chain.stepSize = s.initStepSize;
      warmup.begin(chain);
      chain.initStepSize(s.fn);
    }
    const draws = allocDraws(kept, dim, gibbs?.size ?? 0), pending = from?.pending;
    if (pending !== undefined && gibbs !== undefined && pending.discrete?.length !== pending.stepSize.length * gibbs.size) fail('range', s.fn, 'previous', `has pending draws of chain ${c} without the discrete values of its Gibbs steps`, pending);
    if (pending !== undefined) copyDraws(pending, 0, pending.stepSize.length, draws, 0, dim);
    return { c, chain, warmup, draws, from: from?.transition ?? first, pending: pending?.stepSize.length ?? 0 };
  });
  const divergences = runs.map((_, j) => s.from?.[j]?.divergences ?? 0), warmupDivergences = runs.map((_, j) => s.from?.[j]?.warmupDivergences ?? 0);
  let numResults = 0, next = first;
  return {
    first, end,
    round(t) {
      now = t;
      const keep = t >= numWarmup ? (t - numWarmup) % (s.thin + 1) === 0 : !s.discardTuning;
      for (let j = 0; j < runs.length; j++) {
        const r = runs[j]!, chain = r.chain;
        if (t < r.from) continue;          // a chain continued from further on (its draws up to there are pending ones)
        chain.rng.begin(t + 1);
        const stepSize = chain.stepSize;
        if (gibbs !== undefined) gibbs.load(j);
        chain.transition();
        if (gibbs !== undefined) {
          // The discrete half of the compound kernel; the chain's cached gradient is stale once a value moved.
          const c = r.c, warm = t < numWarmup;
          const swept = gibbs.sweep(j, t, chain.q, chain.lp, numWarmup, (threw, error, lp, node, element, discrete) => log.record(c, t, warm, threw, error, lp, chain.q, { discrete, gibbs: { node, element } }));
          chain.failures += swept.failures;
          if (swept.changed) chain.setPosition(chain.q);
        }
        if (chain.divergent) (t < numWarmup ? warmupDivergences : divergences)[j]!++;
        if (keep) {
          record(r.draws, numResults, chain, stepSize);
          if (gibbs !== undefined) r.draws.discrete!.set(gibbs.chains[j]!.values, numResults * gibbs.size);
        }
        chain.failures = 0;
        if (t < numWarmup) {
          r.warmup.afterTransition(chain, s.fn);
          if (t === numWarmup - 1) r.warmup.end(chain);
        }
      }
      if (keep) numResults++;
      next = t + 1;
      s.onRound?.(t + 1, divergences, warmupDivergences);
    },
    result: (aborted) => {
      // A chain continued from further on may hold more draws than the others (its pending ones): the run returns the common prefix.
      const counts = runs.map((r) => Math.max(numResults, r.pending));
      const common = Math.min(...counts);
      return {
        numResults: common, aborted, chains: runs.map((r) => r.draws), rejections: log,
        states: runs.map((r, j) => withPending(chainState(r.c, Math.max(next, r.from), r.chain, r.warmup, divergences[j]!, warmupDivergences[j]!, gibbs?.state(j)), r.draws, common, counts[j]!, dim)),
      };
    },
  };
}

/**
 * The chains initialised (start, step-size heuristic, warm-up begun) and not run: their states
 * before transition 0, and the heuristic's rejections. A run continued from them (`from`) is the
 * run started here, bit for bit: chains with Gibbs steps start so on the thread that has the
 * model (their discrete starts are drawn from it) before going to workers.
 * @example
 * const { states } = initialStates(target, seed, settings);   // then runPerChain(target, seed, { ...settings, from: states })
 */
export function initialStates(target: FlatTarget, seed: KeyArray, s: PerChainSettings): { states: readonly ChainState[]; rejections: RejectionLog } {
  const r = startChains(target, seed, { ...s, nDraws: 1, thin: 0, discardTuning: true }).result(false);
  return { states: r.states, rejections: r.rejections };
}

/** Copies draws `[from, to)` of `src` to row `at` of `dst`. */
function copyDraws(src: ChainDraws, from: number, to: number, dst: ChainDraws, at: number, dim: number): void {
  dst.q.set(src.q.subarray(from * dim, to * dim), at * dim);
  for (const k of DRAW_STATS) (dst[k] as Float64Array).set((src[k] as Float64Array).subarray(from, to), at);
  if (src.discrete !== undefined && dst.discrete !== undefined) {
    const w = src.discrete.length / Math.max(1, src.stepSize.length);
    dst.discrete.set(src.discrete.subarray(from * w, to * w), at * w);
  }
}

/** The per-draw statistics of {@link ChainDraws} (all but `q`). */
export const DRAW_STATS = ['stepSize', 'nSteps', 'treeDepth', 'diverging', 'acceptStat', 'energy', 'lp', 'moved', 'rejections'] as const;

/**
 * `state` with the draws `[common, count)` of `draws` (kept but not returned) put before its own
 * pending ones: what a continued run returns first.
 * @example
 * withPending(state, draws, 120, 123, dim);   // state.pending: draws 120, 121, 122 (then any it had)
 */
export function withPending(state: ChainState, draws: ChainDraws, common: number, count: number, dim: number): ChainState {
  const extra = Math.max(0, count - common), had = state.pending?.stepSize.length ?? 0;
  if (extra === 0) return state;
  const pending = allocDraws(extra + had, dim, draws.discrete === undefined ? 0 : draws.discrete.length / Math.max(1, draws.stepSize.length));
  copyDraws(draws, common, count, pending, 0, dim);
  if (had > 0) copyDraws(state.pending!, 0, had, pending, extra, dim);
  return { ...state, pending };
}

/** Chain c's state before transition `transition` (copies; `gibbs` is copied by its maker). */
function chainState(c: number, transition: number, chain: NutsChain, warmup: StanWarmup, divergences: number, warmupDivergences: number, gibbs?: GibbsChain): ChainState {
  return {
    chain: c, transition, q: chain.q.slice(), lp: chain.lp, grad: chain.grad.slice(), stepSize: chain.stepSize,
    invMetric: chain.dense === null ? chain.invMetric.slice() : chain.dense.cov.slice(), failures: chain.failures,
    divergences, warmupDivergences, warmup: warmup.snapshot(), ...(gibbs === undefined ? {} : { gibbs }),
  };
}

/** Starts a fresh chain's metric from the diagonal inverse metric `d` (before the step-size heuristic). */
function setInvMetric(chain: NutsChain, d: Float64Array, fn: string): void {
  if (chain.dense === null) { chain.invMetric.set(d); return; }
  const n = chain.dim, cov = new Float64Array(n * n);
  for (let i = 0; i < n; i++) cov[i * n + i] = d[i]!;
  chain.dense.set(cov, fn);
}

/** Puts a fresh chain and warm-up where `st` says (no evaluation, no random numbers: the next transition's stream is its own). */
function restoreChain(chain: NutsChain, warmup: StanWarmup, st: ChainState, fn: string): void {
  chain.restorePosition(st.q, st.lp, st.grad);
  chain.stepSize = st.stepSize;
  if (chain.dense === null) chain.invMetric.set(st.invMetric);
  else chain.dense.set(st.invMetric, fn);
  chain.failures = st.failures;
  warmup.restore(st.warmup);
}

function record(d: ChainDraws, i: number, chain: NutsChain, stepSize: number): void {
  d.q.set(chain.q, i * chain.dim);
  d.stepSize[i] = stepSize;
  d.nSteps[i] = chain.nSteps;
  d.treeDepth[i] = chain.depth;
  d.diverging[i] = chain.divergent ? 1 : 0;
  d.acceptStat[i] = chain.acceptStat;
  d.energy[i] = chain.energy;
  d.lp[i] = chain.lp;
  d.moved[i] = chain.moved ? 1 : 0;
  d.rejections[i] = chain.failures;
}

/**
 * Moves the chain to `x`; undefined when the log density and its gradient are finite there, else
 * what went wrong ("is NaN", "threw RangeError: …"). A programming error (`isProgrammingError`)
 * propagates: the model's first evaluation is where it shows.
 */
function tryPosition(chain: NutsChain, x: Float64Array): string | undefined {
  let lp: number;
  try { lp = chain.setPosition(x); } catch (e) {
    if (isProgrammingError(e)) throw e;
    return `threw ${errorMessage(e)}`;
  }
  if (!Number.isFinite(lp)) return `is ${lp}`;
  return chain.grad.every(Number.isFinite) ? undefined : 'has a non-finite gradient';
}

/**
 * A compound chain's start: attempt a draws the discrete values from the prior (`initDiscrete`),
 * then the continuous point `x0` (given) or uniform(−R, R), until the log density and gradient are
 * finite, up to {@link INIT_ATTEMPTS} attempts.
 */
function gibbsInit(s: PerChainSettings, gibbs: GibbsSweeps, chain: NutsChain, c: number, j: number, x0: Float64Array | undefined): Float64Array {
  const x = new Float64Array(s.dim), r = s.initRadius;
  for (let trial = 0; trial < INIT_ATTEMPTS; trial++) {
    gibbs.initDiscrete(j, trial);
    if (x0 !== undefined) x.set(x0);
    else {
      chain.rng.uniforms(x);
      for (let i = 0; i < s.dim; i++) x[i] = 2 * r * x[i]! - r;
    }
    if (tryPosition(chain, x) === undefined) return x;
  }
  return fail('range', s.fn, 'model', `"${s.modelName}" has a non-finite log density or gradient at every one of ${INIT_ATTEMPTS} starts tried for chain ${c} (discrete nodes drawn from the prior, continuous ones ${x0 === undefined ? `uniform(−${r}, ${r}) in unconstrained space` : 'where `init` or `currentState` says'}); at the last, ${s.whyNotFinite(x)}. Check the model and its pins`, s.modelName);
}

/**
 * Stan's default start: uniform(−R, R) in every unconstrained coordinate, up to
 * {@link INIT_ATTEMPTS} attempts until the log density and its gradient are finite; a log density
 * that throws (other than a programming error, which propagates) counts as a failed attempt, as
 * Stan retries on a `std::domain_error`.
 */
function uniformInit(s: PerChainSettings, chain: NutsChain, c: number): Float64Array {
  const x = new Float64Array(s.dim), r = s.initRadius;
  for (let trial = 0; trial < INIT_ATTEMPTS; trial++) {
    chain.rng.uniforms(x);
    for (let i = 0; i < s.dim; i++) x[i] = 2 * r * x[i]! - r;
    if (tryPosition(chain, x) === undefined) return x;
  }
  return fail('range', s.fn, 'model', `"${s.modelName}" has a non-finite log density or gradient at every one of ${INIT_ATTEMPTS} starts tried for chain ${c} (uniform(−${r}, ${r}) in unconstrained space); at the last, ${s.whyNotFinite(x)}. Check the model and its pins, try \`init: 'prior'\` or a smaller \`initRadius\`, or give \`init\` values`, s.modelName);
}
