/**
 * A one-compartment pharmacokinetic model with first-order absorption, one subject: an oral dose D
 * at t = 0 moves from the gut (amount a_g) into the central compartment (amount a_c, volume V) at
 * rate k_a and is cleared at clearance CL:
 *
 *   da_g/dt = −k_a·a_g,   da_c/dt = k_a·a_g − (CL/V)·a_c,   a(0) = [D, 0],
 *   solved by `odeRk45` at Stan's `integrate_ode_rk45` defaults (tolerances 1e-6, 1e6 steps),
 *   k_a ~ LogNormal(log 1, 0.5), CL ~ LogNormal(log 4, 0.5), V ~ LogNormal(log 20, 0.5),
 *   σ ~ HalfNormal(0.5), c_i ~ LogNormal(log(a_c(t_i)/V), σ)  (measured concentrations).
 *
 * The concentrations are simulated from the closed form a_c(t)/V = D·k_a/(V(k_a − k))·(e^(−kt) −
 * e^(−k_a t)), k = CL/V, with k_a = 1.2 /h, CL = 4 L/h, V = 20 L, σ = 0.15, dose 100 mg, a
 * fixed-seed LCG (seed 7); the model solves the ODE, as a user whose model has no closed form would.
 * The Stan program is bench/stan/pk_one_compartment.stan (its posterior means and sds, 4 × 1000
 * draws, are test/fixtures/pk-one-compartment/stan.json, written by bench/stan/ts-ode-ess.R).
 *
 * Run: npx tsx examples/pk-one-compartment.ts   (a few seconds)
 *
 * Expected output: the summary table, then posterior means near the true values
 * (k_a ≈ 1.2, CL ≈ 4, V ≈ 20, σ ≈ 0.15; Stan's means are in the fixture).
 */
import { fileURLToPath } from 'node:url';
import { HalfNormal, Independent, JointDistributionNamed, LogNormal } from '../distributions/index.js';
import { summary, windowedAdaptiveNuts, type Summary } from '../mcmc/index.js';
import { div, gather, log, mul, neg, odeRk45, stack, sub, tensor, type OdeOptions, type Tensor } from '../src/index.js';

/** The dose (mg), given orally at t = 0. */
export const dose = 100;
/** Sampling times (hours after the dose). */
export const times = [0.25, 0.5, 1, 1.5, 2, 3, 4, 6, 8, 12, 16, 24];
/** The true parameters the data were simulated from. */
export const truth = { ka: 1.2, cl: 4, v: 20, sigma: 0.15 };

/** Measured concentrations (mg/L) at `times`, simulated from the closed form (see the header). */
export const concentrations: readonly number[] = (() => {
  let s = 7;
  const u = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return (s + 0.5) / 4294967296; };
  const { ka, cl, v, sigma } = truth, k = cl / v;
  return times.map((t) => {
    const c = (dose * ka) / (v * (ka - k)) * (Math.exp(-k * t) - Math.exp(-ka * t));
    const z = Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
    return Number((c * Math.exp(sigma * z)).toPrecision(4));
  });
})();

/** The right-hand side: a = [a_g, a_c], θ = [k_a, CL, V]. */
export function dadt(_t: Tensor, a: Tensor, theta: Tensor): Tensor {
  const ag = gather(a, 0), ac = gather(a, 1);
  const ka = gather(theta, 0), cl = gather(theta, 1), v = gather(theta, 2);
  const absorbed = mul(ka, ag);
  return stack([neg(absorbed), sub(absorbed, mul(div(cl, v), ac))]);
}

/** The model with the ODE solved at `options` (odeRk45's defaults, Stan's `integrate_ode_rk45` ones, unless given): parameters ka, cl, v, sigma; observed node `c`. */
export const pkModel = (options?: OdeOptions) => new JointDistributionNamed({
  ka: new LogNormal({ loc: 0, scale: 0.5 }),
  cl: new LogNormal({ loc: Math.log(4), scale: 0.5 }),
  v: new LogNormal({ loc: Math.log(20), scale: 0.5 }),
  sigma: new HalfNormal({ scale: 0.5 }),
  c: (ka: Tensor, cl: Tensor, v: Tensor, sigma: Tensor) => {
    const a = odeRk45(dadt, [dose, 0], 0, times, stack([ka, cl, v]), options);
    const central = gather(a, 1, 1);   // a_c at every time
    return new Independent({ distribution: new LogNormal({ loc: log(div(central, v)), scale: sigma }), reinterpretedBatchNdims: 1 });
  },
}, { name: 'PkOneCompartment' });

export const model = pkModel();

export const pins = { c: tensor(concentrations as number[]) };

export interface PkFit {
  readonly summary: Summary;
  readonly means: Record<string, number>;
  readonly sds: Record<string, number>;
  readonly seconds: number;
}

/** Fits the model with `windowedAdaptiveNuts` (4 chains × (1000 + 1000) by default, seed 0). */
export function fit(options: { seed?: number; numAdaptationSteps?: number; nDraws?: number } = {}): PkFit {
  const start = performance.now();
  const r = windowedAdaptiveNuts(model, { pins, seed: options.seed ?? 0, numAdaptationSteps: options.numAdaptationSteps ?? 1000, nDraws: options.nDraws ?? 1000 });
  const seconds = (performance.now() - start) / 1000;
  const means: Record<string, number> = {}, sds: Record<string, number> = {};
  for (const [name, t] of Object.entries(r.draws)) {
    const d = t!.data as Float64Array;
    const m = d.reduce((a, b) => a + b, 0) / d.length;
    means[name] = m;
    sds[name] = Math.sqrt(d.reduce((a, b) => a + (b - m) * (b - m), 0) / (d.length - 1));
  }
  return { summary: summary(r.draws, { divergences: r.trace.diverging }), means, sds, seconds };
}

export function main(options: { quiet?: boolean } = {}): PkFit {
  const print = options.quiet ? () => {} : console.log;
  const f = fit();
  print('One-compartment PK, first-order absorption (windowedAdaptiveNuts, 4 chains × (1000 + 1000), seed 0):');
  print(f.summary.format());
  print(`${f.seconds.toFixed(1)} s; posterior means ${Object.entries(f.means).map(([k, m]) => `${k} ${m.toPrecision(3)}`).join(', ')}`);
  return f;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
