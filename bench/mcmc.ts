/**
 * MCMC kernel overhead (`npx tsx bench/mcmc.ts`): the time per leapfrog step that is not the
 * target's gradient, for a 10-dimensional correlated Gaussian with a hand-written
 * `targetLogProbAndGradFn` (target: < 2 µs per step).
 *
 * For each row the kernel runs `oneStep` in a loop (no sampleChain stacking) while counting
 * target calls; the gradient's own cost is measured separately, by calling the same function on
 * a state of the same shape the same number of times, and subtracted. Rows: HMC with 10 and 50
 * leapfrog steps per transition (the per-transition work, momentum draws and the
 * Metropolis–Hastings step, is spread over the steps), NUTS per tree leaf (which includes TFP's
 * per-leaf seed split and uniform draw and the U-turn checks), MALA per transition (one gradient
 * each), for 1 and 4 chains; and the per-chain NUTS of `windowedAdaptiveNuts` per tree leaf
 * (Float64Arrays, one chain, target < 0.3 µs beyond the gradient). Timings are medians of 7 runs
 * after warm-up.
 */
import { HamiltonianMonteCarlo } from '../mcmc/kernels/hamiltonian-monte-carlo.js';
import { MetropolisAdjustedLangevinAlgorithm } from '../mcmc/kernels/metropolis-adjusted-langevin-algorithm.js';
import { NoUTurnSampler } from '../mcmc/kernels/no-u-turn-sampler.js';
import type { State, TransitionKernel } from '../mcmc/kernel.js';
import { splitSeed } from '../src/samplers/seeds.js';
import { Tensor } from '../src/tensor/tensor.js';
import { median } from './median.js';
import { ChainRandom, NutsChain } from '../mcmc/internal/nuts-chain.js';
import { getModes } from '../src/config.js';
import { key } from '../src/random/keys.js';

const D = 10;

/** Precision of the N(0, Σ) target, Σ_ij = s_i s_j 0.7^|i−j| (an AR(1) correlation: tridiagonal precision). */
function precision(): Float64Array {
  const s = Array.from({ length: D }, (_, i) => 0.5 + (1.5 * i) / (D - 1));
  const r = 0.7, a = 1 / (1 - r * r);
  const P = new Float64Array(D * D);
  for (let i = 0; i < D; i++) {
    P[i * D + i] = a * (i === 0 || i === D - 1 ? 1 : 1 + r * r) / (s[i]! * s[i]!);
    if (i + 1 < D) P[i * D + i + 1] = P[(i + 1) * D + i] = -a * r / (s[i]! * s[i + 1]!);
  }
  return P;
}
const P = precision();
let sink = 0;

/** −½ xᵀPx and −Px per chain. */
function target(x: Tensor): readonly [Tensor, readonly Tensor[]] {
  const xs = x.data as Float64Array, C = xs.length / D;
  const lp = new Float64Array(C), g = new Float64Array(xs.length);
  for (let c = 0; c < C; c++) {
    let q = 0;
    for (let i = 0; i < D; i++) {
      let r = 0;
      for (let j = 0; j < D; j++) r += P[i * D + j]! * xs[c * D + j]!;
      g[c * D + i] = -r; q += r * xs[c * D + i]!;
    }
    lp[c] = -0.5 * q;
  }
  return [new Tensor(lp, x.shape.slice(0, -1)), [new Tensor(g, x.shape)]];
}

interface Row { name: string; chains: number; perStep: number; gradient: number; overhead: number; unit: string }

/**
 * Median over runs of (µs per unit of work, µs of gradient per unit, overhead per unit). `units`
 * turns the number of target calls in a run into the number of work units (leapfrog steps,
 * leaves, transitions).
 */
