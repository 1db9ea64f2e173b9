// sampleChains on browser Web Workers (issue 8): builds the browser bundle with the worker entry
// (scripts/build-browser.ts, into a temporary folder), serves it with a small model module
// (test/mcmc/parallel/fixtures/browser-model.ts, its package imports rewritten to the bundle's
// entries) and, in headless Chromium and headless Firefox (test/browser/browsers.ts), runs
// `sampleChains({ workers: 2 })` on a page: two module workers (`new Worker(new URL('./worker.js',
// import.meta.url), { type: 'module' })` from the bundle) each import the model and run two of the
// four chains. The draws, the trace and the final seeds must equal Node's in-thread run
// (`workers: 0`) bit for bit, and both workers must have been terminated.
//
// A missing browser skips with a message (set CHROMIUM_PATH / FIREFOX_PATH, or on Debian
// `apt-get install -y chromium firefox-esr`), except in CI (env CI set), where it fails.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sampleChains } from '../../mcmc/parallel/index.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { BROWSER_ENTRIES, buildBrowser, serveStatic, type StaticServer } from '../../scripts/build-browser.js';
import { describeBrowsers } from './browsers.js';
import { hexOf } from './compute.js';

const MODEL = new URL('../mcmc/parallel/fixtures/browser-model.ts', import.meta.url);
const RUN = { chains: 4, seed: 11, numResults: 40, numBurninSteps: 15 };

interface Bits { readonly states: string; readonly logp: string; readonly accepted: string; readonly seeds: string; readonly shape: string }
interface PageResult extends Partial<Bits> { readonly error?: string; readonly userAgent?: string; readonly workers?: number; readonly running?: number }

const PAGE = `<!doctype html><meta charset="utf-8"><title>sampleChains on workers</title>
<script type="module">
import { sampleChains } from '/mcmc.js';
const hexOf = ${hexOf.toString()};
// Count the workers sampleChains starts and terminates (the page sees them on every browser,
// where the drivers' own worker lists differ).
const started = [];
globalThis.Worker = class extends Worker {
  constructor(...args) { super(...args); this.running = true; started.push(this); }
  terminate() { this.running = false; super.terminate(); }
};
try {
  const r = await sampleChains({ model: new URL('/__test/model.js', location.href), workers: 2, ...${JSON.stringify(RUN)} });
  window.__result = {
    states: hexOf(r.allStates.data), logp: hexOf(r.trace.logp.data), accepted: hexOf(r.trace.accepted.data),
    seeds: r.finalSeed.map((k) => hexOf(k.data)).join('|'), shape: r.allStates.shape.join(','), userAgent: navigator.userAgent,
    workers: started.length, running: started.filter((w) => w.running).length,
  };
} catch (e) {
  window.__result = { error: String((e && e.stack) || e) + (e && e.cause ? ' / cause: ' + String(e.cause.stack || e.cause) : '') };
}
</script>`;

// Built once for both browsers.
let shared: Promise<{ server: StaticServer; outdir: string }> | undefined;
function setUp() {
  return shared ??= (async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'stochax-parallel-browser-'));
    await buildBrowser({ outdir, entries: { ...BROWSER_ENTRIES, worker: 'mcmc/parallel/worker.ts' }, minify: false, sourcemap: false });
    const model = (await transform(readFileSync(fileURLToPath(MODEL), 'utf8'), { loader: 'ts', format: 'esm', target: 'es2022' })).code
      .replace(/(['"])(?:\.\.\/)+mcmc\/index\.js\1/g, "'/mcmc.js'")
      .replace(/(['"])(?:\.\.\/)+src\/index\.js\1/g, "'/stochax.js'");
    const server = await serveStatic(outdir, { files: { '/__test/parallel.html': PAGE, '/__test/model.js': model, '/favicon.ico': new Uint8Array(0) } });
    return { server, outdir };
  })();
}
afterAll(async () => {
  if (shared === undefined) return;
  const { server, outdir } = await shared;
  await server.close();
  rmSync(outdir, { recursive: true, force: true });
});

describeBrowsers('test/browser/parallel', ['chromium', 'firefox'],
  (label) => `browser: sampleChains on Web Workers equals Node bit for bit (headless ${label})`, (b) => {
    let server: StaticServer;
    let browser: Browser;

    beforeAll(async () => {
      ({ server } = await setUp());
      browser = await b.launch();
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
    });

    it('4 chains on 2 module workers: draws, trace and final seeds equal workers: 0 in Node', async () => {
      const r = await sampleChains({ model: MODEL, workers: 0, ...RUN });
      const trace = r.trace as { logp: Tensor; accepted: Tensor };
      const node: Bits = {
        states: hexOf((r.allStates as Tensor).data), logp: hexOf(trace.logp.data), accepted: hexOf(trace.accepted.data),
        seeds: r.finalSeed.map((k) => hexOf(k.data)).join('|'), shape: (r.allStates as Tensor).shape.join(','),
      };
      expect(node.shape).toBe(`${RUN.numResults},${RUN.chains},3`);

      const tab = await browser.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (e) => errors.push(e instanceof Error ? e.message : String(e)));
      tab.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      await tab.goto(`${server.url}/__test/parallel.html`, { timeout: 120_000 });
      await tab.waitForFunction(() => (window as unknown as { __result?: unknown }).__result !== undefined, { timeout: 120_000, polling: 100 });
      const page = await tab.evaluate(() => (window as unknown as { __result: unknown }).__result) as PageResult;
      await tab.close();
      expect(page.error, page.error).toBeUndefined();
      expect(errors).toEqual([]);
      expect(page.userAgent).toMatch(b.userAgent);
      expect({ workers: page.workers, running: page.running }, 'sampleChains started 2 workers and stopped them').toEqual({ workers: 2, running: 0 });
      expect({ shape: page.shape, states: page.states, logp: page.logp, accepted: page.accepted, seeds: page.seeds }).toEqual(node);
    }, 300_000);
  });
