/**
 * Argument checks shared by every layer. Each check takes the public function name, the
 * argument name and the value, and throws `TypeError` (wrong kind) or `RangeError` (right kind,
 * out of range) in one format: "random.split: `num` must be a non-negative integer; got -1".
 * Dependency-free on purpose (but for the equally dependency-free shape helpers): kernels,
 * tensors and samplers may all import it.
 */
import { sizeOf } from './tensor/shapes.js';

/** A short, safe rendering of any value for an error message (nested arrays to 3 levels, so a cyclic one ends). */
export function show(x: unknown, depth = 0): string {
  if (typeof x === 'string') return JSON.stringify(x);
  if (typeof x === 'bigint') return `${x}n`;
  if (typeof x === 'function') return 'a function';
  if (x === null || x === undefined || typeof x !== 'object') return String(x);
  if (Array.isArray(x)) return x.length > 8 || depth >= 3 ? `an array of length ${x.length}` : `[${x.map((v) => show(v, depth + 1)).join(', ')}]`;
  const name = (x as object).constructor?.name ?? 'object';
  return name === 'Object' ? 'an object' : `a ${name}`;
}

export function fail(kind: 'type' | 'range', fn: string, arg: string, what: string, x: unknown): never {
  const msg = `${fn}: \`${arg}\` ${what}; got ${show(x)}`;
  throw kind === 'type' ? new TypeError(msg) : new RangeError(msg);
}

/** A JS number that is an integer (NaN, ±Infinity and fractions are TypeErrors). */
export function checkInteger(fn: string, arg: string, x: unknown): number {
  if (typeof x !== 'number' || !Number.isInteger(x)) fail('type', fn, arg, 'must be an integer', x);
  if (!Number.isSafeInteger(x)) fail('range', fn, arg, 'must be a safe integer (|x| < 2^53); pass a bigint', x);
  return x;
}

export function checkNonNegativeInteger(fn: string, arg: string, x: unknown): number {
  const n = checkInteger(fn, arg, x);
  if (n < 0) fail('range', fn, arg, 'must be a non-negative integer', x);
  return n;
}

/** An integer given as a number or a bigint, returned as a bigint. */
export function checkBigIntLike(fn: string, arg: string, x: unknown): bigint {
  if (typeof x === 'bigint') return x;
  return BigInt(checkInteger(fn, arg, x));
}

/** An integer ≥ 1; `what` rewords the RangeError where a caller's message says more. */
export function checkPositiveInteger(fn: string, arg: string, x: unknown, what = 'must be a positive integer'): number {
  const n = checkInteger(fn, arg, x);
  if (n < 1) fail('range', fn, arg, what, x);
  return n;
}

/** A positive, finite JS number. */
export function checkPositive(fn: string, arg: string, x: unknown): number {
  if (typeof x !== 'number') fail('type', fn, arg, 'must be a number', x);
  if (!(x > 0 && x < Infinity)) fail('range', fn, arg, 'must be positive and finite', x);
  return x;
}

/** A function; `what` may describe the expected signature ("must be a function of the state parts"). */
export function checkFunction(fn: string, arg: string, x: unknown, what = 'must be a function'): asserts x is (...args: never[]) => unknown {
  if (typeof x !== 'function') fail('type', fn, arg, what, x);
}

/** A finite JS number. */
export function checkFinite(fn: string, arg: string, x: unknown): number {
  if (typeof x !== 'number') fail('type', fn, arg, 'must be a number', x);
  if (!Number.isFinite(x)) fail('range', fn, arg, 'must be finite', x);
  return x;
}

export function checkBoolean(fn: string, arg: string, x: unknown): boolean {
  if (typeof x !== 'boolean') fail('type', fn, arg, 'must be a boolean', x);
  return x;
}

/** One of a fixed set of strings. */
export function checkOneOf<T extends string>(fn: string, arg: string, x: unknown, allowed: readonly T[]): T {
  if (typeof x !== 'string' || !(allowed as readonly string[]).includes(x)) {
    fail(typeof x === 'string' ? 'range' : 'type', fn, arg, `must be one of ${allowed.map((a) => `'${a}'`).join(', ')}`, x);
  }
  return x as T;
}

