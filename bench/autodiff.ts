/**
 * Autodiff speed (`npx tsx bench/autodiff.ts`, also run by `npm run bench`):
 * - per-op overhead of a scalar `add` recorded on the tape (forward + backward);
 * - `valueAndGrad` of a 10-op scalar function, beside tfjs (cpu backend) and jax-js
 *   doing the same function in the same process;
 * - a normal log density over 10,000 points: value alone vs value and gradient (plain ops and a
 *   fused node).
 * Timings are medians of 7 runs after warm-up.
 */
import * as tf from '@tensorflow/tfjs';
import { grad as jgrad, numpy as jnp } from '@jax-js/jax';
import { median } from './median.js';
import {
  add, div, exp, fusedNode, log, mul, sin, sqrt, square, stopGradient, sub, sum, tanh, tensor, valueAndGrad, type Tensor,
} from '../src/tensor/index.js';


/** Median microseconds per call of `f` over `calls` calls per run. */
function time(f: () => unknown, calls: number): number {
  for (let i = 0; i < Math.max(10, calls / 10); i++) f();
  const runs: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) f();
    runs.push(((performance.now() - t0) * 1000) / calls);
  }
  return median(runs);
}

await tf.setBackend('cpu');
tf.enableProdMode();
const rows: [string, number, string][] = [];

// 1. Per-op overhead: 1,000 scalar adds recorded on the tape, value and gradient.
const chain = (x: Tensor) => { let y = x; for (let i = 0; i < 1000; i++) y = add(y, 1); return y; };
const chainVg = valueAndGrad(chain);
const perOp = time(() => chainVg(0.5), 20) / 1000;
rows.push(['stochax scalar add on the tape (forward + backward), per op', perOp, 'target < 0.5 µs']);
const plainOp = time(() => { let y = tensor(0.5); for (let i = 0; i < 1000; i++) y = add(y, 1); return y; }, 20) / 1000;
rows.push(['stochax scalar add outside grad, per op', plainOp, '']);

// 2. A 10-op scalar function and its gradient.
const ten = (x: Tensor) => sum(add(mul(tanh(mul(x, 0.5)), exp(neg1(x))), div(log(add(square(x), 1)), sqrt(add(sin(x), 2)))));
function neg1(x: Tensor) { return sub(0, x); }
const x0 = tensor(0.7);
const tenVg = valueAndGrad(ten);   // built once and called many times, as tfjs's below (and an MCMC loop)
rows.push(['stochax valueAndGrad of a 10-op scalar function', time(() => tenVg(x0), 5000), 'target < 5 µs']);

const tfTen = (x: tf.Tensor) => tf.sum(tf.add(tf.mul(tf.tanh(tf.mul(x, 0.5)), tf.exp(tf.neg(x))),
  tf.div(tf.log(tf.add(tf.square(x), 1)), tf.sqrt(tf.add(tf.sin(x), 2))))) as tf.Scalar;
const tfVg = tf.valueAndGrad(tfTen);
const tfX = tf.scalar(0.7);
rows.push(['tfjs (cpu backend) valueAndGrad, same function', time(() => tf.tidy(() => { const { value, grad } = tfVg(tfX); value.dataSync(); grad.dataSync(); }), 300), '']);

let jaxNote = '';
try {
  // jax-js counts references: every use of x but the last takes `x.ref`.
  const jaxTen = (x: any) => jnp.sum(jnp.add(
    jnp.multiply(jnp.tanh(jnp.multiply(x.ref, 0.5)), jnp.exp(jnp.negative(x.ref))),
    jnp.divide(jnp.log(jnp.add(jnp.multiply(x.ref, x.ref), 1)), jnp.sqrt(jnp.add(jnp.sin(x), 2)))));
  const jg = jgrad(jaxTen);
  const jx = jnp.array([0.7]);
  const once = async () => { const g = jg(jx.ref); await g.data(); };
  await once();
  for (let i = 0; i < 20; i++) await once();
  const runs: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    for (let i = 0; i < 100; i++) await once();
    runs.push(((performance.now() - t0) * 1000) / 100);
  }
  rows.push(['jax-js grad (float32), same function', median(runs), '']);
} catch (e) {
  jaxNote = `jax-js did not run here: ${(e as Error).message.split('\n')[0]}`;
}

// 3. A normal log density over 10,000 points: value, value + gradient, and a fused node.
const data = tensor(Array.from({ length: 10_000 }, (_, i) => Math.sin(i) * 2 + 1));
const logDensity = (mu: Tensor, sigma: Tensor) => sum(sub(mul(square(div(sub(data, mu), sigma)), -0.5), log(sigma)));
const logDensityFused = (mu: Tensor, sigma: Tensor) => {
  const s = sigma.toNumber(), m = mu.toNumber();
  const z = div(sub(data, m), s);
  const value = sub(mul(sum(square(z)), -0.5), 10_000 * Math.log(s));
  return fusedNode(value, [[mu, div(sum(z), s)], [sigma, (sum(square(z)).item() as number) / s - 10_000 / s]]);
};
void stopGradient;
const mu = tensor(0.9), sigma = tensor(1.8);
const tValue = time(() => logDensity(mu, sigma), 200);
const plainVg = valueAndGrad(logDensity, [0, 1]), fusedVg = valueAndGrad(logDensityFused, [0, 1]);
const tGrad = time(() => plainVg(mu, sigma), 200);
const tFused = time(() => fusedVg(mu, sigma), 200);
rows.push(['normal log density, 10,000 points: value only', tValue, '']);
rows.push(['… value and gradient (plain ops)', tGrad, `${(tGrad / tValue).toFixed(2)}× value (target ≤ 3×)`]);
rows.push(['… value and gradient (fused node)', tFused, `${(tFused / tValue).toFixed(2)}× value`]);

console.log(`autodiff bench: node ${process.version}, medians of 7 runs`);
console.log('| case | µs per call | note |');
console.log('|---|---:|---|');
for (const [name, us, note] of rows) console.log(`| ${name} | ${us.toFixed(3)} | ${note} |`);
if (jaxNote) console.log(jaxNote);
