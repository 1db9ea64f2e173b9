/**
 * The threefry fast path of gamma/loggamma (threefry2x32's `gamma` hook): JAX's `_gamma_one` loop run in lockstep over chunks
 * of elements. Each step is one Threefry-2x32-20 block per element under that element's key;
 * uniforms and normals are built from the block's words in place, exactly as `uniformUnit` and
 * `normalData` build them. Rejected elements (about 2% at a ≥ 1) stay on the active list for
 * another round, so nothing is approximated: the results equal gamma.ts's plain path bit for bit
 * (test/random/gamma.test.ts). Blocks of different elements are independent, so several are
 * computed side by side and the CPU overlaps them; nothing is allocated per value.
 */
import type { Modes } from '../config.js';
import { threefryFill, threefryLanes } from '../prng/index.js';
import type { FloatDType } from '../tensor/dtype.js';
import { erfinv32 } from './erfinv.js';
import { candidate, finish, rejected, rounder, SQUEEZE, THIRD, type FloatArray } from './gamma-steps.js';
import { normalFromUnit } from './normal-fill.js';
import { threefryIotaWords } from './threefry-iota.js';
import { unitF32, unitF64 } from './unit.js';
import { detLog1p } from '../math/index.js';

const SQRT2_F32 = Math.fround(Math.SQRT2);
const NORMAL_LO_F32 = -(1 - 2 ** -24);   // nextafter(-1, 0), as normalData uses it

/**
 * The unit uniform of a scalar draw from its block words (a, b), as uniformUnit builds it:
 * float64 takes y0:y1's top 52 bits; float32 takes the top 23 bits of y0 ^ y1 (partitionable)
 * or of y0 (original mode, where a size-1 draw is the first word of the padded pair).
 */
function unitOf(a: number, b: number, f32: boolean, part: boolean): number {
  return f32 ? unitF32(part ? a ^ b : a) : unitF64(a, b);
}

/**
 * Threefry-2x32-20 blocks for many keys, one block per key. The rounds are those of
 * src/prng/threefry.ts's kernels, written out here because those take one key per call and fill
 * a counter range, while gamma needs one block under each of many keys. Four blocks are
 * computed per iteration (four independent dependency chains, which the CPU overlaps: 30%
 * faster than one at a time). Words are int32; an output array may be its own key array (each
 * iteration reads its key words before writing).
 */

/** Two blocks per listed lane: `threefryLanes(kA, xA0, xA1, …, oA)` and the same for B. */
function hashLanes2(
  kA: Int32Array, xA0: number, xA1: number, oA: Int32Array,
  kB: Int32Array, xB0: number, xB1: number, oB: Int32Array, lanes: Int32Array, m: number,
): void {
  threefryLanes(kA, xA0, xA1, lanes, m, oA);
  threefryLanes(kB, xB0, xB1, lanes, m, oB);
}

/** Copies word pairs: dst[2j] = a[2j + aw], dst[2j + 1] = b[2j + bw], for the listed lanes. */
function gatherPair(dst: Int32Array, a: Int32Array, aw: number, b: Int32Array, bw: number, lanes: Int32Array, m: number): void {
  for (let t = 0; t < m; t++) {
    const j2 = 2 * lanes[t]!;
    dst[j2] = a[j2 + aw]!;
    dst[j2 + 1] = b[j2 + bw]!;
  }
}

/**
 * Float64 standard normals for the listed lanes from their draw blocks, exactly as normalData
 * computes them (√2·erfinv(2f + lo), f the 52-bit unit uniform of the block), into `xs`. The
 * lanes' uniforms are gathered into `arg` and transformed together by `normalFromUnit` (the
 * deterministic WebAssembly/JS transform); `byPath` is unused scratch kept for the caller.
 */
export function normals64(
  bits: Int32Array, lanes: Int32Array, m: number, xs: Float64Array, arg: Float64Array, _byPath: Int32Array,
): void {
  for (let t = 0; t < m; t++) {
    const j = lanes[t]!;
    arg[t] = unitF64(bits[2 * j]!, bits[2 * j + 1]!);
  }
  normalFromUnit(arg, 0, m);
  for (let t = 0; t < m; t++) xs[lanes[t]!] = arg[t]!;
}

const CHUNK = 1024;
const IOTA = Int32Array.from({ length: CHUNK }, (_, i) => i);

