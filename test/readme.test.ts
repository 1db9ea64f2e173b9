// The README's tour snippets for distributions, joint distributions and MCMC, run as written
// (values checked against independent formulas or references, not against themselves).
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import gammaQuantile from '@stdlib/stats-base-dists-gamma-quantile';
import { compileLogDensity, deterministic, HalfCauchy, HalfNormal, Independent, JointDistributionNamed, Normal, Gamma, Poisson, Sample, modelGraph, modelToGraphviz } from '../distributions/index.js';
import { inferenceData } from '../cli/report/index.js';
import { summary, windowedAdaptiveNuts } from '../mcmc/index.js';
import { add, jit, mul, square, sum, tensor, valueAndGrad, type Tensor } from '../src/index.js';

describe('README tour', () => {
  it('distributions', () => {
    const d = new Normal({ loc: [0, 10], scale: 2 });
    expect(d.sample([3], { seed: 42 }).shape).toEqual([3, 2]);
    expect(d.logProb([[0.5, 9]]).shape).toEqual([1, 2]);
    // log Φ(z) ≈ −z²/2 − log(−z) − log√(2π) for z = −50, −55.
    const lc = d.logCdf(-100).toArray() as number[];
    [-50, -55].forEach((z, i) => expect(Math.abs(lc[i]! - (-z * z / 2 - Math.log(-z) - 0.5 * Math.log(2 * Math.PI)))).toBeLessThan(1e-3));
    expect(Math.abs((new Gamma({ concentration: 2, logRate: 0 }).quantile(0.99).item() as number) - gammaQuantile(0.99, 2, 1))).toBeLessThan(1e-12);
    expect(d.slice(1).mean().item()).toBe(10);
    const [, g] = valueAndGrad((mu: Tensor, sigma: Tensor) => new Normal({ loc: mu, scale: sigma }).logProb([1, 2, 3]).sum(), [0, 1])(tensor(0.5), tensor(1.2));
    const [gMu, gSigma] = (g as Tensor[]).map((t) => t.item() as number);
    expect(gMu).toBeCloseTo((0.5 + 1.5 + 2.5) / 1.44, 12);                        // Σ(x − μ)/σ²
    expect(gSigma).toBeCloseTo((0.25 + 2.25 + 6.25) / 1.728 - 3 / 1.2, 12);       // Σ(x − μ)²/σ³ − n/σ
  });

  it('a joint model, pinned, sampled by windowedAdaptiveNuts', () => {
    const model = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 10 }),
      sigma: new HalfNormal({ scale: 1 }),
      y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
    });
    const x = model.sample([], { seed: 0 }) as Record<string, Tensor>;
    expect(x.y!.shape).toEqual([3]);
    const pinned = model.experimentalPin({ y: [1.2, 0.7, 2.1] });
    expect(modelGraph(pinned).edges).toEqual([['mu', 'y'], ['sigma', 'y']]);
    expect(modelToGraphviz(pinned)).toContain('"y" [label="y\\n~\\nNormal" shape=ellipse style=filled]');
    const byHand = new Normal({ loc: 0, scale: 10 }).logProb(1).item() as number
      + (new HalfNormal({ scale: 1 }).logProb(2).item() as number)
      + [1.2, 0.7, 2.1].reduce((s, v) => s + (new Normal({ loc: 1, scale: 2 }).logProb(v).item() as number), 0);
    expect(pinned.unnormalizedLogProb({ mu: 1, sigma: 2 }).item()).toBeCloseTo(byHand, 12);
    const { draws, trace } = windowedAdaptiveNuts(model, { nChains: 4, nDraws: 500, seed: 0, pins: { y: [1.2, 0.7, 2.1] } });
    const s = summary(draws, { divergences: trace.diverging });
    expect(s.divergences).toBe(0);
    for (const row of s.rows) expect(row.rHat).toBeLessThan(1.02);
    expect(s.format()).toContain('ess_bulk');
  });

  it('compiled models', () => {
    const model = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 10 }),
      sigma: new HalfNormal({ scale: 1 }),
      y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
    });
    const ld = compileLogDensity(model, { pins: { y: [1.2, 0.7, 2.1] } });
    expect(ld.dim).toBe(2);
    expect(ld.paramNames).toEqual(['sigma', 'mu']);
    const grad = new Float64Array(ld.dim);
    const lp = ld.logDensityGradient(Float64Array.of(0.5, 1), grad);
    // By hand: sigma = softplus(0.5), log|dsigma/du| = log sigmoid(0.5).
    const sp = Math.log1p(Math.exp(0.5)), sig = 1 / (1 + Math.exp(-0.5));
    const byHand = (new Normal({ loc: 0, scale: 10 }).logProb(1).item() as number) + (new HalfNormal({ scale: 1 }).logProb(sp).item() as number)
      + [1.2, 0.7, 2.1].reduce((a, v) => a + (new Normal({ loc: 1, scale: sp }).logProb(v).item() as number), 0) + Math.log(sig);
    expect(lp).toBeCloseTo(byHand, 12);
    expect(grad[1]).toBeCloseTo(-1 / 100 + (0.2 + -0.3 + 1.1) / (sp * sp), 12);   // d/dmu
    const c = ld.constrain(Float64Array.of(0.5, 1)) as Record<string, Tensor>;
    expect(c.mu!.item()).toBe(1);
    expect(c.sigma!.item()).toBeCloseTo(sp, 15);
    const u = ld.unconstrain({ mu: 1, sigma: 2 });
    expect(u[0]).toBeCloseTo(Math.log(Math.expm1(2)), 14);
    expect(u[1]).toBe(1);
    const f = jit((x: Tensor) => sum(square(x)));
    expect(f([1, 2, 3]).item()).toBe(14);
  });

  it('a latent count takes Gibbs steps (the discrete-latent block), as written', () => {
    const latentCount = new JointDistributionNamed({
      lam: new Gamma({ concentration: 2, rate: 1 }),
      n: new Poisson({ rate: 5 }),
      y: ({ lam, n }: { lam: Tensor; n: Tensor }) => new Poisson({ rate: mul(lam, n) }),
    });
    const run = windowedAdaptiveNuts(latentCount, { pins: { y: 7 }, seed: 0 });
    expect(run.gibbs!.nodes.map((g) => [g.name, g.proposal])).toEqual([['n', 'random-walk']]);
    expect(run.draws.n!.shape).toEqual([1000, 4]);
    expect(Array.from(run.draws.n!.data as Float64Array).every((v) => Number.isInteger(v) && v >= 1)).toBe(true);
    expect(summary(run.draws).rows.map((r) => r.name)).toEqual(['lam', 'n']);
  });

  it('coords and dims (the InferenceData block), as written', () => {
    const scores = [28, 8, -3, 7, -1, 1, 18, 12];
    const schools = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 5 }),
      tau: new HalfCauchy({ loc: 0, scale: 5 }),
      thetaTilde: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 8 }),
      theta: deterministic(({ mu, tau, thetaTilde }: { mu: Tensor; tau: Tensor; thetaTilde: Tensor }) => add(mu, mul(tau, thetaTilde))),
      y: ({ theta }: { theta: Tensor }) => new Independent({
        distribution: new Normal({ loc: theta, scale: [15, 10, 16, 11, 9, 11, 10, 18] }), reinterpretedBatchNdims: 1 }),
    });
    const coords = { school: ['Choate', 'Deerfield', 'Phillips Andover', 'Phillips Exeter', 'Hotchkiss', 'Lawrenceville', "St. Paul's", 'Mt. Hermon'] };
    const dims = { thetaTilde: ['school'], theta: ['school'], y: ['school'] };
    const run = windowedAdaptiveNuts(schools, { pins: { y: scores }, seed: 0, coords, dims });
    expect(run.deterministics!.theta!.shape).toEqual([1000, 4, 8]);
    expect(summary(run).rows.map((r) => r.name)).toEqual(['mu', 'tau', ...coords.school.map((c) => `thetaTilde[${c}]`)]);
    const s = summary({ ...run.draws, ...run.deterministics }, { varNames: ['mu', 'tau', 'theta'], coords, dims });
    expect(s.format()).toMatch(/^theta\[St\. Paul's\]\s/m);
    const idata = inferenceData(schools, run, { pins: { y: scores }, seed: 0, prior: 20 });
    expect(idata.coords).toEqual(coords);
    expect(idata.dims).toEqual(dims);
  });
});

