// Brands (src/brand.ts): stochax objects are recognised across module copies, so a model that
// imports another copy of stochax (the built package while the CLI runs from the sources, or two
// installed copies) works, and an incompatible version is a clear error.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../cli/load-model.js';
import * as D from '../distributions/index.js';
import { compileLogDensity, Distribution, HalfNormal, JointDistributionNamed, Normal, Sample } from '../distributions/index.js';
import { windowedAdaptiveNuts } from '../mcmc/index.js';
import { brand, brandOf, COMPAT, isBranded, VERSION } from '../src/brand.js';
import { configure, getModes } from '../src/config.js';
import { add, random, Tensor, tensor, valueAndGrad } from '../src/index.js';

const repo = fileURLToPath(new URL('../', import.meta.url));

describe('brand', () => {
  it('makes instanceof accept another class with the same brand, keeps subclasses ordinary, and names an incompatible version', () => {
    class A { x = 1; }
    class B { x = 2; }   // "the same class" from another copy
    brand(A, 'test.Thing');
    brand(B, 'test.Thing');
    class SubA extends A {}
    expect(new B() instanceof A).toBe(true);
    expect(new SubA() instanceof A).toBe(true);
    expect(new A() instanceof SubA).toBe(false);   // an unbranded subclass: the ordinary check
    expect(new SubA() instanceof SubA).toBe(true);
    expect({} instanceof A).toBe(false);
    expect(isBranded(null, 'test.Thing')).toBe(false);
    const alien = { [Symbol.for('stochax.test.Thing')]: COMPAT + 1, [Symbol.for('stochax.version')]: '9.0.0' };
    expect(() => alien instanceof A).toThrow(TypeError);
    expect(() => alien instanceof A).toThrow(/incompatible copy of stochax \(version 9\.0\.0, compatibility level 2; this copy is version 0\.1\.0, level 1\)/);
  });

  it('VERSION is package.json\'s version', () => {
    expect(VERSION).toBe(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version);
  });
});