/** Per-call scratch: lane state for one chunk (allocated once per call, never per value). */
class Scratch {
  readonly keys = new Uint32Array(2 * CHUNK);
  readonly w: Int32Array[] = Array.from({ length: 12 }, () => new Int32Array(2 * CHUNK));
  readonly lanes = new Int32Array(CHUNK);
  readonly active = new Int32Array(CHUNK);
  readonly inner = new Int32Array(CHUNK);
  readonly boosted = new Int32Array(CHUNK);
  readonly d = new Float64Array(CHUNK);
  readonly c = new Float64Array(CHUNK);
  readonly x = new Float64Array(CHUNK);
  readonly V = new Float64Array(CHUNK);
  readonly arg = new Float64Array(CHUNK);
  readonly byPath = new Int32Array(CHUNK);
}

/**
 * The fast path over a threefry key: element i gets exactly what `gammaOne` computes from key i
 * of split(key, n). Each step of JAX's loop runs for all still-active lanes of a chunk before
 * the next. In partitionable mode a split's keys and a scalar draw are single blocks hashing
 * counters (0, i), and keys nobody reads (the loop's next key when the candidate is accepted,
 * the next xkey when v > 0) are never hashed. In original mode each split and scalar draw is
 * the §1.1 wrapper over a short iota, spelled out below.
 */
