// The CLI's outputs worker (cli/outputs.ts): LOO, the PPC plots, draws.json and the netCDF files
// and draws.csv made on a second thread give the same bytes as in one thread, and a task that
// fails there fails as it does here.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../cli/main.js';
import { outputTasks, outputsTuning, outputsWorkerReady, startOutputsWorker } from '../../cli/outputs.js';
import { ppcSection } from '../../cli/report/report-html.js';
import { fromArvizJson, toDrawsCsv } from '../../cli/report/draws-files.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import { FLAGS, here } from '../fixtures/coords/make.js';

const out = mkdtempSync(join(tmpdir(), 'stochax-outputs-'));
beforeAll(async () => {
  outputsTuning.minValues = 0;   // these runs are small: the CLI would keep them in one thread
  startOutputsWorker();
  // The worker loads in a second or two (under tsx, on a loaded machine longer).
  for (let i = 0; i < 1200 && !outputsWorkerReady(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(outputsWorkerReady()).toBe(true);
}, 70_000);
afterAll(() => { outputsTuning.worker = true; outputsTuning.steal = true; outputsTuning.minValues = 1_000_000; rmSync(out, { recursive: true, force: true }); });

/** Every file under `d` (relative path → base64). */
const tree = (d: string): Record<string, string> => Object.fromEntries(readdirSync(d, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile()).map((e) => { const p = join(e.parentPath, e.name); return [p.slice(d.length + 1), readFileSync(p).toString('base64')]; }));

/** `stochax sample` on the coords fixture's model into out/<name>; stdout and stderr without the timing lines. */
async function sample(name: string, worker: boolean, flags: string[]): Promise<{ code: number; out: string; err: string }> {
  outputsTuning.worker = worker;
  let o = '', e = '';
  const code = await run(['sample', 'model.ts', ...FLAGS, '--out', join(out, name), ...flags], { stdout: (t) => { o += t; }, stderr: (t) => { e += t; }, isTTY: false, cwd: here });
  const timing = /^(sampled in|outputs \(predictive draws, summary, files\) in) [\d.]+ s$/gm;
  return { code, out: o.replaceAll(join(out, name), '<out>'), err: e.replace(timing, '$1 …').replaceAll(join(out, name), '<out>') };
}

describe('stochax sample with its outputs worker', () => {
  for (const format of ['json', 'netcdf']) {
    it(`writes the same files, byte for byte, and prints the same as in one thread (--draws-format ${format})`, async () => {
      const sent = outputsTuning.sent, fromWorker = outputsTuning.fromWorker;
      outputsTuning.steal = false;
      const two = await sample(`${format}-worker`, true, ['--draws-format', format]);
      outputsTuning.steal = true;
      expect(outputsTuning.sent).toBe(sent + 4);   // the plots, LOO and the PPC plot as soon as their groups are drawn, then the others
      expect(outputsTuning.fromWorker).toBe(fromWorker + 5);   // the worker made all five: the plots, LOO, PPC, the netCDF groups, draws.json with draws.csv
      const one = await sample(`${format}-one`, false, ['--draws-format', format]);
      expect(outputsTuning.sent).toBe(sent + 4);
      const shared = await sample(`${format}-shared`, true, ['--draws-format', format]);   // the main thread takes what the worker has not started
      expect(two.code, two.err).toBe(0);
      expect(two).toEqual(one);
      expect(shared).toEqual(one);
      expect(tree(join(out, `${format}-shared`))).toEqual(tree(join(out, `${format}-one`)));
      const files = tree(join(out, `${format}-worker`));
      expect(Object.keys(files).sort()).toEqual(format === 'json'
        ? ['draws.csv', 'draws.json', 'report.html']
        : ['draws.csv', 'draws.json', 'idata/log_likelihood.nc', 'idata/observed_data.nc', 'idata/posterior.nc', 'idata/posterior_predictive.nc', 'idata/prior.nc', 'idata/prior_predictive.nc', 'idata/sample_stats.nc', 'report.html']);
      expect(files).toEqual(tree(join(out, `${format}-one`)));
      expect(readdirSync(out).filter((f) => f.startsWith('.'))).toEqual([]);   // no temporary folder left
    }, 60_000);
  }
});

describe('stochax sample hands the worker its predictive groups', () => {
  it('draws them into shared memory, so only the sampler\'s draws, the trace and the data are copied for the worker', async () => {
    outputsTuning.shareValues = 0;   // every tensor crosses in shared memory (these runs are small)
    const before = outputsTuning.copiedValues;
    try {
      expect((await sample('shared-groups', true, ['--draws-format', 'json'])).code).toBe(0);
    } finally {
      outputsTuning.shareValues = 1 << 16;
    }
    const copied = outputsTuning.copiedValues - before;
    const { draws, trace, groups } = fromArvizJson(readFileSync(join(out, 'shared-groups', 'draws.json'), 'utf8'));
    const size = (g: Readonly<Record<string, Tensor>> | undefined): number => Object.values(g ?? {}).reduce((n, t) => n + t.size, 0);
    const predictive = size(groups.logLikelihood) + size(groups.posteriorPredictive) + size(groups.prior) + size(groups.priorPredictive);
    expect(predictive).toBeGreaterThan(0);
    // The posterior and trace the sampler returned and the data are copied once; the groups drawn after sampling are not.
    expect(copied).toBeGreaterThan(0);
    expect(copied).toBeLessThanOrEqual(size(draws) + size(trace) + size(groups.observedData));
  }, 60_000);
});

describe('stochax sample below outputsTuning.minValues', () => {
  it('keeps a small run in one thread (a second isolate would start cold)', async () => {
    outputsTuning.minValues = 1_000_000;
    const sent = outputsTuning.sent;
    const r = await sample('small', true, []);
    outputsTuning.minValues = 0;
    expect(r.code, r.err).toBe(0);
    expect(outputsTuning.sent).toBe(sent);
  }, 60_000);
});

describe('outputTasks', () => {
  it('large tensors cross in shared memory: the worker reads the same values (draws.json, draws.csv and LOO of 4000 × 20 draws)', () => {
    const draws = 2000, chains = 2, n = 20;
    const v = (i: number) => Math.sin(i * 12.9898) * 3 - (i % 7) / 3;   // any fixed values, no generator needed
    const big = { mu: new Tensor(Float64Array.from({ length: draws * chains }, (_, i) => v(i)), [draws, chains], 'float64') };
    const ll = { y: new Tensor(Float64Array.from({ length: draws * chains * n }, (_, i) => -1 - Math.abs(v(i + 7))), [draws, chains, n], 'float64') };
    const idata = { posterior: big, logLikelihood: ll };
    expect(ll.y.size).toBeGreaterThanOrEqual(1 << 16);   // above the sharing threshold
    outputsTuning.steal = false;
    const fromWorker = outputsTuning.fromWorker;
    const t = outputTasks({ idata }, ['loo', 'drawsFiles']);
    const got = { loo: t.loo.take(), drawsFiles: t.drawsFiles.take() };
    outputsTuning.steal = true;
    expect(outputsTuning.fromWorker).toBe(fromWorker + 2);
    outputsTuning.worker = false;
    const one = outputTasks({ idata }, ['loo', 'drawsFiles']);
    outputsTuning.worker = true;
    expect(got).toEqual({ loo: one.loo.take(), drawsFiles: one.drawsFiles.take() });
    expect('text' in got.drawsFiles.csv && got.drawsFiles.csv.text.length > 0).toBe(true);
    expect(ll.y.data.buffer).toBeInstanceOf(ArrayBuffer);   // the caller's tensors are left as they were
  }, 30_000);

  const posterior = { mu: new Tensor(Float64Array.from({ length: 8 }, (_, i) => i / 8), [4, 2], 'float64') };
  it('a task that fails on the worker throws the error it throws in one thread', () => {
    const bad = { posterior, posteriorPredictive: { y: new Tensor(new Float64Array(12), [4, 3], 'float64') }, observedData: { y: tensor([1, 2]) } };
    let expected: unknown;
    try { ppcSection('reportHtml', bad); } catch (e) { expected = e; }
    expect(expected).toBeInstanceOf(RangeError);
    const sent = outputsTuning.sent;
    outputsTuning.worker = true;
    outputsTuning.steal = false;
    const fromWorker = outputsTuning.fromWorker;
    const u = outputTasks({ idata: bad }, ['ppc']);
    const t = outputTasks({ idata: { posterior } }, ['ppc', 'drawsFiles']);
    expect(outputsTuning.sent).toBe(sent + 2);
    expect(() => u.ppc.take()).toThrow(expected as RangeError);
    expect(t.ppc.take()).toBeUndefined();
    expect(t.drawsFiles.take().csv).toEqual({ text: toDrawsCsv(posterior) });
    outputsTuning.steal = true;
    expect(outputsTuning.fromWorker).toBe(fromWorker + 2);   // the worker goes on after a failure
  }, 30_000);

  it('draws.json is written to the run folder as soon as it is made: by the worker, or here in the background', async () => {
    const idata = { posterior: { mu: new Tensor(Float64Array.from({ length: 40 }, (_, i) => Math.sin(i)), [20, 2], 'float64') } };
    const [onWorker, here] = [mkdtempSync(join(out, 'w-')), mkdtempSync(join(out, 'h-'))];
    outputsTuning.steal = false;
    const w = outputTasks({ idata, folder: onWorker, background: true }, ['drawsFiles']).drawsFiles.take();
    outputsTuning.steal = true;
    expect(w.written).toEqual(['draws.json']);   // the worker writes it itself (in the foreground there)
    expect(w.pending).toBeUndefined();
    expect(Object.keys(w.files)).toEqual([]);
    const h = outputTasks({ idata, folder: here, background: true }, ['drawsFiles'], false).drawsFiles.take();
    expect(Object.keys(h.files)).toEqual(['draws.json']);   // still given: `pending` says it is being written
    expect(await h.pending).toEqual(['draws.json']);
    expect(readFileSync(join(onWorker, 'draws.json'))).toEqual(readFileSync(join(here, 'draws.json')));
    expect(readFileSync(join(here, 'draws.json'), 'utf8')).toBe(h.files['draws.json']);
  }, 30_000);

  it('a task that fails in this thread runs once: a second take throws the same error', () => {
    let reads = 0;
    const idata = new Proxy({}, { get: () => { reads++; throw new RangeError('no groups'); } });
    const t = outputTasks({ idata } as never, ['ppc'], false);
    let first: unknown;
    try { t.ppc.take(); } catch (e) { first = e; }
    expect(first).toBeInstanceOf(RangeError);
    expect(() => t.ppc.take()).toThrow(first as RangeError);
    expect(reads).toBe(1);
  });
});
