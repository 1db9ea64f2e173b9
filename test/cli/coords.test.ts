// Coordinates and dims from a CLI model file (issue 34, items 1 and 9): `stochax sample` on
// test/fixtures/coords/model.ts writes the checked-in draws.json (make.ts), ArviZ's reading of
// that file (load-arviz.py → arviz.json, from ArviZ, not from stochax) shows every variable's
// dims and coordinates, and az.summary's row labels are exactly the labels of the CLI's table,
// of `stochax summary`, of draws.csv and of report.html (its table and plot titles). Bad coords or
// dims in a model file are one-line errors before sampling.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromArvizJson } from '../../cli/report/index.js';
import { runCli } from './cli-support.js';
import { here, sampleModel } from '../fixtures/coords/make.js';
import arviz from '../fixtures/coords/arviz.json' with { type: 'json' };

const fixture = (f: string) => readFileSync(join(here, f), 'utf8');
type Var = { dims: string[]; coords: Record<string, (string | number)[]> };
const groups = arviz.groups as unknown as Record<string, Record<string, Var>>;

/** The labels of a printed summary table (its first column, without the header and divergence line). */
const rowLabels = (table: string): string[] => table.split('\n').slice(1).filter((l) => l !== '' && !l.startsWith('divergences')).map((l) => l.split(/ {2,}/)[0]!.trim());

