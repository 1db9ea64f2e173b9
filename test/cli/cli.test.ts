// The stochax CLI run in-process through `run(argv, io)`: `sample` on a joint-distribution
// module (windowedAdaptiveNuts) and on a `setup` module (sampleChains), `summary`, `merge` of
// per-chain runs equal to the all-chains run byte for byte, `--help`, and errors as one-line
// messages with exit code 1.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromArvizJson } from '../../cli/report/index.js';
import { GAUSS_MODULE, spawnCli, type Ran, runCli } from './cli-support.js';
import { oneLine } from '../../cli/errors.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repo so the models' relative imports reach the library; .js so tsc skips them.
const dir = join(repo, 'test', 'cli', `.tmp-cli-${process.pid}`);

const MODELS: Record<string, string> = {
  'tiny.js': `import { JointDistributionNamed, Normal, HalfNormal } from '../../../distributions/index.js';
import { tensor } from '../../../src/index.js';
export const model = new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 1 }),
  sigma: new HalfNormal({ scale: 1 }),
  y: (mu, sigma) => new Normal({ loc: mu, scale: sigma }),
}, { name: 'Tiny' });
export const pins = { y: tensor(0.5) };
export const options = { targetAcceptProb: 0.9 };
`,
  'nan.js': `import { JointDistributionNamed, Normal } from '../../../distributions/index.js';
import { mul, tensor } from '../../../src/index.js';
export const model = new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 1 }),
  y: (mu) => new Normal({ loc: mul(mu, NaN), scale: 1 }),
}, { name: 'AlwaysNaN' });
export const pins = { y: tensor(0) };
`,
  'reads-values.js': `import { JointDistributionNamed, Normal, HalfNormal } from '../../../distributions/index.js';
import { sum, tensor } from '../../../src/index.js';
export const model = new JointDistributionNamed({
  sigma: new HalfNormal({ scale: 1 }),
  y: (sigma) => new Normal({ loc: 0, scale: sum(sigma).item() > 100 ? 100 : sigma }),
}, { name: 'ReadsValues' });
export const pins = { y: tensor(0.5) };
`,
  'pooled.js': `import { JointDistributionNamed, Normal } from '../../../distributions/index.js';
import { tensor } from '../../../src/index.js';
export const model = new JointDistributionNamed({ mu: new Normal({ loc: 0, scale: 1 }), y: (mu) => new Normal({ loc: mu, scale: 1 }) });
export const pins = { y: tensor(0.5) };
export const options = { adaptation: 'pooled' };
`,
  'coroutine.js': `import { JointDistributionCoroutine, Normal, Root } from '../../../distributions/index.js';
import { tensor } from '../../../src/index.js';
export const model = new JointDistributionCoroutine(function* () {
  const mu = yield Root(new Normal({ loc: 0, scale: 1, name: 'mu' }));
  yield new Normal({ loc: mu, scale: 1, name: 'y' });
}, { name: 'Co' });
export const pins = { y: tensor(0.5) };
`,
  'empty.js': 'export const answer = 42;\n',
  'not-a-model.js': 'export const model = { logProb: () => 0 };\n',
  'gauss.js': GAUSS_MODULE,
  'gauss-coords.js': `${GAUSS_MODULE}export const coords = { side: ['left', 'right'] };\nexport const dims = { x: ['side'] };\n`,
};

const cli = (...argv: string[]) => runCli(dir, ...argv);

function expectOneLineError(r: Ran, pattern: RegExp): void {
  expect(r.code).toBe(1);
  // Progress lines may precede it; the error is the last line, and the only one naming stochax.
  const lines = r.err.trimEnd().split('\n');
  expect(lines.filter((l) => l.startsWith('stochax'))).toHaveLength(1);
  expect(lines.at(-1)).toMatch(/^stochax( \w+)?: /);
  expect(lines.at(-1)).toMatch(pattern);
  expect(r.err).not.toMatch(/\n\s+at /);
}

