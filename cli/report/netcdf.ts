/**
 * A netCDF-3 writer (Unidata's "NetCDF Classic Format Specification", the 64-bit-offset
 * variant CDF-2, which xarray's scipy and netCDF4 engines both read): named fixed-size
 * dimensions, global and variable attributes, and variables of type float64, float32, int32,
 * int8 and char, big-endian. The whole file is laid out in one ArrayBuffer — the header is
 * sized first (its length does not depend on the offsets it holds), then each variable's data
 * is written through a DataView — so a large group costs one pass over its values and no
 * per-number strings (printing numbers as JSON text is what made draws.json slow).
 *
 * Written the way xarray stores what netCDF-3 has no type for, so `xr.open_dataset` gives it
 * back: booleans as int8 with the attribute `dtype: 'bool'`, strings as char arrays with a
 * trailing `string<N>` dimension and `_Encoding: 'utf-8'`.
 */
import { fail } from '../../src/checks.js';

/** netCDF-3 external types this writer supports, by their numpy names (`char`: NC_CHAR). */
export type NcType = 'float64' | 'float32' | 'int32' | 'int8' | 'char';

/** An attribute value: text (NC_CHAR, UTF-8), or numbers with their type (a bare number: NC_INT if a 32-bit integer, else NC_DOUBLE). */
export type NcAttribute = string | number | { readonly type: Exclude<NcType, 'char'>; readonly values: readonly number[] };

/** One variable: its dimensions (names of the dataset's dimensions, outermost first) and values in row-major order over them. */
export interface NcVariable {
  readonly name: string;
  readonly dims: readonly string[];
  readonly type: NcType;
  /** Row-major values over `dims` (for `char`, the UTF-8 bytes); numbers are converted to `type` (float32 rounds, integers must fit). */
  readonly data: ArrayLike<number>;
  /**
   * `data` holds the first two axes swapped (`[dims[1], dims[0], ...rest]`): TFP's
   * `[draws, chains, ...]` written as ArviZ's `[chain, draw, ...]` without a transposed copy.
   */
  readonly swapLeadingAxes?: boolean;
  readonly attrs?: Readonly<Record<string, NcAttribute>>;
}

/** A dataset: dimensions in order (name, length ≥ 1), variables in order, global attributes. */
export interface NcDataset {
  readonly dims: readonly (readonly [string, number])[];
  readonly variables: readonly NcVariable[];
  readonly attrs?: Readonly<Record<string, NcAttribute>>;
}

const FN = 'netcdfBytes';
/** The header's list tags (the reader, netcdf-read.ts, uses them too). */
export const NC_DIMENSION = 0x0a, NC_VARIABLE = 0x0b, NC_ATTRIBUTE = 0x0c;
/** Each type's external code and bytes per value. */
export const CODE: Readonly<Record<NcType, number>> = { int8: 1, char: 2, int32: 4, float32: 5, float64: 6 };
export const SIZE: Readonly<Record<NcType, number>> = { int8: 1, char: 1, int32: 4, float32: 4, float64: 8 };
/** The spec pads a variable's data with its fill value: NC_FILL_BYTE (−127) for int8, NUL for char. */
const PAD_BYTE: Readonly<Record<NcType, number>> = { int8: 0x81, char: 0, int32: 0, float32: 0, float64: 0 };
/** CDF-2 keeps a variable's size in 32 bits: one fixed-size variable may hold at most 2^32 − 4 bytes. */
const MAX_VSIZE = 2 ** 32 - 4;

const utf8 = new TextEncoder();
const pad4 = (n: number): number => (n + 3) & ~3;

interface Attr { readonly name: Uint8Array; readonly type: NcType; readonly values: ArrayLike<number> }

function checkName(where: string, name: unknown): Uint8Array {
  // The spec's names: UTF-8, no '/', no control characters, no trailing space.
  if (typeof name !== 'string' || name === '' || /[/\u0000-\u001f\u007f]/.test(name) || name.endsWith(' ')) {
    fail('range', FN, where, 'must be a non-empty name without "/", control characters or a trailing space', name);
  }
  return utf8.encode(name as string);
}

function attrOf(where: string, name: string, v: unknown): Attr {
  const n = checkName(where, name);
  if (typeof v === 'string') return { name: n, type: 'char', values: utf8.encode(v) };
  if (typeof v === 'number') return { name: n, type: Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31 ? 'int32' : 'float64', values: [v] };
  const o = v as { type?: unknown; values?: unknown } | null;
  if (o === null || typeof o !== 'object' || typeof o.type !== 'string' || !(o.type in CODE) || o.type === 'char' || !Array.isArray(o.values)) {
    fail('type', FN, `${where}.${name}`, 'must be a string, a number or { type, values }', v);
  }
  return { name: n, type: o.type as NcType, values: o.values as number[] };
}

function attrList(where: string, attrs: Readonly<Record<string, NcAttribute>> | undefined): Attr[] {
  if (attrs === undefined) return [];
  return Object.entries(attrs).map(([k, v]) => attrOf(where, k, v));
}

