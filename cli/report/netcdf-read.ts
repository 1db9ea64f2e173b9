/**
 * A netCDF-3 reader (classic CDF-1 and 64-bit-offset CDF-2, Unidata's "NetCDF Classic Format
 * Specification"): the inverse of `netcdfBytes`, so `stochax merge` can read back the groups a
 * run wrote only as `idata/<group>.nc`. Fixed-size variables of every classic type; record
 * variables (an unlimited dimension), which stochax never writes, are an error that says so.
 */
import { fail } from '../../src/checks.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { transpose } from '../../src/tensor/ops/shape.js';
import { CODE, NC_ATTRIBUTE, NC_DIMENSION, NC_VARIABLE, SIZE, type NcAttribute, type NcType } from './netcdf.js';

const FN = 'readNetcdf';
/** External type code → [name, bytes per value]: the writer's types, and NC_SHORT (3), which it never writes. */
const TYPES: Readonly<Record<number, readonly [string, number]>> = {
  3: ['int16', 2],
  ...Object.fromEntries((Object.keys(CODE) as NcType[]).map((t) => [CODE[t], [t, SIZE[t]] as const])),
};

/** One variable as read: its dimensions' names, type, values (row-major over `dims`; chars as their bytes) and attributes. */
export interface NcReadVariable {
  readonly name: string;
  readonly dims: readonly string[];
  readonly type: string;
  readonly data: Float64Array | Float32Array | Int32Array | Int16Array | Int8Array | Uint8Array;
  readonly attrs: Readonly<Record<string, NcAttribute>>;
}

