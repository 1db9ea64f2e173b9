/**
 * The pooled worker of `windowedAdaptiveNuts(model, { cores })`: takes one task at a time, rebuilds
 * the compiled log density from its portable description, runs its chains with the per-chain
 * engine (`runPerChain`, exactly as in process: chain c's draws depend only on `foldIn(seed, c)`)
 * and writes the draws into the main thread's shared arrays. Progress goes to shared counters
 * after every round, the abort flag is read before every round, and the end of the task is one
 * `Atomics.notify`, because the main thread waits synchronously (`Atomics.wait`) and cannot take
 * messages; a failure is also posted on the task's port, which the main thread reads with
 * `receiveMessageOnPort`.
 */
import { parentPort } from 'node:worker_threads';
import type { FlatTarget } from '../../../src/compile/flat-target.js';
import { importCompiledEntries } from '../../../src/compile/portable.js';
import { configure } from '../../../src/config.js';
import { KeyArray, IMPLS } from '../../../src/random/key-array.js';
import type { ImplName } from '../../../src/random/impl.js';
import { DRAW_STATS, runPerChain, type ChainDraws } from './per-chain.js';
import { GibbsSweeps, portableGibbsTarget } from './gibbs.js';
import { serializeError } from '../../internal/chain-error.js';
import { ABORT, ACK, CHAIN0, DONE, SLOT, type CoresTask, type SharedDraws } from './cores-messages.js';
import './portable-catalogue.js';

/**
 * A chain slot's shared arrays as `ChainDraws` (views, no copy).
 *
 * @example
 * const d = sharedDraws(task.draws[0]);   // d.q: Float64Array over the main thread's shared memory
 */
export function sharedDraws(d: SharedDraws): ChainDraws {
  return {
    q: new Float64Array(d.q), stepSize: new Float64Array(d.stepSize), nSteps: new Int32Array(d.nSteps), treeDepth: new Int32Array(d.treeDepth),
    diverging: new Uint8Array(d.diverging), acceptStat: new Float64Array(d.acceptStat), energy: new Float64Array(d.energy), lp: new Float64Array(d.lp), moved: new Uint8Array(d.moved),
    rejections: new Int32Array(d.rejections), ...(d.discrete === undefined ? {} : { discrete: new Float64Array(d.discrete) }),
  };
}

function run(task: CoresTask): void {
  const ctrl = new Int32Array(task.control);
  Atomics.add(ctrl, ACK, 1);
  try {
    configure({ x64: task.modes.x64, threefryPartitionable: task.modes.partitionable });
    const entries = importCompiledEntries(task.program), f = entries.valueAndGrad;
    // With Gibbs steps the program reads the discrete values after the continuous coordinates; the sweeps write them there.
    const g = task.gibbs === undefined ? undefined : portableGibbsTarget(entries, task.settings.dim, task.gibbs.size);
    const target: FlatTarget = g?.target ?? { dim: task.settings.dim, paramNames: [], logDensity: (x) => f(x, new Float64Array(task.settings.dim)), logDensityGradient: f };
    const gibbs = g === undefined ? undefined : new GibbsSweeps(task.settings.fn, task.gibbs!, g, task.modes);
    const impl = IMPLS[task.seed.impl as ImplName];
    const seed = new KeyArray(impl, task.seed.data, []);
    const signal = { get aborted() { return Atomics.load(ctrl, ABORT) === 1; } } as AbortSignal;
    const inits = task.inits;
    const result = runPerChain(target, seed, {
      ...task.settings, chains: task.chains, signal, ...(task.from === undefined ? {} : { from: task.from }), ...(gibbs === undefined ? {} : { gibbs }),
      // The model is on the main thread: a start that fails everywhere is named there with cores: 1.
      whyNotFinite: () => 'the log density or its gradient is not finite (run with cores: 1 for the node and the value)',
      ...(inits === undefined ? {} : { init: (c: number) => inits[task.chains.indexOf(c)]! }),
      onRound: (round, divergences, warmupDivergences) => {
        task.slots.forEach((s, j) => {
          const at = CHAIN0 + SLOT * s;
          Atomics.store(ctrl, at + 1, divergences[j]!);
          Atomics.store(ctrl, at + 2, warmupDivergences[j]!);
          Atomics.store(ctrl, at, round);
        });
      },
    });
    const n = result.numResults;
    result.chains.forEach((d, j) => {
      const out = sharedDraws(task.draws[j]!), dim = task.settings.dim;
      out.q.set(d.q.subarray(0, n * dim));
      for (const k of DRAW_STATS) (out[k] as Float64Array).set((d[k] as Float64Array).subarray(0, n));
      if (gibbs !== undefined) out.discrete!.set(d.discrete!.subarray(0, n * gibbs.size));
      Atomics.store(ctrl, CHAIN0 + SLOT * task.slots[j]! + 3, n);
    });
    task.port.postMessage({ rejections: result.rejections.exportEntries(), states: result.states });
  } catch (e) {
    task.port.postMessage({ error: serializeError(e) });
  } finally {
    task.port.close();
    Atomics.add(ctrl, DONE, 1);
    Atomics.notify(ctrl, DONE);
  }
}

parentPort?.on('message', (task: CoresTask) => run(task));