const nameBytes = (n: Uint8Array): number => 4 + pad4(n.length);
const attrsBytes = (as: readonly Attr[]): number => 8 + as.reduce((s, a) => s + nameBytes(a.name) + 8 + pad4(a.values.length * SIZE[a.type]), 0);

/**
 * Writes the values of `type` from `src` at `off`, big-endian, in file order: as they are, or
 * with their leading axes swapped back (`swap` = the file's [d0, d1, inner]: file index (a, b, k)
 * reads source index (b, a, k) over [d1, d0, inner]), run by run straight from `src` (no
 * reordered copy). One plain loop per type, so each stays monomorphic.
 */
function writeValues(view: DataView, off: number, type: NcType, src: ArrayLike<number>, swap: readonly [number, number, number] | undefined): void {
  const [d0, d1, inner] = swap ?? [1, 1, src.length];
  const size = SIZE[type];
  for (let a = 0, o = off; a < d0; a++) {
    for (let b = 0; b < d1; b++, o += inner * size) writeRun(view, o, type, src, (b * d0 + a) * inner, inner);
  }
}

/** `n` values of `type` from `src[from…]` at byte `off`, big-endian. */
function writeRun(view: DataView, off: number, type: NcType, src: ArrayLike<number>, from: number, n: number): void {
  if (type === 'float64') for (let i = 0; i < n; i++) view.setFloat64(off + 8 * i, src[from + i]!);
  else if (type === 'float32') for (let i = 0; i < n; i++) view.setFloat32(off + 4 * i, src[from + i]!);
  else if (type === 'int32') for (let i = 0; i < n; i++) view.setInt32(off + 4 * i, src[from + i]!);
  else for (let i = 0; i < n; i++) view.setInt8(off + i, src[from + i]!);
}

function checkValues(where: string, type: NcType, data: ArrayLike<number>): void {
  if (type === 'float64' || type === 'float32') return;
  const [lo, hi] = type === 'int32' ? [-(2 ** 31), 2 ** 31 - 1] : type === 'int8' ? [-128, 127] : [0, 255];
  for (let i = 0; i < data.length; i++) {
    const x = data[i]!;
    if (!Number.isInteger(x) || x < lo || x > hi) fail('range', FN, `${where}[${i}]`, `must be an integer in [${lo}, ${hi}] for type ${type}`, x);
  }
}

/**
 * A dataset as the bytes of a netCDF-3 file (CDF-2, "64-bit offset"), which
 * `xr.open_dataset(path)` (scipy or netCDF4 engine), `scipy.io.netcdf_file` and `ncdump` read.
 * Dimensions are fixed-size (the format reserves length 0 for the unlimited dimension, which
 * this writer does not use); data follow the header in variable order, each padded to 4 bytes.
 *
 * @param dataset - `dims` (`[name, length]`, length ≥ 1), `variables` (name, dims, type, row-major
 *   data, attrs) and global `attrs`.
 * @returns The file's bytes.
 * @throws {TypeError} for a malformed dataset or attribute.
 * @throws {RangeError} for a bad name, a repeated dimension or variable, an unknown dimension, a
 *   length that is not a positive integer, data of the wrong length, integers out of the type's
 *   range, or a variable over CDF-2's 4 GiB.
 * @example
 * const bytes = netcdfBytes({
 *   dims: [['x', 3]],
 *   variables: [{ name: 'y', dims: ['x'], type: 'float64', data: [1, 2, 3] }],
 *   attrs: { title: 'demo' },
 * });
 * writeFileSync('demo.nc', bytes);   // Python: xr.open_dataset('demo.nc').y.values → [1., 2., 3.]
 */
