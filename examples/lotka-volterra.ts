/**
 * Lotka–Volterra predator–prey dynamics fitted to the Hudson's Bay Company lynx and hare pelts
 * (1900–1920): Stan's case study (Carpenter 2018), posteriordb's `hudson_lynx_hare-lotka_volterra`.
 *
 *   du/dt = (α − β·v)·u,   dv/dt = (−γ + δ·u)·v,   z(0) = z_init,
 *   z(t) solved by `odeRk45` with Stan's settings (relative tolerance 1e-5, absolute 1e-3, 500 steps),
 *   α, γ ~ Normal(1, 0.5), β, δ ~ Normal(0.05, 0.05) (all positive), σ ~ LogNormal(−1, 1),
 *   z_init ~ LogNormal(log 10, 1), y_init ~ LogNormal(log z_init, σ), y(t) ~ LogNormal(log z(t), σ).
 *
 * The positive normal priors are `TruncatedNormal`s on (0, 10) and (0, 1): far beyond the priors'
 * mass (18 sd), so the posterior is Stan's (whose truncation constant does not depend on the
 * parameters); only the unconstrained space differs (a sigmoid instead of Stan's log).
 *
 * The ODE solve is one op of the compiled log density, its gradient from forward sensitivities.
 *
 * Run: npx tsx examples/lotka-volterra.ts   (~1–2 min on one core)
 *
 * Expected output: the summary table, then posterior means near posteriordb's reference
 * (α 0.55, β 0.028, γ 0.80, δ 0.024, z_init 34.0 and 5.9, σ 0.25 and 0.25).
 */
import { fileURLToPath } from 'node:url';
import { Independent, JointDistributionNamed, LogNormal, Sample, TruncatedNormal } from '../distributions/index.js';
import { summary, windowedAdaptiveNuts, type Summary } from '../mcmc/index.js';
import { gather, log, mul, odeRk45, stack, sub, tensor, type OdeOptions, type Tensor } from '../src/index.js';