/**
 * Largest number of elements one tensor (or one batch of keys or draws) may hold: 2^28 =
 * 268,435,456, i.e. 2 GiB as float64. Bigger requests would allocate for minutes or fail deep
 * inside with V8's "Invalid typed array length"; they get a RangeError up front instead.
 */
export const MAX_SIZE = 2 ** 28;

/** A count of elements (a non-negative integer) that is at most `limit` (default {@link MAX_SIZE}). */
export function checkCount(fn: string, arg: string, n: unknown, limit: number = MAX_SIZE): number {
  const m = checkNonNegativeInteger(fn, arg, n);
  if (m > limit) fail('range', fn, arg, `is ${m}, more than the limit of ${limit}`, n);
  return m;
}

/**
 * A shape: a non-negative integer (meaning `[n]`) or an array of them. Returns a fresh array.
 * Rejects negative, fractional and non-numeric entries, and shapes of more than
 * {@link MAX_SIZE} elements (the one size check every sampler goes through).
 */
export function checkShape(fn: string, arg: string, x: unknown): number[] {
  if (typeof x === 'number') return [checkCount(fn, arg, checkDim(fn, arg, x, x))];
  if (!Array.isArray(x)) fail('type', fn, arg, 'must be a non-negative integer or an array of them', x);
  if (x.length > MAX_NDIM) fail('range', fn, arg, `must have at most ${MAX_NDIM} dimensions`, x);
  const shape = x.map((d: unknown, i: number) => checkDim(fn, `${arg}[${i}]`, d, x));
  const size = sizeOf(shape);
  if (size > MAX_SIZE) fail('range', fn, arg, `asks for ${size} elements, more than the limit of ${MAX_SIZE}`, x);
  return shape;
}

/** Most dimensions a tensor may have (NumPy 2's limit). */
export const MAX_NDIM = 64;

/**
 * Checks that nested arrays (and plain objects, for trees of arguments) are at most
 * {@link MAX_NDIM} deep and hold no cycle, so walking them cannot overflow the stack or loop.
 */
export function checkNesting(fn: string, arg: string, x: unknown): void {
  const open = new Set<object>();
  const walk = (v: unknown, depth: number): void => {
    if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) return;
    const array = Array.isArray(v);
    if (!array && Object.getPrototypeOf(v) !== Object.prototype) return;
    if (open.has(v)) fail('type', fn, arg, 'must not contain itself (a cyclic array or object)', x);
    if (depth >= MAX_NDIM) fail('type', fn, arg, `must be nested at most ${MAX_NDIM} levels deep`, x);
    open.add(v);
    for (const item of array ? (v as unknown[]) : Object.values(v)) walk(item, depth + 1);
    open.delete(v);
  };
  walk(x, 0);
}

function checkDim(fn: string, arg: string, d: unknown, whole: unknown): number {
  if (typeof d !== 'number' || !Number.isInteger(d)) fail('type', fn, arg, 'must be an integer dimension', whole);
  if (d < 0) fail('range', fn, arg, 'must be a non-negative dimension', whole);
  return d;
}

/** An axis in [-ndim, ndim), returned normalised to [0, ndim). */
export function checkAxis(fn: string, arg: string, x: unknown, ndim: number): number {
  const a = checkInteger(fn, arg, x);
  if (a < -ndim || a >= ndim) fail('range', fn, arg, `must be an axis in [${-ndim}, ${ndim})`, x);
  return a < 0 ? a + ndim : a;
}

/** A plain options object (or undefined, meaning `{}`); with `known`, any other key is a TypeError naming it. */
export function checkOptions<T extends object>(fn: string, x: T | undefined, known?: readonly (keyof T & string)[]): T {
  if (x === undefined) return {} as T;
  if (x === null || typeof x !== 'object' || Array.isArray(x)) fail('type', fn, 'options', 'must be an object', x);
  if (known !== undefined) {
    const unknown = Object.keys(x).filter((k) => !(known as readonly string[]).includes(k));
    if (unknown.length > 0) fail('type', fn, 'options', `has unknown option ${unknown.map((k) => `\`${k}\``).join(', ')} (known: ${known.join(', ')})`, x);
  }
  return x;
}
