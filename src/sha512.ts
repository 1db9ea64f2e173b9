/**
 * SHA-512 (FIPS 180-4 §6.4), synchronous and dependency-free so the core runs unchanged in
 * browsers, plus `saltToInt`, TFP's salt hash. 64-bit words are held as (hi, lo) pairs of
 * uint32 in typed arrays; no BigInt in the compression loop.
 */

import { fail } from './checks.js';

const TWO_32 = 4294967296;

/** ⌊x^(1/k)⌋ for a non-negative bigint (Newton's method from above). */
function iroot(x: bigint, k: bigint): bigint {
  if (x < 2n) return x;
  let r = 1n << (BigInt(x.toString(2).length) / k + 1n); // ≥ the root
  for (;;) {
    const next = ((k - 1n) * r + x / r ** (k - 1n)) / k;
    if (next >= r) return r;
    r = next;
  }
}

/** The first n primes. */
function primes(n: number): number[] {
  const out: number[] = [];
  for (let c = 2; out.length < n; c++) if (out.every((p) => c % p !== 0)) out.push(c);
  return out;
}

/**
 * The first 64 bits of the fractional part of p^(1/k) for each prime, as (hi, lo) word pairs:
 * ⌊p^(1/k) · 2^64⌋ mod 2^64 = ⌊(p · 2^(64k))^(1/k)⌋ mod 2^64, computed exactly. These are the
 * constants K (cube roots of the first 80 primes, §4.2.3) and H(0) (square roots of the first 8
 * primes, §5.3.5), derived here rather than typed in.
 */
function rootFractions(ps: number[], k: number): Uint32Array {
  const out = new Uint32Array(2 * ps.length);
  ps.forEach((p, i) => {
    const f = BigInt.asUintN(64, iroot(BigInt(p) << BigInt(64 * k), BigInt(k)));
    out[2 * i] = Number(f >> 32n);
    out[2 * i + 1] = Number(f & 0xffffffffn);
  });
  return out;
}

let K: Uint32Array | undefined;
let H0: Uint32Array | undefined;

/** The message schedule and working state, reused between calls (the function is synchronous). */
const W = new Uint32Array(160);

/** Processes one 128-byte block at `off` into the hash state `h` (16 words: hi, lo × 8). */
function compress(h: Uint32Array, block: Uint8Array, off: number, k: Uint32Array): void {
  for (let t = 0; t < 16; t++) {
    const b = off + 8 * t;
    W[2 * t] = ((block[b]! << 24) | (block[b + 1]! << 16) | (block[b + 2]! << 8) | block[b + 3]!) >>> 0;
    W[2 * t + 1] = ((block[b + 4]! << 24) | (block[b + 5]! << 16) | (block[b + 6]! << 8) | block[b + 7]!) >>> 0;
  }
  for (let t = 16; t < 80; t++) {
    // σ1(W[t−2]) = ROTR19 ⊕ ROTR61 ⊕ SHR6
    let xh = W[2 * (t - 2)]!, xl = W[2 * (t - 2) + 1]!;
    const s1h = ((xh >>> 19) | (xl << 13)) ^ ((xl >>> 29) | (xh << 3)) ^ (xh >>> 6);
    const s1l = ((xl >>> 19) | (xh << 13)) ^ ((xh >>> 29) | (xl << 3)) ^ ((xl >>> 6) | (xh << 26));
    // σ0(W[t−15]) = ROTR1 ⊕ ROTR8 ⊕ SHR7
    xh = W[2 * (t - 15)]!; xl = W[2 * (t - 15) + 1]!;
    const s0h = ((xh >>> 1) | (xl << 31)) ^ ((xh >>> 8) | (xl << 24)) ^ (xh >>> 7);
    const s0l = ((xl >>> 1) | (xh << 31)) ^ ((xl >>> 8) | (xh << 24)) ^ ((xl >>> 7) | (xh << 25));
    const lo = (s1l >>> 0) + W[2 * (t - 7) + 1]! + (s0l >>> 0) + W[2 * (t - 16) + 1]!;
    W[2 * t + 1] = lo;
    W[2 * t] = (s1h >>> 0) + W[2 * (t - 7)]! + (s0h >>> 0) + W[2 * (t - 16)]! + Math.floor(lo / TWO_32);
  }

  let ah = h[0]!, al = h[1]!, bh = h[2]!, bl = h[3]!, ch = h[4]!, cl = h[5]!, dh = h[6]!, dl = h[7]!;
  let eh = h[8]!, el = h[9]!, fh = h[10]!, fl = h[11]!, gh = h[12]!, gl = h[13]!, hh = h[14]!, hl = h[15]!;
  for (let t = 0; t < 80; t++) {
    // Σ1(e) = ROTR14 ⊕ ROTR18 ⊕ ROTR41;  Ch(e, f, g) = (e ∧ f) ⊕ (¬e ∧ g)
    const S1h = ((eh >>> 14) | (el << 18)) ^ ((eh >>> 18) | (el << 14)) ^ ((el >>> 9) | (eh << 23));
    const S1l = ((el >>> 14) | (eh << 18)) ^ ((el >>> 18) | (eh << 14)) ^ ((eh >>> 9) | (el << 23));
    const chh = (eh & fh) ^ (~eh & gh);
    const chl = (el & fl) ^ (~el & gl);
    const t1l = hl + (S1l >>> 0) + (chl >>> 0) + k[2 * t + 1]! + W[2 * t + 1]!;
    const t1h = hh + (S1h >>> 0) + (chh >>> 0) + k[2 * t]! + W[2 * t]! + Math.floor(t1l / TWO_32);
    // Σ0(a) = ROTR28 ⊕ ROTR34 ⊕ ROTR39;  Maj(a, b, c) = (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c)
    const S0h = ((ah >>> 28) | (al << 4)) ^ ((al >>> 2) | (ah << 30)) ^ ((al >>> 7) | (ah << 25));
    const S0l = ((al >>> 28) | (ah << 4)) ^ ((ah >>> 2) | (al << 30)) ^ ((ah >>> 7) | (al << 25));
    const mjh = (ah & bh) ^ (ah & ch) ^ (bh & ch);
    const mjl = (al & bl) ^ (al & cl) ^ (bl & cl);
    const t2l = (S0l >>> 0) + (mjl >>> 0);
    const t2h = (S0h >>> 0) + (mjh >>> 0) + Math.floor(t2l / TWO_32);
    hh = gh; hl = gl; gh = fh; gl = fl; fh = eh; fl = el;
    const nel = dl + (t1l >>> 0);
    eh = (dh + t1h + Math.floor(nel / TWO_32)) >>> 0; el = nel >>> 0;
    dh = ch; dl = cl; ch = bh; cl = bl; bh = ah; bl = al;
    const nal = (t1l >>> 0) + (t2l >>> 0);
    ah = ((t1h >>> 0) + (t2h >>> 0) + Math.floor(nal / TWO_32)) >>> 0; al = nal >>> 0;
  }
  const v = [ah, al, bh, bl, ch, cl, dh, dl, eh, el, fh, fl, gh, gl, hh, hl];
  for (let i = 0; i < 16; i += 2) {
    const lo = h[i + 1]! + v[i + 1]!;
    h[i + 1] = lo;
    h[i] = h[i]! + v[i]! + Math.floor(lo / TWO_32);
  }
}

