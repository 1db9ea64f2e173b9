// `stochax sample --draws-format json|netcdf|auto` and `--draws-dtype` (issue 34, item 7): a
// large run writes every InferenceData group as idata/<group>.nc beside a draws.json of the
// small groups, `auto` switches above its threshold (lowered here through the environment, so no
// million-value run is needed), and nothing disappears silently: the note, draws.json's attrs
// and `stochax merge` say where the predictive groups went. The .nc files' reading by xarray and
// ArviZ is tested in test/cli/report/netcdf.test.ts.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../cli/main.js';
import { parseJson } from '../../cli/report/draws-files.js';
import { readNetcdf } from '../../cli/report/netcdf-read.js';
import { FLAGS, here } from '../fixtures/coords/make.js';

const out = mkdtempSync(join(tmpdir(), 'stochax-draws-format-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** `stochax sample` on the coords fixture's model (2 chains × 30 draws) into out/<name>, with `env`. */
async function sample(name: string, flags: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string; dir: string }> {
  let o = '', e = '';
  const code = await run(['sample', 'model.ts', ...FLAGS, '--out', join(out, name), ...flags], { stdout: (t) => { o += t; }, stderr: (t) => { e += t; }, isTTY: false, cwd: here, env });
  return { code, out: o, err: e, dir: join(out, name) };
}
const json = (dir: string) => parseJson(readFileSync(join(dir, 'draws.json'), 'utf8')) as Record<string, Record<string, unknown>>;
const PREDICTIVE = ['log_likelihood', 'posterior_predictive', 'prior_predictive'];
const ALL = ['posterior', 'sample_stats', 'log_likelihood', 'posterior_predictive', 'prior', 'prior_predictive', 'observed_data'];

/** A group's values in file order ([chain][draw][...]), flattened. */
const flat = (x: unknown): number[] => (Array.isArray(x) ? x.flatMap(flat) : [x as number]);
/** The last `n` values of a netCDF file's data as big-endian floats (the last variable is the group's data variable). */
function lastValues(file: string, n: number, bytes: 4 | 8): number[] {
  const b = readFileSync(file);
  const view = new DataView(b.buffer, b.byteOffset + b.length - n * bytes, n * bytes);
  return Array.from({ length: n }, (_, i) => (bytes === 8 ? view.getFloat64(8 * i) : view.getFloat32(4 * i)));
}

let asJson: Awaited<ReturnType<typeof sample>>;
let asNetcdf: Awaited<ReturnType<typeof sample>>;
let total = 0;
beforeAll(async () => {
  asJson = await sample('json', ['--draws-format', 'json']);
  asNetcdf = await sample('netcdf', ['--draws-format', 'netcdf']);
  const j = json(asJson.dir);
  total = ALL.reduce((s, g) => s + Object.values(j[g] ?? {}).reduce((n: number, v) => n + flat(v).length, 0), 0);
}, 60_000);

describe('draws that cannot be summarized', () => {
  it('are written all the same, the netCDF files (written in the background) with draws.json, and the error says where', async () => {
    const r = await sample('unsummarized', ['--draws-format', 'netcdf', '--var-names', 'nope']);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/sampled, but could not summarize the draws \(.*`nope`.*\); they were written to .*unsummarized/);
    expect(readdirSync(r.dir).sort()).toEqual(['draws.json', 'idata']);
    expect(readdirSync(join(r.dir, 'idata')).sort()).toEqual(ALL.map((g) => `${g}.nc`).sort());
    for (const g of ALL) expect(readFileSync(join(r.dir, 'idata', `${g}.nc`)), g).toEqual(readFileSync(join(asNetcdf.dir, 'idata', `${g}.nc`)));
    expect(readdirSync(out).filter((f) => f.startsWith('.'))).toEqual([]);   // no temporary folder left
  }, 60_000);
});

describe('--draws-format netcdf', () => {
  it('writes every group as idata/<group>.nc and a draws.json without the predictive groups, whose attrs say where they are', () => {
    expect(asNetcdf.code, asNetcdf.err).toBe(0);
    expect(readdirSync(join(asNetcdf.dir, 'idata')).sort()).toEqual(ALL.map((g) => `${g}.nc`).sort());
    const j = json(asNetcdf.dir), full = json(asJson.dir);
    for (const g of PREDICTIVE) expect(j[g], g).toBeUndefined();
    for (const g of ['posterior', 'sample_stats', 'prior', 'observed_data', 'coords', 'dims']) expect(j[g], g).toEqual(full[g]);
    expect(j.attrs!.netcdf_only_groups).toBe(PREDICTIVE.join(','));
    expect(j.attrs!.netcdf_files).toBe(ALL.map((g) => `idata/${g}.nc`).join(','));
  });

  it('the .nc files hold the same values as the json run\'s draws.json (big-endian float64, [chain, draw, …])', () => {
    const full = json(asJson.dir);
    for (const g of ['log_likelihood', 'posterior_predictive']) {
      const want = flat((full[g] as Record<string, unknown>).y);
      expect(lastValues(join(asNetcdf.dir, 'idata', `${g}.nc`), want.length, 8), g).toEqual(want);
    }
  });

  it('stochax summary reads its draws.json like a json run\'s', async () => {
    let o = '';
    const code = await run(['summary', join(asNetcdf.dir, 'draws.json')], { stdout: (t) => { o += t; }, stderr: () => {}, isTTY: false, cwd: out });
    expect(code).toBe(0);
    expect(o).toBe(asJson.out.split('\n\nwrote')[0]! + '\n');
  });

  it('says so in one line with the Python that loads every group', () => {
    const note = asNetcdf.err.split('\n').filter((l) => l.includes('netCDF'));
    expect(note).toHaveLength(1);
    expect(note[0]).toContain('log_likelihood, posterior_predictive, prior_predictive only there');
    expect(note[0]).toContain(`idata = az.InferenceData(**{p.stem: xr.open_dataset(p) for p in pathlib.Path(${JSON.stringify(join(asNetcdf.dir, 'idata'))}).glob('*.nc')})`);
    expect(asNetcdf.out).toContain(`${join(asNetcdf.dir, 'idata')}/ (posterior.nc, sample_stats.nc`);
  });
});

describe('--draws-format auto (the default)', () => {
  it('keeps one complete draws.json for a small run', async () => {
    const r = await sample('auto-small', []);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(r.dir, 'idata'))).toBe(false);
    expect(readFileSync(join(r.dir, 'draws.json'), 'utf8')).toBe(readFileSync(join(asJson.dir, 'draws.json'), 'utf8'));
    expect(r.err).not.toContain('netCDF');
  });

  it('switches to netCDF above the threshold, not at it; --draws-dtype float32 halves the predictive groups', async () => {
    const at = await sample('auto-at', [], { STOCHAX_DRAWS_NETCDF_VALUES: String(total) });
    expect(at.code, at.err).toBe(0);
    expect(existsSync(join(at.dir, 'idata'))).toBe(false);
    const above = await sample('auto-above', ['--draws-dtype', 'float32'], { STOCHAX_DRAWS_NETCDF_VALUES: String(total - 1) });
    expect(above.code, above.err).toBe(0);
    expect(above.err).toContain(`note: ${(total / 1e6).toFixed(1)} M values: every group written as netCDF`);
    const want = flat((json(asJson.dir).posterior_predictive as Record<string, unknown>).y);
    const file = join(above.dir, 'idata', 'posterior_predictive.nc');
    expect(lastValues(file, want.length, 4)).toEqual(want.map(Math.fround));
    const size = (d: string, g: string) => statSync(join(d, 'idata', `${g}.nc`)).size;
    expect(size(above.dir, 'log_likelihood')).toBeLessThan(size(asNetcdf.dir, 'log_likelihood'));
    expect(size(above.dir, 'posterior')).toBe(size(asNetcdf.dir, 'posterior'));   // only the predictive groups are narrowed
  });
});

