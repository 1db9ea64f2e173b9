// Portable compiled programs (src/compile/portable.ts): a compiled log density exported to plain
// data, rebuilt in a worker thread, gives the original's value and gradient bit for bit (eight
// schools, a logistic regression, a hierarchical model over several distributions) at ordinary
// and awkward points (±0, tiny, huge, overflowing, NaN, ±Infinity); programs that call an
// unregistered function or a kernel-call op (a Cholesky/LKJ model) are refused with a reason
// naming it. Deterministic: no randomness.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { compileTarget, pinModel } from '../../distributions/compile-log-density.js';
import * as D from '../../distributions/index.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import type { JointDistributionPinned } from '../../distributions/joint/joint-distribution-pinned.js';
import type { StructKind } from '../../distributions/joint/values.js';
import { nonCentered, y as schoolsY } from '../../examples/eight-schools.js';
import { model as logReg, pins as logRegPins } from '../../bench/models/logistic-regression.js';
import '../../mcmc/nuts/stan/portable-catalogue.js';
import { exportCompiled, importCompiled, type PortableProgram } from '../../src/compile/portable.js';
import type { Compiled } from '../../src/compile/codegen.js';
import { exp } from '../../src/tensor/ops/elementwise.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';

const compiled = (model: unknown, pins: Record<string, unknown>): Compiled => compileTarget('test', flatModel('test', pinModel('test', model, pins as never) as JointDistributionPinned<StructKind>));

// A hierarchical count model over several distributions and parameterisations.
const counts = new D.JointDistributionNamed({
  rate: new D.Gamma({ concentration: 2, rate: 1 }),
  p: new D.Beta({ concentration1: 2, concentration0: 3 }),
  nu: new D.LogNormal({ loc: 1, scale: 0.5 }),
  z: new D.Sample({ distribution: new D.StudentT({ df: 4, loc: 0, scale: 1 }), sampleShape: 3 }),
  y: (z: Tensor, rate: Tensor) => new D.Independent({ distribution: new D.Poisson({ logRate: z.add(rate) }), reinterpretedBatchNdims: 1 }),
  k: (p: Tensor) => new D.Bernoulli({ probs: p }),
  w: (nu: Tensor) => new D.HalfCauchy({ loc: 0, scale: nu }),
});
const countPins = { y: tensor([1, 0, 4]), k: tensor(1), w: tensor(0.7) };

const MODELS: [string, Compiled][] = [
  ['eight schools', compiled(nonCentered, { y: schoolsY })],
  ['logistic regression', compiled(logReg, logRegPins)],
  ['hierarchical counts', compiled(counts, countPins)],
];

/** Points: ordinary ones and awkward ones (±0, subnormal-small, large, overflowing, NaN, ±Infinity in one coordinate). */
function points(dim: number): Float64Array[] {
  const at = (f: (i: number) => number) => Float64Array.from({ length: dim }, (_, i) => f(i));
  return [
    at(() => 0), at(() => -0), at((i) => 0.7 * Math.sin(i + 1)), at((i) => -1.3 * Math.cos(i)),
    at(() => 1e-300), at((i) => (i % 2 === 0 ? 5e-324 : -5e-324)), at((i) => 30 * Math.sin(i + 2)), at(() => 710), at(() => -745),
    at((i) => (i === 0 ? NaN : 0.1)), at((i) => (i === dim - 1 ? Infinity : 0.2)), at((i) => (i === 0 ? -Infinity : -0.2)),
  ];
}

/**
 * A double's bits, every NaN as 'NaN': V8 may give a NaN another sign or payload in optimised
 * code than in the interpreter (tier-up timing varies between threads), and nothing reads them.
 */
const bits = (v: number) => { if (v !== v) return 'NaN'; const b = new Float64Array([v]); return Array.from(new Uint32Array(b.buffer)).join(':'); };
/** A value and gradient as bit strings (−0 and 0 apart). */
const evaluate = (vg: (x: ArrayLike<number>, g: Float64Array) => number, x: Float64Array) => {
  const g = new Float64Array(x.length);
  const v = vg(x, g);
  return [bits(v), ...Array.from(g, bits)];
};

