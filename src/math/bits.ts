/**
 * Exact bit access for src/math: doubles from their IEEE-754 bit patterns and a shared scratch
 * double whose 32-bit words can be read and written. Typed-array views of one buffer share the
 * platform's byte order, so these are exact and give the same results on every engine.
 *
 * The other src/math modules import these (and each other's exports) as a namespace and copy what
 * their hot code reads into module constants: an imported binding is live, so V8 reads it through
 * its module cell on every use, while a module constant costs less (measured: about 10% of
 * `detLog`).
 */

/** The double with the given IEEE-754 bit pattern (high and low 32-bit words). */
export function fromBits(hi: number, lo: number): number {
  const f = new Float64Array(1);
  const u = new Uint32Array(f.buffer);
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  u[little ? 1 : 0] = hi;
  u[little ? 0 : 1] = lo;
  return f[0]!;
}

const D_F64 = new Float64Array(1);
const D_U64 = new BigUint64Array(D_F64.buffer);

/** The double with the given 64-bit IEEE-754 bit pattern (a bigint such as 0x3ff0000000000000n). */
export function d(bits: bigint): number {
  D_U64[0] = bits;
  return D_F64[0]!;
}

/** Scratch double for reading and writing the words of a double (exact). */
export const BITS_F64 = offHeapF64(1);
/** The two 32-bit words of `BITS_F64`, signed; `BITS_I32[HI]` is the sign/exponent word. */
export const BITS_I32 = new Int32Array(BITS_F64.buffer);
/** Index of the high (sign, exponent, top 20 mantissa bits) word in `BITS_I32`. */
export const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
/** Index of the low 32 mantissa bits in `BITS_I32`. */
export const LO = 1 - HI;

/**
 * A Float64Array of n zeros stored off V8's heap, for the slots and small tables of the hot code:
 * V8 keeps a typed array of at most 64 bytes made by length (or from a list) in its heap, where
 * the data can move, so optimized code reloads its base and length and checks the index at every
 * access; made over its own ArrayBuffer, a module constant's address and length are compiled in.
 */
export function offHeapF64(n: number): Float64Array {
  return new Float64Array(new ArrayBuffer(8 * n));
}

/** SIGN[bit] = 1 or −1 for the sign bit `BITS_I32[HI] >>> 31` of a double: a sign applied by a multiplication (exact) rather than a branch, which random signs mispredict. */
export const SIGN = offHeapF64(2);
SIGN[0] = 1;
SIGN[1] = -1;

/** POW2[e + 1074] = 2^e for e in [−1074, 1023], exact (built from bit patterns). */
export const POW2_ALL = new Float64Array(2098);
for (let e = -1074; e <= 1023; e++) {
  POW2_ALL[e + 1074] = e >= -1022 ? fromBits((e + 1023) * 0x100000, 0) : e >= -1042
    ? fromBits(1 << (e + 1042), 0) : fromBits(0, (1 << (e + 1074)) >>> 0);
}