export function netcdfBytes(dataset: NcDataset): Uint8Array {
  if (dataset === null || typeof dataset !== 'object' || !Array.isArray(dataset.dims) || !Array.isArray(dataset.variables)) {
    fail('type', FN, 'dataset', 'must be { dims, variables, attrs? }', dataset);
  }
  const ds = dataset as NcDataset;
  const dimIndex = new Map<string, number>();
  const dims = ds.dims.map(([name, len], i) => {
    const n = checkName(`dims[${i}]`, name);
    if (dimIndex.has(name)) fail('range', FN, `dims[${i}]`, `repeats the dimension "${name}"`, name);
    if (!Number.isSafeInteger(len) || len < 1 || len > 2 ** 31 - 1) fail('range', FN, `dims[${i}]`, 'must have a length ≥ 1 (netCDF-3 reserves 0 for the unlimited dimension)', len);
    dimIndex.set(name, i);
    return { name: n, len };
  });
  const gatts = attrList('attrs', ds.attrs);
  const seen = new Set<string>();
  const vars = ds.variables.map((v, i) => {
    const where = `variables[${i}]`;
    const name = checkName(`${where}.name`, v.name);
    if (seen.has(v.name)) fail('range', FN, `${where}.name`, `repeats the variable "${v.name}"`, v.name);
    seen.add(v.name);
    if (!(v.type in CODE)) fail('type', FN, `${where}.type`, `must be one of ${Object.keys(CODE).join(', ')}`, v.type);
    const ids = v.dims.map((d) => {
      const id = dimIndex.get(d);
      if (id === undefined) fail('range', FN, `${where}.dims`, `names "${d}", which is not among the dimensions`, v.dims);
      return id;
    });
    const shape = ids.map((id) => dims[id]!.len);
    const count = shape.reduce((a, b) => a * b, 1);
    if (v.data.length !== count) fail('range', FN, `${where}.data`, `must hold ${count} values for dims [${v.dims.join(', ')}] = [${shape.join(', ')}]`, v.data.length);
    checkValues(`${where}.data`, v.type, v.data);
    const bytes = count * SIZE[v.type];
    if (bytes > MAX_VSIZE) fail('range', FN, `${where}.data`, 'must fit in 4 GiB (the CDF-2 limit of one variable)', bytes);
    if (v.swapLeadingAxes === true && shape.length < 2) fail('range', FN, `${where}.swapLeadingAxes`, 'needs at least two dimensions', v.dims);
    const swap = v.swapLeadingAxes === true ? [shape[0]!, shape[1]!, count / (shape[0]! * shape[1]! || 1)] as const : undefined;
    return { v, name, ids, atts: attrList(`${where}.attrs`, v.attrs), bytes, vsize: pad4(bytes), swap };
  });
  // Header: magic, numrecs, dim_list, gatt_list, var_list (begin offsets are 8 bytes in CDF-2).
  let header = 4 + 4;
  header += 8 + dims.reduce((s, d) => s + nameBytes(d.name) + 4, 0);
  header += gatts.length === 0 ? 8 : attrsBytes(gatts);
  header += 8 + vars.reduce((s, x) => s + nameBytes(x.name) + 4 + 4 * x.ids.length + (x.atts.length === 0 ? 8 : attrsBytes(x.atts)) + 4 + 4 + 8, 0);
  const total = vars.reduce((s, x) => s + x.vsize, header);
  const buf = new ArrayBuffer(total);
  const view = new DataView(buf);
  const bytes = new Uint8Array(buf);
  let p = 0;
  const u32 = (x: number): void => { view.setUint32(p, x); p += 4; };
  const name = (n: Uint8Array): void => { u32(n.length); bytes.set(n, p); p += pad4(n.length); };   // header padding stays NUL
  const attList = (as: readonly Attr[]): void => {
    if (as.length === 0) { u32(0); u32(0); return; }   // ABSENT
    u32(NC_ATTRIBUTE); u32(as.length);
    for (const a of as) {
      name(a.name); u32(CODE[a.type]); u32(a.values.length);
      if (a.type === 'char') bytes.set(a.values as Uint8Array, p);
      else writeValues(view, p, a.type, a.values, undefined);
      p += pad4(a.values.length * SIZE[a.type]);
    }
  };
  bytes.set([0x43, 0x44, 0x46, 0x02], 0); p = 4;   // 'CDF' \x02: the 64-bit-offset format
  u32(0);   // numrecs: no record dimension
  if (dims.length === 0) { u32(0); u32(0); } else { u32(NC_DIMENSION); u32(dims.length); for (const d of dims) { name(d.name); u32(d.len); } }
  attList(gatts);
  let begin = header;
  if (vars.length === 0) { u32(0); u32(0); } else {
    u32(NC_VARIABLE); u32(vars.length);
    for (const x of vars) {
      name(x.name); u32(x.ids.length); for (const id of x.ids) u32(id);
      attList(x.atts);
      u32(CODE[x.v.type]); u32(x.vsize);
      view.setBigUint64(p, BigInt(begin)); p += 8;
      begin += x.vsize;
    }
  }
  for (const x of vars) {
    writeValues(view, p, x.v.type, x.v.data, x.swap);
    bytes.fill(PAD_BYTE[x.v.type], p + x.bytes, p + x.vsize);
    p += x.vsize;
  }
  return bytes;
}

/**
 * Strings as a netCDF-3 char variable the way xarray writes them: the UTF-8 bytes, NUL-padded
 * to the longest (at least 1), over a trailing `string<N>` dimension, with `_Encoding: utf-8`
 * (so `xr.open_dataset` gives back a str array).
 *
 * @example
 * stringVariable('school', 'school', ['A', 'Bee']);
 * // → { variable: { name: 'school', dims: ['school', 'string3'], type: 'char', … }, charDim: ['string3', 3] }
 */
export function stringVariable(name: string, dim: string, labels: readonly string[]): { variable: NcVariable; charDim: readonly [string, number] } {
  const encoded = labels.map((l) => utf8.encode(l));
  const width = Math.max(1, ...encoded.map((e) => e.length));
  const data = new Uint8Array(labels.length * width);
  encoded.forEach((e, i) => data.set(e, i * width));
  const charDim = `string${width}`;
  return { variable: { name, dims: [dim, charDim], type: 'char', data, attrs: { _Encoding: 'utf-8' } }, charDim: [charDim, width] };
}
