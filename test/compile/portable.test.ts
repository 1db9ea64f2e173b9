// Portable compiled programs (src/compile/portable.ts): a compiled log density exported to plain
// data, rebuilt in a worker thread, gives the original's value and gradient bit for bit (eight
// schools, a logistic regression, a hierarchical model over several distributions) at ordinary
// and awkward points (±0, tiny, huge, overflowing, NaN, ±Infinity), and so do the models whose
// kernels are made per call by named factories (LKJ/Cholesky-LKJ with an MVN-TriL and take/concat,
// Dirichlet/Binomial/negative binomial/MVN-diag, and the kernel-call ops: cholesky,
// triangularSolve, choleskySolve, logDet, inv, matmul, dot, logsumexp, max, min, prod, mean over
// an axis, cumsum, cumlogsumexp, variance, std, lbeta, igamma, igammac, betainc, astype,
// stopGradient); programs that call an unregistered
// function or a kernel made without a factory (Categorical's) are refused with a reason naming it.
// Deterministic: no randomness.
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
import { exportCompiled, importCompiled, importCompiledEntries, type PortableProgram } from '../../src/compile/portable.js';
import type { Compiled } from '../../src/compile/codegen.js';
import { add, exp, greater, log, mul, softplus, stopGradient, sub, where } from '../../src/tensor/ops/elementwise.js';
import { cholesky, choleskySolve, inv, logDet, triangularSolve } from '../../src/tensor/ops/linalg.js';
import { dot, matmul } from '../../src/tensor/ops/matmul.js';
import { cumlogsumexp, cumsum } from '../../src/tensor/ops/cumulative.js';
import { std, variance } from '../../src/tensor/ops/moments.js';
import { betainc, igamma, igammac, lbeta } from '../../src/tensor/ops/special.js';
import { logsumexp, max, mean, min, prod, sum } from '../../src/tensor/ops/reduce.js';
import { concat, gather, reshape, slice, stack, transpose } from '../../src/tensor/ops/shape.js';
import { kernelFactory, remakeKernel } from '../../src/tensor/lowering.js';
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

// A correlation factor and scales (CholeskyLKJ, HalfNormal) giving an MVN-TriL's scale, with the
// location built by concat and transpose (take) and read back through gather and slice (take).
const lkjMvn = new D.JointDistributionNamed({
  L: new D.CholeskyLKJ({ dimension: 3, concentration: 2 }),
  s: new D.Sample({ distribution: new D.HalfNormal({ scale: 1 }), sampleShape: 3 }),
  m: new D.Sample({ distribution: new D.Normal({ loc: 0, scale: 1 }), sampleShape: 2 }),
  y: (m: Tensor, s: Tensor, L: Tensor) => new D.Sample({
    distribution: new D.MultivariateNormalTriL({
      loc: gather(slice(transpose(reshape(concat([m, stack([sum(m)]), m]), [1, 5])), [0, 0], [3, 1]), tensor([0, 1, 2], 'int32')).reshape([3]),
      scaleTril: mul(L, reshape(s, [3, 1])),
    }),
    sampleShape: 2,
  }),
});
const lkjMvnPins = { y: tensor([[0.1, 0.2, 0.3], [1, 0, -1]]) };

// Per-call scalar functions now at module scope or made by factories: Dirichlet, Binomial (both
// parameterisations), negative binomial (logits), MVN-diag, and an LKJ on correlation matrices.
const simplexCounts = new D.JointDistributionNamed({
  w: new D.Dirichlet({ concentration: tensor([1.5, 2, 3]) }),
  a: new D.Normal({ loc: 0, scale: 1 }),
  k: (a: Tensor) => new D.Binomial({ totalCount: 7, logits: a }),
  j: (w: Tensor) => new D.Independent({ distribution: new D.Binomial({ totalCount: tensor([4, 5, 6]), probs: w }), reinterpretedBatchNdims: 1 }),
  r: (a: Tensor) => new D.NegativeBinomial({ totalCount: 3, logits: a }),
  v: (w: Tensor, a: Tensor) => new D.MultivariateNormalDiag({ loc: w, scaleDiag: stack([exp(a), tensor(1), tensor(2)]) }),
  C: new D.LKJ({ dimension: 2, concentration: 1.5 }),
});
const simplexPins = { k: tensor(3), j: tensor([1, 2, 6]), r: tensor(4), v: tensor([0.2, -0.1, 0.5]) };

