/**
 * Coordinates and dimension names (ArviZ's and PyMC's `coords` / `dims`): `coords` labels the
 * positions of a named dimension, `dims` names each event axis of a variable (after the chain
 * and draw axes). One home for their checks and for the labels they give (`theta[Choate]`),
 * shared by `windowedAdaptiveNuts`, `summary`, `inferenceData` and the CLI's writers.
 */
import { fail } from '../../src/checks.js';

/** Labels of one dimension's positions: unique strings or finite numbers. */
export type CoordValues = readonly (number | string)[];
/** Labels per named dimension (ArviZ's `coords`), e.g. `{ school: ['Choate', 'Deerfield'] }`. */
export type Coords = Readonly<Record<string, CoordValues>>;
/** Dimension names per variable, one per event axis (ArviZ's `dims`), e.g. `{ theta: ['school'] }`. */
export type Dims = Readonly<Record<string, readonly string[]>>;

/** `coords` and `dims` together, as a run or a file carries them. */
export interface CoordsDims {
  readonly coords?: Coords;
  readonly dims?: Dims;
}

/** The chain and draw axes come first and keep ArviZ's names. */
const RESERVED = ['chain', 'draw'];

function isRecord(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x) && !ArrayBuffer.isView(x);
}

/**
 * Checks `coords` and `dims` and, when `shapes` is given, their fit with the variables: every
 * variable in `dims` must be one of `shapes`' keys; it names one dimension per event axis; a
 * dimension with coordinates has exactly as many labels as each axis it names; one dimension
 * has one size across variables. A variable whose shape is `undefined` is known but its size is
 * not checked (yet). Returns frozen copies (`undefined` where not given).
 *
 * @param fn - the public function, for error messages.
 * @param coords - `{ dim: labels }`: arrays of unique strings or finite numbers.
 * @param dims - `{ variable: [dim, ...] }`: distinct non-empty names, neither `chain` nor `draw`.
 * @param shapes - event shapes by variable name (no chain or draw axes); omitted: names unchecked.
 * @param prefix - how the options are reached in the message (`''`, or `'options.'`).
 * @throws {TypeError} for a `coords` or `dims` that is not a record of arrays, or labels that are
 *   not strings or finite numbers.
 * @throws {RangeError} for repeated labels or dimension names, an unknown variable, a rank or size
 *   that does not fit (naming the variable, the dimension and both sizes).
 * @example
 * checkCoordsDims('summary', { group: ['a', 'b'] }, { alpha: ['group'] }, new Map([['alpha', [2]]]));
 * // → { coords: { group: ['a', 'b'] }, dims: { alpha: ['group'] } }
 * checkCoordsDims('summary', { group: ['a', 'b'] }, { alpha: ['group'] }, new Map([['alpha', [3]]]));
 * // RangeError: summary: `dims.alpha` … dimension "group" has 2 coordinates but axis 0 of `alpha` has size 3
 */
