/**
 * `windowedAdaptiveNuts(model, { cores })`: the per-chain engine's chains spread over worker
 * threads from a plain synchronous call, with the bits of the in-process run.
 *
 * How: the compiled log density is exported as a portable program (`src/compile/portable.ts`:
 * generated source, data, registered library functions by name) and sent to pooled workers
 * (`cores-worker.ts`), each running a share of the chains with `runPerChain` exactly as in
 * process; the main thread runs the first share itself. Draws and statistics are written
 * straight into SharedArrayBuffers the main thread allocated; progress counters and the abort
 * flag are shared words. The main thread never returns to its event loop: once its own chains
 * are done it blocks in `Atomics.wait` with a timeout, polling the counters so `onProgress`
 * and `signal` keep working, until every worker has notified the end of its task.
 *
 * When it runs in process instead (and the result's `parallel.reason` says why, unless
 * `cores: 1` asked for it): one chain, `compile: false`, a model whose compiled program is not
 * portable, no worker threads or `Atomics.wait` (a browser's main thread, where blocking is not
 * allowed, or a Node without `process.getBuiltinModule`), or a run too small to pay for the
 * workers. That rule: the serial time is estimated as (seconds per gradient, timed at start once
 * its first calls have warmed it up, + 1 µs of the sampler's own work) × 16 leapfrog steps per
 * transition × transitions × chains,
 * and workers are used when the time they save, estimate × (1 − 1/cores), exceeds their
 * start-up (0.05 s when the pool is warm; a cold pool costs what the last worker took to start,
 * else 0.5 s, 2 s under tsx) plus 0.05 s. The estimate only has to tell a 0.1-s run from a
 * 10-s one; the bits never depend on it.
 *
 * With workers, `onProgress` reports the step the slowest chain has reached (polled every
 * 20 ms, and after each of this thread's transitions), and an abort stops every chain before
 * its next transition once it is seen: the partial draws are an exact prefix of each chain,
 * cut at the shortest.
 */
import { fail } from '../../../src/checks.js';
import type { Compiled } from '../../../src/compile/codegen.js';
import { exportCompiled } from '../../../src/compile/portable.js';
import type { KeyArray } from '../../../src/random/key-array.js';
import type { FlatTarget } from '../../../src/compile/flat-target.js';
import { initialStates, runPerChain, runPlan, withPending, type ChainDraws, type ChainState, type PerChainRun, type PerChainSettings } from './per-chain.js';
import { RejectionLog, type RejectionEntry } from '../../internal/rejections.js';
import { finiteAt } from '../../internal/init.js';
import { deserializeError, type SerializedError } from '../../internal/chain-error.js';
import { ABORT, ACK, CHAIN0, DONE, SLOT, type CoresTask, type SharedDraws } from './cores-messages.js';
import './portable-catalogue.js';

/** How a per-chain run used the cores: how many ran chains, and why fewer than asked (or than the default). */
export interface ParallelInfo {
  readonly cores: number;
  readonly reason?: string;
}

/** Leapfrog steps per transition assumed by the estimate (2⁴: trees of depth 3 to 4 are typical after warm-up, and warm-up's early trees are deeper). */
const LEAPFROGS = 16;
/** The sampler's own seconds per leapfrog step besides the gradient (the tree, the metric, the copies: ~1 µs on eight schools). */
const STEP_OVERHEAD = 1e-6;
/** Seconds a run must save beyond the workers' start-up before they are used. */
const MARGIN = 0.05;
/** Seconds a warm pool costs per run (posting the program, the catalogue in a fresh worker, the first calls unoptimised). */
const WARM = 0.05;
/**
 * For tests only: `force` skips the size rule (a run with a portable program and more than one
 * core always goes to workers).
 */
export const coresTuning: { force: boolean } = { force: false };

/** Poll period of the blocked main thread (ms). */
const POLL_MS = 20;
/** Give up when a worker has not taken its task after this long (ms): it failed to start. */
const START_TIMEOUT_MS = 120_000;

