// readNetcdf / readNetcdfGroup (cli/report/netcdf-read.ts): netCDF-3 files written by scipy and
// xarray (test/fixtures/netcdf-read/make.py, which also printed expected.json from scipy's own
// reading) read back to the same dimensions, types, values and attributes; stochax's own
// netcdfBytes output reads back to what was written; malformed files are RangeErrors that say why.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readNetcdf, readNetcdfGroup } from '../../../cli/report/netcdf-read.js';
import { netcdfBytes } from '../../../cli/report/netcdf.js';
import { inferenceDataNetcdf } from '../../../cli/report/index.js';
import { Tensor } from '../../../src/tensor/tensor.js';

const fixture = (f: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/netcdf-read/${f}`, import.meta.url)));
interface Expected { dims: [string, number][]; attrs: Record<string, string | (number | string)[]>; variables: Record<string, { dims: string[]; typecode: string; values: (number | string)[]; attrs: Record<string, string | (number | string)[]> }> }
const expected = JSON.parse(readFileSync(new URL('../../fixtures/netcdf-read/expected.json', import.meta.url), 'utf8')) as Record<string, Expected>;
/** expected.json's numbers: non-finite values and −0 as strings. */
const num = (x: number | string): number => (x === 'NaN' ? Number.NaN : x === 'Infinity' ? Infinity : x === '-Infinity' ? -Infinity : x === '-0' ? -0 : (x as number));
const TYPECODE: Record<string, string> = { b: 'int8', c: 'char', h: 'int16', i: 'int32', f: 'float32', d: 'float64' };
/** An attribute as read, in expected.json's form (text, or a list of numbers). */
const attrForm = (a: unknown): unknown => (typeof a === 'string' ? a : typeof a === 'number' ? [a] : (a as { values: number[] }).values);

describe('readNetcdf on files written by scipy and xarray', () => {
  for (const file of ['classic.nc', 'offset64.nc', 'posterior.nc']) {
    it(`${file}: dimensions, variables (type, dims, values bit for bit) and attributes`, () => {
      const ds = readNetcdf(fixture(file), file);
      const e = expected[file]!;
      expect(ds.dims).toEqual(e.dims);
      expect(Object.fromEntries(Object.entries(ds.attrs).map(([k, a]) => [k, attrForm(a)]))).toEqual(Object.fromEntries(Object.entries(e.attrs).map(([k, a]) => [k, typeof a === 'string' ? a : a.map(num)])));
      expect(ds.variables.map((v) => v.name).sort()).toEqual(Object.keys(e.variables).sort());
      for (const v of ds.variables) {
        const ev = e.variables[v.name]!;
        expect(v.dims, v.name).toEqual(ev.dims);
        expect(v.type, v.name).toBe(TYPECODE[ev.typecode]);
        const got = Array.from(v.data as ArrayLike<number>);
        expect(got.length, v.name).toBe(ev.values.length);
        got.forEach((x, i) => expect(Object.is(x, num(ev.values[i]!)), `${v.name}[${i}] = ${x}, expected ${ev.values[i]}`).toBe(true));
        expect(Object.fromEntries(Object.entries(v.attrs).map(([k, a]) => [k, attrForm(a)])), v.name).toEqual(Object.fromEntries(Object.entries(ev.attrs).map(([k, a]) => [k, typeof a === 'string' ? a : a.map(num)])));
      }
    });
  }

  it('readNetcdfGroup gives xarray\'s [chain, draw, …] group in stochax\'s [draws, chains, …] layout, bools as bool, coordinates left out', () => {
    const g = readNetcdfGroup(fixture('posterior.nc'), 'draws', 'posterior.nc');
    expect(Object.keys(g).sort()).toEqual(['flag', 'theta']);
    const theta = expected['posterior.nc']!.variables.theta!.values.map(num);   // [chain 2, draw 3, school 2]
    expect(g.theta!.shape).toEqual([3, 2, 2]);
    expect(g.theta!.dtype).toBe('float64');
    for (let d = 0; d < 3; d++) for (let c = 0; c < 2; c++) for (let s = 0; s < 2; s++) {
      expect(g.theta!.data[(d * 2 + c) * 2 + s]).toBe(theta[(c * 3 + d) * 2 + s]);
    }
    expect(g.flag!.dtype).toBe('bool');
    expect(Array.from(g.flag!.data as Uint8Array)).toEqual([1, 0, 0, 0, 1, 1]);   // [[T,F,T],[F,F,T]] by draw, then chain
  });
});

describe('readNetcdf reads back what stochax writes', () => {
  it('every type, attributes of every kind, swapped leading axes', () => {
    const bytes = netcdfBytes({
      dims: [['a', 2], ['b', 3]],
      variables: [
        { name: 'x', dims: ['a', 'b'], type: 'float64', data: [1, -0, Number.NaN, Infinity, 5e-324, -2], attrs: { units: 'kg', n: 3, w: 0.5 } },
        { name: 'y', dims: ['b'], type: 'float32', data: [0.25, -1, 3] },
        { name: 'k', dims: ['a'], type: 'int32', data: [-7, 2147483647] },
        { name: 'z', dims: ['a'], type: 'int8', data: [-1, 1], attrs: { dtype: 'bool', v: { type: 'int8', values: [1, 2] } } },
        { name: 's', dims: ['b', 'a'], type: 'float64', data: [0, 1, 2, 3, 4, 5], swapLeadingAxes: true },
      ],
      attrs: { title: 'ümlaut', big: 1e20, f: { type: 'float32', values: [0.5, 1.5] } },
    });
    const ds = readNetcdf(bytes);
    expect(ds.dims).toEqual([['a', 2], ['b', 3]]);
    expect(ds.attrs).toEqual({ title: 'ümlaut', big: 1e20, f: { type: 'float32', values: [0.5, 1.5] } });
    const v = Object.fromEntries(ds.variables.map((x) => [x.name, x]));
    expect(Array.from(v.x!.data)).toEqual([1, -0, Number.NaN, Infinity, 5e-324, -2]);
    expect(Object.is(v.x!.data[1], -0)).toBe(true);
    expect(v.x!.attrs).toEqual({ units: 'kg', n: 3, w: 0.5 });
    expect(v.y!.data).toEqual(Float32Array.of(0.25, -1, 3));
    expect(v.k!.data).toEqual(Int32Array.of(-7, 2147483647));
    expect(v.z!.data).toEqual(Int8Array.of(-1, 1));
    expect(v.z!.attrs).toEqual({ dtype: 'bool', v: { type: 'int8', values: [1, 2] } });
    // dims [b=3, a=2] with data given as [a][b] (0 1 2 | 3 4 5): the file holds it as [b][a].
    expect(Array.from(v.s!.data)).toEqual([0, 3, 1, 4, 2, 5]);
  });

  it('readNetcdfGroup inverts inferenceDataNetcdf: draws groups, the prior group\'s one chain, float32 and bool', () => {
    const mu = new Tensor(Float64Array.from({ length: 12 }, (_, i) => i * 1.5 - 3), [3, 2, 2], 'float64');
    const ok = new Tensor(Uint8Array.of(1, 0, 0, 1, 1, 1), [3, 2], 'bool');
    const prior = new Tensor(Float64Array.of(0.1, 0.2, 0.3, 0.4), [4], 'float64');
    const files = inferenceDataNetcdf({ posterior: { mu, ok }, logLikelihood: { y: mu }, prior: { mu: prior } }, { float32: ['log_likelihood'] });
    const post = readNetcdfGroup(files.posterior!, 'draws', 'posterior.nc');
    expect(post.mu!.shape).toEqual([3, 2, 2]);
    expect(Array.from(post.mu!.data as Float64Array)).toEqual(Array.from(mu.data as Float64Array));
    expect(post.ok!.dtype).toBe('bool');
    expect(Array.from(post.ok!.data as Uint8Array)).toEqual(Array.from(ok.data as Uint8Array));
    const ll = readNetcdfGroup(files.log_likelihood!, 'draws', 'log_likelihood.nc');
    expect(ll.y!.dtype).toBe('float64');
    expect(Array.from(ll.y!.data as Float64Array)).toEqual(Array.from(mu.data as Float64Array, (x) => Math.fround(x)));
    const pr = readNetcdfGroup(files.prior!, 'prior', 'prior.nc');
    expect(pr.mu!.shape).toEqual([4]);
    expect(Array.from(pr.mu!.data as Float64Array)).toEqual([0.1, 0.2, 0.3, 0.4]);
  });
});

describe('readNetcdf refuses what it cannot read, saying why', () => {
  const good = fixture('offset64.nc');
  it.each([
    ['not netCDF', new TextEncoder().encode('{"posterior": {}}'), /f\.nc.*is not a netCDF-3 file/],
    ['netCDF-4 (HDF5)', Uint8Array.of(0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a), /is netCDF-4 \(HDF5\)/],
    ['CDF-5', Uint8Array.of(0x43, 0x44, 0x46, 5, 0, 0, 0, 0), /is CDF-5/],
    ['empty', new Uint8Array(0), /is truncated/],
    ['a truncated header', good.slice(0, 60), /is truncated/],
    ['truncated data', good.slice(0, good.length - 8), /is truncated/],
    ['a record variable', fixture('record.nc'), /"r" is a record variable/],
  ])('%s', (_, bytes, pattern) => {
    expect(() => readNetcdf(bytes, 'f.nc')).toThrow(RangeError);
    expect(() => readNetcdf(bytes, 'f.nc')).toThrow(pattern);
  });

  it('a group variable without (chain, draw)', () => {
    expect(() => readNetcdfGroup(fixture('classic.nc'), 'draws', 'classic.nc')).toThrow(/classic\.nc: d.*must have the dimensions \(chain, draw, \.\.\.\)/);
  });
});