beforeAll(() => {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(MODELS)) writeFileSync(join(dir, name), text);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stochax sample (joint distribution module)', () => {
  it('samples, prints the summary and writes draws.csv, draws.json and report.html', async () => {
    const r = await cli('sample', 'tiny.js', '--chains', '2', '--draws', '50', '--warmup', '50', '--seed', '3', '--out', 'out-tiny');
    expect(r.err).toContain('windowedAdaptiveNuts: 2 chains × (50 warm-up + 50 draws), seed 3');
    // Not a terminal: plain progress lines per chain, no escape codes.
    for (const c of [0, 1]) {
      expect(r.err).toContain(`chain ${c}: warm-up started (100 steps)`);
      expect(r.err).toMatch(new RegExp(`chain ${c}: done, \\d+ divergences`));
    }
    expect(r.err).not.toContain('\x1b[');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/mean\s+mcse\s+sd\s+hdi_3%\s+hdi_97%\s+ess_bulk\s+ess_tail\s+r_hat/);
    expect(r.out).toMatch(/^mu\s/m);
    expect(r.out).toMatch(/^sigma\s/m);
    expect(r.out).toMatch(/divergences: \d+/);
    for (const f of ['draws.csv', 'draws.json', 'report.html']) {
      expect(existsSync(join(dir, 'out-tiny', f))).toBe(true);
      expect(r.out).toContain(join(dir, 'out-tiny', f));
    }
    const { draws, trace, settings } = fromArvizJson(readFileSync(join(dir, 'out-tiny', 'draws.json'), 'utf8'));
    expect(draws.mu!.shape).toEqual([50, 2]);
    expect(draws.sigma!.shape).toEqual([50, 2]);
    expect(trace.diverging!.shape).toEqual([50, 2]);
    expect(settings).toMatchObject({ seed: 3, chains: 2, draws: 50, warmup: 50, model: 'tiny.js', sampler: 'windowedAdaptiveNuts' });
    const csv = readFileSync(join(dir, 'out-tiny', 'draws.csv'), 'utf8').trimEnd().split('\n');
    expect(csv[0]).toMatch(/^chain,draw,mu,sigma,/);
    expect(csv).toHaveLength(101);
    expect(readFileSync(join(dir, 'out-tiny', 'report.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);

    // Same seed, same bits.
    const again = await cli('sample', 'tiny.js', '--chains', '2', '--draws', '50', '--warmup', '50', '--seed', '3', '--out', 'out-tiny-2');
    expect(again.code).toBe(0);
    expect(readFileSync(join(dir, 'out-tiny-2', 'draws.json'), 'utf8')).toBe(readFileSync(join(dir, 'out-tiny', 'draws.json'), 'utf8'));

    // On the tape (--no-compile): the same bits again.
    const tape = await cli('sample', 'tiny.js', '--chains', '2', '--draws', '50', '--warmup', '50', '--seed', '3', '--out', 'out-tiny-3', '--no-compile');
    expect(tape.code).toBe(0);
    expect(readFileSync(join(dir, 'out-tiny-3', 'draws.json'), 'utf8')).toBe(readFileSync(join(dir, 'out-tiny', 'draws.json'), 'utf8'));

    const s = await cli('summary', join('out-tiny', 'draws.json'));
    expect(s.code).toBe(0);
    expect(s.out).toBe(r.out.slice(0, r.out.indexOf('\n\nwrote')) + '\n');
    // --var-names: only those rows, the rows of the full table
    const rowsOf = (text: string) => text.split('\n').filter((l) => /^\S+\s+-?\d/.test(l) && !l.startsWith('divergences')).map((l) => l.split(/\s+/).join(' '));
    const mu = await cli('summary', join('out-tiny', 'draws.json'), '--var-names', 'mu');
    expect(mu.code, mu.err).toBe(0);
    expect(rowsOf(mu.out)).toEqual(rowsOf(s.out).filter((l) => l.startsWith('mu ')));
    expectOneLineError(await cli('summary', join('out-tiny', 'draws.json'), '--var-names', 'nope'), /varNames.*`nope`/);
  });

  it('--metric dense: a dense metric for the chains (different draws, the same model)', async () => {
    const base = ['sample', 'tiny.js', '--chains', '2', '--draws', '30', '--warmup', '40', '--seed', '3'];
    const dense = await cli(...base, '--metric', 'dense', '--out', 'out-dense');
    expect(dense.code, dense.err).toBe(0);
    expect((await cli(...base, '--out', 'out-diag')).code).toBe(0);
    expect(readFileSync(join(dir, 'out-dense', 'draws.json'), 'utf8')).not.toBe(readFileSync(join(dir, 'out-diag', 'draws.json'), 'utf8'));
  });

  it('a model that reads values in JavaScript runs on the tape with a note naming the method; --no-compile gives the same draws', async () => {
    const r = await cli('sample', 'reads-values.js', '--chains', '2', '--draws', '20', '--warmup', '20', '--out', 'out-rv');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/note: .*autodiff tape.*Tensor\.item\(\).*where/);
    const t = await cli('sample', 'reads-values.js', '--chains', '2', '--draws', '20', '--warmup', '20', '--out', 'out-rv-tape', '--no-compile');
    expect(t.code).toBe(0);
    expect(t.err).not.toMatch(/autodiff tape/);
    const posterior = (dir: string) => JSON.stringify(JSON.parse(readFileSync(join(dir, 'draws.json'), 'utf8')).posterior);
    expect(posterior(join(dir, 'out-rv'))).toBe(posterior(join(dir, 'out-rv-tape')));
  });

  it('loads a .ts model module (examples/eight-schools.ts); --workers 2 gives the in-thread draws', async () => {
    const r = await cli('sample', join(repo, 'examples', 'eight-schools.ts'), '--chains', '3', '--draws', '30', '--warmup', '30', '--out', 'out-8s', '--workers', '2');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('3 chains on up to 2 threads');
    expect(r.err).toMatch(/note: chains ran in this thread: the run is estimated at .* too short to pay for 1 worker/);   // --workers is windowedAdaptiveNuts' cores: a run this short stays here
    expect(r.err).toMatch(/chain 2: done/);
    expect(r.out).toMatch(/^thetaTilde\[Mt\. Hermon\]\s/m);   // the module's coords label the rows
    const json = readFileSync(join(dir, 'out-8s', 'draws.json'), 'utf8');
    expect(fromArvizJson(json).draws.thetaTilde!.shape).toEqual([30, 3, 8]);
    // an InferenceData: the derived theta in the posterior (and the table), the predictive groups, the module's dims
    const idata = fromArvizJson(json);
    expect(idata.draws.theta!.shape).toEqual([30, 3, 8]);
    expect(r.out).toMatch(/^theta\[Mt\. Hermon\]\s/m);
    expect(Object.keys(idata.groups)).toEqual(['logLikelihood', 'posteriorPredictive', 'prior', 'priorPredictive', 'observedData', 'coords', 'dims']);
    expect(idata.groups.dims!.theta).toEqual(['school']);
    const here = await cli('sample', join(repo, 'examples', 'eight-schools.ts'), '--chains', '3', '--draws', '30', '--warmup', '30', '--out', 'out-8s-0');
    expect(here.code).toBe(0);
    expect(readFileSync(join(dir, 'out-8s-0', 'draws.json'), 'utf8')).toBe(json);
  }, 60_000);
});