let worker: Worker | undefined;
function inWorker(program: PortableProgram, xs: Float64Array[]): Promise<{ value: number; grad: Float64Array }[]> {
  if (worker === undefined) {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
    worker = new Worker(`const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((t) => { t.register(); return import(workerData.entry); });`, { eval: true, workerData: { tsx, entry: new URL('./fixtures/portable-worker.ts', import.meta.url).href } });
  }
  return new Promise((resolve, reject) => {
    worker!.once('message', (m: { results?: { value: number; grad: Float64Array }[]; error?: string }) => (m.error === undefined ? resolve(m.results!) : reject(new Error(m.error))));
    worker!.postMessage({ program, points: xs });
  });
}
afterAll(async () => { await worker?.terminate(); });

describe('exportCompiled / importCompiled', () => {
  for (const [name, c] of MODELS) {
    it(`${name}: rebuilt in a worker thread, the same value and gradient bits at 12 points`, async () => {
      const e = exportCompiled(c);
      expect(e.ok, e.ok ? '' : e.reason).toBe(true);
      if (!e.ok) return;
      const xs = points(e.program.dim);
      const want = xs.map((x) => evaluate(c.valueAndGrad!, x));
      expect(want.some((w) => w.length > 1 && w[0] !== bits(NaN))).toBe(true);
      const got = await inWorker(e.program, xs);
      expect(got.map((r) => [bits(r.value), ...Array.from(r.grad, bits)])).toEqual(want);
      // And in this thread from a structured clone of the description.
      const here = importCompiled(structuredClone(e.program));
      expect(xs.map((x) => evaluate(here, x))).toEqual(want);
    });
  }

  it('refuses a Cholesky/LKJ model, naming the op that stops it', () => {
    const lkj = new D.JointDistributionNamed({
      L: new D.CholeskyLKJ({ dimension: 3, concentration: 2 }),
      y: (L: Tensor) => new D.Sample({ distribution: new D.MultivariateNormalTriL({ loc: tensor([0, 0, 0]), scaleTril: L }), sampleShape: 2 }),
    });
    const e = exportCompiled(compiled(lkj, { y: tensor([[0.1, 0.2, 0.3], [1, 0, -1]]) }));
    expect(e.ok).toBe(false);
    if (!e.ok) expect(e.reason).toMatch(/CholeskyLKJ\.logProb|MultivariateNormalTriL\.logProb|`take`|`concat`/);
  });

  it('refuses a program calling a function no registry source reaches', () => {
    const own = (x: number) => x * 3;
    const model = new D.JointDistributionNamed({
      x: new D.Normal({ loc: 0, scale: 1 }),
      y: (x: Tensor) => new D.Normal({ loc: exp(x), scale: 1 }),
    });
    const c = compiled(model, { y: tensor(0.5) });
    expect(exportCompiled(c).ok).toBe(true);
    const withOwn = { ...c, env: c.env.map((v, i) => (i === c.env.findIndex((u) => typeof u === 'function') ? own : v)) };
    const e = exportCompiled(withOwn);
    expect(e).toEqual({ ok: false, reason: expect.stringMatching(/`own`.*not a registered library function/) });
  });

  it('importCompiled names a function this thread does not know', () => {
    const e = exportCompiled(MODELS[0]![1]);
    if (!e.ok) throw new Error(e.reason);
    const bad = { ...e.program, env: e.program.env.map((v) => ('fn' in v ? { ...v, fn: 'nope#f' } : v)) };
    expect(() => importCompiled(bad)).toThrow(/importCompiled: the function "nope#f" is not registered/);
    // A name that names a function of another arity here, and a registry that differs, are refused too.
    const other = { ...e.program, env: e.program.env.map((v) => ('fn' in v ? { ...v, arity: v.arity + 1 } : v)) };
    expect(() => importCompiled(other)).toThrow(/importCompiled: ".*" names a different function in this thread/);
    expect(() => importCompiled({ ...e.program, registry: (e.program.registry + 1) >>> 0 })).toThrow(/importCompiled: this thread's registry .* differs/);
  });
});