/**
 * The SHA-512 digest of `bytes` (FIPS 180-4), 64 bytes.
 *
 * @param bytes the message; any length up to 2^53 − 1 bits.
 * @throws TypeError when `bytes` is not a Uint8Array.
 * @example
 * sha512(new TextEncoder().encode('abc')).subarray(0, 4); // Uint8Array [221, 175, 53, 161] (0xddaf35a1…)
 */
export function sha512(bytes: Uint8Array): Uint8Array {
  if (!(bytes instanceof Uint8Array)) fail('type', 'sha512', 'bytes', 'must be a Uint8Array', bytes);
  K ??= rootFractions(primes(80), 3);
  H0 ??= rootFractions(primes(8), 2);
  const h = H0.slice();
  const n = bytes.length;
  const full = n - (n % 128);
  for (let off = 0; off < full; off += 128) compress(h, bytes, off, K);
  // Padding (§5.1.2): the tail, a 1 bit, zeros to 112 mod 128 bytes, then the bit length as a
  // 128-bit big-endian integer (lengths here stay below 2^53 bits, so the top 64 bits are 0).
  const tail = new Uint8Array(n - full + 17 <= 128 ? 128 : 256);
  tail.set(bytes.subarray(full));
  tail[n - full] = 0x80;
  const bits = n * 8;
  const end = tail.length;
  const hiBits = Math.floor(bits / TWO_32), loBits = bits >>> 0;
  for (let i = 0; i < 4; i++) {
    tail[end - 1 - i] = (loBits >>> (8 * i)) & 0xff;
    tail[end - 5 - i] = (hiBits >>> (8 * i)) & 0xff;
  }
  for (let off = 0; off < end; off += 128) compress(h, tail, off, K);
  const out = new Uint8Array(64);
  for (let i = 0; i < 16; i++) {
    const w = h[i]!;
    out[4 * i] = w >>> 24; out[4 * i + 1] = (w >>> 16) & 0xff; out[4 * i + 2] = (w >>> 8) & 0xff; out[4 * i + 3] = w & 0xff;
  }
  return out;
}

const SALT_MODULUS = 2147483647; // 2^31 − 1
const saltCache = new Map<string, number>();
let encoder: TextEncoder | undefined;

/**
 * TFP's salt hash: the SHA-512 digest of the UTF-8 bytes of `salt`, read as one big-endian
 * 512-bit integer, mod 2^31 − 1 (TFP's `sanitize_seed` since July 2024). Results are cached,
 * so salting in a hot loop costs a map lookup.
 *
 * @throws TypeError when `salt` is not a string; RangeError when it holds a lone surrogate
 *   (which has no UTF-8 encoding; Python would refuse to encode it too).
 * @example
 * saltToInt('gamma'); // 589445474
 */
export function saltToInt(salt: string): number {
  const cached = saltCache.get(salt);
  if (cached !== undefined) return cached;
  if (typeof salt !== 'string') fail('type', 'saltToInt', 'salt', 'must be a string', salt);
  if (/\p{Cs}/u.test(salt)) fail('range', 'saltToInt', 'salt', 'must not contain a lone surrogate (it has no UTF-8 encoding)', salt);
  encoder ??= new TextEncoder();
  const digest = sha512(encoder.encode(salt));
  let r = 0;
  for (const b of digest) r = (r * 256 + b) % SALT_MODULUS; // Horner; r·256 + b < 2^39 stays exact
  if (saltCache.size < 4096) saltCache.set(salt, r);
  return r;
}
