/**
 * `sampleChainByIndex`: one chain of a multi-chain run, on its own — the scale-out path. Running
 * chain c of N in N separate processes (a Slurm job array, Kubernetes indexed jobs) and merging
 * the results with `mergeChains` gives the single-machine `sampleChains` result bit for bit.
 */
import { checkInteger, checkOptions, fail } from '../../src/checks.js';
import { KeyArray } from '../../src/random/key-array.js';
import type { ChainsProgress, SampleChainResult } from '../sample-chain.js';
import { AbortError } from '../abort-error.js';
import { ChainError } from '../internal/chain-error.js';
import { importModelModule } from './model-module.js';
import { lastDraw } from './partial-chains.js';
import { inRunContext, runChainInProcess } from './run-in-process.js';
import { planChains, type SampleChainsOptions } from './sample-chains.js';

export interface SampleChainByIndexOptions<R extends object = object> extends Omit<SampleChainsOptions<R>, 'workers' | 'previous' | 'pool'> {
  /** Which chain to run (0 … chains − 1). */
  readonly chainIndex: number;
  /** Resume this chain from a previous `sampleChainByIndex` result for the same chain. */
  readonly previous?: SampleChainResult<R>;
}

const FN = 'sampleChainByIndex';

/**
 * Runs chain `chainIndex` of a `chains`-chain run of the model module `model`, in this thread:
 * the same `setup` call, key (`split(sanitizeSeed(seed), chains)[chainIndex]`) and loop as
 * `sampleChains` uses for that chain, so its draws equal that chain's draws in any
 * `sampleChains` run with the same options. The result is a single-chain `sampleChain` result
 * (`[draws, ...event]`); `mergeChains` combines the results of all chains.
 *
 * @throws (rejects with) TypeError/RangeError naming the option; `ChainError` with the chain
 *   index and original error when setup or a step throws; `AbortError` with the chain's partial
 *   draws when `signal` aborts.
 * @example
 * // job k of a Slurm array of 8:
 * const result = await sampleChainByIndex({ model: new URL('./model.js', import.meta.url), chains: 8, chainIndex: k, seed: 0, numResults: 1000 });
 * // result.allStates: Tensor [1000, ...event]; later: mergeChains([r0, …, r7])
 */
export async function sampleChainByIndex<R extends object = object>(options: SampleChainByIndexOptions<R>): Promise<SampleChainResult<R>> {
  const o = checkOptions(FN, options, ['model', 'chains', 'seed', 'numResults', 'numBurninSteps', 'numStepsBetweenResults', 'setupOptions', 'onProgress', 'progressInterval', 'signal', 'chainIndex', 'previous']);
  const chainIndex = checkInteger(FN, 'chainIndex', o.chainIndex);
  const prev = o.previous;
  if (prev !== undefined && (prev === null || typeof prev !== 'object' || prev.allStates === undefined || !(prev.finalSeed instanceof KeyArray))) {
    fail('type', FN, 'previous', 'must be a sampleChainByIndex result', prev);
  }
  const plan = await planChains(FN, o, prev === undefined ? undefined : () => ({
    currentState: lastDraw(prev.allStates), kernelResults: prev.finalKernelResults, seed: prev.finalSeed,
  }));
  if (chainIndex < 0 || chainIndex >= plan.chains) fail('range', FN, 'chainIndex', `must be in [0, ${plan.chains})`, chainIndex);
  const model = await importModelModule(FN, plan.url);
  const report = plan.onProgress;
  return inRunContext(async (ctx) => {
    try {
      return await runChainInProcess(FN, model, plan.task(chainIndex), ctx, {
        signal: plan.signal,
        onProgress: report === undefined ? undefined : (p) => report({ chain: chainIndex, ...p } satisfies ChainsProgress),
      });
    } catch (e) {
      if (e instanceof AbortError) throw e;
      throw new ChainError(FN, chainIndex, e);
    }
  }) as Promise<SampleChainResult<R>>;
}
