/**
 * ODE models (issue 33): the gradient of posteriordb's Lotka–Volterra log density
 * (examples/lotka-volterra.ts) with `odeRk45` at Stan's settings, beside the same model with the
 * ODE integrated by a hand-written fixed-step RK4 in tensor ops (0.1-year steps, 200 of them,
 * traced and compiled as one long scalar program: what a user had to write before odeRk45).
 * Medians of interleaved rounds, same process.
 *
 * Run alone: npx tsx bench/ode.ts   (part of `npm run bench`)
 */
import { compileLogDensity } from '../distributions/index.js';
import { model, dzdt, lotkaVolterraWith, ts, yInit, y } from '../examples/lotka-volterra.js';
import { add, mul, stack, type Tensor } from '../src/index.js';
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

export interface OdeBenchRow { readonly name: string; readonly compileMs: number; readonly gradientUs: number; readonly logDensity: number }

/** Median µs per gradient over `rounds` rounds of `reps` calls, at the posterior mean. */
export function measure(rounds = 7, reps = 50): OdeBenchRow[] {
  const point = { theta: [0.547, 0.0277, 0.8, 0.0241], zInit: [34.0, 5.94], sigma: [0.248, 0.251] };
  const targets = [['odeRk45 (rtol 1e-5, atol 1e-3)', model], ['hand-written RK4 (200 steps)', handWritten]] as const;
  const built = targets.map(([name, m]) => {
    const t0 = performance.now();
    const c = compileLogDensity(m as never, { pins: { yInit, y } });
    const compileMs = performance.now() - t0;
    return { name, c, compileMs, x: c.unconstrain(point as never), g: new Float64Array(c.dim), times: [] as number[] };
  });
  for (let r = 0; r < rounds; r++) {
    for (const b of built) {
      const t0 = performance.now();
      for (let i = 0; i < reps; i++) b.c.logDensityGradient(b.x, b.g);
      b.times.push(((performance.now() - t0) / reps) * 1000);
    }
  }
  return built.map((b) => ({ name: b.name, compileMs: b.compileMs, gradientUs: median(b.times), logDensity: b.c.logDensity(b.x) }));
}

export function print(rows: readonly OdeBenchRow[]): void {
  console.log('  Lotka–Volterra (posteriordb hudson_lynx_hare), log density + gradient:');
  for (const r of rows) {
    console.log(`  ${r.name.padEnd(34)} gradient ${r.gradientUs.toFixed(0).padStart(6)} µs   compile ${r.compileMs.toFixed(0).padStart(6)} ms   log p ${r.logDensity.toFixed(4)}`);
  }
}

print(measure());
