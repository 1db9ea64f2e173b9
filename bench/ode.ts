/**
 * ODE models (issue 33): the gradient of posteriordb's Lotka–Volterra log density
 * (examples/lotka-volterra.ts) with `odeRk45` at Stan's settings, beside the same model with the
 * ODE integrated by a hand-written fixed-step RK4 in tensor ops (0.1-year steps, 200 of them,
 * traced and compiled as one long scalar program: what a user had to write before odeRk45), and
 * the one-compartment PK model (examples/pk-one-compartment.ts, odeRk45 at tolerances 1e-6).
 * Each at its posterior mean (PK: Stan's, test/fixtures/pk-one-compartment/stan.json); each warmed
 * up first (~0.5 s of calls, so V8 has optimized the code: without it the first rounds measured
 * mostly unoptimized code, ~2–3× the steady time), then medians of interleaved rounds, same process,
 * and the best round's CPU µs (process.cpuUsage: steadier than wall time on a loaded machine).
 * Lotka–Volterra also without constant folding (src/compile/constant-fold.ts: its TruncatedNormal
 * prior's normalizing mass then runs in every gradient), the same bits.
 *
 * Run alone: npx tsx bench/ode.ts   (part of `npm run bench`)
 */
import { compileLogDensity } from '../distributions/index.js';
import { setConstantFoldingEnabled } from '../src/compile/constant-fold.js';
import { model, dzdt, lotkaVolterraWith, ts, yInit, y } from '../examples/lotka-volterra.js';
import { model as pkModel, pins as pkPins } from '../examples/pk-one-compartment.js';
import { add, mul, stack, tensor, type Tensor } from '../src/index.js';
import { median } from './median.js';

const STEP = 0.1, PER_YEAR = 10;

/** z at t = 1 … 20 by classical RK4 with 0.1-year steps, unrolled in tensor ops. */
function rk4(zInit: Tensor, theta: Tensor): Tensor {
  let z = zInit;
  const out: Tensor[] = [];
  for (let year = 1; year <= ts.size; year++) {
    for (let s = 0; s < PER_YEAR; s++) {
      const k1 = dzdt(undefined as never, z, theta);
      const k2 = dzdt(undefined as never, add(z, mul(k1, STEP / 2)), theta);
      const k3 = dzdt(undefined as never, add(z, mul(k2, STEP / 2)), theta);
      const k4 = dzdt(undefined as never, add(z, mul(k3, STEP)), theta);
      z = add(z, mul(add(add(k1, mul(add(k2, k3), 2)), k4), STEP / 6));
    }
    out.push(z);
  }
  return stack(out);
}

const handWritten = lotkaVolterraWith(rk4);

export interface OdeBenchRow { readonly name: string; readonly compileMs: number; readonly gradientUs: number; readonly cpuUs: number; readonly logDensity: number }

/** Median µs per gradient over `rounds` rounds of `reps` calls, at the posterior mean, after `warmupMs` of calls per model. */
export function measure(rounds = 7, reps = 50, warmupMs = 500): OdeBenchRow[] {
  const lv = { theta: [0.547, 0.0277, 0.8, 0.0241], zInit: [34.0, 5.94], sigma: [0.248, 0.251] };
  const pk = { ka: 1.494, cl: 3.832, v: 18.73, sigma: 0.164 };
  const targets = [
    ['Lotka–Volterra odeRk45 (rtol 1e-5, atol 1e-3)', model, { yInit, y }, lv],
    ['Lotka–Volterra hand-written RK4 (200 steps)', handWritten, { yInit, y }, lv],
    ['one-compartment PK odeRk45 (tolerances 1e-6)', pkModel, pkPins, pk],
    // Fresh pins: compileLogDensity caches per model and pins, and this one is compiled without folding.
    ['Lotka–Volterra odeRk45, no constant folding', model, { yInit: tensor(yInit.toArray()), y: tensor(y.toArray()) }, lv],
  ] as const;
  const built = targets.map(([name, m, pins, point]) => {
    const t0 = performance.now();
    const was = setConstantFoldingEnabled(!name.endsWith('no constant folding'));
    const c = compileLogDensity(m as never, { pins: pins as never });
    setConstantFoldingEnabled(was);
    const compileMs = performance.now() - t0;
    return { name, c, compileMs, x: c.unconstrain(point as never), g: new Float64Array(c.dim), times: [] as number[], cpu: Infinity };
  });
  for (const b of built) {
    const t0 = performance.now();
    for (let i = 0; i < 20 || performance.now() - t0 < warmupMs; i++) b.c.logDensityGradient(b.x, b.g);
  }
  for (let r = 0; r < rounds; r++) {
    for (const b of built) {
      const t0 = performance.now(), c0 = process.cpuUsage();
      for (let i = 0; i < reps; i++) b.c.logDensityGradient(b.x, b.g);
      const c = process.cpuUsage(c0);
      b.times.push(((performance.now() - t0) / reps) * 1000);
      b.cpu = Math.min(b.cpu, (c.user + c.system) / reps);
    }
  }
  return built.map((b) => ({ name: b.name, compileMs: b.compileMs, gradientUs: median(b.times), cpuUs: b.cpu, logDensity: b.c.logDensity(b.x) }));
}

export function print(rows: readonly OdeBenchRow[]): void {
  console.log('  log density + gradient at the posterior mean (Lotka–Volterra: posteriordb hudson_lynx_hare):');
  for (const r of rows) {
    console.log(`  ${r.name.padEnd(46)} gradient ${r.gradientUs.toFixed(0).padStart(6)} µs (best CPU ${r.cpuUs.toFixed(0).padStart(5)} µs)   compile ${r.compileMs.toFixed(0).padStart(6)} ms   log p ${r.logDensity.toFixed(4)}`);
  }
}

print(measure());