export function checkCoordsDims(
  fn: string, coords: unknown, dims: unknown, shapes?: ReadonlyMap<string, readonly number[] | undefined>, prefix = '',
): { coords: Coords | undefined; dims: Dims | undefined } {
  let c: Record<string, CoordValues> | undefined;
  if (coords !== undefined) {
    if (!isRecord(coords)) fail('type', fn, `${prefix}coords`, 'must be a record of label arrays by dimension name ({ group: [\'a\', \'b\'] })', coords);
    c = {};
    for (const [d, labels] of Object.entries(coords)) {
      const arg = `${prefix}coords.${d}`;
      if (!Array.isArray(labels)) fail('type', fn, arg, 'must be an array of labels (strings or finite numbers)', labels);
      labels.forEach((l, i) => {
        if (typeof l !== 'string' && (typeof l !== 'number' || !Number.isFinite(l))) fail('type', fn, `${arg}[${i}]`, 'must be a string or a finite number', l);
      });
      const seen = new Set<string | number>();
      for (const l of labels as (string | number)[]) {
        if (seen.has(l)) fail('range', fn, arg, `must hold unique labels; ${JSON.stringify(l)} appears twice`, labels);
        seen.add(l);
      }
      c[d] = Object.freeze([...(labels as (string | number)[])]);
    }
  }
  let v: Record<string, readonly string[]> | undefined;
  if (dims !== undefined) {
    if (!isRecord(dims)) fail('type', fn, `${prefix}dims`, 'must be a record of dimension-name arrays by variable ({ alpha: [\'group\'] })', dims);
    v = {};
    const size = new Map<string, [number, string]>();
    for (const [name, ds] of Object.entries(dims)) {
      const arg = `${prefix}dims.${name}`;
      if (!Array.isArray(ds) || ds.some((d) => typeof d !== 'string' || d === '')) fail('type', fn, arg, 'must be an array of dimension names (non-empty strings)', ds);
      const names = ds as string[];
      const twice = names.find((d, i) => names.indexOf(d) !== i);
      if (twice !== undefined) fail('range', fn, arg, `names dimension "${twice}" twice (each axis needs its own dimension)`, ds);
      const reserved = names.find((d) => RESERVED.includes(d));
      if (reserved !== undefined) fail('range', fn, arg, `must not name "${reserved}" (the chain and draw axes come first and are not listed)`, ds);
      if (shapes !== undefined) {
        if (!shapes.has(name)) fail('range', fn, arg, `names \`${name}\`, which is not a variable (${[...shapes.keys()].sort().join(', ')})`, name);
        const shape = shapes.get(name);
        if (shape !== undefined) {
          if (names.length !== shape.length) fail('range', fn, arg, `must name ${shape.length} dimension${shape.length === 1 ? '' : 's'} (\`${name}\` has event shape [${shape.join(', ')}])`, ds);
          names.forEach((d, k) => {
            const n = shape[k]!;
            const labels = c?.[d];
            if (labels !== undefined && labels.length !== n) fail('range', fn, arg, `gives axis ${k} of \`${name}\` (size ${n}) dimension "${d}", which has ${labels.length} coordinates`, ds);
            const before = size.get(d);
            if (before !== undefined && before[0] !== n) fail('range', fn, arg, `gives dimension "${d}" size ${n} (axis ${k} of \`${name}\`), but \`${before[1]}\` gives it size ${before[0]}`, ds);
            size.set(d, [n, name]);
          });
        }
      }
      v[name] = Object.freeze([...names]);
    }
  }
  return { coords: c === undefined ? undefined : Object.freeze(c), dims: v === undefined ? undefined : Object.freeze(v) };
}

/**
 * {@link checkCoordsDims} for one group of variables (the draws given to `summary` or a writer):
 * `dims` of variables not in `shapes` are left alone, as ArviZ applies the shared `dims` per
 * group (the observed data's dims do not concern the posterior).
 *
 * @example
 * groupCoordsDims('summary', { s: ['a', 'b'] }, { theta: ['s'], y: ['s'] }, new Map([['theta', [2]]]));
 * // → { coords: { s: ['a', 'b'] }, dims: { theta: ['s'] } }
 */
export function groupCoordsDims(fn: string, coords: unknown, dims: unknown, shapes: ReadonlyMap<string, readonly number[]>, prefix = ''): CoordsDims {
  if (coords === undefined && dims === undefined) return {};
  const own = isRecord(dims) ? Object.fromEntries(Object.entries(dims).filter(([n]) => shapes.has(n))) : dims;
  const out = checkCoordsDims(fn, coords, own, shapes, prefix);
  return { ...(out.coords === undefined ? {} : { coords: out.coords }), ...(out.dims === undefined ? {} : { dims: out.dims }) };
}

/**
 * ArviZ's flat label of element `flat` (row-major) of variable `name` with event shape
 * `eventShape`, as `az.summary` prints it: `name` for a scalar, else `name[l0, l1, …]` where
 * `lk` is the coordinate of axis k (`coords[dims[name][k]]`) or, without one, its index (ArviZ's
 * default coordinates `name_dim_k` are 0, 1, …).
 *
 * @example
 * coordLabel('theta', [2], 1, { school: ['a', 'b'] }, { theta: ['school'] });   // 'theta[b]'
 * coordLabel('L', [2, 2], 2);                                                   // 'L[1, 0]'
 */
export function coordLabel(name: string, eventShape: readonly number[], flat: number, coords?: Coords, dims?: Dims): string {
  if (eventShape.length === 0) return name;
  const ds = dims?.[name];
  const idx: (string | number)[] = [];
  let rem = flat;
  for (let ax = eventShape.length - 1; ax >= 0; ax--) {
    const i = rem % eventShape[ax]!;
    const labels = ds === undefined ? undefined : coords?.[ds[ax]!];
    idx.unshift(labels === undefined ? i : labels[i]!);
    rem = Math.floor(rem / eventShape[ax]!);
  }
  return `${name}[${idx.join(', ')}]`;
}