describe('stochax sample: draws.json as an InferenceData', () => {
  it('--prior N sets the prior draws; --no-predictive leaves out the log-likelihood, replicates and prior', async () => {
    const base = ['sample', 'tiny.js', '--chains', '2', '--draws', '10', '--warmup', '20'];
    expect((await cli(...base, '--prior', '7', '--out', 'idata-prior')).code).toBe(0);
    const full = fromArvizJson(readFileSync(join(dir, 'idata-prior', 'draws.json'), 'utf8')).groups;
    expect(full.prior!.mu!.shape).toEqual([7]);
    expect(full.priorPredictive!.y!.shape).toEqual([7]);
    expect(full.logLikelihood!.y!.shape).toEqual([10, 2]);
    expect((await cli(...base, '--no-predictive', '--out', 'idata-none')).code).toBe(0);
    expect(Object.keys(fromArvizJson(readFileSync(join(dir, 'idata-none', 'draws.json'), 'utf8')).groups)).toEqual(['observedData']);
  }, 60_000);
});

describe('stochax sample (joint distribution module) --chain-index and merge', () => {
  it('one process per chain, merged, equals the all-chains run byte for byte', async () => {
    const base = ['sample', 'tiny.js', '--chains', '3', '--draws', '20', '--warmup', '30', '--seed', '4'];
    const all = await cli(...base, '--out', 't-all');
    expect(all.code).toBe(0);
    for (const c of [1, 0, 2]) {
      const one = await cli(...base, '--chain-index', String(c), '--out', `t${c}`);
      expect(one.code, one.err).toBe(0);
      expect(one.err).toContain(`chain ${c} of 3`);
    }
    const m = await cli('merge', 't0/draws.json', 't1/draws.json', 't2/draws.json', '--out', 't-merged.json');
    expect(m.code).toBe(0);
    expect(readFileSync(join(dir, 't-merged.json'), 'utf8')).toBe(readFileSync(join(dir, 't-all', 'draws.json'), 'utf8'));
  });
});

