/**
 * Draws flattened to labelled scalar series: every element of every state part becomes one
 * parameter (`mu`, `theta[0]`, `L[1, 0]`, ArviZ's labels) with its draws chain-major, which is
 * what the draws files and the plots walk.
 */
import { fail } from '../../src/checks.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import {
  type Draws, type DrawsStructure, componentChains, drawsLayout, float64Values, isPartList, isPartRecord, toTensor,
} from '../../mcmc/diagnostics/draws.js';
import { coordLabel, groupCoordsDims, type CoordsDims } from '../../mcmc/diagnostics/coords.js';

/** One scalar parameter's draws. */
export interface FlatParameter {
  /** ArviZ's label: `mu`, `theta[0]`, `L[1, 0]`; with `dims` and `coords`, the coordinates (`theta[Choate]`). */
  readonly name: string;
  /** The state part it belongs to (`theta` for `theta[0]`). */
  readonly part: string;
  /** Index within the part's event shape (`[]` for a scalar part). */
  readonly index: readonly number[];
  readonly chains: number;
  readonly draws: number;
  /** Chain-major values: `values[c · draws + d]` (gathered from the draws when first read). */
  readonly values: Float64Array;
}

/** Draws per part: a record of named parts, an array of parts (named `x0`, `x1`, …) or a single part (`x`). */
export type ReportDraws = DrawsStructure;

/**
 * The named parts of `draws` as tensors in TFP layout `[draws, chains, ...event]`.
 *
 * @param fn - the public function name for error messages.
 * @param draws - a record of named parts, an array of parts or one part.
 * @returns `[name, tensor]` pairs in the record's (or array's) order.
 * @throws {TypeError} when `draws` (or a part) is not draws.
 *
 * @example
 * namedParts('toDrawsCsv', { mu: tensor([[0, 1], [2, 3]]) }); // [['mu', Tensor [2, 2]]]
 */
export function namedParts(fn: string, draws: unknown): [string, Tensor][] {
  if (isPartRecord(draws)) {
    return Object.entries(draws).map(([k, v]) => [k, toTensor(fn, `draws.${k}`, v)]);
  }
  if (isPartList(draws)) return draws.map((v, i) => [`x${i}`, toTensor(fn, `draws[${i}]`, v)]);
  return [['x', toTensor(fn, 'draws', draws as Draws)]];
}

/**
 * ArviZ's flat label for element `flat` (row-major) of an event of shape `eventShape`:
 * `name` for a scalar, `name[i, j]` otherwise.
 *
 * @example
 * elementLabel('L', [2, 2], 2); // 'L[1, 0]'
 */
export function elementLabel(name: string, eventShape: readonly number[], flat: number): string {
  return coordLabel(name, eventShape, flat);
}

/**
 * The multi-index of row-major element `flat` in `shape`.
 *
 * @example
 * unravel([2, 3], 4); // [1, 1]
 */
export function unravel(shape: readonly number[], flat: number): number[] {
  const idx: number[] = [];
  let rem = flat;
  for (let ax = shape.length - 1; ax >= 0; ax--) {
    idx.unshift(rem % shape[ax]!);
    rem = Math.floor(rem / shape[ax]!);
  }
  return idx;
}

/**
 * Flattens draws (TFP layout `[draws, chains, ...event]` per part) into one chain-major series
 * per scalar element. Every part must have the same numbers of draws and chains.
 *
 * @param fn - the public function name for error messages.
 * @param draws - a record of named parts, an array of parts or one part.
 * @param labels - `coords` and `dims` (checked; `dims` of variables not in `draws` are left
 *   alone): elements of a variable with dims are labelled by coordinate, as `az.summary` labels them.
 * @returns The parameters in part order, elements row-major within a part.
 * @throws {TypeError} when `draws` is not draws.
 * @throws {RangeError} for a scalar or empty part, or parts that disagree on draws or chains.
 *
 * @example
 * const [mu] = flattenParameters('reportHtml', { mu: tensor([[0, 1], [2, 3]]) });
 * mu.values; // Float64Array [0, 2, 1, 3]: chain 0's two draws, then chain 1's
 * flattenParameters('toDrawsCsv', { theta: tensor([[[0, 1]]]) }, { coords: { s: ['a', 'b'] }, dims: { theta: ['s'] } })[1]!.name;   // 'theta[b]'
 */