/** A dataset as read: dimensions in file order, variables in file order, global attributes. */
export interface NcReadDataset {
  readonly dims: readonly (readonly [string, number])[];
  readonly variables: readonly NcReadVariable[];
  readonly attrs: Readonly<Record<string, NcAttribute>>;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const pad4 = (n: number): number => (n + 3) & ~3;

/**
 * Reads the bytes of a netCDF-3 file (CDF-1 or CDF-2).
 *
 * @param bytes - the whole file.
 * @param where - the file's name, for errors.
 * @returns Its dimensions, variables (values copied out of `bytes`, host byte order) and global attributes.
 * @throws {RangeError} naming `where` for a file that is not netCDF-3, is truncated, or has record variables.
 * @example
 * const ds = readNetcdf(netcdfBytes({ dims: [['x', 2]], variables: [{ name: 'y', dims: ['x'], type: 'float64', data: [1, 2] }] }));
 * ds.variables[0].data;   // Float64Array [1, 2]
 */
export function readNetcdf(bytes: Uint8Array, where = 'bytes'): NcReadDataset {
  const bad = (why: string): never => fail('range', FN, where, why, `${bytes.length} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 0;
  const need = (n: number): void => { if (p + n > bytes.length) bad(`is truncated (needs ${p + n} bytes)`); };
  const u32 = (): number => { need(4); const v = view.getUint32(p); p += 4; return v; };
  const name = (): string => {
    const n = u32(); need(n);
    let s = '';
    try { s = utf8.decode(bytes.subarray(p, p + n)); } catch { bad(`has a name that is not UTF-8 at byte ${p}`); }
    p += pad4(n);
    return s;
  };
  const values = (code: number, count: number, at: number): NcReadVariable['data'] => {
    const [, size] = TYPES[code] ?? bad(`has an unknown type code ${code}`);
    if (at + count * size > bytes.length) bad(`is truncated (a variable or attribute ends at byte ${at + count * size})`);
    switch (code) {
      case 1: return Int8Array.from({ length: count }, (_, i) => view.getInt8(at + i));
      case 2: return bytes.slice(at, at + count);
      case 3: return Int16Array.from({ length: count }, (_, i) => view.getInt16(at + 2 * i));
      case 4: return Int32Array.from({ length: count }, (_, i) => view.getInt32(at + 4 * i));
      case 5: return Float32Array.from({ length: count }, (_, i) => view.getFloat32(at + 4 * i));
      default: return Float64Array.from({ length: count }, (_, i) => view.getFloat64(at + 8 * i));
    }
  };
  const list = (tag: number, what: string): number => {
    const t = u32(), n = u32();
    if (t === 0 && n === 0) return 0;   // ABSENT
    if (t !== tag) bad(`has no ${what} list where one is due (tag ${t})`);
    return n;
  };
  const attrs = (): Record<string, NcAttribute> => {
    const out: Record<string, NcAttribute> = {};
    const n = list(NC_ATTRIBUTE, 'attribute');
    for (let i = 0; i < n; i++) {
      const k = name(), code = u32(), count = u32();
      const v = values(code, count, p);
      p += pad4(count * TYPES[code]![1]);
      if (code === 2) { out[k] = utf8.decode(v as Uint8Array); continue; }
      const type = TYPES[code]![0] as 'int8' | 'int32' | 'float64' | 'float32';
      out[k] = count === 1 && (code === 4 || code === 6) ? v[0]! : { type, values: Array.from(v) };
    }
    return out;
  };
  need(8);
  if (bytes[0] !== 0x43 || bytes[1] !== 0x44 || bytes[2] !== 0x46 || (bytes[3] !== 1 && bytes[3] !== 2)) {
    bad(bytes[3] === 5 && bytes[0] === 0x43 ? 'is CDF-5 (64-bit data), which is not read' : bytes[1] === 0x48 ? 'is netCDF-4 (HDF5), which is not read' : 'is not a netCDF-3 file');
  }
  const offset64 = bytes[3] === 2;
  p = 4;
  u32();   // numrecs: only record variables use it
  const dims: [string, number][] = [];
  const nd = list(NC_DIMENSION, 'dimension');
  for (let i = 0; i < nd; i++) dims.push([name(), u32()]);
  const gatts = attrs();
  const variables: NcReadVariable[] = [];
  const nv = list(NC_VARIABLE, 'variable');
  for (let i = 0; i < nv; i++) {
    const vname = name();
    const ids = Array.from({ length: u32() }, () => u32());
    const vatts = attrs();
    const code = u32();
    u32();   // vsize: recomputed from the dimensions
    need(offset64 ? 8 : 4);
    const begin = offset64 ? Number(view.getBigUint64(p)) : view.getUint32(p);
    p += offset64 ? 8 : 4;
    const shape = ids.map((id) => (dims[id] ?? bad(`variable "${vname}" names dimension ${id} of ${dims.length}`))[1]);
    if (shape.some((n) => n === 0)) bad(`variable "${vname}" is a record variable (unlimited dimension), which is not read`);
    const count = shape.reduce((a, b) => a * b, 1);
    const type = (TYPES[code] ?? bad(`variable "${vname}" has an unknown type code ${code}`))[0];
    variables.push({ name: vname, dims: ids.map((id) => dims[id]![0]), type, data: values(code, count, begin), attrs: vatts });
  }
  return { dims, variables, attrs: gatts };
}

/**
 * One InferenceData group's variables from its netCDF file (as `inferenceDataNetcdf` writes
 * it), in stochax's layout: `draws` groups as `[draws, chains, ...]` (the file's `[chain,
 * draw, ...]` swapped), `prior` groups as `[samples, ...]` (their one chain dropped).
 * Coordinate variables and string labels are left out; booleans (int8 with `dtype: 'bool'`)
 * come back as bool, every other number as float64, as `fromArvizJson` reads draws.json.
 *
 * @throws {RangeError} naming `where` when a variable lacks the `chain`/`draw` dimensions.
 * @example
 * const logLik = readNetcdfGroup(readFileSync('run/idata/log_likelihood.nc'), 'draws', 'log_likelihood.nc');
 */
export function readNetcdfGroup(bytes: Uint8Array, kind: 'draws' | 'prior', where: string): Record<string, Tensor> {
  const ds = readNetcdf(bytes, where);
  const dimNames = new Set(ds.dims.map(([d]) => d));
  const out: Record<string, Tensor> = {};
  for (const v of ds.variables) {
    if (dimNames.has(v.name) || v.type === 'char') continue;   // coordinates
    if (v.dims[0] !== 'chain' || v.dims[1] !== 'draw') fail('range', 'readNetcdfGroup', `${where}: ${v.name}`, 'must have the dimensions (chain, draw, ...)', v.dims);
    const shape = v.dims.map((d) => ds.dims.find(([n]) => n === d)![1]);
    const bool = v.type === 'int8' && v.attrs.dtype === 'bool';
    const t = new Tensor(bool ? Uint8Array.from(v.data) : Float64Array.from(v.data), shape, bool ? 'bool' : 'float64');
    out[v.name] = kind === 'prior' ? t.reshape(shape.slice(1)) : transpose(t, [1, 0, ...shape.slice(2).map((_, i) => i + 2)]);
  }
  return out;
}