// The kernel-call ops, each on traced values, summed into one observed Normal's location.
const opsModel = new D.JointDistributionNamed({
  x: new D.Sample({ distribution: new D.Normal({ loc: 0, scale: 1 }), sampleShape: 6 }),
  y: (x: Tensor) => {
    const a = reshape(slice(x, [0], [4]), [2, 2]);
    const spd = add(matmul(a, transpose(a)), tensor([[2, 0], [0, 2]]));
    const l = cholesky(spd);
    const terms = [
      sum(triangularSolve(l, slice(x, [4], [2]))), sum(triangularSolve(l, a, { transpose: true })), sum(choleskySolve(l, slice(x, [2], [2]))),
      logDet(l), sum(inv(spd)), dot(x, x), logsumexp(x), max(x), min(x), prod(slice(x, [0], [3])), sum(mean(reshape(x, [2, 3]), 1)),
      sum(cumsum(x)), sum(cumlogsumexp(x)), sum(stopGradient(x)), sum(where(greater(x, 0), x, softplus(x))), variance(x), sum(std(reshape(x, [3, 2]), 0)),
      sum(lbeta(exp(x), 1.5)), sum(igamma(exp(x), 0.7)), sum(igammac(2, exp(x))), sum(betainc(exp(x), tensor([2]), 0.3)),
    ];
    return new D.Normal({ loc: sub(terms.reduce((u, v) => add(u, v)), tensor(3)), scale: 10 });
  },
});