/** Years after 1900 of the pelt counts. */
export const ts = tensor([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
/** Pelts (thousands) in 1900: hare, lynx. */
export const yInit = tensor([30, 4]);
/** Pelts (thousands) in 1901–1920: [hare, lynx] per year. */
export const y = tensor([
  [47.2, 6.1], [70.2, 9.8], [77.4, 35.2], [36.3, 59.4], [20.6, 41.7], [18.1, 19], [21.4, 13], [22, 8.3], [25.4, 9.1], [27.1, 7.4],
  [40.3, 8], [57, 12.3], [76.6, 19.5], [52.3, 45.7], [19.5, 51.1], [11.2, 29.7], [7.6, 15.8], [14.6, 9.7], [16.2, 10.1], [24.7, 8.6],
]);

/** The predator–prey right-hand side: z = [u (prey), v (predator)], θ = [α, β, γ, δ]. */
export function dzdt(_t: Tensor, z: Tensor, theta: Tensor): Tensor {
  const u = gather(z, 0), v = gather(z, 1);
  const [alpha, beta, gamma, delta] = [0, 1, 2, 3].map((i) => gather(theta, i)) as [Tensor, Tensor, Tensor, Tensor];
  return stack([mul(sub(alpha, mul(beta, v)), u), mul(sub(mul(delta, u), gamma), v)]);
}

/** Stan's settings: `integrate_ode_rk45(dz_dt, z_init, 0, ts, theta, ..., 1e-5, 1e-3, 5e2)`. */
export const STAN_SETTINGS: OdeOptions = { relativeTolerance: 1e-5, absoluteTolerance: 1e-3, maxNumSteps: 500 };

/** z(ts) from z(0) = zInit. */
export const solve = (zInit: Tensor, theta: Tensor, options: OdeOptions = STAN_SETTINGS): Tensor => odeRk45(dzdt, zInit, 0, ts, theta, options);

/** The model with the ODE solved at `options` (Stan's settings by default). */
export const lotkaVolterra = (options: OdeOptions = STAN_SETTINGS) => lotkaVolterraWith((zInit, theta) => solve(zInit, theta, options));

/** The model with z(ts) from `trajectory(zInit, theta)` (bench/ode.ts passes a hand-written Runge–Kutta). */
export const lotkaVolterraWith = (trajectory: (zInit: Tensor, theta: Tensor) => Tensor) => new JointDistributionNamed({
  theta: new Independent({
    distribution: new TruncatedNormal({ loc: [1, 0.05, 1, 0.05], scale: [0.5, 0.05, 0.5, 0.05], low: 0, high: [10, 1, 10, 1] }),
    reinterpretedBatchNdims: 1,
  }),
  zInit: new Sample({ distribution: new LogNormal({ loc: Math.log(10), scale: 1 }), sampleShape: 2 }),
  sigma: new Sample({ distribution: new LogNormal({ loc: -1, scale: 1 }), sampleShape: 2 }),
  yInit: (zInit: Tensor, sigma: Tensor) => new Independent({ distribution: new LogNormal({ loc: log(zInit), scale: sigma }), reinterpretedBatchNdims: 1 }),
  y: (theta: Tensor, zInit: Tensor, sigma: Tensor) => new Independent({
    distribution: new LogNormal({ loc: log(trajectory(zInit, theta)), scale: sigma }),
    reinterpretedBatchNdims: 2,
  }),
}, { name: 'LotkaVolterra' });

export const model = lotkaVolterra();

export const pins = { yInit, y };

/** A start inside the typical set for every chain (Stan's case study starts from random inits; this keeps warm-up short). */
export const init = { theta: [0.5, 0.03, 0.8, 0.03], zInit: [30, 5], sigma: [0.3, 0.3] };

export interface LotkaVolterraFit {
  readonly summary: Summary;
  /** Posterior means by posteriordb's names (theta[1], …, z_init[1], …, sigma[1], …). */
  readonly means: Record<string, number>;
  readonly sds: Record<string, number>;
  readonly rejections: number;
  readonly divergences: number;
  readonly seconds: number;
}

export function fit(options: { seed?: number; nChains?: number; numAdaptationSteps?: number; nDraws?: number } = {}): LotkaVolterraFit {
  const start = performance.now();
  const r = windowedAdaptiveNuts(model, { pins, init, seed: options.seed ?? 0, nChains: options.nChains ?? 4, numAdaptationSteps: options.numAdaptationSteps ?? 1000, nDraws: options.nDraws ?? 1000 });
  const seconds = (performance.now() - start) / 1000;
  const s = summary(r.draws, { divergences: r.trace.diverging });
  const means: Record<string, number> = {}, sds: Record<string, number> = {};
  for (const [mine, theirs] of [['theta', 'theta'], ['zInit', 'z_init'], ['sigma', 'sigma']] as const) {
    const d = r.draws[mine]!;   // [draws, chains, k]
    const k = d.shape[2]!, n = d.size / k, v = d.data as Float64Array;
    for (let j = 0; j < k; j++) {
      let m = 0, q = 0;
      for (let i = 0; i < n; i++) m += v[i * k + j]!;
      m /= n;
      for (let i = 0; i < n; i++) q += (v[i * k + j]! - m) * (v[i * k + j]! - m);
      means[`${theirs}[${j + 1}]`] = m;
      sds[`${theirs}[${j + 1}]`] = Math.sqrt(q / (n - 1));
    }
  }
  const rejections = (r.rejections ?? []).reduce((a, e) => a + e.count, 0);
  return { summary: s, means, sds, rejections, divergences: s.divergences ?? 0, seconds };
}

export async function main(options: { quiet?: boolean } = {}): Promise<LotkaVolterraFit> {
  const print = options.quiet ? () => {} : console.log;
  const f = fit();
  print('Lotka–Volterra, hudson_lynx_hare (windowedAdaptiveNuts, 4 chains × (1000 + 1000), seed 0):');
  print(f.summary.format());
  print(`${f.seconds.toFixed(1)} s; rejected proposals ${f.rejections}, divergences ${f.divergences}`);
  print(Object.entries(f.means).map(([k, v]) => `${k} ${v.toPrecision(3)}`).join(', '));
  return f;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