describe('stochax sample (setup module) and merge', () => {
  it('per-chain runs merged equal the all-chains run byte for byte', async () => {
    const base = ['sample', 'gauss.js', '--chains', '3', '--draws', '30', '--warmup', '10', '--seed', '11'];
    const all = await cli(...base, '--workers', '2', '--out', 'g-all');
    expect(all.code).toBe(0);
    expect(all.err).toMatch(/chain 2: done/);
    expect(all.out).toMatch(/^x\[1\]\s/m);
    for (const c of [2, 0, 1]) {
      const one = await cli(...base, '--chain-index', String(c), '--workers', '0', '--out', `g${c}`);
      expect(one.code).toBe(0);
      expect(one.err).toContain(`chain ${c} of 3`);
    }
    const m = await cli('merge', 'g1/draws.json', 'g2/draws.json', 'g0/draws.json', '--out', 'g-merged/draws.json');
    expect(m.code).toBe(0);
    expect(m.out).toContain('3 chains from 3 files');
    const merged = readFileSync(join(dir, 'g-merged', 'draws.json'), 'utf8');
    expect(merged).toBe(readFileSync(join(dir, 'g-all', 'draws.json'), 'utf8'));
    expect(fromArvizJson(merged).draws.x!.shape).toEqual([30, 3, 2]);

    const partial = await cli('merge', 'g1/draws.json', 'g2/draws.json', '--out', 'g-partial.json');
    expectOneLineError(partial, /hold 2 of the 3 chains/);
    const twice = await cli('merge', 'g1/draws.json', 'g1/draws.json', '--out', 'g-twice.json');
    expectOneLineError(twice, /same chain/);
  });
});

describe('stochax sample: the model graph in report.html', () => {
  it('a named model\'s graph is drawn; a coroutine model declares no parents: a note, and no model section', async () => {
    const named = await cli('sample', 'tiny.js', '--chains', '2', '--draws', '30', '--warmup', '30', '--out', 'graph-tiny');
    expect(named.code, named.err).toBe(0);
    const html = readFileSync(join(dir, 'graph-tiny', 'report.html'), 'utf8');
    expect(html).toContain('<title>Model graph of Tiny</title>');
    expect(html).toContain('>y ~ Normal<');
    const co = await cli('sample', 'coroutine.js', '--chains', '2', '--draws', '30', '--warmup', '30', '--out', 'graph-co');
    expect(co.code, co.err).toBe(0);
    expect(co.err).toMatch(/note: report\.html has no model graph: .*coroutine model does not declare its parents/);
    expect(readFileSync(join(dir, 'graph-co', 'report.html'), 'utf8')).not.toContain('id="model"');
  }, 60_000);
});

describe('stochax graph', () => {
  it('prints the DOT of modelToGraphviz with the module\'s pins (filled) and dims (plates); a setup module and bad arguments are one-line errors', async () => {
    const r = await cli('graph', 'tiny.js');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^digraph "Tiny" \{/);
    expect(r.out).toContain('"y" [label="y\\n~\\nNormal" shape=ellipse style=filled]');
    expect(r.out).toContain('"sigma" -> "y"');
    const schools = await runCli(repo, 'graph', 'examples/eight-schools.ts');
    expect(schools.out).toContain('subgraph "clusterschool (8)"');
    expectOneLineError(await cli('graph', 'gauss.js'), /setup module.*no model to draw/);
    expectOneLineError(await cli('graph'), /give one model file/);
    expectOneLineError(await cli('graph', 'coroutine.js'), /coroutine model does not declare its parents/);
    expect((await cli('graph', '--help')).out).toContain('pm.model_to_graphviz');
    const svg = await cli('graph', 'tiny.js', '--svg');
    expect(svg.out).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg.out).toContain('<title>Model graph of Tiny</title>');
    expect(svg.out).toContain('>y ~ Normal<');
  }, 30_000);
});