describe('flags and folders', () => {
  it('rejects bad values in one line naming the flag', async () => {
    for (const [flags, msg] of [
      [['--draws-format', 'zarr'], /--draws-format must be json, netcdf or auto; got 'zarr'/],
      [['--draws-dtype', 'float16'], /--draws-dtype must be float64 or float32/],
      [['--draws-format', 'json', '--draws-dtype', 'float32'], /--draws-dtype float32 applies to the netCDF files/],
    ] as const) {
      const r = await sample('bad', [...flags]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(msg);
    }
    const bad = await sample('bad', [], { STOCHAX_DRAWS_NETCDF_VALUES: 'many' });
    expect(bad.err).toMatch(/STOCHAX_DRAWS_NETCDF_VALUES must be a non-negative integer/);
  });

  it('a folder holding idata/ is a run (--force needed); replacing a netCDF run by a json run removes its idata/', async () => {
    const again = await sample('netcdf', ['--draws-format', 'json']);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already holds a run/);
    const forced = await sample('netcdf', ['--draws-format', 'json', '--force']);
    expect(forced.code, forced.err).toBe(0);
    expect(existsSync(join(forced.dir, 'idata'))).toBe(false);
    const back = await sample('netcdf', ['--draws-format', 'netcdf', '--force']);
    expect(back.code, back.err).toBe(0);
    expect(readdirSync(join(back.dir, 'idata'))).toHaveLength(ALL.length);
  });

  it('documents both flags in stochax sample --help', async () => {
    let text = '';
    await run(['sample', '--help'], { stdout: (t) => { text += t; }, stderr: () => {}, isTTY: false });
    expect(text).toMatch(/--draws-format F +auto \(default\), json or netcdf/);
    expect(text).toMatch(/--draws-dtype T +float64 \(default\) or float32/);
  });
});

