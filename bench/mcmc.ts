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
 * each), for 1 and 4 chains; the same kernels given eight schools as a compiled log density
 * (`compileLogDensity`, which they call per chain on their own Float64Arrays); and the per-chain NUTS of `windowedAdaptiveNuts` per tree leaf
 * (Float64Arrays, one chain, target < 0.3 µs beyond the gradient). Timings are medians of 7 runs
 * after warm-up. Last, Gibbs steps on a plated latent count (`mcmc/nuts/stan/gibbs.ts`): CPU ms per
 * transition of an N-mixture with S sites (NUTS on λ and p, then a sweep over the S counts, each
 * proposal re-evaluating the whole density: N² in S), best of 3 one-chain runs.
 */
import { HamiltonianMonteCarlo } from '../mcmc/kernels/hamiltonian-monte-carlo.js';
import { MetropolisAdjustedLangevinAlgorithm } from '../mcmc/kernels/metropolis-adjusted-langevin-algorithm.js';
import { NoUTurnSampler } from '../mcmc/kernels/no-u-turn-sampler.js';
import type { State, TransitionKernel } from '../mcmc/kernel.js';
import { splitSeed } from '../src/samplers/seeds.js';
import { Tensor } from '../src/tensor/tensor.js';
import { median } from './median.js';
import { ChainRandom, NutsChain } from '../mcmc/nuts/stan/nuts-chain.js';
import { getModes } from '../src/config.js';
import { key } from '../src/random/keys.js';
import { compileLogDensity } from '../distributions/compile-log-density.js';
import { nonCentered, y } from '../examples/eight-schools.js';
import { Beta, Binomial, Gamma, Independent, JointDistributionNamed, Poisson, Sample } from '../distributions/index.js';
import { windowedAdaptiveNuts } from '../mcmc/windowed-adaptive-nuts.js';
import { add } from '../src/tensor/ops/elementwise.js';
import { reshape } from '../src/tensor/ops/shape.js';

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

/** A target as the kernels take it, with a count of its gradient evaluations and the gradient timed alone. */
interface Workload {
  readonly target: unknown;
  readonly dim: number;
  /** Batched gradient evaluations (each covers every chain) since the last reset. */
  calls(chains: number): number;
  reset(): void;
  /** Runs `n` batched evaluations of the gradient alone on states of the shape the kernels use. */
  gradientAlone(n: number, chains: number): void;
}

/** The correlated Gaussian as a tensor `targetLogProbAndGradFn`. */
const handWritten: Workload = (() => {
  let calls = 0;
  return {
    target: (x: Tensor) => { calls++; return target(x); },
    dim: D,
    calls: () => calls,
    reset: () => { calls = 0; },
    gradientAlone(n, chains) {
      const xs = Array.from({ length: 16 }, (_, i) => new Tensor(new Float64Array(chains * D).fill(0.01 * i), chains === 1 ? [D] : [chains, D]));
      for (let i = 0; i < n; i++) sink += (target(xs[i & 15]!)[0].data as Float64Array)[0]!;
    },
  };
})();

/** Eight schools (non-centered) as a compiled log density, which the kernels call per chain on their own arrays. */
const compiled: Workload = (() => {
  const ld = compileLogDensity(nonCentered, { pins: { y } });
  let calls = 0;
  const grad = ld.logDensityGradient.bind(ld);
  const counted = { ...ld, logDensityGradient: (x: Float64Array, g: Float64Array) => { calls++; return grad(x, g); } };
  return {
    target: counted,
    dim: ld.dim,
    calls: (chains) => calls / chains,
    reset: () => { calls = 0; },
    gradientAlone(n, chains) {
      const x = new Float64Array(ld.dim), g = new Float64Array(ld.dim);
      for (let i = 0; i < n * chains; i++) { x[i % ld.dim] = 0.01 * (i & 15); sink += grad(x, g); }
    },
  };
})();

