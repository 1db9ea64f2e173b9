#!/usr/bin/env python3
"""Independent pure-NumPy reference model of parts of JAX 0.10.2 ``jax.random``.

Written from the specification in /work/shared/reference/jax-random.md
(sections 1-6 and 7.1) -- NOT by running JAX and NOT by copying JAX code.

Scope: threefry2x32 hash + array wrapper, seeding, split, fold_in, bits,
uniform (float32/float64, exact fused multiply-add model), randint (JAX >= 0.7.2
rules), bernoulli (mode 'low'), permutation and choice -- for all four modes
(x64 on/off x threefry_partitionable on/off).

Usage:
    python3 scripts/reference/jax_random_ref.py > test/random/fixtures/jax-random-numpy-ref.json

The script first runs a self-check against every known-answer value of the
spec that is in scope; any failure aborts with a non-zero exit status and
nothing is written to stdout.  Diagnostics go to stderr.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

U32 = np.uint32
U64 = np.uint64
MASK32 = 0xFFFFFFFF
MASK64 = 0xFFFFFFFFFFFFFFFF


@dataclass(frozen=True)
class Mode:
    x64: bool
    partitionable: bool

    def as_json(self):
        return {"x64": self.x64, "partitionable": self.partitionable}


ALL_MODES = [Mode(x64, part) for x64 in (False, True) for part in (True, False)]


def default_int(mode: Mode):
    return np.dtype(np.int64) if mode.x64 else np.dtype(np.int32)


def default_float(mode: Mode):
    return np.dtype(np.float64) if mode.x64 else np.dtype(np.float32)


def prod(shape):
    n = 1
    for s in shape:
        n *= int(s)
    return n


def norm_shape(shape):
    if shape is None:
        return None
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


# ---------------------------------------------------------------------------
# §1  Threefry-2x32, 20 rounds
# ---------------------------------------------------------------------------
ROT_A = (13, 15, 26, 6)
ROT_B = (17, 29, 16, 24)
PARITY = 0x1BD11BDA


def threefry_hash(key, x0, x1):
    """Elementwise Threefry-2x32-20.  key = (k0, k1) ints; x0, x1 uint32 arrays."""
    k0, k1 = int(key[0]) & MASK32, int(key[1]) & MASK32
    ks = (U32(k0), U32(k1), U32(k0 ^ k1 ^ PARITY))
    x0 = np.array(x0, dtype=U32, copy=True, ndmin=1)
    x1 = np.array(x1, dtype=U32, copy=True, ndmin=1)
    x0 += ks[0]
    x1 += ks[1]
    for g in range(1, 6):
        rots = ROT_A if g % 2 == 1 else ROT_B
        for r in rots:
            x0 += x1
            x1 = (x1 << U32(r)) | (x1 >> U32(32 - r))
            x1 ^= x0
        x0 += ks[g % 3]
        x1 += ks[(g + 1) % 3]
        x1 += U32(g)
    return x0, x1


def threefry_2x32(key, count):
    """§1.1 array wrapper with odd-length zero padding at the end."""
    count = np.asarray(count, dtype=U32)
    shape = count.shape
    flat = count.ravel()
    n = flat.size
    if n == 0:
        return np.zeros(shape, dtype=U32)
    if n % 2 == 1:
        flat = np.concatenate([flat, np.zeros(1, dtype=U32)])
    h = flat.size // 2
    y0, y1 = threefry_hash(key, flat[:h], flat[h:])
    return np.concatenate([y0, y1])[:n].reshape(shape)


def iota_2x32(n):
    i = np.arange(n, dtype=U64)
    return (i >> U64(32)).astype(U32), (i & U64(MASK32)).astype(U32)


# ---------------------------------------------------------------------------
# §2  Seeding
# ---------------------------------------------------------------------------
def key_from_seed(seed, mode: Mode):
    """Returns the key as a tuple (hi, lo) of Python ints."""
    if isinstance(seed, bool):
        raise TypeError("bool seed not supported")
    if isinstance(seed, int):
        if not (-(2 ** 63) <= seed < 2 ** 63):
            raise OverflowError("Python int seed outside int64 range")
        width = 64 if mode.x64 else 32   # int64, canonicalised (wrapping) to int32 in x32
    elif isinstance(seed, np.integer):
        width = seed.dtype.itemsize * 8
        if width < 32:
            raise NotImplementedError("seeds narrower than 32 bits are outside this model")
        if width == 64 and not mode.x64:
            width = 32                    # 64-bit dtypes become 32-bit in x32 (wrap)
        seed = int(seed)
    else:
        raise TypeError(f"unsupported seed type {type(seed)}")
    pattern = seed & ((1 << width) - 1)  # two's complement in its own width, zero-extended
    return (pattern >> 32) & MASK32, pattern & MASK32


# ---------------------------------------------------------------------------
# §3  split, §4 fold_in
# ---------------------------------------------------------------------------
def split(key, num, mode: Mode):
    """Returns uint32 array of shape (*num_shape, 2)."""
    shape = norm_shape(num)
    n = prod(shape)
    if mode.partitionable:
        hi, lo = iota_2x32(n)
        if n == 0:
            keys = np.zeros((0, 2), dtype=U32)
        else:
            y0, y1 = threefry_hash(key, hi, lo)
            keys = np.stack([y0, y1], axis=-1)
    else:
        words = threefry_2x32(key, np.arange(2 * n, dtype=U32))
        keys = words.reshape(n, 2)
    return keys.reshape(shape + (2,))


def key_tuple(k):
    return int(k[0]), int(k[1])


def fold_in(key, data):
    d = int(data) & MASK32
    y0, y1 = threefry_hash(key, [0], [d])
    return int(y0[0]), int(y1[0])


# ---------------------------------------------------------------------------
# §5  bits
# ---------------------------------------------------------------------------
UINT_BY_WIDTH = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16),
                 32: np.dtype(np.uint32), 64: np.dtype(np.uint64)}


def effective_bits_dtype(dtype, mode: Mode):
    dtype = np.dtype(dtype) if dtype is not None else (np.dtype(U64) if mode.x64 else np.dtype(U32))
    if dtype.kind != "u":
        raise TypeError("bits: only unsigned dtypes")
    if dtype.itemsize == 8 and not mode.x64:
        dtype = np.dtype(U32)             # uint64 requested in x32 -> uint32 (with a warning in JAX)
    return dtype


def raw_bits(key, shape, width, mode: Mode):
    shape = norm_shape(shape)
    n = prod(shape)
    out_dt = UINT_BY_WIDTH[width]
    if n == 0:
        return np.zeros(shape, dtype=out_dt)
    if mode.partitionable:
        hi, lo = iota_2x32(n)
        a, b = threefry_hash(key, hi, lo)
        if width == 64:
            out = (a.astype(U64) << U64(32)) | b.astype(U64)
        else:
            out = (a ^ b).astype(out_dt)          # truncating convert for 8/16
    else:
        max_count = (width * n + 31) // 32
        if max_count >= 2 ** 32 - 1:
            raise NotImplementedError("huge draws not modelled")
        words = threefry_2x32(key, np.arange(max_count, dtype=U32))
        if width == 32:
            out = words
        elif width == 64:
            out = (words[:n].astype(U64) << U64(32)) | words[n:2 * n].astype(U64)
        else:
            k = 32 // width
            j = np.arange(n)
            out = ((words[j // k] >> (width * (j % k)).astype(U32)) & U32((1 << width) - 1)).astype(out_dt)
    return out.reshape(shape)


def bits(key, shape, dtype, mode: Mode):
    dt = effective_bits_dtype(dtype, mode)
    return raw_bits(key, shape, dt.itemsize * 8, mode)


# ---------------------------------------------------------------------------
# Exact rounding helpers (for the FMA model)
# ---------------------------------------------------------------------------
FLOAT_FMT = {
    np.dtype(np.float32): (24, -126, 127),
    np.dtype(np.float64): (53, -1022, 1023),
}


def round_fraction(x: Fraction, dtype) -> float:
    """Correctly rounded (round-half-even) conversion of an exact rational to
    float32/float64.  Returns a Python float holding the exact dtype value.
    (Zero is returned as +0.0; callers deal with signed zero.)"""
    p, emin, emax = FLOAT_FMT[np.dtype(dtype)]
    if x == 0:
        return 0.0
    neg = x < 0
    a = -x if neg else x
    n, d = a.numerator, a.denominator
    e = n.bit_length() - d.bit_length()          # 2^(e-1) < a < 2^(e+1)
    ge = (n >= (d << e)) if e >= 0 else ((n << -e) >= d)
    if not ge:
        e -= 1                                     # now 2^e <= a < 2^(e+1)
    assert Fraction(2) ** e <= a < Fraction(2) ** (e + 1), (x, e)
    if e < emin:
        e = emin                                   # subnormal range: fixed quantum
    q = e - (p - 1)                               # quantum exponent
    if q >= 0:
        num, den = n, d << q
    else:
        num, den = n << (-q), d
    m, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and (m & 1)):
        m += 1
    if m.bit_length() - 1 + q > emax:             # value >= 2^(emax+1): overflow
        val = math.inf
    else:
        val = math.ldexp(float(m), q)             # exact: m <= 2^p fits in a double
    return -val if neg else val


def fma_exact(a, b, c, dtype) -> float:
    """round_dtype(a*b + c) with one rounding; a, b, c are values of dtype."""
    a, b, c = float(a), float(b), float(c)
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        # not reached by the fixture; IEEE semantics via numpy as a fallback
        return float(np.asarray(a * b + c, dtype))
    prod_ = Fraction(a) * Fraction(b)
    s = prod_ + Fraction(c)
    if s == 0:
        prod_neg = (math.copysign(1.0, a) * math.copysign(1.0, b)) < 0
        if prod_ == 0 and c == 0:
            both_neg = prod_neg and math.copysign(1.0, c) < 0
            return -0.0 if both_neg else 0.0
        return 0.0                                  # exact cancellation -> +0 (round-to-nearest)
    return round_fraction(s, dtype)


def exact_f32_from_decimal(s: str):
    return np.float32(round_fraction(Fraction(s), np.float32))


# ---------------------------------------------------------------------------
# §6.1  uniform
# ---------------------------------------------------------------------------
def uniform(key, shape=(), dtype=None, minval=0.0, maxval=1.0, mode: Mode = None):
    dtype = np.dtype(dtype) if dtype is not None else default_float(mode)
    if dtype == np.float64 and not mode.x64:
        dtype = np.dtype(np.float32)   # canonicalisation in x32
    shape = norm_shape(shape)
    if dtype == np.float32:
        b = raw_bits(key, shape, 32, mode)
        fb = (b >> U32(9)) | U32(0x3F800000)
        f = fb.view(np.float32) - np.float32(1.0)
    elif dtype == np.float64:
        b = raw_bits(key, shape, 64, mode)
        fb = (b >> U64(12)) | U64(0x3FF0000000000000)
        f = fb.view(np.float64) - np.float64(1.0)
    else:
        raise NotImplementedError(dtype)
    mn = dtype.type(minval)
    mx = dtype.type(maxval)
    span = dtype.type(mx - mn)          # rounded to dtype first
    flat = f.ravel()
    out = np.empty(flat.size, dtype=dtype)
    for i, fi in enumerate(flat):
        v = dtype.type(fma_exact(fi, span, mn, dtype))
        out[i] = v if v > mn else mn             # lax.max(mn, v)
    return out.reshape(shape)


# ---------------------------------------------------------------------------
# §6.2  randint
# ---------------------------------------------------------------------------
def iinfo(dtype):
    ii = np.iinfo(dtype)
    return int(ii.min), int(ii.max), ii.bits


def canonical_int_dtype(dtype, mode: Mode):
    if dtype is None:
        return default_int(mode)
    dtype = np.dtype(dtype)
    if dtype.kind not in "iu":
        raise TypeError("randint needs an integer dtype")
    if dtype.itemsize == 8 and not mode.x64:
        dtype = np.dtype(np.int32 if dtype.kind == "i" else np.uint32)
    return dtype


def clip(v, lo, hi):
    return max(lo, min(hi, v))


def randint(key, shape, minval, maxval, dtype=None, mode: Mode = None):
    shape = norm_shape(shape)
    T = canonical_int_dtype(dtype, mode)
    t_lo, t_hi, t_bits = iinfo(T)
    minval, maxval = int(minval), int(maxval)
    if t_bits < 32:
        # JAX >= 0.7.2: clip to the requested narrow dtype, sample as int32
        minval = clip(minval, t_lo, t_hi)
        maxval = clip(maxval, t_lo, t_hi + 1)
        D = np.dtype(np.int32)
    else:
        D = T
    d_lo, d_hi, nb = iinfo(D)
    maxval_out_of_range = maxval > d_hi
    minval = clip(minval, d_lo, d_hi)
    maxval = clip(maxval, d_lo, d_hi)
    M = 1 << nb
    k = split(key, 2, mode)
    k1, k2 = key_tuple(k[0]), key_tuple(k[1])
    hi = raw_bits(k1, shape, nb, mode).ravel()
    lo = raw_bits(k2, shape, nb, mode).ravel()

    def umod(x, s):
        return x if s == 0 else x % s           # XLA: unsigned x % 0 == x

    span = (maxval - minval) % M
    if maxval <= minval:
        span = 1
    elif maxval_out_of_range:
        span = (span + 1) % M
    mult = umod((1 << (nb // 2)) % M, span)
    mult = umod((mult * mult) % M, span)
    out = []
    for h, l in zip(hi.tolist(), lo.tolist()):
        off = umod((umod(h, span) * mult % M + umod(l, span)) % M, span)
        v = (minval + off) % M                   # wrapping add in D
        if D.kind == "i" and v >= M // 2:
            v -= M
        assert t_lo <= v <= t_hi
        out.append(v)
    return np.array(out, dtype=T).reshape(shape)


# ---------------------------------------------------------------------------
# §6.4  bernoulli ('low'), rademacher
# ---------------------------------------------------------------------------
def bernoulli(key, p=0.5, shape=None, mode: Mode = None):
    dt = default_float(mode)           # Python float / list p: f64 in x64, f32 in x32
    p_arr = np.asarray(p, dtype=dt)
    shape = p_arr.shape if shape is None else norm_shape(shape)
    u = uniform(key, shape, dt, 0.0, 1.0, mode)
    return u < p_arr


def rademacher(key, shape, mode: Mode):
    b = bernoulli(key, 0.5, shape, mode)
    return (2 * b.astype(default_int(mode)) - 1).astype(default_int(mode))


# ---------------------------------------------------------------------------
# §6.8  permutation
# ---------------------------------------------------------------------------
def num_rounds(n):
    return int(math.ceil(3.0 * math.log(max(1, n)) / math.log(2.0 ** 32 - 1)))


def shuffle(key, x, axis, mode: Mode):
    x = np.asarray(x)
    for _ in range(num_rounds(x.size)):
        ks = split(key, 2, mode)
        key, sub = key_tuple(ks[0]), key_tuple(ks[1])
        sk = raw_bits(sub, x.shape, 32, mode)
        order = np.argsort(sk, axis=axis, kind="stable")
        x = np.take_along_axis(x, order, axis=axis)
    return x


def permutation(key, x, axis=0, independent=False, mode: Mode = None):
    if isinstance(x, (int, np.integer)):
        return shuffle(key, np.arange(int(x), dtype=default_int(mode)), 0, mode)
    arr = np.asarray(x, dtype=default_int(mode))
    if independent or arr.ndim <= 1:
        return shuffle(key, arr, axis, mode)
    ind = shuffle(key, np.arange(arr.shape[axis], dtype=default_int(mode)), 0, mode)
    return np.take(arr, ind, axis=axis)


# ---------------------------------------------------------------------------
# §6.9  choice (+ cumsum via associative scan, gumbel 'low')
# ---------------------------------------------------------------------------
def assoc_cumsum(x):
    x = np.asarray(x)
    n = x.shape[0]
    if n < 2:
        return x.copy()
    m = n // 2
    pairs = x[0:2 * m:2] + x[1:2 * m:2]              # rounded in dtype
    odd = assoc_cumsum(pairs)                          # prefixes at indices 1,3,5,...
    out = np.empty_like(x)
    out[1::2] = odd
    out[0] = x[0]
    for k in range(1, (n - 1) // 2 + 1):               # even indices 2,4,...
        out[2 * k] = odd[k - 1] + x[2 * k]
    return out


def gumbel_low(key, shape, dtype, mode: Mode):
    dtype = np.dtype(dtype)
    u = uniform(key, shape, dtype, float(np.finfo(dtype).tiny), 1.0, mode)
    return -np.log(-np.log(u))


def choice(key, a, shape=(), replace=True, p=None, axis=0, mode: Mode = None):
    shape = norm_shape(shape)
    n_draws = prod(shape)
    di = default_int(mode)
    if isinstance(a, (int, np.integer)):
        arr, n = None, int(a)
    else:
        arr = np.asarray(a, dtype=di)
        n = arr.shape[axis]
    if n_draws > 0 and n == 0:
        raise ValueError("empty a")
    if not replace and n_draws > n:
        raise ValueError("cannot take a larger sample than population when replace=False")
    if p is None:
        if replace:
            ind = randint(key, shape, 0, n, di, mode).ravel()
            if arr is None:
                res = ind
            else:
                res = np.take(arr, ind, axis=axis)
        else:
            perm = permutation(key, n if arr is None else arr, axis, False, mode)
            res = np.take(perm, np.arange(n_draws), axis=axis)
    else:
        pdt = default_float(mode)
        p_arr = np.asarray(p, dtype=pdt)
        if p_arr.shape != (n,):
            raise ValueError("p must be 1-D of length n")
        if replace:
            c = assoc_cumsum(p_arr)
            u = uniform(key, shape, pdt, 0.0, 1.0, mode).ravel()
            r = c[-1] * (pdt.type(1) - u)
            ind = np.searchsorted(c, r, side="left").astype(np.int32)
        else:
            g = gumbel_low(key, (n,), pdt, mode) + np.log(p_arr)
            ind = np.argsort(-g, kind="stable")[:n_draws].astype(np.int32)
        res = ind if arr is None else np.take(arr, ind, axis=axis)
    if arr is None:
        return res.reshape(shape)
    return res.reshape(arr.shape[:axis] + shape + arr.shape[axis + 1:])


# ---------------------------------------------------------------------------
# Self-check against the spec's known-answer values
# ---------------------------------------------------------------------------
X32P, X32O = Mode(False, True), Mode(False, False)
X64P, X64O = Mode(True, True), Mode(True, False)


class Checker:
    def __init__(self):
        self.passed = []
        self.failed = []
        self.notes = []

    def check(self, name, got, expected):
        g = np.asarray(got)
        e = np.asarray(expected)
        ok = g.shape == e.shape and (g.dtype == e.dtype or True) and np.array_equal(g, e)
        (self.passed if ok else self.failed).append(name)
        if not ok:
            print(f"SELF-CHECK FAIL: {name}\n   got      {g.tolist()}\n   expected {e.tolist()}",
                  file=sys.stderr)


def f32s(strs):
    return np.array([exact_f32_from_decimal(s) for s in strs], dtype=np.float32)


def check_printed_f32(C, name, got, strs):
    """Compare float32 results with decimals printed by numpy/JAX.  Printed values
    with < 8 fractional digits are shortest round-trip reprs -> exact match.  NumPy's
    default array print (precision=8 fractional digits) can cut a value below its
    shortest repr; for those accept |got - printed| <= 0.5e-8 and record that."""
    got = np.asarray(got, dtype=np.float32).ravel()
    exact = f32s(strs)
    if np.array_equal(got, exact):
        C.check(name + " [exact f32]", got, exact)
        return
    ok = True
    for g, s in zip(got, strs):
        frac = len(s.split(".")[1]) if "." in s else 0
        if np.float32(g) == exact_f32_from_decimal(s):
            continue
        if frac >= 8 and abs(Fraction(float(g)) - Fraction(s)) <= Fraction(1, 2 * 10 ** frac):
            continue
        ok = False
    if ok:
        C.check(name + " [matches printed 8-fractional-digit decimals; not all shortest reprs]", True, True)
        C.notes.append(f"{name}: got {[repr(np.float32(v)) for v in got]} vs printed {strs} "
                       f"(printed with numpy's 8 fractional digits)")
    else:
        C.check(name, got, exact)


def self_check():
    C = Checker()
    # §1 Random123 vectors
    for k, x, y in [((0, 0), (0, 0), (0x6b200159, 0x99ba4efe)),
                    ((MASK32, MASK32), (MASK32, MASK32), (0x1cb996fc, 0xbb002be7)),
                    ((0x13198a2e, 0x03707344), (0x243f6a88, 0x85a308d3), (0xc4923a9c, 0x483df7a0))]:
        y0, y1 = threefry_hash(k, [x[0]], [x[1]])
        C.check(f"§1 Random123 key={k}", [int(y0[0]), int(y1[0])], list(y))
    # §1.1 wrapper values
    C.check("§1.1 threefry_2x32([0,0], arange(5))", threefry_2x32((0, 0), np.arange(5)),
            np.array([2467461003, 428148500, 1688610540, 3840466878, 2562233961], U32))
    C.check("§1.1 threefry_2x32([0,42], arange(4))", threefry_2x32((0, 42), np.arange(4)),
            np.array([2465931498, 3679230171, 255383827, 267815257], U32))
    # §2 seed table
    M = MASK32
    seed_table = [
        ("0", 0, [0, 0], [0, 0]),
        ("1", 1, [0, 1], [0, 1]),
        ("42", 42, [0, 42], [0, 42]),
        ("-1", -1, [0, M], [M, M]),
        ("np.int32(-2)", np.int32(-2), [0, 4294967294], [0, 4294967294]),
        ("np.int64(-3)", np.int64(-3), [0, 4294967293], [M, 4294967293]),
        ("2**31", 2 ** 31, [0, 2147483648], [0, 2147483648]),
        ("2**31-1+100", 2 ** 31 - 1 + 100, [0, 2147483747], [0, 2147483747]),
        ("np.uint32(2**31-1+101)", np.uint32(2 ** 31 - 1 + 101), [0, 2147483748], [0, 2147483748]),
        ("-2**31-100", -2 ** 31 - 100, [0, 2147483548], [M, 2147483548]),
        ("2**32+7", 2 ** 32 + 7, [0, 7], [1, 7]),
        ("-(2**40)-1", -(2 ** 40) - 1, [0, M], [4294967039, M]),
        ("2**63-1", 2 ** 63 - 1, [0, M], [2147483647, M]),
        ("np.uint64(2**64-1)", np.uint64(2 ** 64 - 1), [0, M], [M, M]),
    ]
    for name, seed, e32, e64 in seed_table:
        C.check(f"§2 seed {name} x32", list(key_from_seed(seed, X32P)), e32)
        C.check(f"§2 seed {name} x64", list(key_from_seed(seed, X64P)), e64)
    # §3.3 split table (same in x32/x64)
    split_table = [
        (0, 2, [[4146024105, 967050713], [2718843009, 1272950319]],
         [[1797259609, 2579123966], [928981903, 3453687069]]),
        (0, 3, [[2467461003, 428148500], [3186719485, 3840466878], [2562233961, 1946702221]],
         [[1797259609, 2579123966], [928981903, 3453687069], [4146024105, 2718843009]]),
        (0, 4, [[2285895361, 1501764800], [1518642379, 4090693311], [433833334, 4221794875],
                [839183663, 3740430601]],
         [[1797259609, 2579123966], [928981903, 3453687069], [4146024105, 2718843009],
          [2467461003, 3840466878]]),
        (1, 2, [[2441914641, 1384938218], [3819641963, 2025898573]],
         [[507451445, 1853169794], [1948878966, 4237131848]]),
        (1, 3, [[3568232559, 713140391], [3620866055, 2761185182], [2442350529, 2639019713]],
         [[507451445, 1853169794], [1948878966, 4237131848], [2441914641, 3819641963]]),
        (42, 2, [[2465931498, 3679230171], [255383827, 267815257]],
         [[1832780943, 270669613], [64467757, 2916123636]]),
        (42, 3, [[3134548294, 3733159049], [3746501087, 894150801], [801545058, 2363201431]],
         [[1832780943, 270669613], [64467757, 2916123636], [2465931498, 255383827]]),
        (0, (2, 3),
         [[[3792494674, 582972539], [2883479965, 3114868201], [1492792183, 3245818218]],
          [[2909014575, 82862454], [1782947029, 692041252], [1067690106, 2610540821]]],
         [[[1797259609, 2579123966], [928981903, 3453687069], [4146024105, 2718843009]],
          [[2467461003, 3840466878], [2285895361, 433833334], [1524306142, 1887795613]]]),
    ]
    for seed, num, eo, ep in split_table:
        for md, tag in ((X32O, "x32"), (X64O, "x64")):
            C.check(f"§3.3 split(key({seed}), {num}) orig {tag}",
                    split(key_from_seed(seed, md), num, md), np.array(eo, U32))
        for md, tag in ((X32P, "x32"), (X64P, "x64")):
            C.check(f"§3.3 split(key({seed}), {num}) part {tag}",
                    split(key_from_seed(seed, md), num, md), np.array(ep, U32))
    # §3.3 Common-Gotchas chained keys
    for md, e1, e2 in ((X32O, ([4146024105, 967050713], [2718843009, 1272950319]),
                        ([2384771982, 3928867769], [1278412471, 2182328957])),
                       (X32P, ([1797259609, 2579123966], [928981903, 3453687069]),
                        ([4165894930, 804218099], [1353695780, 2116000888]))):
        tag = "part" if md.partitionable else "orig"
        ks = split(key_from_seed(0, md), 2, md)
        C.check(f"§3.3 gotchas first split {tag}", ks, np.array(e1, U32))
        ks2 = split(key_tuple(ks[0]), 2, md)
        C.check(f"§3.3 gotchas second split {tag}", ks2, np.array(e2, U32))
    # §4 fold_in
    for seed, d, e in [(0, 0, [1797259609, 2579123966]), (0, 1, [928981903, 3453687069]),
                       (0, 4, [2285895361, 433833334]), (42, 123, [2238821533, 719561804]),
                       (0, np.int32(-1), [743310391, 3789761811])]:
        for md in ALL_MODES:
            C.check(f"§4 fold_in(key({seed}), {d!r}) {md}", list(fold_in(key_from_seed(seed, md), d)), e)
    # §3.2 property: partitionable split[i] == fold_in(i)
    for md in (X32P, X64P):
        k = key_from_seed(7, md)
        ks = split(k, 10, md)
        C.check(f"§3.2 split/fold_in symmetry {md}", ks, np.array([fold_in(k, i) for i in range(10)], U32))
    # §5.3 bits
    for md in (X32O, X64O):
        k = key_from_seed(1701, md)
        C.check(f"§5.3 bits(1701,(3,),u8) orig {md.x64}", bits(k, (3,), np.uint8, md), np.array([216, 115, 43], np.uint8))
        C.check(f"§5.3 bits(1701,(3,),u16) orig {md.x64}", bits(k, (3,), np.uint16, md), np.array([41682, 1300, 55017], np.uint16))
        C.check(f"§5.3 bits(1701,(3,),u32) orig {md.x64}", bits(k, (3,), np.uint32, md),
                np.array([56197195, 4200222568, 961309823], U32))
    C.check("§5.3 bits(1701,(3,),u64) orig x64", bits(key_from_seed(1701, X64O), (3,), np.uint64, X64O),
            np.array([3982329540505020460, 16822122385914693683, 7882654074788531506], U64))
    for md in (X32P, X64P):
        k = key_from_seed(1701, md)
        C.check(f"§5.3 bits(1701,(3,),u8) part {md.x64}", bits(k, (3,), np.uint8, md), np.array([37, 59, 52], np.uint8))
        C.check(f"§5.3 bits(1701,(3,),u16) part {md.x64}", bits(k, (3,), np.uint16, md), np.array([42789, 29755, 60468], np.uint16))
        C.check(f"§5.3 bits(1701,(3,),u32) part {md.x64}", bits(k, (3,), np.uint32, md),
                np.array([1111271205, 2679469115, 974515252], U32))
    # §7.1 bits rows (partitionable=False)
    for md in (X32O, X64O):
        k = key_from_seed(942802475, md)
        C.check(f"§7.1 bits u8 seed 942802475 x64={md.x64}", bits(k, (5,), np.uint8, md),
                np.array([10, 158, 82, 54, 158], np.uint8))
        C.check(f"§7.1 bits u16 seed 942802475 x64={md.x64}", bits(k, (5,), np.uint16, md),
                np.array([6738, 38161, 50695, 57337, 61600], np.uint16))
        C.check(f"§7.1 bits u32 seed 942802475 x64={md.x64}", bits(k, (5,), np.uint32, md),
                np.array([1978747883, 4134381225, 3628107870, 689687174, 2788938207], U32))
    C.check("§7.1 bits u64 seed 942802475 x64", bits(key_from_seed(942802475, X64O), (5,), np.uint64, X64O),
            np.array([17649965731882839947, 1415307058040849897, 8282622628079774249,
                      14024425113645909402, 2012979996110532418], U64))
    # §7.1 uniform (partitionable=True, x32)
    md = X32P
    k0 = key_from_seed(0, md)
    check_printed_f32(C, "§7.1 uniform(key(0)) = 0.947667", uniform(k0, (), np.float32, mode=md), ["0.947667"])
    sub = key_tuple(split(k0, 2, md)[1])
    check_printed_f32(C, "§7.1 uniform(split(key(0))[1]) = 0.00729382", uniform(sub, (), np.float32, mode=md),
                      ["0.00729382"])
    check_printed_f32(C, "§7.1 uniform(key(0),(3,))", uniform(k0, (3,), np.float32, mode=md),
            (["0.947667", "0.9785799", "0.33229148"]))
    k1701 = key_from_seed(1701, md)
    check_printed_f32(C, "§7.1 stateful uniform(fold_in(key(1701),0),(5,))", uniform(fold_in(k1701, 0), (5,), np.float32, mode=md),
            (["0.09609699", "0.26730824", "0.5619041", "0.24421775", "0.7715055"]))
    check_printed_f32(C, "§7.1 stateful uniform(fold_in(key(1701),1),(5,))", uniform(fold_in(k1701, 1), (5,), np.float32, mode=md),
            (["0.8131045", "0.33873856", "0.88808906", "0.96005905", "0.7616446"]))
    keys = split(fold_in(k0, 0), 5, md)
    vm = np.array([np.float32(i) + uniform(fold_in(key_tuple(keys[i]), 0), (), np.float32, mode=md)
                   for i in range(5)], dtype=np.float32)
    check_printed_f32(C, "§7.1 stateful vmap example", vm,
            (["0.07174575", "1.0163325", "2.0435536", "3.4391735", "4.534091"]))
    # §6.2 randint
    C.check("§6.2 randint(PRNGKey(0),(3,3),0,8,int32) orig x32",
            randint(key_from_seed(0, X32O), (3, 3), 0, 8, np.int32, X32O),
            np.array([[2, 1, 3], [6, 1, 5], [6, 3, 4]], np.int32))
    C.check("§6.2 randint(PRNGKey(0),(3,3),0,8,int64) orig x64",
            randint(key_from_seed(0, X64O), (3, 3), 0, 8, np.int64, X64O),
            np.array([[7, 2, 6], [2, 1, 0], [6, 7, 7]], np.int64))
    C.check("§6.2 randint(PRNGKey(0),(3,3),0,8,int32) part x32",
            randint(key_from_seed(0, X32P), (3, 3), 0, 8, np.int32, X32P),
            np.array([[5, 0, 0], [5, 3, 3], [0, 7, 5]], np.int32))
    # §7.1 rows (partitionable=False, x32)
    md = X32O
    C.check("§7.1 randint seed 1319372649 0..10 int32",
            randint(key_from_seed(1319372649, md), (5,), 0, 10, np.int32, md), np.array([0, 5, 7, 7, 5], np.int32))
    C.check("§7.1 bernoulli seed 1612777541 p=0.5",
            bernoulli(key_from_seed(1612777541, md), 0.5, (5,), md), np.array([False, True, True, True, False]))
    C.check("§7.1 rademacher seed 1719994501",
            rademacher(key_from_seed(1719994501, md), (5,), md), np.array([-1, -1, -1, -1, 1], np.int32))
    uexp = np.array([0.2986714839935303, 0.07321286201477051, 0.8733557462692261,
                     0.26054883003234863, 0.41279661655426025], dtype=np.float64)
    assert np.all(uexp.astype(np.float32).astype(np.float64) == uexp)   # printed values are exact f32 values
    C.check("§7.1 uniform seed 1338574713 (5,) f32",
            uniform(key_from_seed(1338574713, md), (5,), np.float32, mode=md), uexp.astype(np.float32))
    # extra internal consistency checks (not spec values)
    for mdx in ALL_MODES:
        k = key_from_seed(3, mdx)
        C.check(f"internal: bits(k,(2,3)) == bits(k,(6,)).reshape {mdx}",
                bits(k, (2, 3), np.uint32, mdx), bits(k, (6,), np.uint32, mdx).reshape(2, 3))
    for mdx in (X32P, X64P):
        k = key_from_seed(3, mdx)
        C.check(f"internal: partitionable prefix-stable {mdx}", bits(k, (3,), np.uint32, mdx),
                bits(k, (9,), np.uint32, mdx)[:3])
    # round_fraction sanity against numpy on random doubles -> float32
    rng = np.random.default_rng(12345)
    dd = rng.standard_normal(2000) * np.exp(rng.uniform(-60, 60, 2000))
    ok = all(np.float32(round_fraction(Fraction(float(v)), np.float32)) == np.float32(v) for v in dd)
    C.check("internal: round_fraction(double) == np.float32(double)", ok, True)
    ok = all(round_fraction(Fraction(float(v)) / 3, np.float64) == float(v) / 3 for v in dd)
    C.check("internal: round_fraction(double/3) == double/3", ok, True)
    rf = lambda x: round_fraction(x, np.float32)
    ties = [(Fraction(1) + Fraction(1, 2 ** 24), 1.0), (Fraction(1) + Fraction(3, 2 ** 24), 1 + 2 ** -22),
            (Fraction(1, 2 ** 150), 0.0), (Fraction(3, 2 ** 150), 2.0 ** -148),
            (Fraction(-3, 2 ** 150), -2.0 ** -148), (Fraction(2 ** 128 - 2 ** 103), math.inf),
            (Fraction(2 ** 128 - 2 ** 104), float(np.finfo(np.float32).max))]
    C.check("internal: round_fraction f32 half-even ties / subnormal / overflow",
            [rf(x) for x, _ in ties], [e for _, e in ties])
    C.check("internal: fma_exact f32 cancellation gives +0 and one rounding",
            [fma_exact(np.float32(0.5), np.float32(2), np.float32(-1), np.float32),
             fma_exact(np.float32(1 + 2 ** -23), np.float32(1 - 2 ** -23), np.float32(-1), np.float32)],
            [0.0, -(2.0 ** -46)])
    return C


# ---------------------------------------------------------------------------
# Fixture generation
# ---------------------------------------------------------------------------
SEEDS = [0, 1, 42, -1, 2 ** 32 + 7, 1701, 2718281828, -(2 ** 40) - 1, 2 ** 63 - 1,
         8675309123456789, -7046029254386353131, 123456789, 99991]
TWO53 = 2 ** 53


def enc_int(v):
    v = int(v)
    return str(v) if abs(v) > TWO53 else v


def encode_values(arr, dtype):
    dtype = np.dtype(dtype)
    flat = np.asarray(arr).ravel()
    extra = {}
    if dtype == np.bool_:
        vals = [bool(v) for v in flat]
    elif dtype in (np.dtype(np.int64), np.dtype(np.uint64)):
        vals = [str(int(v)) for v in flat]
    elif dtype.kind in "iu":
        vals = [int(v) for v in flat]
    elif dtype == np.float32:
        f = flat.astype(np.float32)
        vals = [float(v) for v in f]
        extra["bits32"] = [int(b) for b in f.view(np.uint32)]
    elif dtype == np.float64:
        f = flat.astype(np.float64)
        vals = [float(v) for v in f]
        extra["bits64"] = [str(int(b)) for b in f.view(np.uint64)]
    else:
        raise TypeError(dtype)
    return vals, extra


class Gen:
    def __init__(self):
        self.cases = []
        self.seed_i = 0

    def next_seed(self):
        s = SEEDS[self.seed_i % len(SEEDS)]
        self.seed_i += 1
        return s

    def add(self, fn, mode, seed, args, arr, dtype, **extra):
        dtype = np.dtype(dtype)
        vals, enc_extra = encode_values(arr, dtype)
        case = {"fn": fn, "mode": mode.as_json(), "seed": enc_int(seed),
                "key": list(key_from_seed(seed, mode)), "args": args,
                "dtype": dtype.name, "shape": list(np.shape(arr)), "values": vals}
        case.update(enc_extra)
        case.update(extra)
        self.cases.append(case)
        return case


def gen_fixture():
    G = Gen()
    bits_shapes = [[], [0], [1], [2], [3], [5], [7], [8], [17], [2, 3], [4, 5]]
    for md in ALL_MODES:
        # ---- bits
        for dname in ("uint8", "uint16", "uint32", "uint64"):
            for shp in bits_shapes:
                for _ in range(2):
                    s = G.next_seed()
                    out = bits(key_from_seed(s, md), shp, dname, md)
                    extra = {}
                    if out.dtype.name != dname:
                        extra["note"] = "uint64 requested in x32 mode: JAX returns uint32 (32-bit draws) with a warning"
                    G.add("bits", md, s, {"shape": shp, "dtype": dname}, out, out.dtype, **extra)
        # ---- split
        for num in (1, 2, 3, 4, 5, [2, 3], [2, 2, 2]):
            for _ in range(3):
                s = G.next_seed()
                out = split(key_from_seed(s, md), num, md)
                G.add("split", md, s, {"num": num}, out, np.uint32)
        # ---- foldIn
        for data in (0, 1, 4, 123, 2 ** 31, 2 ** 32 - 1):
            for _ in range(3):
                s = G.next_seed()
                out = np.array(fold_in(key_from_seed(s, md), data), dtype=U32)
                G.add("foldIn", md, s, {"data": data}, out, np.uint32)
        # ---- uniform
        frng = np.random.default_rng(20240611)
        rand_ranges = []
        for _ in range(6):
            a, b = sorted(frng.uniform(-10, 10, 2).tolist())
            rand_ranges.append((round(a, 6), round(b, 6)))
        ranges = [(0.0, 1.0), (-1.0, 1.0), (-3.5, 2.25), (1e-3, 1e3), (-1e6, -1e6 + 1), (0.0, 1e-30),
                  (5.0, 5.0), (-1e-3, 1e-3), (1.0, 0.0), (-2.0, -1.0), (0.1, 0.2)] + rand_ranges
        dts = ["float32", "float64"] if md.x64 else ["float32"]
        for dname in dts:
            for (lo, hi) in ranges:
                for shp in ([], [7], [64], [2, 3]):
                    s = G.next_seed()
                    out = uniform(key_from_seed(s, md), shp, dname, lo, hi, md)
                    G.add("uniform", md, s, {"shape": shp, "dtype": dname, "minval": lo, "maxval": hi},
                          out, dname)
        # ---- randint
        R = {
            "int8": [(0, 10), (-5, 5), (-128, 128), (-128, 127), (0, 8), (3, 3), (-200, 300), (10, 0)],
            "uint8": [(0, 10), (0, 256), (-10, 10), (0, 8), (3, 3), (250, 256), (0, 255), (0, 1000)],
            "int16": [(0, 10), (-5, 5), (-32768, 32768), (0, 2 ** 16), (-1000, 1000)],
            "uint16": [(0, 2 ** 16), (0, 2 ** 16 + 1), (0, 10), (-10, 10), (100, 1000)],
            "int32": [(0, 10), (0, 8), (-5, 5), (0, 2 ** 16), (0, 2 ** 16 + 1), (0, 2 ** 31),
                      (-2 ** 31, 2 ** 31), (-2 ** 31, 2 ** 31 - 1), (3, 3), (0, 2 ** 40),
                      (-1000, 1000), (0, 1), (5, -5), (0, 1000003)],
            "uint32": [(0, 10), (0, 2 ** 32), (0, 2 ** 31), (-10, 10), (0, 2 ** 32 - 1), (5, 3),
                       (0, 2 ** 16 + 1), (0, 3000000019)],
            "int64": [(0, 10), (-5, 5), (0, 2 ** 40), (-2 ** 63, 2 ** 63), (-2 ** 63, 2 ** 63 - 1),
                      (0, 2 ** 62 + 3), (3, 3), (0, 2 ** 32 + 1), (-2 ** 40, 2 ** 40), (0, 2 ** 31)],
            "uint64": [(0, 10), (0, 2 ** 64), (0, 2 ** 63), (0, 2 ** 40), (-10, 10), (0, 2 ** 64 - 1),
                       (0, 2 ** 32 + 1)],
            None: [(0, 10), (-5, 5), (0, 2 ** 31)],
        }
        py_lo, py_hi = (-(2 ** 63), 2 ** 63 - 1) if md.x64 else (-(2 ** 31), 2 ** 31 - 1)
        for dname, rngs in R.items():
            if dname in ("int64", "uint64") and not md.x64:
                continue
            for (lo, hi) in rngs:
                for shp in ([7], [2, 3]) + (([],) if (lo, hi) == (0, 10) else ()):
                    s = G.next_seed()
                    out = randint(key_from_seed(s, md), shp, lo, hi, dname, md)
                    extra = {}
                    if not (py_lo <= lo <= py_hi and py_lo <= hi <= py_hi):
                        extra["outsideJaxPythonIntRange"] = True
                    G.add("randint", md, s, {"shape": shp, "minval": enc_int(lo), "maxval": enc_int(hi),
                                             "dtype": dname}, out, out.dtype, **extra)
        # ---- bernoulli
        for p in (0.0, 0.3, 0.5, 1.0):
            for shp in ([], [5], [2, 3], [17]):
                s = G.next_seed()
                out = bernoulli(key_from_seed(s, md), p, shp, md)
                G.add("bernoulli", md, s, {"p": p, "shape": shp}, out, np.bool_,
                      pDtype=default_float(md).name)
        for shp in (None, [3], [2, 3], [4, 3]):
            for _ in range(2):
                s = G.next_seed()
                out = bernoulli(key_from_seed(s, md), [0.1, 0.9, 0.5], shp, md)
                G.add("bernoulli", md, s, {"p": [0.1, 0.9, 0.5], "shape": shp}, out, np.bool_,
                      pDtype=default_float(md).name)
        # ---- permutation
        di = default_int(md)
        for n in (0, 1, 2, 5, 10, 1000, 1626, 2000):
            for _ in range(2):
                s = G.next_seed()
                out = permutation(key_from_seed(s, md), n, 0, False, md)
                extra = {"rounds": num_rounds(n)}
                vals_arr = out
                if n in (1000, 1626):
                    vals_arr = out[:64]
                    extra.update({"valuesTruncated": True, "totalSize": n})
                extra["sum"] = enc_int(int(out.astype(object).sum()))
                extra["weightedSum"] = enc_int(int(sum((i + 1) * int(v) for i, v in enumerate(out.tolist()))))
                c = G.add("permutation", md, s, {"x": n, "axis": 0, "independent": False}, vals_arr, di, **extra)
                c["shape"] = list(out.shape)
        arrays = [
            [10, 20, 30, 40, 50, 60, 70],
            np.arange(12).reshape(3, 4).tolist(),
            (np.arange(20).reshape(4, 5) * 3 - 7).tolist(),
        ]
        for x in arrays:
            nd = np.asarray(x).ndim
            for axis in range(nd):
                for indep in (False, True):
                    for _ in range(2):
                        s = G.next_seed()
                        out = permutation(key_from_seed(s, md), x, axis, indep, md)
                        G.add("permutation", md, s, {"x": x, "axis": axis, "independent": indep}, out, di)
        # ---- choice
        p5 = [0.1, 0.2, 0.3, 0.15, 0.25]
        p10 = [0.05, 0.15, 0.0625, 0.1375, 0.1, 0.1, 0.2, 0.05, 0.075, 0.075]
        p7 = [1.0, 2.0, 3.0, 0.5, 0.25, 4.0, 1.25]   # unnormalised on purpose
        p3 = [0.2, 0.5, 0.3]
        p4 = [0.4, 0.1, 0.3, 0.2]
        choice_inputs = [(5, 0, p5), (10, 0, p10),
                         ([10, 20, 30, 40, 50, 60, 70], 0, p7),
                         (np.arange(12).reshape(3, 4).tolist(), 0, p3),
                         (np.arange(12).reshape(3, 4).tolist(), 1, p4)]
        for a, axis, pv in choice_inputs:
            n = a if isinstance(a, int) else np.asarray(a).shape[axis]
            for shp in ([], [3], [2, 3]):
                for replace in (True, False):
                    if not replace and prod(shp) > n:
                        continue
                    for p in (None, pv):
                        for _ in range(2):
                            s = G.next_seed()
                            out = choice(key_from_seed(s, md), a, shp, replace, p, axis, md)
                            extra = {}
                            if p is not None:
                                extra["pDtype"] = default_float(md).name
                                if not replace:
                                    extra["ulpSensitive"] = True
                            if isinstance(a, int) and p is not None:
                                extra["note"] = ("index dtype from searchsorted/top_k assumed int32; "
                                                 "values are what matters")
                            G.add("choice", md, s, {"a": a, "shape": shp, "replace": replace, "p": p,
                                                    "axis": axis}, out, out.dtype, **extra)
    return G.cases


def main():
    C = self_check()
    for n in C.passed:
        print(f"  ok: {n}", file=sys.stderr)
    for n in C.notes:
        print(f"  note: {n}", file=sys.stderr)
    print(f"self-check: {len(C.passed)} passed, {len(C.failed)} failed", file=sys.stderr)
    if C.failed:
        for n in C.failed:
            print(f"  FAILED: {n}", file=sys.stderr)
        sys.exit(1)
    cases = gen_fixture()
    counts = {}
    for c in cases:
        counts[c["fn"]] = counts.get(c["fn"], 0) + 1
    print(f"cases: {len(cases)} {counts}", file=sys.stderr)
    provenance = (
        "Generated by scripts/reference/jax_random_ref.py, an independent pure-NumPy model of jax 0.10.2 "
        "jax.random (threefry2x32; CPU semantics) written from /work/shared/reference/jax-random.md "
        "sections 1-6 and 7.1. NOT produced by running JAX. Command: "
        "python3 scripts/reference/jax_random_ref.py > test/random/fixtures/jax-random-numpy-ref.json "
        f"(python {sys.version.split()[0]}, numpy {np.__version__}). "
        f"Self-check passed {len(C.passed)}/{len(C.passed)} spec known-answer checks before writing. "
        "Encoding: values flat row-major; int64/uint64 values and integers > 2^53 as decimal strings; "
        "float32 values as exact doubles plus bits32 (uint32 patterns); float64 values as shortest-repr "
        "numbers plus bits64 (decimal strings); 'key' is the seed's [hi, lo] key data in that mode. "
        "uniform uses an exact fused multiply-add model (one rounding). "
        "randint cases flagged outsideJaxPythonIntRange use bounds that real JAX rejects as Python ints "
        "(OverflowError); their values follow the spec's mathematical clip/out-of-range model. "
        "Cases flagged ulpSensitive depend on log() rounding (numpy's log, not XLA's)."
    )
    out = sys.stdout
    out.write('{"provenance": ' + json.dumps(provenance) + ',\n "cases": [\n')
    out.write(",\n".join(json.dumps(c, separators=(",", ":")) for c in cases))
    out.write("\n]}\n")


if __name__ == "__main__":
    main()