describe('stochax merge of netCDF runs', () => {
  let c0: Awaited<ReturnType<typeof sample>>, c1: Awaited<ReturnType<typeof sample>>;
  beforeAll(async () => {
    c0 = await sample('c0', ['--draws-format', 'netcdf', '--chain-index', '0']);
    c1 = await sample('c1', ['--draws-format', 'netcdf', '--chain-index', '1']);
  }, 60_000);
  async function merge(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
    let o = '', e = '';
    const code = await run(['merge', join(c0.dir, 'draws.json'), join(c1.dir, 'draws.json'), ...argv], { stdout: (t) => { o += t; }, stderr: (t) => { e += t; }, isTTY: false, cwd: out });
    return { code, out: o, err: e };
  }

  it('reads the groups kept only in idata/*.nc: merged as netCDF, every group equal to the two-chain run\'s', async () => {
    expect(c0.code, c0.err).toBe(0);
    expect(c1.code, c1.err).toBe(0);
    const r = await merge('--out', join(out, 'merged-nc', 'draws.json'), '--draws-format', 'netcdf');
    expect(r.code, r.err).toBe(0);
    expect(r.err).not.toMatch(/note:/);
    expect(r.out).toContain('2 chains from 2 files');
    expect(r.out).toMatch(/merged-nc\/idata\/ \(.*log_likelihood\.nc/);
    expect(readdirSync(join(out, 'merged-nc', 'idata')).sort()).toEqual(readdirSync(join(asNetcdf.dir, 'idata')).sort());
    // Equal but for attrs.warnings: merge computes them over every posterior variable, derived values too
    // (the sampler's own warnings, which sample writes, leave the derived values out).
    const noWarnings = (a: Readonly<Record<string, unknown>>) => Object.fromEntries(Object.entries(a).filter(([k]) => k !== 'warnings'));
    const m = json(join(out, 'merged-nc')), one = json(asNetcdf.dir);
    expect({ ...m, attrs: noWarnings(m.attrs!) }).toEqual({ ...one, attrs: noWarnings(one.attrs!) });
    for (const g of ALL) {
      const a = readNetcdf(readFileSync(join(out, 'merged-nc', 'idata', `${g}.nc`))), b = readNetcdf(readFileSync(join(asNetcdf.dir, 'idata', `${g}.nc`)));
      expect(a.dims, g).toEqual(b.dims);
      // Values equal; types too, but for sample_stats' integer counts, which merge reads from draws.json (no dtype there) and writes as float64.
      const strip = (vs: typeof a.variables) => vs.map((v) => ({ ...v, data: Array.from(v.data), type: g === 'sample_stats' && v.type === 'int32' ? 'float64' : v.type }));
      expect(strip(a.variables), g).toEqual(strip(b.variables));
      expect(noWarnings(a.attrs), g).toEqual(noWarnings(b.attrs));
    }
  });

  it('merged as JSON (auto, a small run), equal to the two-chain json run\'s draws.json, predictive groups included', async () => {
    const r = await merge('--out', join(out, 'merged.json'));
    expect(r.code, r.err).toBe(0);
    const m = parseJson(readFileSync(join(out, 'merged.json'), 'utf8')) as Record<string, Record<string, unknown>>, one = json(asJson.dir);
    const noWarnings = (a: Readonly<Record<string, unknown>>) => Object.fromEntries(Object.entries(a).filter(([k]) => k !== 'warnings'));
    expect({ ...m, attrs: noWarnings(m.attrs!) }).toEqual({ ...one, attrs: noWarnings(one.attrs!) });
    for (const g of PREDICTIVE) expect(m[g], g).toBeDefined();
    expect(existsSync(join(out, 'idata'))).toBe(false);
  });

  it('refuses to replace the merged netCDF files without --force', async () => {
    const r = await merge('--out', join(out, 'merged-nc', 'other.json'), '--draws-format', 'netcdf');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--out .*merged-nc\/idata\/posterior\.nc exists; pass --force/);
    expect(existsSync(join(out, 'merged-nc', 'other.json'))).toBe(false);
  });

  it('a run whose .nc file is gone: the group is left out of the merged file, with a note', async () => {
    const gone = await sample('c1-gone', ['--draws-format', 'netcdf', '--chain-index', '1']);
    rmSync(join(gone.dir, 'idata', 'log_likelihood.nc'));
    let e = '';
    const code = await run(['merge', join(c0.dir, 'draws.json'), join(gone.dir, 'draws.json'), '--out', join(out, 'merged-gone.json')], { stdout: () => {}, stderr: (t) => { e += t; }, isTTY: false, cwd: out });
    expect(code, e).toBe(0);
    expect(e).toMatch(/note: the merged file has no log_likelihood \(.*c1-gone\/idata\/log_likelihood\.nc is missing\)/);
    const m = parseJson(readFileSync(join(out, 'merged-gone.json'), 'utf8')) as Record<string, unknown>;
    expect(m.log_likelihood).toBeUndefined();
    expect(m.posterior_predictive).toBeDefined();
  }, 60_000);

  it('a damaged .nc file is an error naming it', async () => {
    const bad = await sample('c1-bad', ['--draws-format', 'netcdf', '--chain-index', '1']);
    const f = join(bad.dir, 'idata', 'posterior_predictive.nc');
    writeFileSync(f, readFileSync(f).subarray(0, 100));
    let e = '';
    const code = await run(['merge', join(c0.dir, 'draws.json'), join(bad.dir, 'draws.json'), '--out', join(out, 'merged-bad.json')], { stdout: () => {}, stderr: (t) => { e += t; }, isTTY: false, cwd: out });
    expect(code).toBe(1);
    expect(e).toMatch(/could not read .*c1-bad\/idata\/posterior_predictive\.nc: .*is truncated/);
    expect(existsSync(join(out, 'merged-bad.json'))).toBe(false);
  }, 60_000);
});

describe('writtenList', () => {
  it('names each file once, idata/ on one line, whether a file came as text, as written early, or both', async () => {
    const { writtenList } = await import('../../cli/sample.js');
    const list = writtenList('/o', ['report.html', 'idata/posterior.nc', 'draws.json', 'idata/posterior.nc', 'idata/prior.nc', 'draws.json']);
    expect(list).toBe('\nwrote /o/draws.json\n      /o/idata/ (posterior.nc, prior.nc)\n      /o/report.html\n');
  });
});