export function gammaThreefry(key: Uint32Array, alpha: ArrayLike<number>, out: FloatArray, logSpace: boolean, dtype: FloatDType, modes: Modes): void {
  const n = out.length;
  const step = alpha.length === 1 ? 0 : 1;
  const part = modes.partitionable;
  const f32 = dtype === 'float32';
  const r = rounder(dtype);
  const third = THIRD[dtype], squeeze = SQUEEZE[dtype];
  // A scalar draw hashes counter (0, 0), except a 64-bit draw in original mode: (0, 1).
  const drawX1 = !f32 && !part ? 1 : 0;
  // Element keys: partitionable split(key, n) is prefix-stable (key i hashes counter (0, i)), so
  // it is made chunk by chunk; original mode's depends on n and is made whole.
  const whole = part ? null : threefryIotaWords(key, 2 * n);   // threefry2x32.split(key, n) in original mode
  const allKeys = whole ? new Int32Array(whole.buffer, whole.byteOffset, whole.length) : null;
  const s = new Scratch();
  const chunkKeys = new Int32Array(s.keys.buffer);
  const [L, S, XK, UK, SK, NB, UB, P1, P2, P3, Q1, Q2] = s.w as [Int32Array, Int32Array, Int32Array, Int32Array,
    Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];
  const { lanes, active, inner, boosted, d: D, c: C, x: Xs, V: Vacc, arg, byPath } = s;
  let lastA = Number.NaN, lastD = Number.NaN, lastC = Number.NaN;

  for (let base = 0; base < n; base += CHUNK) {
    const cn = Math.min(CHUNK, n - base);
    let K: Int32Array = chunkKeys;
    if (allKeys) K = allKeys.subarray(2 * base, 2 * (base + cn));
    else threefryFill('blocks', key[0]!, key[1]!, 0, base, 0, cn, s.keys);

    // Per-lane constants; lanes that need no loop are finished here.
    let m = 0, mb = 0;
    if (step === 0) {                           // one shape for all: constants by fill
      const a = alpha[0]!;
      const d = r((a >= 1 ? a : r(a + 1)) - third);
      if (!(a >= 0)) out.fill(Number.NaN, base, base + cn);
      else if (d === Infinity) out.fill(finish(a, d, 1, 0, logSpace, r), base, base + cn);   // a = ∞: no loop
      else {
        D.fill(d, 0, cn);
        C.fill(r(third / r(Math.sqrt(d))), 0, cn);
        lanes.set(IOTA.subarray(0, cn));
        m = cn;
        if (a < 1) { boosted.set(IOTA.subarray(0, cn)); mb = cn; }
      }
    } else {
      for (let j = 0; j < cn; j++) {
        const a = alpha[base + j]!;
        if (!(a >= 0)) { out[base + j] = Number.NaN; continue; }
        if (a !== lastA) {
          lastA = a;
          lastD = r((a >= 1 ? a : r(a + 1)) - third);
          lastC = r(third / r(Math.sqrt(lastD)));
        }
        if (lastD === Infinity) { out[base + j] = finish(a, lastD, 1, 0, logSpace, r); continue; }
        D[j] = lastD;
        C[j] = lastC;
        lanes[m++] = j;
        if (a < 1) boosted[mb++] = j;
      }
    }

    // key, subkey = split(key): the loop key for every lane, the subkey where a < 1.
    if (part) {
      threefryLanes(K, 0, 0, lanes, m, L);
      threefryLanes(K, 0, 1, boosted, mb, S);
    } else {
      threefryLanes(K, 0, 2, lanes, m, Q1);
      threefryLanes(K, 1, 3, lanes, m, Q2);
      gatherPair(L, Q1, 0, Q2, 0, lanes, m);
      gatherPair(S, Q1, 1, Q2, 1, boosted, mb);
    }

    active.set(lanes.subarray(0, m));
    let ma = m;
    while (ma > 0) {
      // key, xkey, ukey = split(key, 3) and U's block from ukey. (The next key is hashed below,
      // for rejected lanes only.)
      if (part) {
        hashLanes2(L, 0, 1, XK, L, 0, 2, UK, active, ma);
      } else {
        threefryLanes(L, 0, 3, active, ma, P1);
        threefryLanes(L, 1, 4, active, ma, P2);
        threefryLanes(L, 2, 5, active, ma, P3);
        gatherPair(XK, P3, 0, P1, 1, active, ma);
        gatherPair(UK, P2, 1, P3, 1, active, ma);
      }
      // while v <= 0: xkey, sk = split(xkey); x = normal(sk); v = 1 + x·c. Each lane whose v > 0
      // is then tested at once (its U is drawn already): rejected lanes are listed in `active`
      // for the next round, accepted ones finished (boosted ones below).
      inner.set(active.subarray(0, ma));
      let mi = ma;
      let first = true;
      let rej = 0;
      while (mi > 0) {
        if (part && first) {
          hashLanes2(XK, 0, 1, SK, UK, 0, 0, UB, inner, mi);
        } else if (part) {
          threefryLanes(XK, 0, 1, inner, mi, SK);
        } else {
          threefryLanes(XK, 0, 2, inner, mi, Q1);
          threefryLanes(XK, 1, 3, inner, mi, Q2);
          gatherPair(SK, Q1, 1, Q2, 1, inner, mi);
          if (first) threefryLanes(UK, 0, drawX1, inner, mi, UB);
        }
        first = false;
        threefryLanes(SK, 0, drawX1, inner, mi, NB);
        if (f32) {
          for (let t = 0; t < mi; t++) {
            const j = inner[t]!;
            Xs[j] = Math.fround(SQRT2_F32 * erfinv32(2 * unitOf(NB[2 * j]!, NB[2 * j + 1]!, true, part) + NORMAL_LO_F32));
          }
        } else {
          normals64(NB, inner, mi, Xs, arg, byPath);
        }
        let k = 0;
        for (let t = 0; t < mi; t++) {
          const j = inner[t]!;
          const x = Xs[j]!;
          const v = candidate(x, C[j]!, f32);
          if (v <= 0) { inner[k++] = j; continue; }
          const X = r(x * x);
          const V = r(r(v * v) * v);
          if (rejected(X, V, unitOf(UB[2 * j]!, UB[2 * j + 1]!, f32, part), D[j]!, squeeze, r)) {
            active[rej++] = j;
          } else {
            const a = alpha[(base + j) * step]!;
            if (a >= 1) out[base + j] = finish(a, D[j]!, V, 0, logSpace, r);
            else Vacc[j] = V;
          }
        }
        if (k > 0) {
          if (part) threefryLanes(XK, 0, 0, inner, k, XK);
          else gatherPair(XK, Q1, 0, Q2, 0, inner, k);
        }
        mi = k;
      }
      if (rej > 0) {                              // key = split(key, 3)[0] for the next round
        if (part) threefryLanes(L, 0, 0, active, rej, L);
        else gatherPair(L, P1, 0, P2, 0, active, rej);
      }
      ma = rej;
    }

    // The boost draw from the subkey, where a < 1. loggamma's is −exponential(subkey) =
    // −round(−log1p(−u)) = round(log1p(−u)) exactly.
    threefryLanes(S, 0, drawX1, boosted, mb, UB);
    for (let t = 0; t < mb; t++) {
      const j = boosted[t]!;
      const u = unitOf(UB[2 * j]!, UB[2 * j + 1]!, f32, part);
      out[base + j] = finish(alpha[(base + j) * step]!, D[j]!, Vacc[j]!, logSpace ? r(detLog1p(-u)) : u, logSpace, r);
    }
  }
}