const MODELS: [string, Compiled][] = [
  ['eight schools', compiled(nonCentered, { y: schoolsY })],
  ['logistic regression', compiled(logReg, logRegPins)],
  ['hierarchical counts', compiled(counts, countPins)],
  ['CholeskyLKJ + MVN-TriL + take/concat', compiled(lkjMvn, lkjMvnPins)],
  ['Dirichlet + Binomial + negative binomial + MVN-diag + LKJ', compiled(simplexCounts, simplexPins)],
  ['kernel-call ops', compiled(opsModel, { y: tensor(0.5) })],
  ['Categorical logits (labels enumerated: a mixture)', compiled(new D.JointDistributionNamed({
    w: new D.Dirichlet({ concentration: [2, 2, 2] }),
    z: ({ w }: { w: Tensor }) => new D.Sample({ distribution: new D.Categorical({ logits: log(w) }), sampleShape: 4 }),
    y: ({ z }: { z: Tensor }) => new D.Independent({ distribution: new D.Normal({ loc: gather(tensor([-2, 0, 2]), z), scale: 1 }), reinterpretedBatchNdims: 1 }),
  }), { y: tensor([-1.9, 0.3, 2.2, 0.1]) })],
  ['TruncatedNormal priors (one and two bounds, broadcast)', compiled(new D.JointDistributionNamed({
    a: new D.Independent({ distribution: new D.TruncatedNormal({ loc: [1, 0.5], scale: 0.5, low: 0, high: Infinity }), reinterpretedBatchNdims: 1 }),
    b: new D.TruncatedNormal({ loc: 0.2, scale: 2, low: -1, high: 3 }),
    y: ({ a, b }: { a: Tensor; b: Tensor }) => new D.Independent({ distribution: new D.Normal({ loc: mul(a, b), scale: 1 }), reinterpretedBatchNdims: 1 }),
  }), { y: tensor([0.4, -0.2]) })],
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
/** A value and gradient as bit strings (−0 and 0 apart), or the error's class and message (a Cholesky of a non-finite matrix throws). */
const evaluate = (vg: (x: ArrayLike<number>, g: Float64Array) => number, x: Float64Array) => {
  const g = new Float64Array(x.length);
  let v;
  try { v = vg(x, g); } catch (e) { return ['throws', (e as Error).constructor.name, (e as Error).message]; }
  return [bits(v), ...Array.from(g, bits)];
};
/** A worker's answer at one point in `evaluate`'s form. */
const answer = (r: { value: number; grad: Float64Array } | { error: [string, string] }) => ('error' in r ? ['throws', ...r.error] : [bits(r.value), ...Array.from(r.grad, bits)]);

let worker: Worker | undefined;
function inWorker(program: PortableProgram, xs: Float64Array[]): Promise<({ value: number; grad: Float64Array } | { error: [string, string] })[]> {
  if (worker === undefined) {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
    worker = new Worker(`const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((t) => { t.register(); return import(workerData.entry); });`, { eval: true, workerData: { tsx, entry: new URL('./fixtures/portable-worker.ts', import.meta.url).href } });
  }
  return new Promise((resolve, reject) => {
    worker!.once('message', (m: { results?: ({ value: number; grad: Float64Array } | { error: [string, string] })[]; error?: string }) => (m.error === undefined ? resolve(m.results!) : reject(new Error(m.error))));
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
      expect(want.filter((w) => w[0] !== 'throws' && w[0] !== bits(NaN)).length).toBeGreaterThanOrEqual(6);
      const got = await inWorker(e.program, xs);
      expect(got.map(answer)).toEqual(want);
      // And in this thread from a structured clone of the description.
      const here = importCompiled(structuredClone(e.program));
      expect(xs.map((x) => evaluate(here, x))).toEqual(want);
      // The forward-only entry: the value valueAndGrad returns, bit for bit (or the same error), here and rebuilt.
      const out = new Float64Array(1);
      const forwardOnly = (values: (x: ArrayLike<number>, out: Float64Array) => void) => (x: Float64Array) => {
        try { values(x, out); } catch (err) { return ['throws', (err as Error).constructor.name, (err as Error).message]; }
        return [bits(out[0]!)];
      };
      const valueOnly = want.map((w) => (w[0] === 'throws' ? w : [w[0]]));
      expect(xs.map(forwardOnly(c.values))).toEqual(valueOnly);
      expect(xs.map(forwardOnly(importCompiledEntries(structuredClone(e.program)).values))).toEqual(valueOnly);
    });
  }

  it('refuses a model with a kernel made without a named factory, naming its op', () => {
    const cat = new D.JointDistributionNamed({
      x: new D.Normal({ loc: 0, scale: 1 }),
      y: (x: Tensor) => new D.OneHotCategorical({ logits: stack([x, tensor(0), tensor(1)]) }),
    });
    const e = exportCompiled(compiled(cat, { y: tensor([0, 0, 1]) }));
    expect(e).toEqual({ ok: false, reason: expect.stringMatching(/`OneHotCategorical\.logProb` runs as a kernel call made without a named factory/) });
  });

  it('kernelFactory: a name is taken once; remakeKernel and importCompiled name a factory this thread lacks', () => {
    expect(() => kernelFactory('take', () => ({}))).toThrow(/kernelFactory: the name "take" is already taken/);
    expect(() => remakeKernel('nope', [])).toThrow(/remakeKernel: no kernel factory is named "nope"/);
    const e = exportCompiled(MODELS[3]![1]);
    if (!e.ok) throw new Error(e.reason);
    const bad = { ...e.program, env: e.program.env.map((v) => (v !== null && 'make' in v ? { ...v, make: 'nope' } : v)) };
    expect(bad.env.some((v) => v !== null && 'make' in v)).toBe(true);
    expect(() => importCompiled(bad)).toThrow(/no kernel factory is named "nope"/);
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
