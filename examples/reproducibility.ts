/**
 * A reproducibility tour: every random number is a pure function of a key, so the same seed gives
 * the same bits however the work is batched, shaped, chunked or scheduled. Each line below
 * computes one thing two ways and compares the bits (float64 words, not rounded values).
 *
 * 1. Batch vs loop. `split(key, n)[i]` equals `foldIn(key, i)` (threefry partitionable mode, JAX's
 *    default since 0.5.0), so a loop over per-element keys gives the same draws whichever way the
 *    keys are made; and the batched `bits(key, [n])` (uint64) uses the same Threefry blocks: its
 *    element i is the two words of the key `foldIn(key, i)`. (`normal(key, [n])[i]` is NOT
 *    `normal(foldIn(key, i), [])`, in stochax as in JAX: the per-element key is hashed once more.)
 * 2. Shapes. `normal(key, [2, 3])` is `normal(key, [6])` reshaped, a draw is prefix-stable
 *    (`normal(key, [1000])[:10]` is `normal(key, [10])`), and a distribution's
 *    `sample([2, 3])` is its `sample(6)` reshaped (Normal, Gamma's rejection sampler, Poisson).
 * 3. Chunks. `sampleChain` run once for 300 NUTS steps equals three runs of 100 chained by
 *    `previousKernelResults` and `finalSeed` (4 chains on a correlated 2-d Gaussian).
 * 4. Workers. `sampleChains` on 2 worker threads equals the same chains run one after another in
 *    this thread (`workers: 0`) and chain by chain with `sampleChain` and `chainKey`.
 * 5. Node vs browser: covered by test/browser/browser.slow.test.ts (in headless Chromium, keys,
 *    samplers, distributions and short NUTS runs give Node's bits); a note is printed.
 *
 * This file is also the model module of part 4 (it exports `setup`), so the CLI call at the bottom
 * only runs on the main thread of the process started with this file, and is not awaited at top
 * level (the worker pool imports this module too).
 *
 * Run: npx tsx examples/reproducibility.ts   (about 5 s, most of it starting workers)
 *
 * Expected output: eleven "same bits" lines (and one "different" line, the control), no
 * "DIFFERENT", the note on browsers and "All 11 comparisons: same bits.", e.g.
 *   same bits  split(key, 5)[i] = foldIn(key, i), for i = 0..4
 *   different  normal(key, [5])[i] vs normal(foldIn(key, i), []): different draws, as in JAX (the control)
 *   same bits  normal(key, [2, 3]) = normal(key, [6]) reshaped
 *   ...
 *   same bits  sampleChains: 2 workers = workers: 0 = chain by chain (3 chains × 200 NUTS draws)
 */
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { Gamma, Normal, Poisson } from '../distributions/index.js';
import { NoUTurnSampler, sampleChain, type State } from '../mcmc/index.js';
import { chainKey, sampleChains, type ChainSetup, type ChainSetupContext } from '../mcmc/parallel/index.js';
import { sanitizeSeed } from '../src/samplers/seeds.js';
import { add, mul, random, square, sub, sum, Tensor, zeros } from '../src/index.js';

export interface Check {
  readonly name: string;
  readonly same: boolean;
}

export interface ReproducibilityResult {
  readonly checks: Check[];
  /** A control that must differ: normal(key, [n])[i] vs normal(foldIn(key, i), []). */
  readonly controlDiffers: boolean;
}

/** Byte-for-byte equality of two tensors (or typed arrays), shapes included. */
function sameBits(a: Tensor | ArrayBufferView, b: Tensor | ArrayBufferView): boolean {
  if (a instanceof Tensor && b instanceof Tensor && (a.dtype !== b.dtype || a.size !== b.size)) return false;
  const view = (x: Tensor | ArrayBufferView) => {
    const d = x instanceof Tensor ? x.data as unknown as ArrayBufferView : x;
    return Buffer.from(d.buffer, d.byteOffset, d.byteLength);
  };
  return view(a).equals(view(b));
}