describe('stochax sample with coords and dims in the model file', () => {
  let run: Awaited<ReturnType<typeof sampleModel>>;
  beforeAll(async () => { run = await sampleModel(); }, 60_000);

  it('writes the draws.json ArviZ was given (test/fixtures/coords), and prints the same table', () => {
    expect(run.code, run.err).toBe(0);
    expect(run.json).toBe(fixture('draws.json'));
    expect(`${run.table}\n`).toBe(fixture('summary.txt'));
  });

  it('ArviZ (az.from_json) sees each variable\'s dims and coordinates, defaults where none are given', () => {
    const group = ['north', 'south', 'east'];
    expect(groups.posterior!.alpha).toEqual({ dims: ['chain', 'draw', 'group'], coords: { group } });
    expect(groups.posterior!.beta).toEqual({ dims: ['chain', 'draw', 'side', 'group'], coords: { side: [1, 2], group } });
    expect(groups.posterior!.delta).toEqual({ dims: ['chain', 'draw', 'group'], coords: { group } });   // a derived value
    expect(groups.posterior!.gamma).toEqual({ dims: ['chain', 'draw', 'gamma_dim_0'], coords: { gamma_dim_0: [0, 1] } });   // no dims: ArviZ's names
    expect(groups.posterior!.mu).toEqual({ dims: ['chain', 'draw'], coords: {} });
    for (const g of ['observed_data', 'log_likelihood', 'posterior_predictive', 'prior_predictive']) expect(groups[g]!.y!.coords, g).toEqual({ group });
    expect(groups.observed_data!.y!.dims).toEqual(['group']);
    expect(groups.prior!.beta).toEqual(groups.posterior!.beta);
  });

  it('the CLI table, `stochax summary`, draws.csv and report.html label rows exactly as az.summary does', async () => {
    const want = arviz.summary_index;
    expect(want).toContain('beta[1, north]');
    expect(rowLabels(run.table)).toEqual(want);
    mkdirSync(join(here, '.tmp-coords'), { recursive: true });
    try {
      writeFileSync(join(here, '.tmp-coords', 'draws.json'), run.json);
      const s = await runCli(join(here, '.tmp-coords'), 'summary', 'draws.json');
      expect(s.code, s.err).toBe(0);
      expect(rowLabels(s.out)).toEqual(want);
    } finally {
      rmSync(join(here, '.tmp-coords'), { recursive: true, force: true });
    }
    const header = run.csv.split('\n')[0]!.match(/"[^"]*"|[^,]+/g)!.map((c) => c.replace(/^"|"$/g, ''));
    expect(header.slice(2, 2 + want.length)).toEqual(want);
    for (const label of want) {
      expect(run.html).toContain(`<td class="name">${label}</td>`);
      expect(run.html).toContain(`<title>Trace plot of ${label}</title>`);
    }
    expect(run.html).toContain('<h3>Dimensions and coordinates</h3>');
    expect(run.html).toContain('<tr><th class="name">beta</th><td class="name">side, group</td></tr>');
    expect(run.html).toContain('<tr><th class="name">group</th><td class="name">north, south, east</td></tr>');
  });

  it('the warnings name parameters as the table does: on stderr, in draws.json and report.html, and from `stochax summary` and `stochax merge`', async () => {
    const want = arviz.summary_index;
    /** The parameter labels a text's warnings name (`alpha[south]`, `beta[1, north]`). */
    const named = (text: string): string[] => [...text.matchAll(/\b\w+\[[^\]]+\]/g)].map((m) => m[0]);
    const messages = String(fromArvizJson(run.json).attrs.warnings);
    expect(named(messages).length).toBeGreaterThan(3);
    expect(named(messages).filter((l) => !want.includes(l))).toEqual([]);
    const stderrWarnings = run.err.split('\n').filter((l) => l.startsWith('warning')).join('\n');
    expect(named(stderrWarnings)).toEqual(named(messages));
    expect(named(run.html.split('<li class="warn">').slice(1).join(''))).toEqual(expect.arrayContaining(named(messages)));
    const dir = join(here, `.tmp-warn-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(join(dir, 'draws.json'), run.json);
      for (const args of [['summary', 'draws.json'], ['merge', 'draws.json', '--out', 'merged.json']]) {
        const r = await runCli(dir, ...args);
        expect(r.code, r.err).toBe(0);
        const printed = `${r.out}\n${r.err}`.split('\n').filter((l) => l.startsWith('warning')).join('\n');
        // (over every posterior variable, the derived `delta` too: the names differ from the sampler's, the labels do not)
        expect(named(printed).length, args[0]).toBeGreaterThan(3);
        expect(named(printed).filter((l) => !want.includes(l)), args[0]).toEqual([]);
        expect(rowLabels(r.out.split('\n\nwrote')[0]!), args[0]).toEqual(want);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the report draws the model graph: plates labelled by the dims, the observed y grey, the derived delta a box', () => {
    const graph = run.html.split('<section id="model">')[1]!.split('</section>')[0]!;
    expect(graph).toContain('<title>Model graph of Groups</title>');
    for (const label of ['mu ~ Normal', 'alpha ~ Normal', 'beta ~ Normal', 'gamma ~ Normal', 'sigma ~ HalfNormal', 'delta ~ Deterministic', 'y ~ Normal']) expect(graph).toContain(`>${label}<`);
    expect(graph).toContain('>group (3)<');
    expect(graph).toContain('>side (2) x group (3)<');
    expect(graph).toContain('>2<');   // gamma: no dims, its size
    expect(graph.match(/<ellipse [^>]*fill="#d9d9d9"/g)).toHaveLength(1);
    expect(graph.match(/<rect [^>]*fill="#fff"/g)).toHaveLength(1);
    expect(run.err).not.toContain('no model graph');
  });

  it('the report shows the CLI table\'s interval columns (94% HDI) with its numbers, and the run\'s warnings', () => {
    const [head, mu] = run.table.split('\n');
    const titles = head!.trim().split(/\s+/);
    expect(titles).toEqual(['mean', 'mcse', 'sd', 'hdi_3%', 'hdi_97%', 'ess_bulk', 'ess_tail', 'r_hat']);
    const cells = mu!.trim().split(/\s+/);
    expect(run.html).toContain(`<tr><th class="name"></th>${titles.map((t) => `<th>${t}</th>`).join('')}</tr>`);
    expect(run.html).toMatch(new RegExp(`<td class="name">mu</td>${cells.slice(1).map((c) => `<td(?: class="warn")?>${c.replace('.', '\\.')}</td>`).join('')}`));
    // The run's warnings (this short run has some): the same kinds on stderr, in draws.json and in the report.
    const kinds = String(fromArvizJson(run.json).attrs.warning_kinds).split(',');
    expect(kinds.length).toBeGreaterThan(0);
    for (const k of kinds) expect(run.html).toContain(`<li class="warn"><b>${k}</b>`);
    expect(run.err).toMatch(/warning/i);
  });
});

describe('coords and dims in a model file: checked before sampling', () => {
  const dir = join(here, `.tmp-bad-${process.pid}`);
  const model = (extra: string) => `import { JointDistributionNamed, Normal, Sample } from '../../../../distributions/index.js';
export const model = new JointDistributionNamed({ a: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 3 }) });
${extra}
`;
  const files: Record<string, string> = {
    'size.js': model("export const coords = { g: ['x', 'y'] };\nexport const dims = { a: ['g'] };"),
    'unknown.js': model("export const dims = { b: ['g'] };"),
    'repeated.js': model("export const coords = { g: ['x', 'y', 'x'] };"),
    'twice.js': model("export const coords = { g: ['x', 'y', 'z'] };\nexport const options = { coords: { g: ['x', 'y', 'z'] } };"),
    'in-options.js': model("export const options = { coords: { g: ['x', 'y', 'z'] }, dims: { a: ['g'] } };"),
  };
  beforeAll(() => {
    mkdirSync(dir, { recursive: true });
    for (const [f, t] of Object.entries(files)) writeFileSync(join(dir, f), t);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const sample = (f: string) => runCli(dir, 'sample', f, '--chains', '1', '--draws', '20', '--warmup', '20', '--out', `out-${f}`);

  it('a dimension that does not fit names the variable, the dimension and both sizes; unknown variables and repeated labels are errors', async () => {
    const bad = async (f: string, pattern: RegExp) => {
      const r = await sample(f);
      expect(r.code, f).toBe(1);
      expect(r.err.trimEnd().split('\n').at(-1), f).toMatch(pattern);
      expect(r.err, f).not.toMatch(/sampled in|chain 0: done/);   // nothing was sampled
    };
    await bad('size.js', /`dims\.a` gives axis 0 of `a` \(size 3\) dimension "g", which has 2 coordinates/);
    await bad('unknown.js', /`dims\.b` names `b`, which is not a variable \(a\)/);
    await bad('repeated.js', /repeated\.js: `coords\.g` must hold unique labels; "x" appears twice/);
    await bad('twice.js', /twice\.js gives `coords` twice \(exported and in `options`\)/);
  });

  it('options.coords and options.dims work like the exports', async () => {
    const r = await sample('in-options.js');
    expect(r.code, r.err).toBe(0);
    expect(rowLabels(r.out.split('\n\nwrote')[0]!)).toEqual(['a[x]', 'a[y]', 'a[z]']);
  });
});
