// The netCDF-3 writer: its bytes against the format specification for a tiny file (computed by
// hand below), and the fixture's files against what xarray (scipy and netCDF4 engines) and ArviZ
// read from the same bytes (test/fixtures/netcdf/: inputs.ts, make.ts, check.py, xarray.json).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { netcdfBytes, stringVariable, type NcDataset } from '../../../cli/report/netcdf.js';
import { inferenceDataNetcdf } from '../../../cli/report/inference-data-groups.js';
import { parseJson } from '../../../cli/report/draws-files.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import { fixtureFiles } from '../../fixtures/netcdf/make.js';
import { FLOAT32, IDATA, TINY } from '../../fixtures/netcdf/inputs.js';

const hex = (s: string) => Uint8Array.from(s.replace(/\s+|\/\/[^\n]*/g, ' ').trim().split(/\s+/).map((b) => parseInt(b, 16)));

describe('netcdfBytes', () => {
  it('writes the specification\'s layout: header fields, 4-byte padding, begin offsets, big-endian data', () => {
    const expected = hex(`
      43 44 46 02              // magic 'CDF' \\x02 (64-bit offset)
      00 00 00 00              // numrecs 0
      00 00 00 0a 00 00 00 01  // NC_DIMENSION, 1 dimension
      00 00 00 01 78 00 00 00  // name "x" padded to 4
      00 00 00 03              // length 3
      00 00 00 0c 00 00 00 01  // NC_ATTRIBUTE, 1 global attribute
      00 00 00 05 74 69 74 6c 65 00 00 00   // "title"
      00 00 00 02 00 00 00 02 61 62 00 00   // NC_CHAR, 2 chars "ab", NUL padding
      00 00 00 0b 00 00 00 01  // NC_VARIABLE, 1 variable
      00 00 00 01 76 00 00 00  // "v"
      00 00 00 01 00 00 00 00  // 1 dimension: id 0
      00 00 00 0c 00 00 00 01  // its attributes: 1
      00 00 00 05 75 6e 69 74 73 00 00 00   // "units"
      00 00 00 02 00 00 00 01 6d 00 00 00   // NC_CHAR "m"
      00 00 00 01              // NC_BYTE
      00 00 00 04              // vsize: 3 bytes padded to 4
      00 00 00 00 00 00 00 84  // begin: 132, the header's length (8 bytes in CDF-2)
      01 fe 03 81              // 1, -2, 3, then NC_FILL_BYTE (-127) as padding
    `);
    expect(expected.length).toBe(136);
    expect(netcdfBytes(TINY)).toEqual(expected);
  });

  it('writes float64, float32 and int32 big-endian, each variable at its begin offset', () => {
    const bytes = netcdfBytes({
      dims: [['n', 1]],
      variables: [
        { name: 'a', dims: ['n'], type: 'float64', data: [1.5] },
        { name: 'b', dims: ['n'], type: 'float32', data: [-2] },
        { name: 'c', dims: ['n'], type: 'int32', data: [258] },
        { name: 's', dims: [], type: 'float64', data: [Number.NaN] },
      ],
    });
    const view = new DataView(bytes.buffer);
    const end = bytes.length;
    // Data are the last 8 + 4 + 4 + 8 bytes, in variable order.
    expect([...bytes.subarray(end - 24, end - 16)]).toEqual([0x3f, 0xf8, 0, 0, 0, 0, 0, 0]);
    expect([...bytes.subarray(end - 16, end - 12)]).toEqual([0xc0, 0, 0, 0]);
    expect([...bytes.subarray(end - 12, end - 8)]).toEqual([0, 0, 1, 2]);
    expect(view.getFloat64(end - 8)).toBeNaN();
    // The last variable's begin (the 8 bytes before its nc_type … in the header) points at its data.
    expect(Number(view.getBigUint64(end - 24 - 8))).toBe(end - 8);
  });

  it('transposes the leading axes when the data are [draws, chains, …]', () => {
    const data = [0, 1, 2, 3, 4, 5];   // [draws 3][chains 2]: value = 2·draw + chain
    const bytes = netcdfBytes({ dims: [['chain', 2], ['draw', 3]], variables: [{ name: 'x', dims: ['chain', 'draw'], type: 'int32', data, swapLeadingAxes: true }] });
    const view = new DataView(bytes.buffer, bytes.length - 24);
    expect(Array.from({ length: 6 }, (_, i) => view.getInt32(4 * i))).toEqual([0, 2, 4, 1, 3, 5]);
  });

  it('writes every type\'s values as a DataView setter does (typed or plain sources, swapped axes, NaN payloads, −0, subnormals, rounding)', () => {
    // The writer byte-swaps 32-bit words; a DataView per value (big-endian) is the reference it must equal.
    const [d0, d1, inner] = [3, 5, 7];   // file [chain 3, draw 5, k 7] from data [draw 5, chain 3, k 7]
    const n = d0 * d1 * inner;
    const f64 = new Float64Array(n).map((_, i) => (i * 0.7318 - 40) ** 3 / 7);
    const words = new Uint32Array(f64.buffer);
    words[1] = 0xfff80000; words[0] = 0;          // the negative quiet NaN x86 arithmetic makes
    words[3] = 0x7ff00000; words[2] = 1;          // a signalling NaN with a payload
    f64[2] = -0; f64[3] = 5e-324; f64[4] = -Infinity; f64[5] = 1 + 2 ** -30; f64[6] = 3.4e39;   // float32: rounds, overflows
    const ints = Int32Array.from({ length: n }, (_, i) => (i * 2654435761) | 0);
    const int8 = Int8Array.from({ length: n }, (_, i) => ((i * 37) % 256) - 128);
    const cases: [NcDataset['variables'][number]['type'], ArrayLike<number>][] = [
      ['float64', f64], ['float64', Array.from(f64)], ['float32', f64], ['float32', Float32Array.from(f64)],
      ['int32', ints], ['int32', Array.from(ints)], ['int8', int8], ['int8', Array.from(int8)], ['int8', Uint8Array.from({ length: n }, (_, i) => i % 128)],
    ];
    for (const [type, data] of cases) {
      for (const swap of [false, true]) {
        const bytes = netcdfBytes({ dims: [['c', d0], ['d', d1], ['k', inner]], variables: [{ name: 'v', dims: ['c', 'd', 'k'], type, data, swapLeadingAxes: swap }] });
        const size = { float64: 8, float32: 4, int32: 4, int8: 1, char: 1 }[type];
        const expected = new DataView(new ArrayBuffer(n * size));
        for (let a = 0, o = 0; a < d0; a++) {
          for (let b = 0; b < d1; b++) {
            for (let k = 0; k < inner; k++, o += size) {
              const x = data[swap ? (b * d0 + a) * inner + k : (a * d1 + b) * inner + k]!;
              if (type === 'float64') expected.setFloat64(o, x);
              else if (type === 'float32') expected.setFloat32(o, x);
              else if (type === 'int32') expected.setInt32(o, x);
              else expected.setInt8(o, x);
            }
          }
        }
        const start = bytes.length - ((n * size + 3) & ~3);
        expect(bytes.subarray(start, start + n * size), `${type} ${data.constructor.name} swap ${swap}`).toEqual(new Uint8Array(expected.buffer));
      }
    }
  });

  it('stores strings as xarray does: NUL-padded UTF-8 over a string<N> dimension', () => {
    const { variable, charDim } = stringVariable('s', 's', ['ab', 'ü']);
    expect(charDim).toEqual(['string2', 2]);
    expect([...(variable.data as Uint8Array)]).toEqual([0x61, 0x62, 0xc3, 0xbc]);
    expect(variable.attrs).toEqual({ _Encoding: 'utf-8' });
  });

  it('throws RangeError naming the argument for what netCDF-3 cannot hold', () => {
    const ok: NcDataset = { dims: [['x', 2]], variables: [{ name: 'v', dims: ['x'], type: 'float64', data: [1, 2] }] };
    // Length 0 is the record dimension's mark in the format, so a fixed dimension of length 0 is not legal.
    expect(() => netcdfBytes({ ...ok, dims: [['x', 0]] })).toThrow(/netcdfBytes: `dims\[0\]`.*length ≥ 1.*unlimited/);
    expect(() => netcdfBytes({ ...ok, dims: [['x', 2], ['x', 2]] })).toThrow(RangeError);
    expect(() => netcdfBytes({ ...ok, variables: [{ ...ok.variables[0]!, dims: ['y'] }] })).toThrow(/`variables\[0\]\.dims`.*"y"/);
    expect(() => netcdfBytes({ ...ok, variables: [{ ...ok.variables[0]!, data: [1] }] })).toThrow(/must hold 2 values/);
    expect(() => netcdfBytes({ ...ok, variables: [{ ...ok.variables[0]!, type: 'int8', data: [1, 200] }] })).toThrow(/`variables\[0\]\.data\[1\]`.*int8/);
    expect(() => netcdfBytes({ ...ok, variables: [{ ...ok.variables[0]!, name: 'a/b' }] })).toThrow(/`variables\[0\]\.name`/);
    expect(() => netcdfBytes({ ...ok, attrs: { bad: [1] as never } })).toThrow(TypeError);
    expect(() => netcdfBytes(null as never)).toThrow(TypeError);
  });
});

