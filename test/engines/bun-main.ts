/**
 * Run by Bun (JavaScriptCore) from test/engines/bun.test.ts, on the TypeScript sources (Bun runs
 * them directly): test/browser/compute.ts with the WebAssembly kernels and with the JS kernels,
 * and the engine's own Math probe. Writes one JSON object to the file named by its argument
 * (the results are several MB; a file avoids pipe limits).
 */
import { writeFileSync } from 'node:fs';
import * as distributions from '../../distributions/index.js';
import * as mcmc from '../../mcmc/index.js';
import * as optimize from '../../optimize/index.js';
import * as stochax from '../../src/index.js';
import { compute, probeMath } from '../browser/compute.js';

const lib = { stochax, distributions, mcmc, optimize };
const t0 = performance.now();
const wasm = compute(lib);
const prev = stochax.prng.setWasmEnabled(false);
const js = compute(lib);
stochax.prng.setWasmEnabled(prev);
const versions = process.versions as Record<string, string | undefined>;
writeFileSync(process.argv[2]!, JSON.stringify({
  wasm, js, math: probeMath(), ms: performance.now() - t0,
  bun: versions.bun, webkit: versions.webkit,
}));
