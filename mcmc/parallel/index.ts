/**
 * Parallel chains: `sampleChains` on worker threads (Node) or Web Workers (browsers), the
 * model-module contract, `sampleChainByIndex` and `mergeChains` for one-chain-per-process
 * scale-out, and the errors a run rejects with.
 *
 * @example
 * import { sampleChains } from 'stochax/mcmc';
 * const result = await sampleChains({ model: new URL('./model.js', import.meta.url), chains: 4, seed: 0, numResults: 1000 });
 */
export { sampleChains, type SampleChainsOptions } from './sample-chains.js';
export type { ChainsProgress } from '../sample-chain.js';
export { createWorkerPool, type WorkerPool, type WorkerPoolOptions } from './pool.js';
export { sampleChainByIndex, type SampleChainByIndexOptions } from './sample-chain-by-index.js';
export { mergeChains, type SampleChainsResult } from './merge-chains.js';
export { chainKey } from './chain-task.js';
export type { ChainSetup, ChainSetupContext, ModelModule } from './model-module.js';
export type { PartialChains } from './partial-chains.js';
export { AbortError } from '../abort-error.js';
export { ChainError } from '../internal/chain-error.js';
export { windowedAdaptiveNutsChains, type WindowedChainsOptions } from './windowed-chains.js';