describe('stochax sample (setup module) with coords and dims', () => {
  it('the table and the warnings name x[left] and x[right], not x[0] and x[1]', async () => {
    const r = await cli('sample', 'gauss-coords.js', '--chains', '2', '--draws', '30', '--warmup', '10', '--seed', '11', '--workers', '0', '--out', 'g-coords');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^x\[left\]\s/m);
    const warned = r.err.split('\n').filter((l) => l.startsWith('warning [ess-bulk]'));   // 60 draws cannot give 200
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/x\[(left|right)\] \d+, x\[(left|right)\] \d+/);
    expect(r.err).not.toMatch(/x\[[01]\]/);
  });
});

describe('stochax as separate processes', () => {
  it('two processes, one chain each, merge to the in-process two-chain run; errors exit 1 without a stack', async () => {
    const base = ['sample', 'gauss.js', '--chains', '2', '--draws', '25', '--warmup', '5', '--seed', '5'];
    const [p0, p1, bad] = await Promise.all([
      spawnCli(dir, ...base, '--chain-index', '0', '--out', 'p0'),
      spawnCli(dir, ...base, '--chain-index', '1', '--out', 'p1'),
      spawnCli(dir, 'sample', 'missing.js'),
    ]);
    expect([p0.code, p1.code]).toEqual([0, 0]);
    expect((await cli(...base, '--workers', '0', '--out', 'p-all')).code).toBe(0);
    expect((await cli('merge', 'p0/draws.json', 'p1/draws.json', '--out', 'p-merged.json')).code).toBe(0);
    expect(readFileSync(join(dir, 'p-merged.json'), 'utf8')).toBe(readFileSync(join(dir, 'p-all', 'draws.json'), 'utf8'));
    expectOneLineError(bad, /model file not found/);
  }, 30_000);
});

describe('stochax --help and errors', () => {
  it('prints help with examples', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Examples:');
    expect(r.out).toContain('stochax sample examples/eight-schools.ts');
    const s = await cli('sample', '--help');
    expect(s.code).toBe(0);
    expect(s.out).toContain('--chain-index');
    expect((await cli('--version')).out).toMatch(/^stochax \d+\.\d+\.\d+/);
  });

  it('reports mistakes as one line with exit code 1', async () => {
    expectOneLineError(await cli('sample', 'missing.ts'), /model file not found: .*missing\.ts/);
    expectOneLineError(await cli('sample', 'empty.js'), /empty\.js exports no model: add `export const model/);
    expectOneLineError(await cli('sample', 'not-a-model.js'), /`model` must be a JointDistribution/);
    expectOneLineError(await cli('sample', 'nan.js', '--chains', '2', '--draws', '5', '--warmup', '5'), /non-finite log density or gradient at every one of \d+ starts/);
    expectOneLineError(await cli('sample', 'tiny.js', '--chians', '2'), /unknown flag --chians/);
    expectOneLineError(await cli('sample', 'tiny.js', '--chains', '2.5'), /--chains must be an integer ≥ 1; got '2\.5'/);
    expectOneLineError(await cli('sample', 'tiny.js', '--chains', 'four'), /--chains must be an integer/);
    expectOneLineError(await cli('sample', 'tiny.js', '--chains', '0'), /--chains must be an integer ≥ 1; got 0/);
    expectOneLineError(await cli('sample', 'tiny.js', '--chains'), /--chains needs a value/);
    expectOneLineError(await cli('sample', 'tiny.js', '--chains', '2', '--chain-index', '2'), /--chain-index must be in \[0, 2\)/);
    expectOneLineError(await cli('sample', 'pooled.js', '--chains', '2', '--chain-index', '1'), /--chain-index needs per-chain adaptation.*pooled/);
    expectOneLineError(await cli('sample', 'tiny.js', '--metric', 'full'), /--metric must be diagonal or dense; got 'full'/);
    expectOneLineError(await cli('sample'), /give a model file/);
    expectOneLineError(await cli('summary', 'nope.json'), /draws file not found/);
    expectOneLineError(await cli('summary', 'tiny.js'), /is not a draws\.json file/);
    expectOneLineError(await cli('frobnicate'), /unknown command 'frobnicate'/);
  });
});

describe('oneLine', () => {
  it('keeps the reason when the first line only announces it', () => {
    expect(oneLine(new Error('Transform failed with 1 error:\nmodel.ts:3:1: ERROR: Top-level await is not supported\n  at x'))).toBe('Transform failed with 1 error: model.ts:3:1: ERROR: Top-level await is not supported');
    expect(oneLine(new Error('\n  first line\nsecond'))).toBe('first line');
    expect(oneLine('plain')).toBe('plain');
  });
});
