/**
 * Merging single-chain results into the multi-chain layout: each part `[draws, ...event]` of
 * chains 0…N−1 becomes one part `[draws, chains, ...event]`, the layout of a vectorized
 * `sampleChain` run and what `summary` reads.
 */
import { fail } from '../../src/checks.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { State } from '../kernel.js';
import type { Trace } from '../internal/stack.js';
import type { SampleChainResult } from '../sample-chain.js';

/** What `sampleChains` returns: the vectorized `sampleChain` layout, with per-chain final results and seeds. */
export interface SampleChainsResult<R extends object = object> {
  /** The draws, each part `[numResults, chains, ...event]`. */
  readonly allStates: State;
  /** The stacked trace, each leaf `[numResults, chains, ...]` (undefined without a `traceFn`). */
  readonly trace: Trace | undefined;
  /** Each chain's final kernel results (for resuming). */
  readonly finalKernelResults: readonly R[];
  /** Each chain's carried seed after its last step (for resuming). */
  readonly finalSeed: readonly KeyArray[];
}

const FN = 'mergeChains';

/** Stacks per-chain tensors `[draws, ...rest]` into `[draws, chains, ...rest]`. */
function stackChains(parts: readonly Tensor[], arg: string): Tensor {
  const first = parts[0]!;
  if (first.ndim < 1) fail('range', FN, arg, 'must have a leading draws dim', first.shape);
  parts.forEach((t, c) => {
    if (t.dtype !== first.dtype || t.shape.length !== first.shape.length || t.shape.some((d, i) => d !== first.shape[i])) {
      fail('range', FN, `${arg} of chain ${c}`, `must match chain 0's ${first.dtype} [${first.shape.join(', ')}]`, `${t.dtype} [${t.shape.join(', ')}]`);
    }
  });
  const [draws, ...rest] = first.shape as [number, ...number[]];
  const inner = first.size / Math.max(draws, 1);
  const n = parts.length;
  const Ctor = first.data.constructor as new (size: number) => Float64Array;
  const out = new Ctor(first.size * n);
  for (let c = 0; c < n; c++) {
    const src = parts[c]!.data as Float64Array;
    for (let d = 0; d < draws; d++) out.set(src.subarray(d * inner, (d + 1) * inner), (d * n + c) * inner);
  }
  return new Tensor(out as never, [draws, n, ...rest], first.dtype);
}

/** Merges the same tree position of every chain. */
function mergeTrees(items: readonly unknown[], arg: string): unknown {
  const first = items[0];
  if (first === undefined) return undefined;
  if (first instanceof Tensor) {
    items.forEach((t, c) => { if (!(t instanceof Tensor)) fail('type', FN, `${arg} of chain ${c}`, 'must be a Tensor like chain 0', t); });
    return stackChains(items as Tensor[], arg);
  }
  if (Array.isArray(first)) {
    items.forEach((t, c) => { if (!Array.isArray(t) || t.length !== first.length) fail('type', FN, `${arg} of chain ${c}`, `must be an array of ${first.length} like chain 0`, t); });
    return first.map((_, j) => mergeTrees(items.map((t) => (t as unknown[])[j]), `${arg}[${j}]`));
  }
  if (first !== null && typeof first === 'object') {
    return Object.fromEntries(Object.keys(first).map((k) => [k, mergeTrees(items.map((t) => (t as Record<string, unknown>)?.[k]), `${arg}.${k}`)]));
  }
  return fail('type', FN, arg, 'must hold tensors (in arrays or records)', first);
}

/**
 * Merges single-chain `sampleChain` results — chain 0 first — into the multi-chain layout of
 * {@link SampleChainsResult}: every state part and trace leaf `[draws, ...]` becomes
 * `[draws, chains, ...]`. This is how `sampleChains` assembles its result, and how results of
 * chains run separately (one process per chain, `sampleChainByIndex`) are combined: merged, they
 * equal the single-machine `sampleChains` run bit for bit.
 *
 * @throws TypeError/RangeError naming `mergeChains` when there are no results or the chains'
 *   structures, shapes or dtypes differ.
 * @example
 * const parts = await Promise.all([0, 1, 2, 3].map((c) => sampleChainByIndex({ model, chains: 4, chainIndex: c, numResults: 500, seed: 0 })));
 * const merged = mergeChains(parts);   // allStates: [500, 4, ...event]
 * summary(merged);
 */
export function mergeChains<R extends object>(results: readonly SampleChainResult<R>[]): SampleChainsResult<R> {
  if (!Array.isArray(results) || results.length === 0) fail('type', FN, 'results', 'must be a non-empty array of sampleChain results', results);
  results.forEach((r, c) => {
    if (r === null || typeof r !== 'object' || r.allStates === undefined) fail('type', FN, `results[${c}]`, 'must be a sampleChain result', r);
  });
  return {
    allStates: mergeTrees(results.map((r) => r.allStates), 'allStates') as State,
    trace: results[0]!.trace === undefined ? undefined : mergeTrees(results.map((r) => r.trace), 'trace') as Trace,
    finalKernelResults: results.map((r) => r.finalKernelResults),
    finalSeed: results.map((r) => r.finalSeed),
  };
}

/**
 * Draw `draw` of chain `chain` from multi-chain states (`[draws, chains, ...event]` per part):
 * each part `[...event]`. Used to resume a run from its last draw.
 *
 * @example
 * const last = chainDraw(result.allStates, 2, -1); // chain 2's final state
 */
export function chainDraw(states: State, chain: number, draw: number): State {
  const one = (t: Tensor): Tensor => {
    const [draws, chains, ...rest] = t.shape as [number, number, ...number[]];
    const d = draw < 0 ? draws + draw : draw;
    const inner = sizeOf(rest);
    const start = (d * chains + chain) * inner;
    return new Tensor((t.data as Float64Array).slice(start, start + inner) as never, rest, t.dtype);
  };
  return states instanceof Tensor ? one(states) : states.map(one);
}