type NodeApi = {
  readonly wt: typeof import('node:worker_threads');
  readonly os: typeof import('node:os');
  readonly module: typeof import('node:module');
  readonly url: typeof import('node:url');
};
let nodeApi: NodeApi | null | undefined;
/** Node's built-ins, synchronously (`process.getBuiltinModule`, Node ≥ 20.16), or null elsewhere. */
function node(): NodeApi | null {
  if (nodeApi !== undefined) return nodeApi;
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (typeof get !== 'function') return (nodeApi = null);
  return (nodeApi = {
    wt: get('node:worker_threads') as NodeApi['wt'], os: get('node:os') as NodeApi['os'],
    module: get('node:module') as NodeApi['module'], url: get('node:url') as NodeApi['url'],
  });
}

/**
 * The default `cores`: `min(nChains, availableParallelism())` in Node; 1 where the main thread
 * cannot block on workers (browsers).
 *
 * @example
 * defaultCores(4);   // 2 on a 2-core machine
 */
export function defaultCores(nChains: number): number {
  const n = node();
  return n === null ? 1 : Math.max(1, Math.min(nChains, n.os.availableParallelism()));
}

const TS = /\.[mc]?tsx?$/;
// A TypeScript run's worker registers tsx first (Node 20 workers do not inherit loader hooks).
const BOOT = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => { tsx.register(); return import(workerData.entry); });
`;

interface Pooled { readonly worker: import('node:worker_threads').Worker; readonly spawned: number; started: boolean }
const pool: Pooled[] = [];
/** Seconds the last worker took from spawn to taking its first task. */
let measuredStart: number | undefined;

function entry(): { url: URL; ts: boolean } {
  const ts = TS.test(new URL(import.meta.url).pathname);
  return { url: new URL(ts ? './cores-worker.ts' : './cores-worker.js', import.meta.url), ts };
}

/** Start-up cost in seconds of having `k` workers ready now. */
function startCost(k: number): number {
  if (pool.length >= k) return WARM;
  return measuredStart ?? (entry().ts ? 2 : 0.5);
}

/** `k` pooled workers (spawned now when missing; unref'd so an idle pool never keeps the process alive). */
function workers(n: NodeApi, k: number): Pooled[] {
  while (pool.length < k) {
    const { url, ts } = entry();
    let worker;
    if (ts) {
      const cjs = n.module.createRequire(import.meta.url).resolve('tsx/esm/api');
      worker = new n.wt.Worker(BOOT, { eval: true, workerData: { tsx: n.url.pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href, entry: url.href } });
    } else worker = new n.wt.Worker(url);
    worker.unref();
    const pooled: Pooled = { worker, spawned: performance.now(), started: false };
    // A worker that dies leaves the pool (a run waiting on it fails by its start timeout or its port).
    worker.on('exit', () => { const i = pool.indexOf(pooled); if (i >= 0) pool.splice(i, 1); });
    worker.on('error', () => { /* reported to the run through its port or timeout */ });
    pool.push(pooled);
  }
  return pool.slice(0, k);
}

/**
 * Seconds per gradient evaluation of `f` at a point near the origin: the fastest batch of 8
 * calls, so a thread descheduled on a loaded machine does not inflate it. The first calls run
 * unoptimised, 3–6× slower (600-observation regression: 11 µs per call, 3.3 µs after ~350
 * calls), which made a 0.2-s run look like a 1-s one and sent it to workers that take longer
 * than that to start; so it times up to 64 batches (~20 ms at most), stopping as soon as a batch
 * is at or below `enough` seconds per call (the caller's answer is then settled) or the budget
 * is spent. The calls are not lost: they warm the code the chains then run in process. @internal
 *
 * @example
 * gradientSeconds(target, 10, 1e-6);   // e.g. 3.2e-6
 */
export function gradientSeconds(target: FlatTarget, dim: number, enough: number): number {
  const x = Float64Array.from({ length: dim }, (_, i) => 0.05 * ((i % 7) - 3)), g = new Float64Array(dim);   // any fixed point: timing only
  let best = Infinity;
  const t0 = performance.now();
  for (let b = 0; b < 64 && (b < 2 || performance.now() - t0 < 20) && best > enough; b++) {
    const t = performance.now();
    for (let i = 0; i < 8; i++) { try { target.logDensityGradient(x, g); } catch { /* timing only */ } }
    best = Math.min(best, (performance.now() - t) / 8 / 1000);
  }
  return best;
}

function sharedChainDraws(kept: number, dim: number, discrete: number): { shared: SharedDraws; draws: ChainDraws } {
  const sab = (bytes: number) => new SharedArrayBuffer(Math.max(bytes, 8));
  const shared: SharedDraws = {
    q: sab(8 * kept * dim), stepSize: sab(8 * kept), nSteps: sab(4 * kept), treeDepth: sab(4 * kept), diverging: sab(kept),
    acceptStat: sab(8 * kept), energy: sab(8 * kept), lp: sab(8 * kept), moved: sab(kept), rejections: sab(4 * kept),
    ...(discrete > 0 ? { discrete: sab(8 * kept * discrete) } : {}),
  };
  const draws: ChainDraws = {
    q: new Float64Array(shared.q, 0, kept * dim), stepSize: new Float64Array(shared.stepSize, 0, kept), nSteps: new Int32Array(shared.nSteps, 0, kept),
    treeDepth: new Int32Array(shared.treeDepth, 0, kept), diverging: new Uint8Array(shared.diverging, 0, kept), acceptStat: new Float64Array(shared.acceptStat, 0, kept),
    energy: new Float64Array(shared.energy, 0, kept), lp: new Float64Array(shared.lp, 0, kept), moved: new Uint8Array(shared.moved, 0, kept),
    rejections: new Int32Array(shared.rejections, 0, kept),
    ...(shared.discrete === undefined ? {} : { discrete: new Float64Array(shared.discrete, 0, kept * discrete) }),
  };
  return { shared, draws };
}

/**
 * Runs the per-chain engine's chains on up to `cores` threads (this one included) when that pays
 * (see the file's comment for when and why): then `run` is the run, the same draws bit for bit as
 * in process; else `run` is undefined and the caller runs the chains in process (as generator
 * steps, so an asynchronous caller keeps its event-loop turns). `compiled` is the compiled
 * program the target runs, or why it runs on the tape.
 *
 * @example
 * const { run, parallel } = runChainsOnCores(target, compileTarget(FN, m), seed, settings, 2);
 * parallel;   // { cores: 2 }, or { cores: 1, reason: 'the run is estimated at 0.08 s, …' } with run undefined
 */
export function runChainsOnCores(target: FlatTarget, compiled: Compiled | string, seed: KeyArray, s: PerChainSettings, cores: number | undefined): { run?: PerChainRun; parallel: ParallelInfo } {
  const inProcess = (reason?: string) => ({ parallel: reason === undefined ? { cores: 1 } : { cores: 1, reason } });
  const asked = cores;
  const k = Math.min(cores ?? defaultCores(s.chains.length), s.chains.length);
  if (k <= 1) return inProcess(asked === undefined || asked <= 1 ? (asked === undefined && s.chains.length > 1 ? 'one core is available' : undefined) : 'one chain');
  const n = node();
  if (n === null) return inProcess("this host cannot block on worker threads (a browser's main thread forbids Atomics.wait); chains run in process");
  if (typeof compiled === 'string') return inProcess(`the log density runs on the tape (${compiled}), which cannot be sent to a worker`);
  const { first, end } = runPlan(s), total = end - first;
  const start = startCost(k - 1), leapfrogs = s.chains.length * total * LEAPFROGS, saved = 1 - 1 / k;
  // Workers pay when the time they save, estimate × saved, exceeds their start-up: at or below this gradient time they do not.
  const enough = (start + MARGIN) / saved / leapfrogs - STEP_OVERHEAD;
  const estimate = (gradientSeconds(target, s.dim, enough) + STEP_OVERHEAD) * leapfrogs;
  if (!coresTuning.force && estimate * saved <= start + MARGIN) {
    return inProcess(`the run is estimated at ${estimate.toPrecision(2)} s or less in process, too short to pay for ${k - 1} worker${k > 2 ? 's' : ''} (≈ ${start.toPrecision(2)} s to start)`);
  }
  const exported = exportCompiled(compiled);
  if (!exported.ok) return inProcess(`the model's compiled log density cannot be sent to a worker: ${exported.reason}`);
  return { run: runShared(n, target, seed, s, k, exported.program), parallel: { cores: k } };
}