/**
 * Median over runs of (µs per unit of work, µs of gradient per unit, overhead per unit). Units
 * are batched target evaluations (leapfrog steps, leaves, transitions).
 */
function measure(name: string, unit: string, chains: number, w: Workload, make: (t: never) => TransitionKernel<object>, steps: number): Row {
  const kernel = make(w.target as never);
  const init = new Tensor(new Float64Array(chains * w.dim).fill(0.1), chains === 1 && w === handWritten ? [w.dim] : [chains, w.dim]);
  const seeds = splitSeed(0, { n: steps });
  const runOnce = (): [number, number] => {
    let state: State = init, results = kernel.bootstrapResults(init);
    w.reset();
    const t0 = performance.now();
    for (let i = 0; i < steps; i++) [state, results] = kernel.oneStep(state, results, seeds[i]!);
    const ms = performance.now() - t0;
    sink += ((state as Tensor).data as Float64Array)[0]!;
    return [ms, w.calls(chains)];
  };
  runOnce(); runOnce();
  const per: number[] = [], grad: number[] = [];
  for (let r = 0; r < 7; r++) {
    const [ms, n] = runOnce();
    per.push((ms * 1000) / n);
    // The gradient alone, the same number of calls on states of the same shape.
    const t0 = performance.now();
    w.gradientAlone(n, chains);
    grad.push(((performance.now() - t0) * 1000) / n);
  }
  const perStep = median(per), gradient = median(grad);
  return { name, chains, perStep, gradient, overhead: perStep - gradient, unit };
}

const rows: Row[] = [];
for (const [label, w] of [['', handWritten], ['compiled 8 schools: ', compiled]] as const) {
  for (const chains of [1, 4]) {
    rows.push(measure(`${label}HMC, 10 steps`, 'step', chains, w,
      (t) => new HamiltonianMonteCarlo({ [w === compiled ? 'targetLogProbFn' : 'targetLogProbAndGradFn']: t, stepSize: 0.25, numLeapfrogSteps: 10 }), 2000));
    if (w === handWritten) {
      rows.push(measure('HMC, 50 steps', 'step', chains, w,
        (t) => new HamiltonianMonteCarlo({ targetLogProbAndGradFn: t, stepSize: 0.25, numLeapfrogSteps: 50 }), 400));
    }
    rows.push(measure(`${label}NUTS (per leaf)`, 'leaf', chains, w,
      (t) => new NoUTurnSampler({ [w === compiled ? 'targetLogProbFn' : 'targetLogProbAndGradFn']: t, stepSize: 0.25 }), 400));
    rows.push(measure(`${label}MALA`, 'step', chains, w,
      (t) => new MetropolisAdjustedLangevinAlgorithm({ [w === compiled ? 'targetLogProbFn' : 'targetLogProbAndGradFn']: t, stepSize: 0.05 }), 4000));
  }
}

/**
 * The per-chain NUTS of `windowedAdaptiveNuts` (mcmc/nuts/stan/nuts-chain.ts) on the same target
 * as a flat `(x, grad) => lp` for one chain: µs per tree leaf, and the same gradient alone. Also
 * at 100 dimensions (i.i.d. N(0, 1), whose gradient is nearly free), where the passes over the
 * coordinates dominate.
 */