export function flattenParameters(fn: string, draws: unknown, labels: CoordsDims = {}): FlatParameter[] {
  const named = namedParts(fn, draws);
  const { coords, dims } = groupCoordsDims(fn, labels.coords, labels.dims, new Map(named.map(([n, t]) => [n, t.shape.slice(2)])));
  const out: FlatParameter[] = [];
  let first: { draws: number; chains: number; where: string } | undefined;
  for (const [name, t] of named) {
    const where = /^x\d*$/.test(name) && !isPartRecord(draws) ? 'draws' : `draws.${name}`;
    const layout = drawsLayout(fn, where, t);
    if (first === undefined) first = { draws: layout.draws, chains: layout.chains, where };
    else if (layout.draws !== first.draws || layout.chains !== first.chains) {
      fail('range', fn, where, `must have the same draws and chains as ${first.where} ([${first.draws}, ${first.chains}, ...])`, [...t.shape]);
    }
    const values = float64Values(t);
    for (let e = 0; e < layout.eventSize; e++) {
      // Gathered when first read: a report plots only some of a large model's parameters.
      let chainMajor: Float64Array | undefined;
      out.push({
        name: coordLabel(name, layout.eventShape, e, coords, dims),
        part: name,
        index: unravel(layout.eventShape, e),
        chains: layout.chains,
        draws: layout.draws,
        get values() { return (chainMajor ??= componentChains(values, layout, e).data); },
      });
    }
  }
  return out;
}


/** One scalar quantity's draws, chain-major: what the plots take. */
export type ChainSeries = Pick<FlatParameter, 'name' | 'chains' | 'draws' | 'values'>;

/**
 * Checks a {@link ChainSeries} argument: a name, positive integer chains and draws, and
 * `chains · draws` values.
 *
 * @throws {TypeError} for missing or mis-typed fields.
 * @throws {RangeError} for zero chains or draws, or the wrong number of values.
 * @example
 * checkSeries('tracePlot', 'series', { name: 'mu', chains: 2, draws: 3, values: new Float64Array(6) });
 */
export function checkSeries(fn: string, arg: string, s: unknown): ChainSeries {
  if (s === null || typeof s !== 'object') fail('type', fn, arg, 'must be { name, chains, draws, values }', s);
  const o = s as Partial<ChainSeries>;
  if (typeof o.name !== 'string') fail('type', fn, `${arg}.name`, 'must be a string', o.name);
  for (const k of ['chains', 'draws'] as const) {
    const v = o[k];
    if (typeof v !== 'number' || !Number.isInteger(v)) fail('type', fn, `${arg}.${k}`, 'must be an integer', v);
    if (v < 1) fail('range', fn, `${arg}.${k}`, 'must be at least 1', v);
  }
  if (!(o.values instanceof Float64Array)) fail('type', fn, `${arg}.values`, 'must be a Float64Array', o.values);
  if (o.values.length !== o.chains! * o.draws!) {
    fail('range', fn, `${arg}.values`, `must hold chains · draws = ${o.chains! * o.draws!} values`, o.values.length);
  }
  return o as ChainSeries;
}

/**
 * Checks optional per-draw flags (chain-major, like the series): `chains · draws` numbers.
 *
 * @throws {TypeError} when not an array-like of numbers.
 * @throws {RangeError} for the wrong length.
 * @example
 * checkFlags('tracePlot', 'options.divergent', Float64Array.of(0, 1), 2); // the flags
 */
export function checkFlags(fn: string, arg: string, flags: unknown, length: number): ArrayLike<number> | undefined {
  if (flags === undefined) return undefined;
  if (flags === null || typeof flags !== 'object' || typeof (flags as ArrayLike<number>).length !== 'number') {
    fail('type', fn, arg, 'must be an array of 0/1 flags, chain-major', flags);
  }
  const f = flags as ArrayLike<number | boolean>;
  if (f.length !== length) fail('range', fn, arg, `must hold ${length} flags (chains · draws)`, f.length);
  // a typed array converts natively (the same numbers as Number(v)); other array-likes one by one
  if (ArrayBuffer.isView(f) && !(f instanceof DataView) && !(f instanceof BigInt64Array) && !(f instanceof BigUint64Array)) return new Float64Array(f as unknown as ArrayLike<number>);
  return Float64Array.from({ length }, (_, i) => Number(f[i]));
}