interface Read { dims: Record<string, number>; coords: Record<string, { dtype: string; values: unknown[] }>; vars: Record<string, { dtype: string; dims: string[]; values: unknown[] }>; attrs: Record<string, unknown> }
const fixture = parseJson(readFileSync(new URL('../../fixtures/netcdf/xarray.json', import.meta.url), 'utf8')) as {
  files: Record<string, { sha256: string; scipy: Read; netcdf4: Read }>;
  arviz: { groups: string[]; summary_index: string[] };
};

/** A stochax tensor's values in ArviZ's file order ([chain, draw, ...] for draws groups). */
function fileOrder(t: Tensor, kind: 'draws' | 'other'): number[] {
  const v = Array.from(t.data as ArrayLike<number>, Number);
  if (kind === 'other') return v;
  const [draws, chains] = t.shape as [number, number];
  const inner = t.size / (draws * chains);
  const out: number[] = [];
  for (let c = 0; c < chains; c++) for (let d = 0; d < draws; d++) out.push(...v.slice((d * chains + c) * inner, (d * chains + c + 1) * inner));
  return out;
}

describe('inferenceDataNetcdf against xarray and ArviZ (fixture)', () => {
  const files = fixtureFiles();

  it('writes the bytes Python read (same sha256 for every file)', () => {
    expect(Object.keys(files).sort()).toEqual(Object.keys(fixture.files).sort());
    for (const [name, bytes] of Object.entries(files)) {
      expect(createHash('sha256').update(bytes).digest('hex'), name).toBe(fixture.files[name]!.sha256);
    }
  });

  it('xarray reads back the inputs exactly with both engines: values, dtypes, dims, coords, attributes', () => {
    const groups: [string, Record<string, Tensor>, 'draws' | 'other'][] = [
      ['posterior', IDATA.posterior as Record<string, Tensor>, 'draws'],
      ['posterior_predictive', IDATA.posteriorPredictive as Record<string, Tensor>, 'draws'],
      ['log_likelihood', IDATA.logLikelihood as Record<string, Tensor>, 'draws'],
      ['prior', IDATA.prior as Record<string, Tensor>, 'other'],
      ['observed_data', IDATA.observedData as Record<string, Tensor>, 'other'],
    ];
    for (const engine of ['scipy', 'netcdf4'] as const) {
      for (const [group, vars, kind] of groups) {
        const read = fixture.files[`${group}.nc`]![engine];
        for (const [k, t] of Object.entries(vars)) {
          const f32 = FLOAT32.includes(group);
          const expected = fileOrder(t, kind).map((x) => (f32 ? Math.fround(x) : x));
          const got = read.vars[k]!;
          expect(got.dtype, `${engine} ${group}.${k}`).toBe(f32 ? 'float32' : 'float64');
          expect(got.values.length).toBe(expected.length);
          got.values.forEach((x, i) => expect(Object.is(x, expected[i]), `${engine} ${group}.${k}[${i}]: ${String(x)} vs ${expected[i]}`).toBe(true));
        }
      }
      const post = fixture.files['posterior.nc']![engine];
      expect(post.dims).toEqual({ chain: 2, draw: 3, school: 3, row: 2, col: 2 });
      expect(post.vars.theta!.dims).toEqual(['chain', 'draw', 'school']);
      expect(post.vars.L!.dims).toEqual(['chain', 'draw', 'row', 'col']);
      expect(post.coords.school).toEqual({ dtype: 'object', values: ['Choate', 'Zürich', 'D'] });
      expect(post.coords.row).toEqual({ dtype: 'float64', values: [0.5, 1.5] });
      expect(post.coords.col!.values).toEqual([0, 1]);
      expect(post.coords.chain!.values).toEqual([0, 1]);
      expect(post.attrs.inference_library).toBe('stochax');
      expect(post.attrs.seed).toEqual({ dtype: 'int32', values: [7] });
      expect(post.attrs.target_accept).toEqual({ dtype: 'float64', values: [0.85] });
      expect(post.attrs.warning_kinds).toBe('rhat');
      expect(post.attrs.note).toBe('');   // an empty text attribute (0 chars) is legal and read back
      expect(post.attrs.dense).toEqual({ dtype: 'int8', values: [1] });   // netCDF-3 has no boolean attribute
      const stats = fixture.files['sample_stats.nc']![engine].vars;
      expect(stats.diverging).toEqual({ dtype: 'bool', dims: ['chain', 'draw'], values: [false, false, true, true, false, true] });
      expect(stats.tree_depth!.dtype).toBe('int32');
      expect(stats.tree_depth!.values).toEqual(fileOrder((IDATA.sampleStats as Record<string, Tensor>).treeDepth!, 'draws'));
      const prior = fixture.files['prior.nc']![engine];
      expect(prior.dims).toEqual({ chain: 1, draw: 4 });
      expect(fixture.files['observed_data.nc']![engine].vars.y!.dims).toEqual(['school']);
    }
    expect(fixture.files['tiny.nc']!.scipy.vars.v).toEqual({ dtype: 'int8', dims: ['x'], values: [1, -2, 3] });
    expect(fixture.files['tiny.nc']!.netcdf4.attrs.title).toBe('ab');
  });

  it('ArviZ builds the InferenceData from the group files and labels az.summary by the coords', () => {
    expect(fixture.arviz.groups.sort()).toEqual(['log_likelihood', 'observed_data', 'posterior', 'posterior_predictive', 'prior', 'sample_stats']);
    expect(fixture.arviz.summary_index).toEqual(['theta[Choate]', 'theta[Zürich]', 'theta[D]']);
  });

  it('checks its options and groups', () => {
    expect(() => inferenceDataNetcdf(IDATA, { float32: ['posterior_predictve'] })).toThrow(/inferenceDataNetcdf: `options\.float32\[0\]`/);
    expect(() => inferenceDataNetcdf(IDATA, { dtype: 'float32' } as never)).toThrow(/dtype/);
    expect(() => inferenceDataNetcdf({ ...IDATA, logLikelihood: { y: new Tensor(new Float64Array(2), [1, 2], 'float64') } })).toThrow(RangeError);
  });
});