describe('two copies of stochax', () => {
  // A second copy of the modules (as when a model imports the built package): its classes are
  // distinct objects, so only brands can make them pass this copy's checks.
  const dir = join(repo, 'scratch', `brand-copy-${process.pid}`);
  let B: {
    dist: typeof import('../distributions/index.js');
    core: typeof import('../src/index.js');
  };

  beforeAll(async () => {
    mkdirSync(dir, { recursive: true });
    for (const d of ['src', 'distributions', 'mcmc']) cpSync(join(repo, d), join(dir, d), { recursive: true });
    B = {
      dist: await import(/* @vite-ignore */ pathToFileURL(join(dir, 'distributions', 'index.ts')).href),
      core: await import(/* @vite-ignore */ pathToFileURL(join(dir, 'src', 'index.ts')).href),
    };
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const modelWith = (d: typeof import('../distributions/index.js')) => new d.JointDistributionNamed({
    mu: new d.Normal({ loc: 0, scale: 5 }),
    tau: new d.HalfNormal({ scale: 5 }),
    y: (mu: Tensor, tau: Tensor) => new d.Sample({ distribution: new d.Normal({ loc: mu, scale: tau }), sampleShape: 4 }),
  });
  const y = [1, 2, 3, 4.5];

  it('really is a second copy', () => {
    expect(B.core.Tensor).not.toBe(Tensor);
    expect(B.dist.Normal).not.toBe(Normal);
    expect(Object.getPrototypeOf(B.core.tensor(1)) === Tensor.prototype).toBe(false);
  });

  it('tensors, keys and distributions of either copy pass the other\'s checks, autodiff included', () => {
    const tb = B.core.tensor([1, 2]);
    expect(tb instanceof Tensor).toBe(true);
    expect(tensor([10, 20]) instanceof B.core.Tensor).toBe(true);
    expect(add(tb, tensor([10, 20])).toArray()).toEqual([11, 22]);
    expect(B.core.add(tensor([1]), tb).toArray()).toEqual([2, 3]);
    const kb = B.core.random.key(0);
    expect(random.keyData(random.split(kb)).toArray()).toEqual(random.keyData(random.split(random.key(0))).toArray());
    expect(new B.dist.Normal({ loc: 0, scale: 1 }) instanceof Distribution).toBe(true);
    // The global modes are one setting for both copies.
    const previous = B.core.configure({ x64: false });
    try { expect(getModes().x64).toBe(false); } finally { configure(previous); }
    expect(getModes().x64).toBe(true);
    // Copy B's ops record on this copy's tape.
    const [v, g] = valueAndGrad((x: Tensor) => B.core.sum(B.core.mul(x, x)))(tensor([1, 2, 3]));
    expect(v.item()).toBe(14);
    expect((g as Tensor).toArray()).toEqual([2, 4, 6]);
    // Joint distributions accept the other copy's nodes.
    const mixed = new JointDistributionNamed({ a: new B.dist.Normal({ loc: 0, scale: 1 }), b: (a: Tensor) => new B.dist.Normal({ loc: a, scale: 1 }) });
    expect(mixed.logProb({ a: tensor(0), b: tensor(1) }).item()).toBe((new Normal({ loc: 0, scale: 1 }).logProb(0).item() as number) + (new Normal({ loc: 0, scale: 1 }).logProb(1).item() as number));
  });

  it('a model built with the other copy compiles and samples to the same bits', () => {
    const mine = modelWith({ JointDistributionNamed, Normal, HalfNormal, Sample } as never);
    const theirs = modelWith(B.dist);
    const a = compileLogDensity(mine, { pins: { y: tensor(y) } });
    const b = compileLogDensity(theirs as never, { pins: { y: B.core.tensor(y) } });
    const x = new Float64Array([0.3, -0.2]);
    const ga = new Float64Array(2), gb = new Float64Array(2);
    expect(b.logDensityGradient(x, gb)).toBe(a.logDensityGradient(x, ga));
    expect(gb).toEqual(ga);
    const opts = { pins: { y: tensor(y) }, nChains: 2, nDraws: 30, numAdaptationSteps: 30, seed: 3 };
    const ra = windowedAdaptiveNuts(mine, opts);
    const rb = windowedAdaptiveNuts(theirs as never, opts);
    expect((rb.draws as Record<string, Tensor>).mu!.toArray()).toEqual((ra.draws as Record<string, Tensor>).mu!.toArray());
  });

  it("KL divergences find their rule for either copy's distributions, a user's rule registered through either copy included", () => {
    const a = new Normal({ loc: 0, scale: 1 }), b = new B.dist.Normal({ loc: 1, scale: 2 });
    const a2 = new Normal({ loc: 1, scale: 2 });
    expect(a.klDivergence(b as never).item()).toBe(a.klDivergence(a2).item());
    expect(b.klDivergence(a as never).item()).toBe(a2.klDivergence(a).item());
    // A user's class and rule, registered through copy B only: found by this copy's lookup.
    class Mine extends B.dist.Normal {}
    B.dist.registerKL(Mine, B.dist.Normal, () => B.core.tensor(42));
    expect(new Normal({ loc: 0, scale: 1 }).klDivergence.call(new Mine({ loc: 0, scale: 1 }) as never, a).item()).toBe(42);
  });

  it('every exported distribution and bijector class is branded itself (not only through its base class)', () => {
    const unbranded = [...Object.entries(D), ...Object.entries(D.bijectors)]
      .filter(([n, v]) => typeof v === 'function' && /^[A-Z]/.test(n) && (v.prototype instanceof Distribution || v.prototype instanceof D.bijectors.Bijector))
      .filter(([, v]) => brandOf((v as { prototype: object }).prototype) === undefined)
      .map(([n]) => n);
    expect(unbranded).toEqual([]);
  });

  it('the CLI loads a model module that imports another copy', async () => {
    const file = join(dir, 'model.ts');
    writeFileSync(file, `import { JointDistributionNamed, Normal } from './distributions/index.js';
export const model = new JointDistributionNamed({ mu: new Normal({ loc: 0, scale: 1 }) });
`);
    const m = await loadModel(file, repo);
    expect(m.kind).toBe('joint');
  });

  it('an object branded by an incompatible version is a clear error, not a wrong value', () => {
    const alien = new B.dist.Normal({ loc: 0, scale: 1 });
    Object.defineProperty(alien, Symbol.for('stochax.Distribution'), { value: COMPAT + 1 });
    expect(() => new Sample({ distribution: alien as never, sampleShape: 2 })).toThrow(/incompatible copy of stochax/);
  });
});
