/**
 * Swap proposals for `ReplicaExchangeMC` (TFP's `default_swap_proposal_fn` and
 * `even_odd_swap_proposal_fn`), re-exported from `mcmc/kernels/replica-exchange-mc.ts`.
 */
import { fail } from '../../src/checks.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import { uniform } from '../../src/samplers/uniform.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import { Tensor } from '../../src/tensor/tensor.js';

/** What a swap proposal receives besides the number of replicas. */
export interface SwapProposalArgs {
  /** The chain (batch) dims: the log density's shape without its leading replica dim. */
  readonly batchShape: readonly number[];
  /** Steps taken so far (`results.stepCount`). */
  readonly stepCount: number;
  /** The step's swap seed. */
  readonly seed: KeyArray;
}

/**
 * Proposes replica swaps: returns `swaps`, integers of shape `[R, …batchShape]` (or `[R]`,
 * broadcast), a self-inverse permutation along axis 0 (`swaps[swaps[k]] = k`): replica k's state
 * is proposed to move to `swaps[k]`.
 */
export type SwapProposalFn = (numReplica: number, args: SwapProposalArgs) => Tensor | readonly number[];

function checkProb(fn: string, arg: string, p: unknown): number {
  if (typeof p !== 'number') fail('type', fn, arg, 'must be a number in [0, 1]', p);
  if (!(p >= 0 && p <= 1)) fail('range', fn, arg, 'must be in [0, 1]', p);
  return p;
}

/**
 * TFP's `default_swap_proposal_fn(prob_swap)`: with probability `probSwap` (per batch member),
 * propose swapping adjacent replicas, pairing (0,1), (2,3), … or (1,2), (3,4), … with equal
 * probability (always the first pairing when R ≤ 2). Seeds:
 * `[paritySeed, proposalSeed] = splitSeed(seed)`; the parity is `U < 0.5` with U of shape
 * `[1, …batch]` and the swap decision `U′ < probSwap` with U′ of shape `batch`, both float32
 * uniforms (TFP's default dtype).
 *
 * @param probSwap the probability of proposing any swap, in [0, 1].
 * @throws TypeError/RangeError for a `probSwap` that is not a number in [0, 1].
 * @example
 * const remc = new ReplicaExchangeMC({ targetLogProbFn, inverseTemperatures: [1, 0.5, 0.25],
 *   makeKernelFn: (t) => new RandomWalkMetropolis({ targetLogProbFn: t }), swapProposalFn: defaultSwapProposalFn(0.5) });
 */
export function defaultSwapProposalFn(probSwap: number): SwapProposalFn {
  const p32 = Math.fround(checkProb('defaultSwapProposalFn', 'probSwap', probSwap));
  return (numReplica, { batchShape = [], seed }) => {
    const [paritySeed, proposalSeed] = splitSeed(seed) as [KeyArray, KeyArray];
    const B = sizeOf(batchShape);
    const u = uniform([1, ...batchShape], { dtype: 'float32', seed: paritySeed }).data as Float32Array;
    const q = uniform([...batchShape], { dtype: 'float32', seed: proposalSeed }).data as Float32Array;
    const out = new Int32Array(numReplica * B);
    for (let k = 0; k < numReplica; k++) {
      for (let b = 0; b < B; b++) {
        const odd = numReplica > 2 && u[b]! < 0.5 ? 1 : 0;
        const y = Math.min(Math.max(k % 2 === odd ? k + 1 : k - 1, 0), numReplica - 1);
        out[k * B + b] = q[b]! < p32 ? y : k;
      }
    }
    return new Tensor(out, [numReplica, ...batchShape], 'int32');
  };
}

/**
 * TFP's `even_odd_swap_proposal_fn(swap_frequency)`: deterministic swaps every
 * `N = ⌈1/swapFrequency⌉` steps (never when the frequency is 0), alternating the pairings
 * (0,1), (2,3), … and (1,2), (3,4), … (Syed et al. 2019). Uses no randomness.
 *
 * @param swapFrequency the fraction of steps with swaps, in [0, 1].
 * @throws TypeError/RangeError for a frequency that is not a number in [0, 1].
 * @example
 * const remc = new ReplicaExchangeMC({ targetLogProbFn, inverseTemperatures: [1, 0.5, 0.25, 0.125],
 *   makeKernelFn: (t) => new SliceSampler({ targetLogProbFn: t, stepSize: 1, maxDoublings: 5 }),
 *   swapProposalFn: evenOddSwapProposalFn(1) });
 */
export function evenOddSwapProposalFn(swapFrequency: number): SwapProposalFn {
  const f = Math.fround(checkProb('evenOddSwapProposalFn', 'swapFrequency', swapFrequency));
  const period = f > 0 ? Math.ceil(Math.fround(1 / f)) : 1;
  return (numReplica, { batchShape = [], stepCount }) => {
    const B = sizeOf(batchShape);
    const odd = numReplica > 2 && Math.floor(stepCount / period) % 2 === 1 ? 1 : 0;
    const swap = f > 0 && stepCount % period === 0;
    const out = new Int32Array(numReplica * B);
    for (let k = 0; k < numReplica; k++) {
      const y = Math.min(Math.max(k % 2 === odd ? k + 1 : k - 1, 0), numReplica - 1);
      out.fill(swap ? y : k, k * B, (k + 1) * B);
    }
    return new Tensor(out, [numReplica, ...batchShape], 'int32');
  };
}