/**
 * The run on `k` threads: slots of chains in order, the first share on this thread. Chains with
 * Gibbs steps are started here (their discrete starts are drawn from the model, which workers do
 * not have) and continued from their states everywhere: the same bits, as a continued run is the
 * uninterrupted one.
 */
function runShared(n: NodeApi, target: FlatTarget, seed: KeyArray, given: PerChainSettings, k: number, program: CoresTask['program']): PerChainRun {
  let s = given;
  const startLog: RejectionEntry[][] = [];
  if (s.gibbs !== undefined && s.from === undefined) {
    const started = initialStates(target, seed, s);
    const { init: _, ...rest } = s;
    s = { ...rest, from: started.states };
    startLog.push(started.rejections.exportEntries());
  }
  const C = s.chains.length, { end, kept } = runPlan(s);
  if (kept * s.dim * C > 2 ** 28) fail('range', s.fn, 'nDraws', `keeps ${kept} draws × ${s.dim} coordinates × ${C} chains, more than 2^28 doubles (2 GiB); keep fewer draws or chains`, s.nDraws);
  // Shares: contiguous slots, as even as they go (the first, this thread's, never larger).
  const shares: number[][] = [];
  for (let i = 0, j = 0; i < k; i++) { const size = Math.floor(C / k) + (i >= k - (C % k) ? 1 : 0); shares.push(Array.from({ length: size }, () => j++)); }
  const control = new SharedArrayBuffer(4 * (CHAIN0 + SLOT * C));
  const ctrl = new Int32Array(control);
  const slotDraws = s.chains.map(() => sharedChainDraws(kept, s.dim, s.gibbs?.size ?? 0));
  const { fn, modelName, dim, numWarmup, nDraws, thin, discardTuning, maxTreeDepth, maxEnergyDiff, metric, initStepSize, dualAveraging, modes, initRadius, initInvMetric } = s;
  const settings = { fn, modelName, dim, numWarmup, nDraws, thin, discardTuning, maxTreeDepth, maxEnergyDiff, metric, initStepSize, dualAveraging, modes, initRadius, ...(initInvMetric === undefined ? {} : { initInvMetric }) };
  // The given starts are checked here, in chain order, so a bad one is named (node and value) as in process.
  const inits = s.init === undefined ? undefined : s.chains.map((c) => {
    const x = s.init!(c);
    if (!finiteAt(target, x, new Float64Array(s.dim))) fail('range', s.fn, 'currentState', `gives chain ${c} a start where ${s.whyNotFinite(x)}`, x);
    return x;
  });
  const ports: import('node:worker_threads').MessagePort[] = [];
  const used = workers(n, k - 1);
  used.forEach((w, i) => {
    const slots = shares[i + 1]!, chains = slots.map((j) => s.chains[j]!);
    const { port1, port2 } = new n.wt.MessageChannel();
    ports.push(port1);
    const task: CoresTask = {
      program, seed: { impl: seed.impl.name, data: seed.data }, modes, settings, chains, slots, ...(s.gibbs === undefined ? {} : { gibbs: s.gibbs.layout }),
      inits: inits === undefined ? undefined : slots.map((j) => inits[j]!),
      from: s.from === undefined ? undefined : slots.map((j) => s.from![j]!),
      control, draws: slots.map((j) => slotDraws[j]!.shared), port: port2 as unknown as MessagePort,
    };
    w.worker.postMessage(task, [port2]);
  });
  const posted = performance.now();
  let finished = false;
  try {
    // Progress: the round every chain has reached (the slowest share's), with every chain's divergences.
    const mine = shares[0]!;
    const divergences = new Array<number>(C).fill(0), warmupDivergences = new Array<number>(C).fill(0);
    let ownRound = 0, reported = 0, acked: number | undefined;
    const poll = () => {
      if (acked === undefined && Atomics.load(ctrl, ACK) === k - 1) acked = performance.now();
      if (s.signal?.aborted) Atomics.store(ctrl, ABORT, 1);
      if (s.onRound === undefined) return;
      let round = ownRound;
      for (let j = 0; j < C; j++) {
        if (mine.includes(j)) continue;
        const at = CHAIN0 + SLOT * j;
        round = Math.min(round, Atomics.load(ctrl, at));
        divergences[j] = Atomics.load(ctrl, at + 1);
        warmupDivergences[j] = Atomics.load(ctrl, at + 2);
      }
      if (round > reported) { reported = round; s.onRound(round, divergences, warmupDivergences); }
      if (s.signal?.aborted) Atomics.store(ctrl, ABORT, 1);      // aborted from onProgress: the workers stop now
    };
    const own = runPerChain(target, seed, {
      ...s, chains: mine.map((j) => s.chains[j]!), ...(s.from === undefined ? {} : { from: mine.map((j) => s.from![j]!) }),
      onRound: (round, div, wdiv) => {
        ownRound = round;
        mine.forEach((j, i) => { divergences[j] = div[i]!; warmupDivergences[j] = wdiv[i]!; });
        poll();
      },
    });
    ownRound = own.aborted ? ownRound : Infinity;
    // This thread's chains are done: wait for the workers, polling progress and the abort flag.
    for (let done = Atomics.load(ctrl, DONE); done < k - 1; done = Atomics.load(ctrl, DONE)) {
      Atomics.wait(ctrl, DONE, done, POLL_MS);
      poll();
      // A worker that died (its threadId turns −1 at once; its 'exit' event would need the event loop) never notifies.
      if (Atomics.load(ctrl, DONE) < k - 1 && used.some((w) => w.worker.threadId === -1)) {
        throw new Error(`${s.fn}: a worker thread running chains stopped before they were done; pass cores: 1 to run in process`);
      }
      if (Atomics.load(ctrl, ACK) < k - 1 && performance.now() - posted > START_TIMEOUT_MS) {
        throw new Error(`${s.fn}: a worker thread did not start within ${START_TIMEOUT_MS / 1000} s; pass cores: 1 to run in process`);
      }
    }
    finished = true;
    // A new worker's start-up: from its spawn to its taking the task (seen at the first poll after).
    const fresh = used.filter((w) => !w.started);
    if (fresh.length > 0) measuredStart = ((acked ?? performance.now()) - Math.min(...fresh.map((w) => w.spawned))) / 1000;
    for (const w of fresh) w.started = true;
    const logs = [...startLog, own.rejections.exportEntries()];
    const states: ChainState[] = [];
    mine.forEach((j, i) => { states[j] = own.states[i]!; });
    ports.forEach((port, w) => {
      const m = n.wt.receiveMessageOnPort(port)?.message as { error?: SerializedError; rejections?: RejectionEntry[]; states?: ChainState[] } | undefined;
      if (m?.error !== undefined) throw deserializeError(m.error);
      logs.push(m?.rejections ?? []);
      shares[w + 1]!.forEach((j, i) => { states[j] = m!.states![i]!; });
    });
    const chains = s.chains.map((_, j) => (mine.includes(j) ? own.chains[mine.indexOf(j)]! : slotDraws[j]!.draws));
    // Each share stopped at its own point after an abort: the run returns the prefix all reached, the rest of each chain's draws go with its state (pending).
    const counts = s.chains.map((_, j) => (mine.includes(j) ? own.numResults : Atomics.load(ctrl, CHAIN0 + SLOT * j + 3)));
    const numResults = Math.min(...counts);
    const aborted = own.aborted || Atomics.load(ctrl, ABORT) === 1 || numResults < kept;
    if (s.onRound !== undefined && !aborted && reported < end) s.onRound(end, divergences, warmupDivergences);
    return { numResults, aborted, chains, rejections: RejectionLog.merge(logs, s.chains), states: states.map((st, j) => withPending(st, chains[j]!, numResults, counts[j]!, s.dim)) };
  } finally {
    for (const port of ports) port.close();
    if (!finished) {
      // Left early (an error here or in onProgress): stop the workers' chains; they leave the pool, as their task may still be running.
      Atomics.store(ctrl, ABORT, 1);
      for (const w of used) { const i = pool.indexOf(w); if (i >= 0) pool.splice(i, 1); void w.worker.terminate(); }
    }
  }
}
