// `stochax sample` on models with discrete latent nodes summed out by enumeration (issue 35
// item 2): the discrete draws come back (inferDiscrete) into the summary and draws.json's
// posterior; a mixture's log_likelihood is each observation's marginal (marginalLogLikelihood);
// a change-point's observations share the discrete node, so it has no log_likelihood group and
// the CLI says why; a --chain-index run's discrete draws equal that chain's in the all-chains
// run. Deterministic (fixed seeds); no statistical checks. ~15 s.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromArvizJson } from '../../cli/report/index.js';
import { runCli } from './cli-support.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const dir = join(repo, 'test', 'cli', `.tmp-discrete-${process.pid}`);

const MIXTURE = `import { Categorical, Dirichlet, Independent, JointDistributionNamed, Normal, Sample } from '../../../distributions/index.js';
import { gather } from '../../../src/index.js';
export const model = new JointDistributionNamed({
  w: new Dirichlet({ concentration: [2, 2] }),
  mu: new Independent({ distribution: new Normal({ loc: [-2, 2], scale: 1 }), reinterpretedBatchNdims: 1 }),
  z: ({ w }) => new Sample({ distribution: new Categorical({ probs: w }), sampleShape: 5 }),
  y: ({ mu, z }) => new Independent({ distribution: new Normal({ loc: gather(mu, z), scale: 1 }), reinterpretedBatchNdims: 1 }),
}, { name: 'Mix' });
export const pins = { y: [-2.1, -1.7, 2.2, 1.9, 2.4] };
`;
const SWITCH = `import { Categorical, JointDistributionNamed, Normal, Sample } from '../../../distributions/index.js';
import { gather, tensor } from '../../../src/index.js';
export const model = new JointDistributionNamed({
  m: new Normal({ loc: 0, scale: 3 }),
  s: new Categorical({ probs: [0.5, 0.5] }),
  d: ({ s }) => new Sample({ distribution: new Normal({ loc: gather(tensor([-1, 1]), s), scale: 1 }), sampleShape: 3 }),
  x: ({ m }) => new Normal({ loc: m, scale: 1 }),
}, { name: 'Switch' });
export const pins = { d: [0.4, 0.1, -0.3], x: 0.3 };
`;

beforeAll(() => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'mix.js'), MIXTURE);
  writeFileSync(join(dir, 'switch.js'), SWITCH);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stochax sample with enumerated discrete nodes', () => {
  it('writes the recovered discrete draws and each observation\'s marginal log-likelihood', async () => {
    const r = await runCli(dir, 'sample', 'mix.js', '--chains', '2', '--draws', '60', '--warmup', '100', '--seed', '3', '--out', 'out', '--prior', '10');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^z\[4\]\s+\d/m);
    const { draws, groups } = fromArvizJson(readFileSync(join(dir, 'out', 'draws.json'), 'utf8'));
    expect(Object.keys(draws).sort()).toEqual(['mu', 'w', 'z']);
    expect(draws.z!.shape).toEqual([60, 2, 5]);
    expect(new Set(Array.from(draws.z!.data as ArrayLike<number>))).toEqual(new Set([0, 1]));
    expect(groups.logLikelihood!.y!.shape).toEqual([60, 2, 5]);
    expect(Object.keys(groups.posteriorPredictive!)).toEqual(['y']);   // z is replicated on the way, not kept
    // One chain alone (--chain-index 1) gives chain 1's discrete draws.
    const one = await runCli(dir, 'sample', 'mix.js', '--chains', '2', '--draws', '60', '--warmup', '100', '--seed', '3', '--out', 'c1', '--prior', '10', '--chain-index', '1');
    expect(one.code, one.err).toBe(0);
    const z1 = fromArvizJson(readFileSync(join(dir, 'c1', 'draws.json'), 'utf8')).draws.z!;
    const all = draws.z!.data as ArrayLike<number>, mine = z1.data as ArrayLike<number>;
    for (let t = 0; t < 60; t++) for (let i = 0; i < 5; i++) expect(mine[t * 5 + i]).toBe(all[(t * 2 + 1) * 5 + i]);
  });

  it('leaves out log_likelihood, with a note, when observations share a discrete node', async () => {
    const r = await runCli(dir, 'sample', 'switch.js', '--chains', '2', '--draws', '50', '--warmup', '100', '--seed', '1', '--out', 'sw', '--prior', '10');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/note: draws.json has no log_likelihood group: .*the observed node `d`.*no pointwise log-likelihood/);
    const { draws, groups } = fromArvizJson(readFileSync(join(dir, 'sw', 'draws.json'), 'utf8'));
    expect(draws.s!.shape).toEqual([50, 2]);
    expect(groups.logLikelihood).toBeUndefined();
    expect(Object.keys(groups.posteriorPredictive!).sort()).toEqual(['d', 'x']);
  });
});
