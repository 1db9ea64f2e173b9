// Eight schools (non-centered) sampled with stochax's windowedAdaptiveNuts in a Web Worker.
// Loaded by examples/browser/index.html as a module worker; imports the browser bundle built by
// `npm run build:browser` (dist/browser/). Streams the constrained draws of mu and tau to the
// page while it samples (through the pooled windowedAdaptiveNuts' traceFn), then posts the summary table.
//
// Messages in:  { chains, warmup, draws, seed }
// Messages out: { type: 'start', chains, warmup, draws, wasm }
//               { type: 'draws', start, count, mu: Float64Array, tau: Float64Array, diverging: Uint8Array }
//                 (count steps × chains, step-major; steps [start, start + count) of warmup + draws)
//               { type: 'done', ms, divergences, table, means: { mu, tau } }
//               { type: 'error', message }
import { add, expandDims, mul, prng, reshape, slice, tensor } from '../../dist/browser/stochax.js';
import { HalfCauchy, Independent, JointDistributionNamed, Normal, Sample } from '../../dist/browser/distributions.js';
import { summary, windowedAdaptiveNuts } from '../../dist/browser/mcmc.js';

const y = tensor([28, 8, -3, 7, -1, 1, 18, 12]);
const sigma = tensor([15, 10, 16, 11, 9, 11, 10, 18]);

/** The non-centered eight-schools model (as in test/mcmc/eight-schools.test.ts). */
const model = new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 5 }),
  tau: new HalfCauchy({ loc: 0, scale: 5 }),
  thetaTilde: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 8 }),
  y: (mu, tau, thetaTilde) => new Independent({
    distribution: new Normal({ loc: add(expandDims(mu, -1), mul(expandDims(tau, -1), thetaTilde)), scale: sigma }),
    reinterpretedBatchNdims: 1,
  }),
}, { name: 'EightSchoolsNonCentered' });
const pinned = model.experimentalPin({ y });
/** The order of the flat state parts that traceFn receives (the model's node order). */
const names = pinned.unpinnedNames;

/** Posts at most every FLUSH_MS, so the page redraws smoothly without a message per step. */
const FLUSH_MS = 40;

function run({ chains, warmup, draws, seed }) {
  const t0 = performance.now();
  postMessage({ type: 'start', chains, warmup, draws, wasm: prng.wasmActive() });
  let step = 0, sent = 0, lastFlush = t0;
  let mu = [], tau = [], div = [];
  const flush = () => {
    if (step === sent) return;
    const m = Float64Array.from(mu), t = Float64Array.from(tau), d = Uint8Array.from(div);
    postMessage({ type: 'draws', start: sent, count: step - sent, mu: m, tau: t, diverging: d }, [m.buffer, t.buffer, d.buffer]);
    sent = step; mu = []; tau = []; div = [];
    lastFlush = performance.now();
  };
  // Every step (warm-up included, discardTuning: false) passes through traceFn: map the flat
  // unconstrained state back to the model's constrained values and queue mu and tau.
  const traceFn = (state, bijector, _isAdapting, results) => {
    const u = {};
    names.forEach((name, j) => { u[name] = name === 'thetaTilde' ? state[j] : reshape(state[j], [chains]); });
    const x = bijector.forward(u);
    for (let c = 0; c < chains; c++) {
      mu.push(x.mu.data[c]);
      tau.push(x.tau.data[c]);
      div.push(results.hasDivergence.data[c]);
    }
    step++;
    if (performance.now() - lastFlush > FLUSH_MS) flush();
    return { diverging: results.hasDivergence };
  };
  // TFP's pooled pipeline: its traceFn sees every step of every chain as it runs, which is what
  // the live plot streams (the per-chain default has no traceFn yet).
  const res = windowedAdaptiveNuts(pinned, {
    adaptation: 'pooled', seed, nChains: chains, numAdaptationSteps: warmup, nDraws: draws, discardTuning: false, traceFn,
  });
  flush();
  // Summarise the draws after warm-up (the first `warmup` steps are adaptation).
  const post = {};
  for (const name of ['mu', 'tau', 'thetaTilde']) post[name] = slice(res.draws[name], [warmup], [-1]);
  const diverging = slice(res.trace.diverging, [warmup], [-1]);
  const s = summary(post, { divergences: diverging });
  postMessage({
    type: 'done',
    ms: performance.now() - t0,
    divergences: s.divergences,
    table: String(s),
    means: { mu: s.get('mu').mean, tau: s.get('tau').mean },
  });
}

self.onmessage = (ev) => {
  try {
    run(ev.data);
  } catch (err) {
    postMessage({ type: 'error', message: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  }
};
