// `stochax sample` on a model file whose data holds NaN (issue 34 item 3): the missing values are
// sampled as `y_missing`, shown in the summary and written to draws.json's posterior; the
// log-likelihood group has the observed entries only; the observed data keep their NaN (null in
// JSON). Deterministic (fixed seed); no statistical checks.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromArvizJson } from '../../cli/report/index.js';
import { runCli } from './cli-support.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const dir = join(repo, 'test', 'cli', `.tmp-missing-${process.pid}`);

const MODEL = `import { JointDistributionNamed, Normal, HalfNormal, Sample } from '../../../distributions/index.js';
export const model = new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 10 }),
  sigma: new HalfNormal({ scale: 1 }),
  y: ({ mu, sigma }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [4] }),
}, { name: 'Gaps' });
export const pins = { y: [1.2, NaN, 0.7, 2.1] };
`;

beforeAll(() => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'gaps.js'), MODEL);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stochax sample with missing values in the data', () => {
  it('samples y_missing, prints it and writes it to draws.json', async () => {
    const r = await runCli(dir, 'sample', 'gaps.js', '--chains', '2', '--draws', '100', '--warmup', '100', '--seed', '3', '--out', 'out');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^y_missing\[0\]\s+-?\d/m);
    expect(r.err).toContain('note: 1 missing value (NaN) of `y` sampled as `y_missing`');
    const json = readFileSync(join(dir, 'out', 'draws.json'), 'utf8');
    const { draws, groups } = fromArvizJson(json);
    expect(draws.y_missing!.shape).toEqual([100, 2, 1]);
    expect(Object.keys(draws).sort()).toEqual(['mu', 'sigma', 'y_missing']);
    expect(groups.logLikelihood!.y!.shape).toEqual([100, 2, 3]);          // the three observed entries
    expect(groups.posteriorPredictive!.y!.shape).toEqual([100, 2, 4]);      // every entry replicated
    expect(json).toMatch(/"y": \[1\.2, NaN, 0\.7, 2\.1\]/);           // the data as given (Python's json reads NaN)
  });
});
