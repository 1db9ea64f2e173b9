// Invariant 6 (ARCHITECTURE.md) on JavaScriptCore: test/browser/compute.ts (keys, every sampler,
// every compat op, every Generator method, tensor ops and special functions, every distribution's
// sample/logProb/cdf family/quantile, every bijector, compiled log densities and gradients, NUTS
// and windowedAdaptiveNuts) run under Bun (the `bun` devDependency; Bun runs the TypeScript
// sources directly, see test/engines/bun-main.ts) with the WebAssembly kernels and with the JS
// kernels, must equal the same computation in Node bit for bit.
//
// Without a Bun binary (see findBun) the test skips with a message, except in CI (env CI set),
// where it fails.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import * as distributions from '../../distributions/index.js';
import * as mcmc from '../../mcmc/index.js';
import * as optimize from '../../optimize/index.js';
import * as stochax from '../../src/index.js';
import { compute, differences, GROUPS, probeMath } from '../browser/compute.js';

const MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));
const MAIN = fileURLToPath(new URL('./bun-main.ts', import.meta.url));

/**
 * BUN_PATH if set; else the `bun` package's binary, which its postinstall script puts in place
 * of a small placeholder; else (scripts not run, e.g. --ignore-scripts) the platform package's.
 */
function findBun(): string | undefined {
  if (process.env.BUN_PATH) return existsSync(process.env.BUN_PATH) ? process.env.BUN_PATH : undefined;
  const real = (p: string) => existsSync(p) && statSync(p).size > 1 << 20;
  const main = join(MODULES, 'bun/bin/bun.exe');
  if (real(main)) return main;
  const oven = join(MODULES, '@oven');
  const platform = existsSync(oven) ? readdirSync(oven).map((d) => join(oven, d, 'bin/bun')).filter(real) : [];
  return platform[0];
}
const BUN = findBun();
const NO_BUN = 'no Bun binary in node_modules (the `bun` devDependency: run npm ci, with install scripts) and BUN_PATH not set';
if (BUN === undefined && !process.env.CI) console.warn(`[test/engines] SKIPPED: ${NO_BUN}.`);

type Results = Record<string, string>;
interface BunResult {
  readonly wasm: Results;
  readonly js: Results;
  readonly math: Results;
  readonly ms: number;
  readonly bun?: string;
  readonly webkit?: string;
}

// A failing test, not a failing hook: vitest reports a hook's error with the tests as skipped.
if (BUN === undefined && process.env.CI) it('CI runs the Bun comparison', () => { throw new Error(`CI must run the Bun test, but ${NO_BUN}`); });

describe.skipIf(BUN === undefined)('Bun (JavaScriptCore): the same bits as Node', () => {
  let node: Results;
  let bun: BunResult;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stochax-bun-'));
    try {
      // Bun computes in its own process while Node computes here.
      const file = join(dir, 'results.json');
      const child = promisify(execFile)(BUN!, [MAIN, file], { timeout: 300_000, maxBuffer: 1 << 24 });
      // Node's own two kernel paths are compared in test/browser/ and test/prng/: one run here.
      node = compute({ stochax, distributions, mcmc, optimize });
      await child;
      bun = JSON.parse(readFileSync(file, 'utf8')) as BunResult;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const math = probeMath();
    const differ = Object.keys(math).filter((k) => math[k] !== bun.math[k]);
    console.log(`[test/engines] Bun ${bun.bun} (WebKit ${bun.webkit}) computed in ${bun.ms.toFixed(0)} ms; Node ${process.version} (V8 ${process.versions.v8})`);
    if (differ.length > 0) console.log(`[test/engines] note: the engines' own Math functions differ here: ${differ.join(', ')}`);
    const diff = differences(node, bun.wasm, undefined, 'Bun').map((d) => d.slice(0, d.indexOf(': ')));
    if (diff.length > 0) console.log(`[test/engines] ${diff.length} of ${Object.keys(node).length} results differ under Bun: ${diff.join(', ')}`);
  }, 600_000);

  it('ran under Bun, with the wasm kernels and the JS kernels, on the whole comparison', () => {
    expect(bun.bun).toMatch(/^\d+\.\d+\.\d+/);
    expect(node._wasmActive).toBe('true');
    expect(bun.wasm._wasmActive).toBe('true');
    expect(bun.js._wasmActive).toBe('false');
    expect(Object.keys(node).length).toBeGreaterThan(1000);
    expect(node._uncovered, 'exported samplers, Generator methods, distributions or bijectors without a case in compute.ts').toBe('');
  });

  for (const [group, title] of GROUPS) {
    it(`${title}: equal to Node bit for bit`, () => {
      expect(Object.keys(node).filter((k) => k.startsWith(`${group}:`)).length).toBeGreaterThan(0);
      expect({ wasm: differences(node, bun.wasm, group, 'Bun'), js: differences(node, bun.js, group, 'Bun') }).toEqual({ wasm: [], js: [] });
    });
  }
});
