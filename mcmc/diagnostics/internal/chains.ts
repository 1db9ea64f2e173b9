/**
 * The (chain, draw) matrices ArviZ's private diagnostics work on: one scalar quantity's draws,
 * chain-major (`data[c·draws + d]`), plus the array helpers those diagnostics share.
 */
import { normalPpf } from './normal-ppf.js';

export interface Chains {
  readonly data: Float64Array;
  readonly chains: number;
  readonly draws: number;
}

export function anyNaN(x: Float64Array): boolean {
  for (let i = 0; i < x.length; i++) if (x[i] !== x[i]) return true;
  return false;
}

/** ArviZ's `not_valid`: NaN anywhere, or fewer chains or draws than required. */
export function notValid(a: Chains, minDraws: number, minChains: number): boolean {
  return anyNaN(a.data) || a.chains < minChains || a.draws < minDraws;
}

/** ArviZ's `_split_chains`: the first and last `⌊draws/2⌋` draws of each chain become two chains. */
export function splitChains(a: Chains): Chains {
  const half = Math.floor(a.draws / 2);
  const out = new Float64Array(2 * a.chains * half);
  for (let c = 0; c < a.chains; c++) {
    const row = c * a.draws;
    out.set(a.data.subarray(row, row + half), c * half);
    out.set(a.data.subarray(row + a.draws - half, row + a.draws), (a.chains + c) * half);
  }
  return { data: out, chains: 2 * a.chains, draws: half };
}

/** Same shape, values mapped element-wise. */
export function mapChains(a: Chains, f: (v: number) => number): Chains {
  const out = new Float64Array(a.data.length);
  for (let i = 0; i < out.length; i++) out[i] = f(a.data[i]!);
  return { data: out, chains: a.chains, draws: a.draws };
}

export function mean(x: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]!;
  return s / x.length;
}

/** Variance with `ddof` (NumPy's `var`: mean first, then squared deviations). */
export function variance(x: Float64Array, ddof: number): number {
  const m = mean(x);
  let s = 0;
  for (let i = 0; i < x.length; i++) { const d = x[i]! - m; s += d * d; }
  return s / (x.length - ddof);
}

/** Per-chain means. */
export function chainMeans(a: Chains): Float64Array {
  const out = new Float64Array(a.chains);
  for (let c = 0; c < a.chains; c++) out[c] = mean(a.data.subarray(c * a.draws, (c + 1) * a.draws));
  return out;
}

/**
 * ArviZ's `_z_scale`: average ranks over all draws (ties share their mean rank), Blom's
 * fractional offset `(r − 3/8) / (S − 3/4 + 1)`, then the normal quantile. Each draw's position
 * comes from {@link sortOrder}; where that declines (a NaN, a big-endian machine), from a binary
 * search in the sorted draws: `sortedData`, when the caller has it, is `a.data` sorted (the same
 * values in any order sort to the same bits), so they are not sorted again.
 */
export function zScale(a: Chains, sortedData?: Float64Array): Chains {
  const x = a.data;
  const size = x.length;
  const c = 3 / 8;
  const denom = size - 2 * c + 1;
  const untied = untiedScores(size);
  const order = sortOrder(x);
  if (order !== undefined) {
    // Each sorted position's draw gets its score straight (no search for it in the sorted draws).
    const out = new Float64Array(size);
    for (let i = 0; i < size;) {
      const v = x[order[i]!]!;
      let j = i + 1;
      while (j < size && x[order[j]!] === v) j++;
      const z = j === i + 1 ? untied[i]! : normalPpf(((i + 1 + j) / 2 - c) / denom);
      for (let k = i; k < j; k++) out[order[k]!] = z;
      i = j;
    }
    return { data: out, chains: a.chains, draws: a.draws };
  }
  const sortedX = sortedData ?? Float64Array.from(x).sort();
  // Score of each sorted position: ties at positions [i, j) share the mean 1-based rank (i+1+j)/2.
  const scores = new Float64Array(size);
  for (let i = 0; i < size;) {
    let j = i + 1;
    while (j < size && sortedX[j] === sortedX[i]) j++;
    const z = j === i + 1 ? untied[i]! : normalPpf(((i + 1 + j) / 2 - c) / denom);
    for (let k = i; k < j; k++) scores[k] = z;
    i = j;
  }
  const out = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    const v = x[i]!;
    let lo = 0;
    let hi = size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sortedX[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    out[i] = scores[lo]!;
  }
  return { data: out, chains: a.chains, draws: a.draws };
}