function measure(name: string, unit: string, chains: number, make: (t: typeof target) => TransitionKernel<object>, steps: number): Row {
  let calls = 0;
  const counted = (x: Tensor) => { calls++; return target(x); };
  const kernel = make(counted);
  const init = new Tensor(new Float64Array(chains * D).fill(0.1), chains === 1 ? [D] : [chains, D]);
  const seeds = splitSeed(0, { n: steps });
  const runOnce = (): [number, number] => {
    let state: State = init, results = kernel.bootstrapResults(init);
    calls = 0;
    const t0 = performance.now();
    for (let i = 0; i < steps; i++) [state, results] = kernel.oneStep(state, results, seeds[i]!);
    const ms = performance.now() - t0;
    sink += ((state as Tensor).data as Float64Array)[0]!;
    return [ms, calls];
  };
  runOnce(); runOnce();
  const per: number[] = [], grad: number[] = [];
  for (let r = 0; r < 7; r++) {
    const [ms, n] = runOnce();
    per.push((ms * 1000) / n);
    // The gradient alone, the same number of calls on states of the same shape.
    const xs = Array.from({ length: 16 }, (_, i) => new Tensor(new Float64Array(chains * D).fill(0.01 * i), init.shape));
    const t0 = performance.now();
    for (let i = 0; i < n; i++) sink += (target(xs[i & 15]!)[0].data as Float64Array)[0]!;
    grad.push(((performance.now() - t0) * 1000) / n);
  }
  const perStep = median(per), gradient = median(grad);
  return { name, chains, perStep, gradient, overhead: perStep - gradient, unit };
}

const rows: Row[] = [];
for (const chains of [1, 4]) {
  rows.push(measure('HMC, 10 leapfrog steps', 'step', chains,
    (t) => new HamiltonianMonteCarlo({ targetLogProbAndGradFn: t, stepSize: 0.25, numLeapfrogSteps: 10 }), 2000));
  rows.push(measure('HMC, 50 leapfrog steps', 'step', chains,
    (t) => new HamiltonianMonteCarlo({ targetLogProbAndGradFn: t, stepSize: 0.25, numLeapfrogSteps: 50 }), 400));
  rows.push(measure('NUTS (per tree leaf)', 'leaf', chains,
    (t) => new NoUTurnSampler({ targetLogProbAndGradFn: t, stepSize: 0.25 }), 400));
  rows.push(measure('MALA (per transition)', 'step', chains,
    (t) => new MetropolisAdjustedLangevinAlgorithm({ targetLogProbAndGradFn: t, stepSize: 0.05 }), 4000));
}

/**
 * The per-chain NUTS of `windowedAdaptiveNuts` (mcmc/internal/nuts-chain.ts) on the same target
 * as a flat `(x, grad) => lp` for one chain: µs per tree leaf, and the same gradient alone.
 */
function measureChainNuts(): Row {
  const flat = (x: Float64Array, g: Float64Array): number => {
    let q = 0;
    for (let i = 0; i < D; i++) {
      let r = 0;
      for (let j = 0; j < D; j++) r += P[i * D + j]! * x[j]!;
      g[i] = -r; q += r * x[i]!;
    }
    return -0.5 * q;
  };
  const chain = new NutsChain(flat, D, new ChainRandom(key(0), getModes()), { maxTreeDepth: 10, maxEnergyDiff: 1000 });
  chain.setPosition(new Float64Array(D).fill(0.1));
  chain.stepSize = 0.25;
  const per: number[] = [], grad: number[] = [];
  let t = 0;
  const run = (n: number) => { let leaves = 0; const t0 = performance.now(); for (let i = 0; i < n; i++) { chain.rng.begin(t++); chain.transition(); leaves += chain.nSteps; } return [performance.now() - t0, leaves] as const; };
  run(2000);
  const x = new Float64Array(D), g = new Float64Array(D);
  for (let r = 0; r < 7; r++) {
    const [ms, leaves] = run(2000);
    per.push((ms * 1000) / leaves);
    const t0 = performance.now();
    for (let i = 0; i < leaves; i++) { x[i % D] = 0.01 * (i & 15); sink += flat(x, g); }
    grad.push(((performance.now() - t0) * 1000) / leaves);
  }
  const perStep = median(per), gradient = median(grad);
  return { name: 'NUTS per-chain (windowed)', chains: 1, perStep, gradient, overhead: perStep - gradient, unit: 'leaf' };
}
rows.push(measureChainNuts());

console.log(`\nMCMC per-leapfrog overhead, ${D}-dim Gaussian, hand-written gradient (medians of 7 runs; target < 2 µs per leapfrog step)`);
console.log('kernel                      chains   µs/unit   gradient µs   overhead µs');
for (const r of rows) {
  console.log(`${`${r.name}`.padEnd(28)}${String(r.chains).padStart(6)}${r.perStep.toFixed(2).padStart(10)} /${r.unit.padEnd(5)}${r.gradient.toFixed(2).padStart(9)}${r.overhead.toFixed(2).padStart(14)}`);
}
if (Number.isNaN(sink)) console.log('(NaN sink)');