// A correlated 2-d Gaussian target (one log density per chain) for parts 3 and 4.
// x0 ~ Normal(0, 1), x1 | x0 ~ Normal(0.9·x0, 0.5); x is [2] or [chains, 2].
const target = (x: Tensor): Tensor => {
  const x0 = sum(mul(x, [1, 0]), -1), x1 = sum(mul(x, [0, 1]), -1);
  return add(mul(square(x0), -0.5), mul(square(sub(x1, mul(x0, 0.9))), -2));
};

/** The model module contract of `sampleChains`: one chain of NUTS on the 2-d Gaussian. */
export function setup(_: ChainSetupContext): ChainSetup {
  return {
    kernel: new NoUTurnSampler({ targetLogProbFn: target, stepSize: 0.4 }),
    currentState: zeros([2]),
    traceFn: (_s: State, r: object) => (r as { hasDivergence: Tensor }).hasDivergence,
  };
}

export async function main(options: { quiet?: boolean; workers?: boolean } = {}): Promise<ReproducibilityResult> {
  const print = options.quiet ? () => {} : console.log;
  const checks: Check[] = [];
  const check = (name: string, same: boolean) => {
    checks.push({ name, same });
    print(`${same ? 'same bits ' : 'DIFFERENT '} ${name}`);
  };
  const key = random.key(42);
  print('Same seed, same bits (key = random.key(42)):\n');

  // 1. Batch vs loop.
  const n = 5;
  const splitKeys = [...random.split(key, n)];
  check(`split(key, ${n})[i] = foldIn(key, i), for i = 0..${n - 1}`,
    splitKeys.every((k, i) => sameBits(random.keyData(k), random.keyData(random.foldIn(key, i)))));
  check(`a loop of normal(split(key, ${n})[i], []) = a loop of normal(foldIn(key, i), [])`,
    splitKeys.every((k, i) => sameBits(random.normal(k, []), random.normal(random.foldIn(key, i), []))));
  const batch = random.bits(key, [n], { dtype: 'uint64' }).data as BigUint64Array;
  check(`bits(key, [${n}], uint64)[i] = the words [hi, lo] of foldIn(key, i) (the same Threefry blocks)`,
    splitKeys.every((_, i) => {
      const [hi, lo] = random.keyData(random.foldIn(key, i)).data as Uint32Array;
      return batch[i] === (BigInt(hi!) << 32n) + BigInt(lo!);
    }));

  const batchNormals = random.normal(key, [n]).data as Float64Array;
  const controlDiffers = splitKeys.every((_, i) => !sameBits(batchNormals.subarray(i, i + 1), random.normal(random.foldIn(key, i), [])));
  print(`${controlDiffers ? 'different ' : 'SAME (?)  '} normal(key, [${n}])[i] vs normal(foldIn(key, i), []): different draws, as in JAX (the control)`);

  // 2. Shapes.
  check('normal(key, [2, 3]) = normal(key, [6]) reshaped', sameBits(random.normal(key, [2, 3]), random.normal(key, [6])));
  check('normal(key, [1000])[:10] = normal(key, [10]) (prefix-stable)',
    sameBits((random.normal(key, [1000]).data as Float64Array).subarray(0, 10), random.normal(key, [10])));
  check('gamma(key, 2.5, [2, 3]) = gamma(key, 2.5, [6]) reshaped (per-element rejection loops)',
    sameBits(random.gamma(key, 2.5, [2, 3]), random.gamma(key, 2.5, [6])));
  for (const [name, d] of [
    ['Normal({ loc: [0, 10], scale: 1 })', new Normal({ loc: [0, 10], scale: 1 })],
    ['Gamma({ concentration: 2.5, rate: 1 })', new Gamma({ concentration: 2.5, rate: 1 })],
    ['Poisson({ rate: 3 })', new Poisson({ rate: 3 })],
  ] as const) {
    check(`${name}.sample([2, 3], { seed: 0 }) = .sample(6, { seed: 0 }) reshaped`, sameBits(d.sample([2, 3], { seed: 0 }), d.sample(6, { seed: 0 })));
  }

  // 3. Chunked sampleChain vs one run.
  const kernel = new NoUTurnSampler({ targetLogProbFn: target, stepSize: 0.4 });
  const whole = sampleChain({ numResults: 300, currentState: zeros([4, 2]), kernel, seed: 7 });
  const pieces: Tensor[] = [];
  let state: Tensor = zeros([4, 2]), results: object | undefined, seed: unknown = 7;
  for (let c = 0; c < 3; c++) {
    const r = sampleChain({ numResults: 100, currentState: state, kernel, seed: seed as number, previousKernelResults: results as never });
    const draws = r.allStates;
    pieces.push(draws);
    state = new Tensor((draws.data as Float64Array).slice(-8), [4, 2], 'float64');
    results = r.finalKernelResults;
    seed = r.finalSeed;
  }
  const joined = new Float64Array(pieces.flatMap((p) => Array.from(p.data as Float64Array)));
  check('sampleChain: 300 NUTS steps at once = 3 × 100 chained by previousKernelResults + finalSeed (4 chains)',
    sameBits(whole.allStates, joined) && sameBits(random.keyData(whole.finalSeed), random.keyData(seed as never)));

  // 4. Workers vs serial.
  if (options.workers !== false) {
    const model = new URL(import.meta.url);
    const chains = 3, numResults = 200, numBurninSteps = 50;
    const common = { model, chains, seed: 11, numResults, numBurninSteps };
    const [onWorkers, inThread] = [await sampleChains({ ...common, workers: 2 }), await sampleChains({ ...common, workers: 0 })];
    const byHand = Array.from({ length: chains }, (_, c) => {
      const k = chainKey(11, chains, c);
      const s = setup({ chainIndex: c, chains, seed: sanitizeSeed(k, { salt: 'sampleChains.setup' }), options: undefined });
      return sampleChain({ numResults, numBurninSteps, kernel: s.kernel, currentState: s.currentState, seed: k }).allStates as Tensor;
    });
    // [draws, chains, 2] from the per-chain [draws, 2].
    const interleaved = new Float64Array(numResults * chains * 2);
    byHand.forEach((t, c) => {
      const d = t.data as Float64Array;
      for (let i = 0; i < numResults; i++) interleaved.set(d.subarray(i * 2, i * 2 + 2), (i * chains + c) * 2);
    });
    check(`sampleChains: 2 workers = workers: 0 = chain by chain (${chains} chains × ${numResults} NUTS draws)`,
      sameBits(onWorkers.allStates as Tensor, inThread.allStates as Tensor) && sameBits(inThread.allStates as Tensor, interleaved));
  } else {
    print('(workers vs serial skipped)');
  }

  print('\nNode vs browser: not run here. test/browser/browser.slow.test.ts runs keys, samplers, distributions, a short NUTS');
  print('chain and a short windowedAdaptiveNuts run in headless Chromium (page, JS kernels, Web Worker) and checks the bits equal Node\'s.');
  const bad = checks.filter((c) => !c.same).length;
  print(bad === 0 ? `\nAll ${checks.length} comparisons: same bits.` : `\n${bad} of ${checks.length} comparisons differ.`);
  if (bad > 0 || !controlDiffers) process.exitCode = 1;
  return { checks, controlDiffers };
}

// Only in the process started with this file, only on its main thread (workers import this
// module), and once (should the worker pool's import of this module load a second copy of it).
const started = Symbol.for('stochax.examples.reproducibility.started');
if (isMainThread && process.argv[1] === fileURLToPath(import.meta.url) && !(globalThis as Record<symbol, unknown>)[started]) {
  (globalThis as Record<symbol, unknown>)[started] = true;
  main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
}