/** Whether this machine stores a float64's low 32-bit word first (every platform Node runs on); else {@link sortOrder} declines. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The positions of `x` in ascending order of value (−0 before +0, as `Float64Array.prototype.sort`
 * puts them; equal values in any order), by a radix sort of the values' bits: eight passes of
 * 8 bits over keys that order as the numbers do, a pass skipped when all keys share its byte.
 * Undefined when `x` holds a NaN or on a big-endian machine (the caller sorts and searches).
 */
function sortOrder(x: Float64Array): Uint32Array | undefined {
  if (!LITTLE_ENDIAN) return undefined;
  const n = x.length;
  const words = new Uint32Array(x.buffer, x.byteOffset, 2 * n);
  const lo = new Uint32Array(n), hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    if (x[i] !== x[i]) return undefined;
    const h = words[2 * i + 1]!, l = words[2 * i]!;
    // a negative number's bits, all flipped, order as its value; a positive one's with the sign bit set
    if (h >>> 31 === 1) { hi[i] = ~h >>> 0; lo[i] = ~l >>> 0; } else { hi[i] = (h | 0x80000000) >>> 0; lo[i] = l; }
  }
  let order = new Uint32Array(n), spare = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // every pass's histogram in one read of the keys
  const counts = new Uint32Array(8 * 256);
  for (let i = 0; i < n; i++) {
    const l = lo[i]!, h = hi[i]!;
    counts[l & 255]!++; counts[256 + ((l >>> 8) & 255)]!++; counts[512 + ((l >>> 16) & 255)]!++; counts[768 + (l >>> 24)]!++;
    counts[1024 + (h & 255)]!++; counts[1280 + ((h >>> 8) & 255)]!++; counts[1536 + ((h >>> 16) & 255)]!++; counts[1792 + (h >>> 24)]!++;
  }
  for (let pass = 0; pass < 8; pass++) {
    const key = pass < 4 ? lo : hi, shift = 8 * (pass & 3);
    const count = counts.subarray(256 * pass, 256 * (pass + 1));
    if (n === 0 || count[(key[0]! >>> shift) & 255] === n) continue;
    for (let b = 0, at = 0; b < 256; b++) { const m = count[b]!; count[b] = at; at += m; }
    for (let i = 0; i < n; i++) { const k = order[i]!; spare[count[(key[k]! >>> shift) & 255]!++] = k; }
    [order, spare] = [spare, order];
  }
  return order;
}

/** {@link zScale}'s score of each position when it is not tied, per size (the last few sizes: every quantity of a run has the same). */
const untiedCache = new Map<number, Float64Array>();

function untiedScores(size: number): Float64Array {
  let t = untiedCache.get(size);
  if (t === undefined) {
    const c = 3 / 8;
    const denom = size - 2 * c + 1;
    t = new Float64Array(size);
    // the very expression zScale evaluates for a run [i, i + 1), so the same bits
    for (let i = 0; i < size; i++) t[i] = normalPpf(((i + 1 + (i + 1)) / 2 - c) / denom);
    if (untiedCache.size >= 8) untiedCache.delete(untiedCache.keys().next().value!);
    untiedCache.set(size, t);
  }
  return t;
}

/** Python's builtin `max(a, b)`: keeps `a` unless `b > a` (so a leading NaN wins). */
export function pyMax(a: number, b: number): number {
  return b > a ? b : a;
}

/** Python's builtin `min(a, b)`: keeps `a` unless `b < a`. */
export function pyMin(a: number, b: number): number {
  return b < a ? b : a;
}