// The README's ```ts blocks type-check under the repository's strict tsconfig. The tour's blocks
// build on each other (the joint-model block uses `key`, `model`, … from earlier ones), so they
// are checked in order as nested scopes of one module (a later block may shadow an earlier
// name); a block with top-level `export`s is a module file of its own. 'stochax' imports
// resolve to the sources. Only `noUnusedLocals` is off: the tour names values it only shows.
describe('README code', () => {
  const repo = fileURLToPath(new URL('../', import.meta.url));
  const dir = join(repo, 'test', 'readme-snippets');   // virtual files: nothing is written

  interface Block { line: number; code: string }
  const blocks: Block[] = [];
  const lines = readFileSync(join(repo, 'README.md'), 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```ts') continue;
    const start = i + 1;
    while (i + 1 < lines.length && lines[i + 1]!.trim() !== '```') i++;
    blocks.push({ line: start + 1, code: lines.slice(start, i + 1).join('\n') });
    i++;
  }

  const ENTRY: Record<string, string> = { stochax: 'src/index.js', 'stochax/distributions': 'distributions/index.js', 'stochax/mcmc': 'mcmc/index.js', 'stochax/optimize': 'optimize/index.js', 'stochax/report': 'cli/report/index.js' };
  const IMPORT = /^import \{([^}]*)\} from '([^']+)';\s*(\/\/.*)?$/;
  const spec = (m: string) => {
    const target = ENTRY[m];
    if (target === undefined) throw new Error(`README imports from an unknown module '${m}'`);
    const rel = relative(dir, join(repo, target)).split('\\').join('/');
    return rel.startsWith('.') ? rel : `./${rel}`;
  };

  /** Virtual files: path → [text, README line of each text line (0 for generated lines)]. */
  const files = new Map<string, { text: string; map: number[] }>();
  const chainImports = new Map<string, Set<string>>();
  const chainBody: string[] = [], chainMap: number[] = [];
  let closers = 0;
  blocks.forEach((b, n) => {
    const ls = b.code.split('\n');
    if (ls.some((l) => /^export /.test(l))) {
      files.set(join(dir, `block${n + 1}.ts`), {
        text: ls.map((l) => l.replace(/from '(stochax[^']*)'/, (_, m: string) => `from '${spec(m)}'`)).join('\n'),
        map: ls.map((_, k) => b.line + k),
      });
      return;
    }
    chainBody.push('{'); chainMap.push(0); closers++;
    ls.forEach((l, k) => {
      const m = IMPORT.exec(l);
      if (m !== null) {
        const set = chainImports.get(m[2]!) ?? new Set<string>();
        for (const name of m[1]!.split(',').map((x) => x.trim()).filter(Boolean)) set.add(name);
        chainImports.set(m[2]!, set);
        chainBody.push(''); chainMap.push(b.line + k);
      } else {
        chainBody.push(l); chainMap.push(b.line + k);
      }
    });
  });
  // One import per module; a name imported as a value and as a type (`type Tensor`) once, as a value.
  const merged = (names: Set<string>) => [...names].filter((n) => !(n.startsWith('type ') && names.has(n.slice(5))));
  const head = [...chainImports].map(([m, names]) => `import { ${merged(names).join(', ')} } from '${spec(m)}';`);
  files.set(join(dir, 'tour.ts'), {
    text: [...head, ...chainBody, '}'.repeat(closers), 'export {};'].join('\n'),
    map: [...head.map(() => 0), ...chainMap, 0, 0],
  });

  it('finds the blocks', () => {
    expect(blocks.length).toBeGreaterThan(10);
  });

  it('type-checks every ```ts block under strict tsc', () => {
    const config = ts.getParsedCommandLineOfConfigFile(join(repo, 'tsconfig.json'), {}, {
      ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); },
    })!;
    const options: ts.CompilerOptions = { ...config.options, noEmit: true, noUnusedLocals: false, declaration: false, sourceMap: false };
    expect(options.strict).toBe(true);
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host), fileExists = host.fileExists.bind(host), readFile = host.readFile.bind(host);
    host.getSourceFile = (name, lang, ...rest) => {
      const f = files.get(name);
      return f !== undefined ? ts.createSourceFile(name, f.text, lang, true) : getSourceFile(name, lang, ...rest);
    };
    host.fileExists = (name) => files.has(name) || fileExists(name);
    host.readFile = (name) => files.get(name)?.text ?? readFile(name);
    const program = ts.createProgram([...files.keys()], options, host);
    const problems: string[] = [];
    for (const [name, f] of files) {
      const sf = program.getSourceFile(name)!;
      for (const d of [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]) {
        const { line } = sf.getLineAndCharacterOfPosition(d.start ?? 0);
        problems.push(`README.md:${f.map[line] || '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
      }
    }
    expect(problems).toEqual([]);
  }, 180_000);
});
