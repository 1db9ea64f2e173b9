import v8 from 'node:v8';
import { configure, type ConfigureOptions } from '../src/config.js';
import { Tensor } from '../src/tensor/tensor.js';

/** Runs `f` with the given global modes, restoring the previous ones afterwards. */
export function withModes<T>(modes: ConfigureOptions, f: () => T): T {
  const previous = configure(modes);
  try {
    return f();
  } finally {
    configure(previous);
  }
}

/** The four JAX modes, for tests that loop over them. */
export const ALL_MODES = [
  { x64: true, threefryPartitionable: true },
  { x64: true, threefryPartitionable: false },
  { x64: false, threefryPartitionable: true },
  { x64: false, threefryPartitionable: false },
] as const;

/** The uint32 bit pattern of a float32, for bit-exact comparisons. */
export function f32Bits(x: number): number {
  const f = new Float32Array([x]);
  return new Uint32Array(f.buffer)[0]!;
}

/**
 * Deterministic pseudo-random numbers in [0, 1) from a 32-bit seed (mulberry32): test inputs
 * only, not a sampler.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EXACT_F64 = new Float64Array(1);
const EXACT_U64 = new BigUint64Array(EXACT_F64.buffer);

/** The exact decimal value of a finite double, as a string (every double is a finite decimal): for arbitrary-precision references. */
export function exactDecimal(x: number): string {
  EXACT_F64[0] = x;
  const bits = EXACT_U64[0]!;
  const neg = bits >> 63n === 1n;
  const be = Number((bits >> 52n) & 0x7ffn);
  let m = bits & ((1n << 52n) - 1n);
  let e = be - 1075;
  if (be === 0) e = -1074; else m |= 1n << 52n;
  let s: string;
  if (e >= 0) s = (m << BigInt(e)).toString();
  else {
    const digits = (m * 5n ** BigInt(-e)).toString().padStart(-e + 1, '0');
    s = `${digits.slice(0, digits.length + e)}.${digits.slice(digits.length + e)}`;
  }
  return neg ? `-${s}` : s;
}

const ULP_F64 = new Float64Array(1);
const ULP_U64 = new BigUint64Array(ULP_F64.buffer);

/** The ulp of the double v, from its exponent bits (2^−1074 below the normal range). */
export function ulp(v: number): number {
  const a = Math.abs(v);
  if (a < 2.2250738585072014e-308) return 2 ** -1074;
  ULP_F64[0] = a;
  return 2 ** (Number((ULP_U64[0]! >> 52n) & 0x7ffn) - 1075);
}

/** A deterministic uint32 stream (a 32-bit LCG with an xorshift on output): test inputs only. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s ^ (s >>> 13)) >>> 0;
  };
}

/**
 * Bytes allocated in V8's new space while `f` runs (synchronous, so nothing else allocates),
 * after warming `f` up; retried when a scavenge empties the space in between.
 */
export function newSpaceGrowth(f: () => void): number {
  for (let i = 0; i < 5; i++) f();
  const used = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_used_size;
  for (let attempt = 0; ; attempt++) {
    const before = used();
    f();
    const grown = used() - before;
    if (grown >= 0 || attempt >= 5) return grown;
  }
}

/** A float64 tensor of `shape` with entries uniform in (lo, hi), from mulberry32(seed). */
export function randTensor(shape: number[], seed: number, lo = -1, hi = 1): Tensor {
  const u = mulberry32(seed);
  return new Tensor(Float64Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => lo + (hi - lo) * u()), shape);
}

/**
 * Matrices [..., n, n] whose symmetric parts are positive definite: B·Bᵀ + n·I from random B,
 * plus `skew`·(i + j) below the diagonal (0: symmetric).
 */
export function spdTensor(shape: number[], seed: number, skew = 0): Tensor {
  const n = shape[shape.length - 1]!;
  const b = randTensor(shape, seed).data as Float64Array;
  const out = new Float64Array(b.length);
  for (let o = 0; o < b.length; o += n * n) {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        let s = i === j ? n : 0;
        for (let k = 0; k < n; k++) s += b[o + i * n + k]! * b[o + j * n + k]!;
        out[o + i * n + j] = i > j && skew !== 0 ? s + skew * (i + j) : s;
      }
    }
  }
  return new Tensor(out, shape);
}