function measureChainNuts(dim: number): Row {
  const flat = dim === D
    ? (x: Float64Array, g: Float64Array): number => {
      let q = 0;
      for (let i = 0; i < D; i++) {
        let r = 0;
        for (let j = 0; j < D; j++) r += P[i * D + j]! * x[j]!;
        g[i] = -r; q += r * x[i]!;
      }
      return -0.5 * q;
    }
    : (x: Float64Array, g: Float64Array): number => {
      let q = 0;
      for (let i = 0; i < x.length; i++) { g[i] = -x[i]!; q += x[i]! * x[i]!; }
      return -0.5 * q;
    };
  const chain = new NutsChain(flat, dim, new ChainRandom(key(0), getModes()), { maxTreeDepth: 10, maxEnergyDiff: 1000 });
  chain.setPosition(new Float64Array(dim).fill(0.1));
  chain.stepSize = 0.25;
  const per: number[] = [], grad: number[] = [];
  let t = 0;
  const run = (n: number) => { let leaves = 0; const t0 = performance.now(); for (let i = 0; i < n; i++) { chain.rng.begin(t++); chain.transition(); leaves += chain.nSteps; } return [performance.now() - t0, leaves] as const; };
  run(2000);
  const x = new Float64Array(dim), g = new Float64Array(dim);
  for (let r = 0; r < 7; r++) {
    const [ms, leaves] = run(2000);
    per.push((ms * 1000) / leaves);
    const t0 = performance.now();
    for (let i = 0; i < leaves; i++) { x[i % dim] = 0.01 * (i & 15); sink += flat(x, g); }
    grad.push(((performance.now() - t0) * 1000) / leaves);
  }
  const perStep = median(per), gradient = median(grad);
  return { name: `NUTS per-chain (windowed)${dim === D ? '' : `, ${dim}-d`}`, chains: 1, perStep, gradient, overhead: perStep - gradient, unit: 'leaf' };
}
rows.push(measureChainNuts(D), measureChainNuts(100));

console.log(`\nMCMC per-leapfrog overhead, ${D}-dim Gaussian, hand-written gradient (medians of 7 runs; target < 2 µs per leapfrog step)`);
console.log('kernel                                  chains   µs/unit   gradient µs   overhead µs');
for (const r of rows) {
  console.log(`${`${r.name}`.padEnd(40)}${String(r.chains).padStart(6)}${r.perStep.toFixed(2).padStart(10)} /${r.unit.padEnd(5)}${r.gradient.toFixed(2).padStart(9)}${r.overhead.toFixed(2).padStart(14)}`);
}
if (Number.isNaN(sink)) console.log('(NaN sink)');

/** An N-mixture over S sites, J = 3 surveys each: N_s ~ Poisson(λ), y_sj ~ Binomial(N_s, p); the counts fixed by formula. */
function nMixture(S: number): { model: JointDistributionNamed; y: number[][] } {
  const J = 3, zeros = new Tensor(new Float64Array(S * J), [S, J], 'float64');
  const y = Array.from({ length: S }, (_, i) => Array.from({ length: J }, (_, j) => 4 + ((i * 7 + j * 3) % 5)));
  const model = new JointDistributionNamed({
    lambda: new Gamma({ concentration: 2, rate: 0.1 }),
    p: new Beta({ concentration1: 2, concentration0: 2 }),
    N: ({ lambda }: { lambda: Tensor }) => new Sample({ distribution: new Poisson({ rate: lambda }), sampleShape: S }),
    y: ({ N, p }: { N: Tensor; p: Tensor }) => new Independent({ distribution: new Binomial({ totalCount: reshape(N, [S, 1]), probs: add(p, zeros) }), reinterpretedBatchNdims: 2 }),
  });
  return { model, y };
}

console.log('\nGibbs steps on a plated latent count (N-mixture, S sites × 3 surveys; one chain, 30 + 30 transitions, best of 3, CPU time)');
for (const S of [50, 500]) {
  const { model, y: counts } = nMixture(S);
  let best = Infinity, accept = Number.NaN;
  for (let k = 0; k < 3; k++) {
    const c0 = process.cpuUsage();
    const r = windowedAdaptiveNuts(model, { pins: { y: counts }, seed: k, nChains: 1, numAdaptationSteps: 30, nDraws: 30, cores: 1 });
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1000 / 60);
    accept = r.gibbs!.nodes[0]!.acceptRate[0]!;
  }
  console.log(`S = ${String(S).padStart(3)}: ${best.toFixed(2).padStart(8)} ms per transition (acceptance ${accept.toFixed(2)})`);
}

