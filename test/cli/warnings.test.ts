// The CLI's warnings (issue 30, item 3): `stochax sample` prints the run's warnings to stderr after
// the summary table, writes them to draws.json's attrs (`warnings`, `warning_kinds`) and
// report.html, and exits 2 under --strict when there are any; a healthy run prints none and exits
// 0 under --strict. `stochax merge` recomputes them for the merged chains (one chain alone cannot
// disagree; merged, they do). Runs are in process, small and seeded (deterministic).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-support.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const dir = join(repo, 'test', 'cli', `.tmp-warnings-${process.pid}`);

// x ~ N(5, 5), y ~ N(x², 1), y = 100: modes at x ≈ ±10 (the one at −10 with ~e⁻⁴ of the mass) behind a
// barrier of ~5000 nats; the last chain starts in the minor mode and stays there.
const BIMODAL = `import { JointDistributionNamed, Normal } from '../../../distributions/index.js';
import { mul, tensor } from '../../../src/index.js';
export const model = new JointDistributionNamed({ x: new Normal({ loc: 5, scale: 5 }), y: (x) => new Normal({ loc: mul(x, x), scale: 1 }) });
export const pins = { y: tensor(100) };
export const options = { currentState: { x: tensor([10, 10, 10, -10]) }, warn: true };
`;
const TWO = BIMODAL.replace('tensor([10, 10, 10, -10])', 'tensor([10, -10])');
const HEALTHY = `import { JointDistributionNamed, Normal } from '../../../distributions/index.js';
export const model = new JointDistributionNamed({ x: new Normal({ loc: 0, scale: 1 }) });
`;

const cli = (...argv: string[]) => runCli(dir, ...argv);

const attrs = (file: string) => (JSON.parse(readFileSync(join(dir, file), 'utf8').replace(/\bNaN\b|-?Infinity\b/g, '0')) as { attrs: Record<string, unknown> }).attrs;

beforeAll(() => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'bimodal.js'), BIMODAL);
  writeFileSync(join(dir, 'two.js'), TWO);
  writeFileSync(join(dir, 'healthy.js'), HEALTHY);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stochax sample: warnings', () => {
  it('a chain in a minor mode: warnings on stderr after the table, in draws.json attrs and report.html; --strict exits 2', async () => {
    const r = await cli('sample', 'bimodal.js', '--chains', '4', '--draws', '300', '--warmup', '200', '--out', 'bi', '--no-predictive', '--strict');
    expect(r.code, r.err).toBe(2);
    expect(r.out).toMatch(/r_hat/);
    const lines = r.err.split('\n').filter((l) => l.startsWith('warning ['));
    expect(lines.some((l) => /^warning \[rhat\]: R-hat is above 1\.01/.test(l))).toBe(true);
    expect(lines.some((l) => /^warning \[chains-disagree\]: 1 chain of 4 disagrees .*chain 3's mean/.test(l))).toBe(true);
    expect(r.err).not.toMatch(/windowedAdaptiveNuts: R-hat/);   // the module's warn: true does not print them twice
    const a = attrs('bi/draws.json');
    // Flat strings, like every attribute: the kinds comma-separated, the messages one per line.
    expect((a.warning_kinds as string).split(',')).toEqual(expect.arrayContaining(['rhat', 'chains-disagree']));
    expect((a.warnings as string).split('\n').length).toBe((a.warning_kinds as string).split(',').length);
    expect(lines.map((l) => l.replace(/^warning \[[a-z-]+\]: /, ''))).toEqual((a.warnings as string).split('\n'));
    const html = readFileSync(join(dir, 'bi', 'report.html'), 'utf8');
    expect(html).toContain('<section id="warnings">');
    expect(html).toMatch(/<li class="warn"><b>chains-disagree<\/b>: 1 chain of 4 disagrees/);
    // stochax summary prints the same warnings, computed from the file.
    const sum = await cli('summary', 'bi/draws.json');
    expect(sum.code, sum.err).toBe(0);
    expect(sum.err.split('\n').filter((l) => l.startsWith('warning ['))).toEqual(lines);
    // Without --strict the same run exits 0.
    const loose = await cli('sample', 'bimodal.js', '--chains', '4', '--draws', '300', '--warmup', '200', '--out', 'bi', '--no-predictive', '--force');
    expect(loose.code, loose.err).toBe(0);
    expect(loose.err).toMatch(/warning \[chains-disagree\]/);
  }, 60_000);

  it('a healthy run: no warnings printed, an empty list in draws.json, --strict exits 0', async () => {
    const r = await cli('sample', 'healthy.js', '--out', 'ok', '--no-predictive', '--strict');
    expect(r.code, r.err).toBe(0);
    expect(r.err).not.toMatch(/warning/);
    const a = attrs('ok/draws.json');
    expect(a.warnings).toBe('');
    expect(a.warning_kinds).toBe('');
    expect(readFileSync(join(dir, 'ok', 'report.html'), 'utf8')).toMatch(/<section id="warnings"><h2>Warnings<\/h2><p class="note">None:/);
  }, 60_000);

  it('merge: one chain per file cannot disagree; the merged chains do, and the merged file says so', async () => {
    for (const i of ['0', '1']) {
      const r = await cli('sample', 'two.js', '--chains', '2', '--chain-index', i, '--draws', '300', '--warmup', '200', '--out', `c${i}`, '--no-predictive');
      expect(r.code, r.err).toBe(0);
      expect(r.err).not.toMatch(/chains-disagree/);
    }
    const m = await cli('merge', 'c0/draws.json', 'c1/draws.json', '--out', 'merged.json');
    expect(m.code, m.err).toBe(0);
    expect(m.err).toMatch(/warning \[chains-disagree\]: 2 chains of 2 disagree/);
    expect((attrs('merged.json').warning_kinds as string).split(',')).toEqual(expect.arrayContaining(['rhat', 'chains-disagree']));
  }, 60_000);

  it('the help documents --strict', async () => {
    const r = await cli('sample', '--help');
    expect(r.out).toMatch(/--strict +exit with code 2/);
    expect(r.out).toMatch(/warning_kinds/);
  });
});
