#!/usr/bin/env python3
"""Independent pure-NumPy reference model of the jax 0.10.2 ``jax.random`` samplers
that build on uniform: normal, truncated_normal, exponential, gumbel, categorical,
gamma, loggamma, beta, dirichlet, poisson, binomial, multinomial,
multivariate_normal, laplace, logistic, cauchy, t, chisquare, f, pareto,
weibull_min, rayleigh, maxwell, double_sided_maxwell, rademacher, geometric,
lognormal, triangular, wald, generalized_normal and ball.

Written from /work/shared/reference/jax-random.md (section 6 algorithms and
key-derivation order, section 7.1 values). It is NOT produced by running JAX and
does not copy JAX code.  Keys, bits, split and the uniform mantissa trick (with
an exact fused multiply-add) come from the sibling module jax_random_ref.py.

Arithmetic model
  * float32 samplers use float32 arithmetic (each op rounded to float32);
    float64 samplers use float64.
  * uniform(minval, maxval): exact FMA, one rounding (jax_random_ref.fma_exact).
  * erf_inv: float32 = Giles' single-precision polynomial (section 6.3),
    float64 = Giles' three-branch double-precision polynomial (XLA coefficients);
    w = -log1p(-x*x); Horner steps are exact FMAs with one rounding each.
  * Transcendentals (log, log1p, exp, sqrt, tan, pow, erf, lgamma): for
    float32 they are evaluated in float64 by NumPy / math and rounded to
    float32 (so nearly correctly rounded); for float64 NumPy directly.  XLA's
    own approximations differ by ulps, so fixture values are to be compared
    with a tolerance.  poisson's lgamma uses math.lgamma rounded to float32
    (XLA uses a Lanczos g=7 approximation).
  * FMA contraction: XLA:CPU fuses a multiply that feeds an add/sub into one
    FMA.  Besides uniform and the erf_inv Horner steps this is modelled at the
    obvious mul->add sites: gamma's v = 1 + x*c and 1 - 0.0331*X*X, poisson's
    and BTRS's constants / k / t / upper-bound terms, wald's two mul-adds,
    double_sided_maxwell's *scale + loc, maxwell's sum of squares and the
    multivariate_normal dot product (sequential FMA accumulation).  Evidence:
    with v = fma(x, c, 1) and the loggamma boost computed as log1p(-u) * (1/a)
    (spec §6.11 writes "ls / alpha"), the §7.1 gamma and loggamma rows match
    JAX bit for bit; with plain rounding or a true division they are 2-4 ulp off.
  * Integer-valued outputs that hinge on a floor() or an accept/reject
    comparison lying within a few ulps of its threshold are flagged
    "ulpSensitive" in the fixture.

Usage:
    python3 scripts/reference/jax_samplers_ref.py > test/random/fixtures/jax-samplers-numpy-ref.json

A self-check against the spec's known-answer values runs first; on any failure
the script exits non-zero and writes nothing to stdout.  Diagnostics: stderr.
"""

from __future__ import annotations

import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jax_random_ref as R  # noqa: E402
from jax_random_ref import (  # noqa: E402
    ALL_MODES, X32O, X32P, X64O, X64P, Mode, default_float, default_int, fma_exact,
    key_from_seed, key_tuple, norm_shape, prod, raw_bits, split,
)

np.seterr(all="ignore")

F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)
NMANT = {F32: 23, F64: 52}


def fdt(dtype, mode: Mode):
    """Canonical float dtype: None -> default float; float64 -> float32 in x32."""
    if dtype is None:
        return default_float(mode)
    d = np.dtype(dtype)
    if d.kind != "f":
        raise TypeError(f"float dtype required, got {d}")
    if d == F64 and not mode.x64:
        return F32
    return d


def idt(dtype, mode: Mode):
    if dtype is None:
        return default_int(mode)
    d = np.dtype(dtype)
    if d.itemsize == 8 and not mode.x64:
        d = np.dtype(np.int32 if d.kind == "i" else np.uint32)
    return d


def arr(x, dt):
    """Python number / nested list -> array of dt (exact double -> dt rounding)."""
    return np.asarray(np.asarray(x, dtype=np.float64), dtype=dt)


def kt2(key, n, mode):
    ks = split(key, n, mode)
    return [key_tuple(ks[i]) for i in range(n)]


# ---------------------------------------------------------------------------
# Sensitivity flags (decisions within a few ulps of a threshold)
# ---------------------------------------------------------------------------
class Sens:
    reasons: set = set()


def _eps(dt):
    return float(np.finfo(dt).eps)


def sens_floor(x, what, active=None, ulps=4):
    """Flag when floor()/ceil() input lies within `ulps` ulps of an integer."""
    x = np.asarray(x)
    ax = np.abs(x.astype(np.float64))
    d = np.abs(x.astype(np.float64) - np.rint(x.astype(np.float64)))
    tol = ulps * np.spacing(np.abs(x)).astype(np.float64)
    hit = np.isfinite(ax) & (d <= tol) & (ax != 0)        # exact zeros (e.g. 0/inf) are not fragile
    if active is not None:
        hit &= np.asarray(active)
    if np.any(hit):
        Sens.reasons.add(what)


def sens_cmp(a, b, scale, dt, what, active=None, ulps=8):
    """Flag when a and b (computed from operands of magnitude ~scale) are within
    `ulps` ulps of that scale."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    s = np.maximum(np.abs(np.asarray(scale, np.float64)), 1e-30)
    hit = np.isfinite(a) & np.isfinite(b) & (np.abs(a - b) <= ulps * _eps(dt) * s)
    if active is not None:
        hit &= np.asarray(active)
    if np.any(hit):
        Sens.reasons.add(what)


# ---------------------------------------------------------------------------
# Elementwise math in the sample dtype
# ---------------------------------------------------------------------------
def tr(fn, x):
    """Transcendental: float32 evaluated in float64 and rounded; float64 direct."""
    x = np.asarray(x)
    if x.dtype == F32:
        return np.asarray(fn(x.astype(np.float64))).astype(F32)
    if x.dtype == F64:
        return np.asarray(fn(x))
    raise TypeError(x.dtype)


def tpow(a, b):
    a = np.asarray(a)
    b = np.asarray(b, dtype=a.dtype)
    if a.dtype == F32:
        return np.asarray(np.power(a.astype(np.float64), b.astype(np.float64))).astype(F32)
    return np.asarray(np.power(a, b))


log = lambda x: tr(np.log, x)        # noqa: E731
log1p = lambda x: tr(np.log1p, x)    # noqa: E731
exp = lambda x: tr(np.exp, x)        # noqa: E731
sqrt = lambda x: tr(np.sqrt, x)      # noqa: E731  (sqrt is correctly rounded either way)
tan = lambda x: tr(np.tan, x)        # noqa: E731


def _erf_scalar(v):
    return math.erf(v) if math.isfinite(v) else (math.copysign(1.0, v) if not math.isnan(v) else v)


erf = lambda x: tr(np.vectorize(_erf_scalar, otypes=[np.float64]), x)   # noqa: E731


def _lgamma_scalar(v):
    if math.isnan(v):
        return v
    if math.isinf(v):
        return math.inf
    if v <= 0 and v == math.floor(v):
        return math.inf
    return math.lgamma(v)


lgamma = lambda x: tr(np.vectorize(_lgamma_scalar, otypes=[np.float64]), x)  # noqa: E731


# ---------------------------------------------------------------------------
# uniform on top of the sibling module
# ---------------------------------------------------------------------------
def unit_float(key, shape, dt, mode):
    """uniform(key, shape, dt) with the default [0, 1) range: the mantissa trick."""
    shape = norm_shape(shape)
    if dt == F32:
        b = raw_bits(key, shape, 32, mode)
        return ((b >> np.uint32(9)) | np.uint32(0x3F800000)).view(np.float32) - np.float32(1)
    b = raw_bits(key, shape, 64, mode)
    return ((b >> np.uint64(12)) | np.uint64(0x3FF0000000000000)).view(np.float64) - np.float64(1)


def uniform(key, shape, dt, minval, maxval, mode):
    """uniform with (possibly array) bounds: max(mn, fma(f, mx - mn, mn))."""
    shape = norm_shape(shape)
    f = unit_float(key, shape, dt, mode)
    mn = np.broadcast_to(np.asarray(minval, dtype=dt), shape)
    mx = np.broadcast_to(np.asarray(maxval, dtype=dt), shape)
    span = np.asarray(mx - mn, dtype=dt)
    out = np.empty(shape, dtype=dt)
    of, fm, sm, om = out.reshape(-1), f.reshape(-1), span.reshape(-1), np.array(mn).reshape(-1)
    for i in range(of.size):
        v = dt.type(fma_exact(fm[i], sm[i], om[i], dt))
        of[i] = v if v > om[i] else om[i]
    return out


# ---------------------------------------------------------------------------
# §6.3 erf_inv and normal
# ---------------------------------------------------------------------------
_E32_LT = ["2.81022636e-08", "3.43273939e-07", "-3.5233877e-06", "-4.39150654e-06", "0.00021858087",
           "-0.00125372503", "-0.00417768164", "0.246640727", "1.50140941"]
_E32_GE = ["-0.000200214257", "0.000100950558", "0.00134934322", "-0.00367342844", "0.00573950773",
           "-0.0076224613", "0.00943887047", "1.00167406", "2.83297682"]
E32_LT = [R.exact_f32_from_decimal(s) for s in _E32_LT]
E32_GE = [R.exact_f32_from_decimal(s) for s in _E32_GE]
E64_A = [-3.6444120640178196996e-21, -1.685059138182016589e-19, 1.2858480715256400167e-18,
         1.115787767802518096e-17, -1.333171662854620906e-16, 2.0972767875968561637e-17,
         6.6376381343583238325e-15, -4.0545662729752068639e-14, -8.1519341976054721522e-14,
         2.6335093153082322977e-12, -1.2975133253453532498e-11, -5.4154120542946279317e-11,
         1.051212273321532285e-09, -4.1126339803469836976e-09, -2.9070369957882005086e-08,
         4.2347877827932403518e-07, -1.3654692000834678645e-06, -1.3882523362786468719e-05,
         0.0001867342080340571352, -0.00074070253416626697512, -0.0060336708714301490533,
         0.24015818242558961693, 1.6536545626831027356]
E64_B = [2.2137376921775787049e-09, 9.0756561938885390979e-08, -2.7517406297064545428e-07,
         1.8239629214389227755e-08, 1.5027403968909827627e-06, -4.013867526981545969e-06,
         2.9234449089955446044e-06, 1.2475304481671778723e-05, -4.7318229009055733981e-05,
         6.8284851459573175448e-05, 2.4031110387097893999e-05, -0.0003550375203628474796,
         0.00095328937973738049703, -0.0016882755560235047313, 0.0024914420961078508066,
         -0.0037512085075692412107, 0.005370914553590063617, 1.0052589676941592334,
         3.0838856104922207635]
E64_C = [-2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
         -3.7894654401267369937e-09, 7.6157012080783393804e-09, -1.4960026627149240478e-08,
         2.9147953450901080826e-08, -6.7711997758452339498e-08, 2.2900482228026654717e-07,
         -9.9298272942317002539e-07, 4.5260625972231537039e-06, -1.9681778105531670567e-05,
         7.5995277030017761139e-05, -0.00021503011930044477347, -0.00013871931833623122026,
         1.0103004648645343977, 4.8499064014085844221]
assert (len(E64_A), len(E64_B), len(E64_C)) == (23, 19, 17)


def fma(a, b, c, dt):
    """Elementwise round_dt(a*b + c) with a single rounding (XLA:CPU contracts a
    multiply feeding an add/sub into an FMA)."""
    a, b, c = np.broadcast_arrays(np.asarray(a, dt), np.asarray(b, dt), np.asarray(c, dt))
    out = np.empty(a.shape, dt)
    for idx in np.ndindex(a.shape):
        out[idx] = fma_exact(a[idx], b[idx], c[idx], dt)
    return out


def _horner(C, w, dt):
    p = C[0]
    for c in C[1:]:
        p = dt.type(fma_exact(p, w, c, dt))     # p = c + p*w, one rounding
    return dt.type(p)


def erfinv_scalar(x, dt):
    T = dt.type
    x = T(x)
    v = T(x * T(-x))
    w = -T(np.log1p(np.float64(v))) if dt == F32 else -np.log1p(np.float64(v))
    w = T(w)
    if dt == F32:
        if w < T(5):
            w, C = T(w - T(2.5)), E32_LT
        else:
            w, C = T(np.sqrt(w) - T(3)), E32_GE
    else:
        if w < 6.25:
            w, C = T(w - 3.125), E64_A
        elif w < 16.0:
            w, C = T(np.sqrt(w) - 3.25), E64_B
        else:
            w, C = T(np.sqrt(w) - 5.0), E64_C
    if not np.isfinite(w):
        p = T(np.inf)
    else:
        p = _horner(C, w, dt)
    r = T(p * x)
    if abs(x) == T(1):
        r = T(x * T(np.inf))
    return r


def erfinv(x):
    x = np.asarray(x)
    dt = x.dtype
    out = np.empty(x.shape, dt)
    of, xf = out.reshape(-1), x.reshape(-1)
    for i in range(of.size):
        of[i] = erfinv_scalar(xf[i], dt)
    return out


def SQRT2(dt):
    return dt.type(np.sqrt(2.0))


def normal(key, shape=(), dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    lo = np.nextafter(dt.type(-1), dt.type(0))
    u = uniform(key, shape, dt, lo, dt.type(1), mode)
    return np.asarray(SQRT2(dt) * erfinv(u), dtype=dt)


# ---------------------------------------------------------------------------
# §6.10 truncated_normal
# ---------------------------------------------------------------------------
def truncated_normal(key, lower, upper, shape=None, dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    lower, upper = arr(lower, dt), arr(upper, dt)
    shape = np.broadcast_shapes(lower.shape, upper.shape) if shape is None else norm_shape(shape)
    s2 = SQRT2(dt)
    a = erf(np.asarray(lower / s2, dt))
    b = erf(np.asarray(upper / s2, dt))
    u = uniform(key, shape, dt, a, b, mode)
    out = np.asarray(s2 * erfinv(u), dt)
    lo = np.nextafter(lower, dt.type(np.inf))
    hi = np.nextafter(upper, dt.type(-np.inf))
    return np.minimum(np.maximum(out, lo), hi).astype(dt)


# ---------------------------------------------------------------------------
# §6.7 exponential, §6.5 gumbel, §6.6 categorical
# ---------------------------------------------------------------------------
def exponential(key, shape=(), dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    u = unit_float(key, shape, dt, mode)
    return np.asarray(-log1p(-u), dt)


def gumbel(key, shape=(), dtype=None, gmode=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    T = dt.type
    shape = norm_shape(shape)
    if gmode in (None, "low"):
        u = uniform(key, shape, dt, T(np.finfo(dt).tiny), T(1), mode)
        return np.asarray(-log(-log(u)), dt)
    if gmode == "high":
        u = unit_float(key, (2,) + shape, dt, mode)
        hi, lo = u[0], u[1]
        nm = NMANT[dt]
        small = T(max(2.0 ** -(2 * nm + 1), float(np.finfo(dt).tiny)))
        xs = np.asarray(np.asarray(hi + lo * T(2.0 ** -nm), dt) + small, dt)
        x = np.where(hi >= T(0.5), hi, xs).astype(dt)
        return np.asarray(-log(-log1p(-x)), dt)
    raise ValueError(gmode)


def categorical(key, logits, axis=-1, shape=None, replace=True, gmode=None, mode: Mode = None,
                logits_dtype=None):
    dt = fdt(logits_dtype, mode)
    L = arr(logits, dt)
    nd = L.ndim
    ax = axis % nd
    batch_shape = tuple(s for i, s in enumerate(L.shape) if i != ax)
    shape = batch_shape if shape is None else norm_shape(shape)
    if tuple(shape[len(shape) - len(batch_shape):]) != batch_shape:
        raise ValueError("shape must end with the batch shape")
    prefix = tuple(shape[:len(shape) - len(batch_shape)])
    if replace:
        lshape = list(shape[len(shape) - len(batch_shape):])
        lshape.insert(ax, L.shape[ax])
        g = gumbel(key, prefix + tuple(lshape), dt, gmode, mode)
        y = np.asarray(g + L.reshape((1,) * len(prefix) + L.shape), dt)
        yy = np.moveaxis(y, ax - nd, -1)
        srt = np.sort(yy, axis=-1)
        if yy.shape[-1] > 1:
            sens_cmp(srt[..., -1], srt[..., -2], np.abs(srt[..., -1]) + 1, dt, "categorical argmax near-tie")
        return np.argmax(y, axis=ax - nd).astype(default_int(mode))
    k = prod(prefix)
    if k > L.shape[ax]:
        raise ValueError("k larger than the number of categories")
    y = np.asarray(L + gumbel(key, L.shape, dt, gmode, mode), dt)
    yy = np.moveaxis(y, ax, -1)
    order = np.argsort(-yy, axis=-1, kind="stable")[..., :k]       # top_k: ties -> lower index first
    srt = -np.sort(-yy, axis=-1)
    if yy.shape[-1] > 1:
        kk = min(k + 1, yy.shape[-1])
        sens_cmp(srt[..., :kk - 1], srt[..., 1:kk], np.abs(srt[..., :kk - 1]) + 1, dt, "categorical top_k near-tie")
    return np.moveaxis(order, -1, 0).reshape(shape).astype(np.int32)


# ---------------------------------------------------------------------------
# §6.11 gamma / loggamma, §6.12 beta, §6.13 dirichlet
# ---------------------------------------------------------------------------
def gamma_one(key, alpha, log_space, dt, mode):
    T = dt.type
    one, zero = T(1), T(0)
    third = T(1.0 / 3.0)
    alpha = T(alpha)
    boost = bool(alpha >= one)
    alpha_orig = alpha
    A = alpha if boost else T(alpha + one)
    d = T(A - third)
    c = T(third / T(np.sqrt(d)))
    key, subkey = kt2(key, 2, mode)

    def cond(X, V, U):
        t1 = fma(T(-0.0331), T(X * X), one, dt)[()]           # 1 - 0.0331*X*X, contracted
        c1 = U >= t1
        lu = log(np.asarray(U, dt))[()]
        rhs = T(T(X * T(0.5)) + T(d * T(T(one - V) + log(np.asarray(V, dt))[()])))
        c2 = lu >= rhs
        sens_cmp(U, t1, 1.0, dt, "gamma squeeze test")
        sens_cmp(lu, rhs, max(abs(float(lu)), abs(float(d)) * (1 + abs(float(V))), abs(float(X))), dt,
                 "gamma log acceptance test")
        return bool(c1 and c2)

    X, V, U = zero, one, T(2)
    while cond(X, V, U):
        key, xkey, ukey = kt2(key, 3, mode)
        x, v = zero, T(-1)
        while v <= zero:
            xkey, sk = kt2(xkey, 2, mode)
            x = normal(sk, (), dt, mode)[()]
            v = fma(x, c, one, dt)[()]                      # 1 + x*c, contracted
        X = T(x * x)
        V = T(T(v * v) * v)
        U = unit_float(ukey, (), dt, mode)[()]
    if not log_space:
        s = T(one - unit_float(subkey, (), dt, mode)[()])
        bf = one if boost else tpow(np.asarray(s, dt), T(one / alpha_orig))[()]
        return T(T(d * V) * bf)
    ls = T(-exponential(subkey, (), dt, mode)[()])
    lb = zero if (boost or ls == zero) else T(ls * T(one / alpha_orig))     # ls * (1/alpha)
    return T(T(log(np.asarray(d, dt))[()] + log(np.asarray(V, dt))[()]) + lb)


def _gamma_impl(key, a, shape, dtype, mode, log_space):
    dt = fdt(dtype, mode)
    a = arr(a, dt)
    shape = a.shape if shape is None else norm_shape(shape)
    a = np.broadcast_to(a, shape)
    n = prod(shape)
    ks = split(key, n, mode).reshape(n, 2)
    af = np.array(a).reshape(-1)
    out = np.array([gamma_one(key_tuple(ks[i]), af[i], log_space, dt, mode) for i in range(n)], dtype=dt)
    return out.reshape(shape)


def gamma(key, a, shape=None, dtype=None, mode: Mode = None):
    return _gamma_impl(key, a, shape, dtype, mode, False)


def loggamma(key, a, shape=None, dtype=None, mode: Mode = None):
    return _gamma_impl(key, a, shape, dtype, mode, True)


def beta(key, a, b, shape=None, dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    a, b = arr(a, dt), arr(b, dt)
    shape = np.broadcast_shapes(a.shape, b.shape) if shape is None else norm_shape(shape)
    ka, kb = kt2(key, 2, mode)
    la = loggamma(ka, np.broadcast_to(a, shape), shape, dt, mode)
    lb = loggamma(kb, np.broadcast_to(b, shape), shape, dt, mode)
    m = np.maximum(la, lb)
    ga = exp(np.asarray(la - m, dt))
    gb = exp(np.asarray(lb - m, dt))
    return np.asarray(ga / np.asarray(ga + gb, dt), dt)


def _sum_last(x, dt):
    acc = np.zeros(x.shape[:-1], dt)
    for j in range(x.shape[-1]):
        acc = np.asarray(acc + x[..., j], dt)
    return acc


def dirichlet(key, alpha, shape=None, dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    alpha = arr(alpha, dt)
    shape = alpha.shape[:-1] if shape is None else norm_shape(shape)
    lg = loggamma(key, alpha, shape + alpha.shape[-1:], dt, mode)
    e = exp(np.asarray(lg - lg.max(axis=-1, keepdims=True), dt))
    return np.asarray(e / _sum_last(e, dt)[..., None], dt)


# ---------------------------------------------------------------------------
# §6.14 poisson
# ---------------------------------------------------------------------------
def _poisson_knuth(key, lam, shape, mode, active):
    k = np.zeros(shape, np.int64)
    logp = np.zeros(shape, F32)
    rng = key
    while np.any(logp > -lam):
        rng, sub = kt2(rng, 2, mode)
        k = np.where(logp > -lam, k + 1, k)
        u = unit_float(sub, shape, F32, mode)
        logp = np.asarray(logp + log(u), F32)
        sens_cmp(logp, -lam, np.abs(lam) + 1, F32, "poisson knuth threshold", active, ulps=16)
    return k - 1


def _poisson_rejection(key, lam, shape, mode, active):
    T = np.float32
    log_lam = log(lam)
    b = fma(T(2.53), sqrt(lam), T(0.931), F32)
    a = fma(T(0.02483), b, T(-0.059), F32)
    inv_alpha = np.asarray(T(1.1239) + T(1.1328) / np.asarray(b - T(3.4), F32), F32)
    v_r = np.asarray(T(0.9277) - T(3.6224) / np.asarray(b - T(2), F32), F32)
    k_out = np.full(shape, T(-1), F32)
    accepted = np.zeros(shape, bool)
    while not np.all(accepted):
        key, s0, s1 = kt2(key, 3, mode)
        u = np.asarray(unit_float(s0, shape, F32, mode) - T(0.5), F32)
        v = unit_float(s1, shape, F32, mode)
        us = np.asarray(T(0.5) - np.abs(u), F32)
        kin = np.asarray(fma(np.asarray(np.asarray(T(2) * a, F32) / us + b, F32), u, lam, F32) + T(0.43), F32)
        k = np.floor(kin)
        s = log(np.asarray(np.asarray(v * inv_alpha, F32) / np.asarray(a / np.asarray(us * us, F32) + b, F32), F32))
        kl = np.asarray(k * log_lam, F32)
        lg = lgamma(np.asarray(k + T(1), F32))
        t = np.asarray(fma(k, log_lam, -lam, F32) - lg, F32)
        accept1 = (us >= T(0.07)) & (v <= v_r)
        reject = (k < 0) | ((us < T(0.013)) & (v > us))
        accept2 = s <= t
        accept = accept1 | (~reject & accept2)
        sens_floor(kin, "poisson rejection floor", active)
        sens_cmp(s, t, np.maximum(np.maximum(np.abs(lam), np.abs(kl)), np.abs(lg)), F32,
                 "poisson rejection s<=t", active & ~accept1 & ~reject)
        sens_cmp(v, v_r, 1.0, F32, "poisson rejection v<=v_r", active)
        k_out = np.where(accept, k, k_out)
        accepted |= accept
    return k_out


def poisson(key, lam, shape=None, dtype=None, mode: Mode = None):
    it = idt(dtype, mode)
    lam = arr(lam, F32)                          # always float32
    shape = lam.shape if shape is None else norm_shape(shape)
    lam = np.array(np.broadcast_to(lam, shape))
    use_knuth = np.isnan(lam) | (lam < np.float32(10))
    lam_k = np.where(use_knuth, lam, np.float32(0)).astype(F32)
    lam_r = np.where(use_knuth, np.float32(1e5), lam).astype(F32)
    rk = _poisson_knuth(key, lam_k, shape, mode, use_knuth)
    rr = _poisson_rejection(key, lam_r, shape, mode, ~use_knuth)
    res = np.where(use_knuth, rk, rr.astype(np.int64))
    res = np.where(lam == 0, 0, res)
    return res.astype(it)


# ---------------------------------------------------------------------------
# §6.15 binomial, multinomial
# ---------------------------------------------------------------------------
_STIRLING = [0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
             0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
             0.00925546218271273, 0.00833056343336287]


def _stirling_tail(k, dt):
    T = dt.type
    table = np.array(_STIRLING, dtype=dt)
    kp1 = np.asarray(k + T(1), dt)
    kp1sq = np.asarray(kp1 * kp1, dt)
    inner = np.asarray(T(1.0 / 360) - np.asarray(T(1.0 / 1260) / kp1sq, dt), dt)
    approx = np.asarray(np.asarray(T(1.0 / 12) - np.asarray(inner / kp1sq, dt), dt) / kp1, dt)
    idx = np.clip(np.nan_to_num(k, nan=0.0), 0, 9).astype(np.int64)
    return np.where(k <= T(9), table[idx], approx).astype(dt)


def _binomial_inversion(key, count, prob, shape, dt, mode, active):
    T = dt.type
    l1mp = log1p(np.asarray(-prob, dt))
    num_geom = np.zeros(shape, dt)
    geom_sum = np.zeros(shape, dt)
    while np.any(geom_sum <= count):
        sub, key = kt2(key, 2, mode)           # subkey is element [0], carried key is [1]
        num_geom = np.where(geom_sum <= count, num_geom + T(1), num_geom).astype(dt)
        u = unit_float(sub, shape, dt, mode)
        q = np.asarray(log(u) / l1mp, dt)
        sens_floor(q, "binomial inversion ceil", active & (geom_sum <= count))
        geom_sum = np.asarray(geom_sum + np.ceil(q), dt)
    return np.asarray(num_geom - T(1), dt)


def _binomial_btrs(key, count, prob, shape, dt, mode, active):
    T = dt.type
    one = T(1)
    stddev = sqrt(np.asarray(np.asarray(count * prob, dt) * np.asarray(one - prob, dt), dt))
    b = fma(T(2.53), stddev, T(1.15), dt)
    a = fma(T(0.01), prob, fma(T(0.0248), b, T(-0.0873), dt), dt)
    c = fma(count, prob, T(0.5), dt)
    v_r = np.asarray(T(0.92) - np.asarray(T(4.2) / b, dt), dt)
    r = np.asarray(prob / np.asarray(one - prob, dt), dt)
    alpha = np.asarray(np.asarray(T(2.83) + np.asarray(T(5.1) / b, dt), dt) * stddev, dt)
    m = np.floor(np.asarray(np.asarray(count + one, dt) * prob, dt))
    k_out = np.full(shape, T(-1), dt)
    accepted = np.zeros(shape, bool)
    while not np.all(accepted):
        key, s0, s1 = kt2(key, 3, mode)
        u = unit_float(s0, shape, dt, mode)
        v = unit_float(s1, shape, dt, mode)
        u = np.asarray(u - T(0.5), dt)
        us = np.asarray(T(0.5) - np.abs(u), dt)
        accept1 = (us >= T(0.07)) & (v <= v_r)
        kin = fma(np.asarray(np.asarray(T(2) * a, dt) / us + b, dt), u, c, dt)
        k = np.floor(kin)
        reject = (k < 0) | (k > count)
        lv = log(np.asarray(np.asarray(v * alpha, dt) / np.asarray(a / np.asarray(us * us, dt) + b, dt), dt))
        cm1 = np.asarray(np.asarray(count - m, dt) + one, dt)
        ck1 = np.asarray(np.asarray(count - k, dt) + one, dt)
        m5, l1 = np.asarray(m + T(0.5), dt), log(np.asarray(np.asarray(m + one, dt) / np.asarray(r * cm1, dt), dt))
        c1, l2 = np.asarray(count + one, dt), log(np.asarray(cm1 / ck1, dt))
        k5, l3 = np.asarray(k + T(0.5), dt), log(np.asarray(np.asarray(r * ck1, dt) / np.asarray(k + one, dt), dt))
        t1, t2, t3 = np.asarray(m5 * l1, dt), np.asarray(c1 * l2, dt), np.asarray(k5 * l3, dt)
        ub = fma(m5, l1, t2, dt)              # t1 + t2 with the left product contracted
        ub = fma(k5, l3, ub, dt)              # ... + t3, contracted
        ub = np.asarray(ub + _stirling_tail(m, dt), dt)
        ub = np.asarray(ub + _stirling_tail(np.asarray(count - m, dt), dt), dt)
        ub = np.asarray(ub - _stirling_tail(k, dt), dt)
        ub = np.asarray(ub - _stirling_tail(np.asarray(count - k, dt), dt), dt)
        accept2 = lv <= ub
        accept = accept1 | (~reject & accept2)
        sens_floor(kin, "binomial btrs floor", active)
        sens_cmp(lv, ub, np.maximum(np.maximum(np.abs(t1), np.abs(t2)), np.abs(t3)), dt,
                 "binomial btrs v<=ub", active & ~accept1 & ~reject)
        sens_cmp(v, v_r, 1.0, dt, "binomial btrs v<=v_r", active)
        k_out = np.where(accept, k, k_out).astype(dt)
        accepted |= accept
    return k_out


def _binomial_core(key, count, prob, shape, dt, out_dt, mode):
    """count/prob already arrays of the computation dtype dt, broadcast to shape."""
    T = dt.type
    count = np.array(np.broadcast_to(np.asarray(count, dt), shape))
    prob = np.array(np.broadcast_to(np.asarray(prob, dt), shape))
    p_lt_half = prob < T(0.5)
    q = np.where(p_lt_half, prob, np.asarray(T(1) - prob, dt)).astype(dt)
    count_nan_or_neg = np.isnan(count) | (count < T(0))
    count_inf = np.isinf(count)
    q_is_nan = np.isnan(q)
    q_l_0 = q < T(0)
    q = np.where(q_is_nan | q_l_0, T(0.01), q).astype(dt)
    count = np.floor(count)              # spec §6.15 step 1 floors n before the branch choice (step 3)
    use_inv = count_nan_or_neg | (np.asarray(count * q, dt) <= T(10))
    count_inv = np.where(use_inv, count, T(0)).astype(dt)
    count_btrs = np.where(use_inv, T(1e4), count).astype(dt)
    q_btrs = np.where(use_inv, T(0.5), q).astype(dt)
    si = _binomial_inversion(key, count_inv, q, shape, dt, mode, use_inv)
    sb = _binomial_btrs(key, count_btrs, q_btrs, shape, dt, mode, ~use_inv)
    samples = np.where(use_inv, si, sb).astype(out_dt)
    invalid = q_l_0 | q_is_nan | count_nan_or_neg
    samples = np.where(invalid, out_dt.type(np.nan), samples).astype(out_dt)
    samples = np.where(count_inf & ~invalid, out_dt.type(np.inf), samples).astype(out_dt)
    keep = p_lt_half | count_nan_or_neg | q_is_nan | count_inf
    return np.where(keep, samples, np.asarray(count.astype(out_dt) - samples, out_dt)).astype(out_dt)


def binomial(key, n, p, shape=None, dtype=None, mode: Mode = None):
    out_dt = fdt(dtype, mode)
    pdt = default_float(mode)            # p (Python float / list) -> inexact default dtype
    pa = arr(p, pdt)
    na = arr(n, pdt)                     # count is cast to p's dtype
    shape = np.broadcast_shapes(na.shape, pa.shape) if shape is None else norm_shape(shape)
    return _binomial_core(key, na, pa, shape, pdt, out_dt, mode)


def multinomial(key, n, p, shape=None, dtype=None, mode: Mode = None):
    out_dt = fdt(dtype, mode)
    pdt = default_float(mode)            # promote_dtypes_inexact(n, p) for Python numbers / lists
    p = arr(p, pdt)
    n = arr(n, pdt)
    shape = p.shape if shape is None else norm_shape(shape)
    n = np.broadcast_to(n, shape[:-1])
    p = np.broadcast_to(p, shape)
    pm = np.moveaxis(p, -1, 0)                                   # (K, *batch)
    rem_probs = R.assoc_cumsum(pm[::-1])[::-1]                   # reverse cumsum along axis 0
    ratios = np.asarray(pm / np.where(rem_probs == 0, pdt.type(1), rem_probs), pdt)
    K = ratios.shape[0]
    keys = kt2(key, K, mode)
    remainder = np.asarray(n, pdt)
    counts = []
    for i in range(K):
        ratio = np.clip(ratios[i], pdt.type(0), pdt.type(1)).astype(pdt)
        cnt = _binomial_core(keys[i], remainder, ratio, np.broadcast_shapes(remainder.shape, ratio.shape),
                             pdt, pdt, mode)
        remainder = np.asarray(remainder - cnt, pdt)
        counts.append(cnt)
    return np.moveaxis(np.stack(counts, 0), 0, -1).astype(out_dt)


# ---------------------------------------------------------------------------
# §6.16 multivariate_normal
# ---------------------------------------------------------------------------
def multivariate_normal(key, mean, cov, shape=None, dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    mean, cov = arr(mean, dt), arr(cov, dt)     # fixture passes mean/cov already in dtype
    n = mean.shape[-1]
    shape = np.broadcast_shapes(mean.shape[:-1], cov.shape[:-2]) if shape is None else norm_shape(shape)
    factor = np.linalg.cholesky(cov.astype(np.float64)).astype(dt)
    z = normal(key, shape + (n,), dt, mode)
    fb = np.broadcast_to(factor, np.broadcast_shapes(factor.shape[:-2], z.shape[:-1]) + (n, n))
    acc = np.zeros(np.broadcast_shapes(fb.shape[:-1], z.shape), dt)
    for j in range(n):                               # dot: sequential FMA accumulation
        acc = fma(fb[..., :, j], z[..., None, j], acc, dt)
    return np.asarray(mean + acc, dt)


# ---------------------------------------------------------------------------
# §6.17 the one-liners
# ---------------------------------------------------------------------------
def laplace(key, shape=(), dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    T = dt.type
    u = uniform(key, shape, dt, T(-1) + T(np.finfo(dt).epsneg), T(1), mode)
    return np.asarray(np.sign(u) * log1p(-np.abs(u)), dt)


def logistic(key, shape=(), dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    x = uniform(key, shape, dt, dt.type(np.finfo(dt).tiny), dt.type(1), mode)
    return np.asarray(log(x) - log1p(-x), dt)


def cauchy(key, shape=(), dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    T = dt.type
    u = uniform(key, shape, dt, T(np.finfo(dt).eps), T(1), mode)
    return tan(np.asarray(T(np.pi) * np.asarray(u - T(0.5), dt), dt))


def pareto(key, b, shape=None, dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    b = arr(b, dt)
    shape = b.shape if shape is None else norm_shape(shape)
    e = exponential(key, shape, dt, mode)
    return exp(np.asarray(e / b, dt))


def rademacher(key, shape=(), dtype=None, mode: Mode = None):
    d = np.dtype(dtype) if dtype is not None else default_int(mode)
    d = fdt(d, mode) if d.kind == "f" else idt(d, mode)
    bs = R.bernoulli(key, 0.5, norm_shape(shape), mode).astype(d)      # p=0.5 Python float
    return np.asarray(d.type(2) * bs - d.type(1), d)


def maxwell(key, shape=(), dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    x = normal(key, norm_shape(shape) + (3,), dt, mode)
    acc = np.zeros(x.shape[:-1], dt)
    for j in range(3):                               # reduce(x*x): sequential, multiply contracted
        acc = fma(x[..., j], x[..., j], acc, dt)
    return sqrt(acc)


def double_sided_maxwell(key, loc, scale, shape=(), dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    loc, scale = arr(loc, dt), arr(scale, dt)
    shape = norm_shape(shape)
    pshape = np.broadcast_shapes(loc.shape, scale.shape)
    if not shape:
        shape = pshape
    shape = shape + pshape
    km, kr = kt2(key, 2, mode)
    m = maxwell(km, shape, dt, mode)
    s = rademacher(kr, shape, dt, mode)
    return fma(np.asarray(s * m, dt), scale, loc, dt)


def t(key, df, shape=None, dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    df = arr(df, dt)
    shape = df.shape if shape is None else norm_shape(shape)
    kn, kg = kt2(key, 2, mode)
    n = normal(kn, shape, dt, mode)
    half = np.asarray(df / dt.type(2), dt)
    g = gamma(kg, np.broadcast_to(half, shape), shape, dt, mode)
    return np.asarray(n * sqrt(np.asarray(half / g, dt)), dt)


def chisquare(key, df, shape=None, dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    df = arr(df, dt)
    shape = df.shape if shape is None else norm_shape(shape)
    half = np.asarray(df / dt.type(2), dt)
    lg = loggamma(key, np.broadcast_to(half, shape), shape, dt, mode)
    return np.asarray(exp(lg) * dt.type(2), dt)


def f(key, dfnum, dfden, shape=None, dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    dfnum, dfden = arr(dfnum, dt), arr(dfden, dt)
    shape = np.broadcast_shapes(dfden.shape, dfnum.shape) if shape is None else norm_shape(shape)
    kd, kn = kt2(key, 2, mode)                 # denominator key first
    cn = chisquare(kn, np.broadcast_to(dfnum, shape), shape, dt, mode)
    cd = chisquare(kd, np.broadcast_to(dfden, shape), shape, dt, mode)
    num = np.asarray(cn / dfnum, dt)
    den = np.asarray(cd / dfden, dt)
    return np.asarray(num / den, dt)


def weibull_min(key, scale, concentration, shape=(), dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    u = unit_float(key, shape, dt, mode)
    inv_c = dt.type(1.0 / concentration)          # Python 1.0/concentration, then weakly typed
    return np.asarray(tpow(np.asarray(-log1p(-u), dt), inv_c) * dt.type(scale), dt)


def rayleigh(key, scale, shape=None, dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    scale = arr(scale, dt)
    shape = scale.shape if shape is None else norm_shape(shape)
    u = unit_float(key, shape, dt, mode)
    return np.asarray(scale * sqrt(np.asarray(log(u) * dt.type(-2), dt)), dt)


def wald(key, mean, shape=None, dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    T = dt.type
    mean = arr(mean, dt)
    shape = mean.shape if shape is None else norm_shape(shape)
    k1, k2 = kt2(key, 2, mode)
    mean = np.broadcast_to(mean, shape)
    v = normal(k1, shape, dt, mode)
    z = unit_float(k2, shape, dt, mode)
    y = np.asarray(v * v, dt)
    y_sq = np.asarray(y * y, dt)
    mean_sq = np.asarray(mean * mean, dt)
    sq = sqrt(fma(np.asarray(T(4) * mean, dt), y, np.asarray(mean_sq * y_sq, dt), dt))
    x0 = np.asarray(mean + np.asarray(np.asarray(mean_sq * y, dt) / T(2), dt), dt)
    x = fma(np.asarray(-(mean / T(2)), dt), sq, x0, dt)
    thr = np.asarray(mean / np.asarray(mean + x, dt), dt)
    sens_cmp(z, thr, 1.0, dt, "wald branch test z<=mean/(mean+x)")
    return np.where(z <= thr, x, np.asarray(mean_sq / x, dt)).astype(dt)


def geometric(key, p, shape=None, dtype=None, mode: Mode = None):
    it = idt(dtype, mode)
    pdt = default_float(mode)            # promote_dtypes_inexact(p) for a Python float
    p = arr(p, pdt)
    shape = p.shape if shape is None else norm_shape(shape)
    u = unit_float(key, shape, pdt, mode)
    u = np.where(u == 0, pdt.type(1), u).astype(pdt)
    q = np.asarray(log(u) / np.broadcast_to(log1p(np.asarray(-p, pdt)), shape), pdt)
    sens_floor(q, "geometric floor")
    return (np.floor(q) + pdt.type(1)).astype(it)


def lognormal(key, sigma=1.0, shape=None, dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    sigma = arr(sigma, dt)
    shape = sigma.shape if shape is None else norm_shape(shape)
    return exp(np.asarray(normal(key, shape, dt, mode) * sigma, dt))


def triangular(key, left, tmode, right, shape=None, dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    T = dt.type
    left, tmode, right = arr(left, dt), arr(tmode, dt), arr(right, dt)
    shape = np.broadcast_shapes(left.shape, tmode.shape, right.shape) if shape is None else norm_shape(shape)
    rl = np.asarray(right - left, dt)
    ml = np.asarray(tmode - left, dt)
    rm = np.asarray(right - tmode, dt)
    fc = np.asarray(ml / rl, dt)
    u = unit_float(key, shape, dt, mode)
    out1 = np.asarray(left + sqrt(np.asarray(np.asarray(u * rl, dt) * ml, dt)), dt)
    out2 = np.asarray(right - sqrt(np.asarray(np.asarray(np.asarray(T(1) - u, dt) * rl, dt) * rm, dt)), dt)
    sens_cmp(u, fc, 1.0, dt, "triangular branch test u<fc")
    return np.where(u < fc, out1, out2).astype(dt)


def generalized_normal(key, p, shape=(), dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    shape = norm_shape(shape)
    k1, k2 = kt2(key, 2, mode)
    inv_p = dt.type(1.0 / p)                      # Python 1/p, weakly typed
    g = gamma(k1, inv_p, shape, dt, mode)
    r = rademacher(k2, shape, dt, mode)
    return np.asarray(r * tpow(g, inv_p), dt)


def ball(key, d, p=2, shape=(), dtype=None, mode: Mode = None):
    dt = fdt(dtype, mode)
    shape = norm_shape(shape)
    k1, k2 = kt2(key, 2, mode)
    g = generalized_normal(k1, p, shape + (d,), dt, mode)
    e = exponential(k2, shape, dt, mode)
    s = _sum_last(tpow(np.abs(g), dt.type(p)), dt)
    den = tpow(np.asarray(s + e, dt), dt.type(1.0 / p))
    return np.asarray(g / den[..., None], dt)


# ---------------------------------------------------------------------------
# Self-check
# ---------------------------------------------------------------------------
def _ord32(x):
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.int64)
    return np.where(u >= 2 ** 31, 2 ** 31 - u, u)


def ulps32(a, b):
    a = np.asarray(a, np.float32)
    b = np.asarray(b, np.float32)
    return np.abs(_ord32(a) - _ord32(b))


class Checker:
    def __init__(self):
        self.rows = []     # (name, ok, detail)

    def add(self, name, ok, detail):
        self.rows.append((name, bool(ok), detail))
        if not ok:
            print(f"SELF-CHECK FAIL: {name}: {detail}", file=sys.stderr)

    def f32(self, name, got, expected, max_ulps=4):
        got = np.asarray(got)
        exp_ = np.asarray([np.float32(float(v)) if not isinstance(v, str) else R.exact_f32_from_decimal(v)
                           for v in np.asarray(expected, dtype=object).ravel()], np.float32)
        if got.dtype != F32 or got.size != exp_.size:
            self.add(name, False, f"dtype/shape {got.dtype} {got.shape} vs {exp_.size}")
            return
        u = ulps32(got.ravel(), exp_)
        ok = bool(np.all(u <= max_ulps))
        self.add(name, ok, f"max {int(u.max())} ulp, {int((u == 0).sum())}/{u.size} exact; "
                           f"got {[repr(float(v)) for v in got.ravel()]}")

    def ints(self, name, got, expected, dtype=None):
        got = np.asarray(got)
        ok = got.shape == np.shape(expected) and np.array_equal(got, np.asarray(expected)) and \
            (dtype is None or got.dtype == np.dtype(dtype))
        self.add(name, ok, f"got {got.tolist()} ({got.dtype})")


def self_check():
    C = Checker()
    # the sibling module's checks (bits/uniform/randint/bernoulli/rademacher/...) first
    base = R.self_check()
    C.add(f"jax_random_ref.self_check ({len(base.passed)} spec checks: threefry, seeds, split, fold_in, "
          f"bits, uniform, randint, bernoulli, rademacher)", not base.failed, f"failed: {base.failed}")

    k = lambda s, md: key_from_seed(s, md)        # noqa: E731
    # §7.1 _RANDOM_VALUES_CASES (partitionable=False); x64 too unless marked x32-only
    for md, tag in ((X32O, "x32"), (X64O, "x64")):
        p = f"§7.1 [{tag}, partitionable=False]"
        C.f32(f"{p} beta a=0.8 b=0.9", beta(k(923534869, md), 0.8, 0.9, (5,), "float32", md),
              [0.13258960843086243, 0.8248932957649231, 0.9483627676963806, 0.9641547203063965, 0.23544837534427643])
        C.f32(f"{p} cauchy", cauchy(k(1175914230, md), (5,), "float32", md),
              [-0.08841580152511597, -10.169687271118164, 3.496774435043335, -1.1805592775344849, 0.3455606698989868])
        C.f32(f"{p} dirichlet alpha=[0.5,0.6,0.7] shape (2,)",
              dirichlet(k(1590822961, md), [0.5, 0.6, 0.7], (2,), "float32", md),
              [[0.0031280030962079763, 0.009693996980786324, 0.9871779680252075],
               [0.025938278064131737, 0.4790910482406616, 0.4949706494808197]])
        C.f32(f"{p} exponential", exponential(k(1942292768, md), (5,), "float32", md),
              [0.5260666012763977, 0.04304581508040428, 0.0399320051074028, 0.4642702043056488, 0.1238858699798584])
        C.f32(f"{p} gamma a=0.8", gamma(k(1038747260, md), 0.8, (5,), "float32", md),
              [0.824220597743988, 1.7244755029678345, 0.5028824210166931, 5.386131763458252, 0.6855431795120239])
        C.f32(f"{p} gumbel", gumbel(k(1179715317, md), (5,), "float32", None, md),
              [2.067009925842285, 0.9117260575294495, 0.14573562145233154, 0.18542666733264923,
               -0.007110409904271364])
        C.f32(f"{p} laplace", laplace(k(1291781963, md), (5,), "float32", md),
              [0.5789388418197632, -0.2049015909433365, 0.5557326078414917, 0.911052942276001, -0.9645599126815796])
        C.f32(f"{p} loggamma a=0.8", loggamma(k(1440221118, md), 0.8, (5,), "float32", md),
              [0.24055933952331543, -3.5754425525665283, -0.4509458541870117, -2.161372184753418, -2.943276882171631])
        C.f32(f"{p} logistic", logistic(k(1466238935, md), (5,), "float32", md),
              [0.19611024856567383, -1.7090539932250977, -0.2740935683250427, -0.2083226442337036,
               -1.6754897832870483])
        C.f32(f"{p} maxwell", maxwell(k(1331627891, md), (5,), "float32", md),
              [3.070781707763672, 0.9084793925285339, 1.5213168859481812, 0.8755506277084351, 1.3061370849609375])
        C.f32(f"{p} normal", normal(k(1193674498, md), (5,), "float32", md),
              [-1.1732335090637207, -1.5116621255874634, 0.0705929547548294, -0.09976384043693542,
               1.0528450012207031])
        C.f32(f"{p} pareto b=0.5", pareto(k(1192560388, md), 0.5, (5,), "float32", md),
              [2.7513976097106934, 1.2818633317947388, 87.85447692871094, 1.2545422315597534, 2.8244869709014893])
        C.ints(f"{p} poisson lam=5 int32", poisson(k(1349191556, md), 5.0, (5,), "int32", md),
               [7, 3, 6, 11, 6], "int32")
        C.f32(f"{p} truncated_normal [0,2]", truncated_normal(k(2846034731, md), 0.0, 2.0, (5,), "float32", md),
              [0.5828065276145935, 1.7097711563110352, 0.1595129370689392, 0.8613762855529785, 0.3614804446697235])
        C.f32(f"{p} weibull_min scale=1 c=1", weibull_min(k(1921059088, md), 1.0, 1.0, (5,), "float32", md),
              [1.6058629751205444, 0.8418090343475342, 0.2242175191640854, 0.4826001822948456,
               0.027901295572519302])
    p = "§7.1 [x32, partitionable=False]"
    C.f32(f"{p} double_sided_maxwell loc=1 scale=2",
          double_sided_maxwell(k(3634826421, X32O), 1.0, 2.0, (5,), None, X32O),
          [-2.4089131355285645, -3.370436191558838, 3.235352039337158, -0.9077339172363281, -1.7087321281433105])
    C.f32(f"{p} multivariate_normal mean=ones((1,3)) cov=eye(3) shape (2,)",
          multivariate_normal(k(3497659512, X32O), np.ones((1, 3)), np.eye(3), (2,), None, X32O),
          [[1.067826509475708, 1.2155990600585938, 0.23416590690612793],
           [-0.2375338077545166, 1.3259096145629883, 1.4139875173568726]])
    C.ints(f"{p} rademacher", rademacher(k(1719994501, X32O), (5,), None, X32O), [-1, -1, -1, -1, 1], "int32")
    C.ints(f"{p} bernoulli p=0.5", R.bernoulli(k(1612777541, X32O), 0.5, (5,), X32O),
           [False, True, True, True, False])
    C.ints(f"{p} randint 0..10", R.randint(k(1319372649, X32O), (5,), 0, 10, np.int32, X32O), [0, 5, 7, 7, 5])
    C.f32(f"{p} uniform", R.uniform(k(1338574713, X32O), (5,), np.float32, mode=X32O),
          [0.2986714839935303, 0.07321286201477051, 0.8733557462692261, 0.26054883003234863, 0.41279661655426025],
          max_ulps=0)
    # §7.1 loggamma NaN corner case
    C.f32("§7.1 loggamma(wrap_key_data([3200590325, 713258242]), 0.0, float32) [partitionable=False]",
          loggamma((3200590325, 713258242), 0.0, None, "float32", X32O), ["-4.595436"])
    # §3.3 Common Gotchas normals (x32)
    gk = [((2718843009, 1272950319), "-1.2515389"), ((1278412471, 2182328957), "-0.58665055")]
    for key_, v in gk:
        C.f32(f"§3.3 gotchas normal(subkey={list(key_)},(1,)) orig", normal(key_, (1,), None, X32O), [v])
    subs = split((2384771982, 3928867769), 4, X32O)[1:]
    for i, (sk, v) in enumerate(zip(subs, ["-0.37533438", "0.98645043", "0.14553197"])):
        C.f32(f"§3.3 gotchas key,*subkeys=split(key,4): normal(subkeys[{i}],(1,)) orig",
              normal(key_tuple(sk), (1,), None, X32O), [v])
    C.f32("§3.3 gotchas normal(PRNGKey(0),(1,)) orig", normal(k(0, X32O), (1,), None, X32O), ["-0.20584226"])
    ks = split(k(0, X32P), 2, X32P)
    C.f32("§3.3 gotchas normal(split(PRNGKey(0))[1],(1,)) partitionable",
          normal(key_tuple(ks[1]), (1,), None, X32P), ["-2.4424558"])
    ks2 = split(key_tuple(ks[0]), 2, X32P)
    C.ints("§3.3 gotchas second split partitionable (keys)", ks2,
           np.array([[4165894930, 804218099], [1353695780, 2116000888]], np.uint32))
    C.f32("§3.3 gotchas normal(second subkey,(1,)) partitionable",
          normal(key_tuple(ks2[1]), (1,), None, X32P), ["-1.2574776"])
    C.f32("§3.3 gotchas normal(PRNGKey(0),(1,)) partitionable", normal(k(0, X32P), (1,), None, X32P),
          ["1.6226422"])
    # internal sanity of the erf_inv models (not spec values): |erf(erfinv(x)) - x| small
    xs = np.linspace(-0.999999, 0.999999, 401)
    e32 = erfinv(xs.astype(F32)).astype(np.float64)
    e64 = erfinv(xs.astype(F64))
    back32 = np.array([math.erf(v) for v in e32])
    back64 = np.array([math.erf(v) for v in e64])
    rel32 = np.max(np.abs(back32 - xs.astype(F32).astype(np.float64)) / np.maximum(np.abs(xs), 1e-3))
    rel64 = np.max(np.abs(back64 - xs) / np.maximum(np.abs(xs), 1e-3))
    C.add("internal: f32 erfinv inverse of erf (rel err < 1e-6)", rel32 < 1e-6, f"{rel32:.3g}")
    C.add("internal: f64 erfinv inverse of erf (rel err < 1e-14)", rel64 < 1e-14, f"{rel64:.3g}")
    C.add("internal: erfinv(+-1) = +-inf", list(erfinv(np.array([-1, 1], F32))) == [-np.inf, np.inf] and
          list(erfinv(np.array([-1, 1], F64))) == [-np.inf, np.inf], "")
    return C


# ---------------------------------------------------------------------------
# Fixture generation
# ---------------------------------------------------------------------------
SEEDS = list(R.SEEDS) + [7, 2024, 31337, -12345, 2 ** 31 - 1, 3000000000, 555555, 17, 123, 9]


def _json_num(v):
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    return v


def sanitize(o):
    if isinstance(o, dict):
        return {k: sanitize(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [sanitize(v) for v in o]
    if isinstance(o, np.ndarray):
        return sanitize(o.tolist())
    if isinstance(o, (np.floating,)):
        return _json_num(float(o))
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, float):
        return _json_num(o)
    return o


class Gen:
    def __init__(self):
        self.cases = []
        self.i = 0

    def run(self, fn, md, args, func, note=None, seed=None, **extra):
        if seed is None:
            s = SEEDS[self.i % len(SEEDS)]
            self.i += 1
        else:
            s = seed
        key = key_from_seed(s, md)
        Sens.reasons = set()
        out = np.asarray(func(key))
        assert out.size <= 16, (fn, out.shape)
        vals, enc = R.encode_values(out, out.dtype)
        case = {"fn": fn, "mode": md.as_json(), "seed": R.enc_int(s), "key": list(key),
                "args": sanitize(args), "dtype": out.dtype.name, "shape": list(out.shape),
                "values": sanitize(vals)}
        case.update(enc)
        notes = [note] if note else []
        if out.dtype.kind == "f":
            fo = out.astype(np.float64)
            tiny = float(np.finfo(out.dtype).tiny)
            if np.any((fo != 0) & np.isfinite(fo) & (np.abs(fo) < tiny)):
                case["subnormal"] = True
                notes.append("contains subnormal values: XLA:CPU may flush denormals to zero")
        if Sens.reasons:
            case["ulpSensitive"] = True
            case["sensitivity"] = sorted(Sens.reasons)
        case.update(sanitize(extra))
        if notes:
            case["note"] = "; ".join(notes)
        self.cases.append(case)
        return out


NOTES = {
    "wald": ("reading of the one-line spec: k1,k2 = split(key); v = normal(k1); z = uniform(k2); y = v*v; "
             "x = mean + mean^2*y/2 - (mean/2)*sqrt(4*mean*y + mean^2*y^2); "
             "result = x if z <= mean/(mean+x) else mean^2/x (Michael-Schucany-Haas, shape lambda = 1)"),
    "triangular": ("reading: u = uniform(key); fc = (mode-left)/(right-left); "
                   "u < fc ? left + sqrt(u*(right-left)*(mode-left)) : right - sqrt((1-u)*(right-left)*(right-mode))"),
    "generalizedNormal": ("reading: k1,k2 = split(key); g = gamma(k1, 1/p, shape); r = rademacher(k2, shape, dtype) "
                          "(bernoulli p=0.5 Python float: 64-bit draws in x64); result = r * g**(1/p)"),
    "ball": ("reading: k1,k2 = split(key); g = generalized_normal(k1, p, (*shape, d)); e = exponential(k2, shape); "
             "result = g / ((sum(|g|**p, -1) + e) ** (1/p))[..., None]"),
    "multinomial": ("reading: n, p promoted to the default float dtype; ratios = p / reverse_cumsum(p) "
                    "(0-denominators -> 1); keys = split(key, K); sequentially over categories i: "
                    "count_i = binomial(keys[i], remainder, clip(ratio_i, 0, 1)) with shape = batch shape, "
                    "remainder -= count_i; output counts cast to dtype"),
    "geometric": ("reading: p promoted to the default float dtype (drawn at that width); u = uniform(key); "
                  "u == 0 -> 1; floor(log(u) / log1p(-p)) + 1, cast to the int dtype"),
}


def gen_fixture():
    G = Gen()
    for md in ALL_MODES:
        dts = ["float32", "float64"] if md.x64 else ["float32"]
        X = md.x64
        for dn in dts:
            dt = np.dtype(dn)
            # ---- normal
            for shp in ([], [5], [2, 3], [16]):
                G.run("normal", md, {"shape": shp, "dtype": dn}, lambda k, shp=shp: normal(k, shp, dn, md))
            # ---- truncatedNormal
            for lo, hi, shp in ((0.0, 2.0, [5]), (-1.0, 1.0, [8]), (2.0, 3.0, [6]), (-3.0, -2.5, [4]),
                                ([-1.0, 0.0, 0.5], 1.0, None)):
                G.run("truncatedNormal", md, {"lower": lo, "upper": hi, "shape": shp, "dtype": dn},
                      lambda k, lo=lo, hi=hi, shp=shp: truncated_normal(k, lo, hi, shp, dn, md))
            # ---- exponential, laplace, logistic, cauchy, maxwell
            for fn, func in (("exponential", exponential), ("laplace", laplace), ("logistic", logistic),
                             ("cauchy", cauchy)):
                for shp in ([], [5], [16]):
                    G.run(fn, md, {"shape": shp, "dtype": dn}, lambda k, shp=shp, func=func: func(k, shp, dn, md))
            for shp in ([], [5], [2, 2]):
                G.run("maxwell", md, {"shape": shp, "dtype": dn}, lambda k, shp=shp: maxwell(k, shp, dn, md))
            # ---- gumbel
            for gm in (None, "low", "high"):
                for shp in ([5], [16]) if gm != "low" else ([7],):
                    G.run("gumbel", md, {"shape": shp, "dtype": dn, "mode": gm},
                          lambda k, shp=shp, gm=gm: gumbel(k, shp, dn, gm, md))
            G.run("gumbel", md, {"shape": [], "dtype": dn, "mode": "high"},
                  lambda k: gumbel(k, [], dn, "high", md))
            # ---- categorical
            lg1 = [0.1, -0.5, 2.0, float("-inf"), 0.3]
            lg2 = [[0.0, 1.0, -1.0, float("-inf")], [2.0, -2.0, 0.5, 0.5]]
            ccases = [
                (lg1, -1, None, True, None), (lg1, -1, [8], True, None), (lg1, -1, [8], True, "high"),
                (lg2, -1, None, True, None), (lg2, -1, [3, 2], True, None), (lg2, 0, None, True, None),
                (lg1, -1, [3], False, None), (lg1, -1, [4], False, None), (lg2, -1, [2, 2], False, None),
                (lg2, 0, [2, 4], False, None),
            ]
            for lg, ax, shp, rep, gm in ccases:
                note = ("logits given in the case dtype (logitsDtype); replace=False returns lax.top_k indices "
                        "(int32, ties to the lower index)") if not rep else \
                    "logits given in the case dtype (logitsDtype); argmax index dtype = default int"
                G.run("categorical", md, {"logits": lg, "axis": ax, "shape": shp, "replace": rep, "mode": gm},
                      lambda k, lg=lg, ax=ax, shp=shp, rep=rep, gm=gm:
                      categorical(k, lg, ax, shp, rep, gm, md, dn), note=note, logitsDtype=dn)
            # ---- gamma, loggamma
            gnote = {1e-3: "a=1e-3: gamma = d*V*s**(1/a) with 1/a = 1000 amplifies ulp differences ~1000x and "
                           "underflows; compare with a loose relative tolerance",
                     0.0: "a=0: log-space boost = log1p(-u) * (1/0) = -inf unless log1p(-u) == 0 (spec §7.1 "
                          "corner case)"}
            for a, shp in ((0.3, [6]), (1.0, [6]), (2.5, [6]), (1e3, [4]), (1e-3, [4]), ([0.5, 3.0], None)):
                G.run("gamma", md, {"a": a, "shape": shp, "dtype": dn},
                      lambda k, a=a, shp=shp: gamma(k, a, shp, dn, md), note=gnote.get(a) if not isinstance(a, list) else None)
            for a, shp in ((0.3, [6]), (1.0, [6]), (2.5, [6]), (1e3, [4]), (1e-3, [4]), (0.0, []), (0.0, [3]),
                           ([0.5, 3.0], None)):
                G.run("loggamma", md, {"a": a, "shape": shp, "dtype": dn},
                      lambda k, a=a, shp=shp: loggamma(k, a, shp, dn, md), note=gnote.get(a) if not isinstance(a, list) else None)
            # ---- beta, dirichlet
            for a, b, shp in ((0.8, 0.9, [5]), (0.3, 2.5, [5]), (1e3, 1e3, [3]), (2.0, 5.0, [2, 2])):
                G.run("beta", md, {"a": a, "b": b, "shape": shp, "dtype": dn},
                      lambda k, a=a, b=b, shp=shp: beta(k, a, b, shp, dn, md))
            for al, shp in (([0.5, 0.6, 0.7], [2]), ([1.0, 2.0, 3.0], None), ([0.1, 0.1], [3]),
                            ([5.0, 1.0, 0.2, 20.0], [2])):
                G.run("dirichlet", md, {"alpha": al, "shape": shp, "dtype": dn},
                      lambda k, al=al, shp=shp: dirichlet(k, al, shp, dn, md))
            # ---- multivariateNormal (mean/cov given in dtype)
            mvn = [([0.0, 0.0], [[1.0, 0.5], [0.5, 2.0]], None), ([0.0, 0.0], [[1.0, 0.5], [0.5, 2.0]], [4]),
                   ([1.0, -2.0, 3.0], [[4.0, 1.0, 0.5], [1.0, 3.0, -0.5], [0.5, -0.5, 2.0]], [3]),
                   ([[1.0, 1.0, 1.0]], np.eye(3).tolist(), [2])]
            for mean, cov, shp in mvn:
                G.run("multivariateNormal", md, {"mean": mean, "cov": cov, "shape": shp, "dtype": dn,
                                                 "method": "cholesky"},
                      lambda k, mean=mean, cov=cov, shp=shp: multivariate_normal(k, mean, cov, shp, dn, md),
                      note="mean and cov given as arrays of the case dtype; factor = cholesky(cov) "
                           "(computed in float64, rounded to dtype)")
            # ---- t, chisquare, f
            for df in (3.0, 0.5, 30.0):
                G.run("t", md, {"df": df, "shape": [5], "dtype": dn}, lambda k, df=df: t(k, df, [5], dn, md))
            for df in (1.0, 4.5, 100.0):
                G.run("chisquare", md, {"df": df, "shape": [5], "dtype": dn},
                      lambda k, df=df: chisquare(k, df, [5], dn, md))
            for a, b in ((2.0, 5.0), (10.0, 1.0), (0.5, 30.0)):
                G.run("f", md, {"dfnum": a, "dfden": b, "shape": [5], "dtype": dn},
                      lambda k, a=a, b=b: f(k, a, b, [5], dn, md))
            # ---- pareto, weibullMin, rayleigh, lognormal, wald
            for b in (0.5, 3.0):
                G.run("pareto", md, {"b": b, "shape": [5], "dtype": dn}, lambda k, b=b: pareto(k, b, [5], dn, md))
            G.run("pareto", md, {"b": [1.0, 2.0, 4.0], "shape": None, "dtype": dn},
                  lambda k: pareto(k, [1.0, 2.0, 4.0], None, dn, md))
            for sc, c in ((1.0, 1.0), (2.0, 0.5), (0.5, 3.0)):
                G.run("weibullMin", md, {"scale": sc, "concentration": c, "shape": [5], "dtype": dn},
                      lambda k, sc=sc, c=c: weibull_min(k, sc, c, [5], dn, md))
            for sc, shp in ((1.0, [5]), (2.5, [5]), ([1.0, 10.0], None)):
                G.run("rayleigh", md, {"scale": sc, "shape": shp, "dtype": dn},
                      lambda k, sc=sc, shp=shp: rayleigh(k, sc, shp, dn, md))
            for sg in (1.0, 0.5, 3.0):
                G.run("lognormal", md, {"sigma": sg, "shape": [5], "dtype": dn},
                      lambda k, sg=sg: lognormal(k, sg, [5], dn, md))
            for mu in (1.0, 0.5, 3.0):
                G.run("wald", md, {"mean": mu, "shape": [6], "dtype": dn}, lambda k, mu=mu: wald(k, mu, [6], dn, md),
                      note=NOTES["wald"])
            # ---- doubleSidedMaxwell
            for loc, sc, shp in ((1.0, 2.0, [5]), (0.0, 1.0, [4]), (-3.0, 0.5, [])):
                G.run("doubleSidedMaxwell", md, {"loc": loc, "scale": sc, "shape": shp, "dtype": dn},
                      lambda k, loc=loc, sc=sc, shp=shp: double_sided_maxwell(k, loc, sc, shp, dn, md),
                      note="rademacher sign uses bernoulli(p=0.5 Python float): 64-bit draws in x64")
            # ---- triangular
            for le, mo, ri in ((0.0, 0.5, 1.0), (-1.0, 2.0, 3.0), (0.0, 0.0, 1.0), (0.0, 1.0, 1.0)):
                G.run("triangular", md, {"left": le, "mode": mo, "right": ri, "shape": [6], "dtype": dn},
                      lambda k, le=le, mo=mo, ri=ri: triangular(k, le, mo, ri, [6], dn, md), note=NOTES["triangular"])
            # ---- generalizedNormal, ball
            for pp in (1.0, 2.0, 0.5, 4.0):
                G.run("generalizedNormal", md, {"p": pp, "shape": [5], "dtype": dn},
                      lambda k, pp=pp: generalized_normal(k, pp, [5], dn, md), note=NOTES["generalizedNormal"])
            for d, pp, shp in ((3, 2.0, []), (3, 2.0, [2]), (2, 1.0, [3]), (4, 0.5, [2])):
                G.run("ball", md, {"d": d, "p": pp, "shape": shp, "dtype": dn},
                      lambda k, d=d, pp=pp, shp=shp: ball(k, d, pp, shp, dn, md), note=NOTES["ball"])
            # ---- rademacher as float
            G.run("rademacher", md, {"shape": [6], "dtype": dn}, lambda k: rademacher(k, [6], dn, md),
                  note="bernoulli(p=0.5 Python float): 64-bit draws in x64")
        if md == X64O:
            # §7.1 loggamma NaN corner case: key [3200590325, 713258242] is the x64 key of this int64 seed
            cs = (3200590325 << 32 | 713258242) - 2 ** 64
            assert key_from_seed(cs, md) == (3200590325, 713258242)
            G.run("loggamma", md, {"a": 0.0, "shape": None, "dtype": "float32"},
                  lambda k: loggamma(k, 0.0, None, "float32", md), seed=cs,
                  note="spec §7.1 test_loggamma_nan_corner_case (JAX: -4.595436): log1p(-u) == 0 so the -inf "
                       "boost is skipped")

        # ---- dtype-independent or p-dtype-driven samplers (once per mode)
        pdt = default_float(md).name
        for shp in ([5], [16], []):
            G.run("rademacher", md, {"shape": shp, "dtype": None}, lambda k, shp=shp: rademacher(k, shp, None, md),
                  note="bernoulli(p=0.5 Python float): 64-bit draws in x64")
        # poisson (lam always float32; output default int)
        for lam, shp in ((0.5, [8]), (5.0, [8]), (9.9, [8]), (10.1, [8]), (100.0, [8]), (1e4, [4]),
                         ([0.0, 0.5, 5.0, 9.99, 10.0, 100.0, -1.0, 1000.0], None)):
            G.run("poisson", md, {"lam": lam, "shape": shp, "dtype": None},
                  lambda k, lam=lam, shp=shp: poisson(k, lam, shp, None, md),
                  note="lam converted to float32 in every mode; lgamma = math.lgamma rounded to float32 "
                       "(XLA: Lanczos g=7), so rejection-branch accept decisions can differ in rare cases")
        G.run("poisson", md, {"lam": 3.0, "shape": [5], "dtype": "int32"}, lambda k: poisson(k, 3.0, [5], "int32", md))
        # binomial
        bn_dtypes = [None, "float32"] if X else [None]
        for bd in bn_dtypes:
            for n in (1, 10, 100, 1e4):
                for p in (0.1, 0.5, 0.9):
                    G.run("binomial", md, {"n": n, "p": p, "shape": [5], "dtype": bd},
                          lambda k, n=n, p=p, bd=bd: binomial(k, n, p, [5], bd, md), pDtype=pdt,
                          note="p (Python float) promoted to the default float dtype: draws at that width; "
                               "branch: inversion if n*q <= 10 else BTRS")
        G.run("binomial", md, {"n": [5.0, 20.0, 1000.0, 3.7], "p": [0.3, 0.6, 0.02, 0.5], "shape": None,
                               "dtype": None},
              lambda k: binomial(k, [5.0, 20.0, 1000.0, 3.7], [0.3, 0.6, 0.02, 0.5], None, None, md), pDtype=pdt,
              note="mixed branches in one call (n=1000,p=0.02 -> BTRS); n=3.7 floored to 3")
        G.run("binomial", md, {"n": [10.0, -1.0, 10.0, 0.0], "p": [float("nan"), 0.5, -0.1, 0.5], "shape": None,
                               "dtype": None},
              lambda k: binomial(k, [10.0, -1.0, 10.0, 0.0], [float("nan"), 0.5, -0.1, 0.5], None, None, md),
              pDtype=pdt, note="invalid parameters give NaN; n=0 gives 0")
        # multinomial
        for bd in bn_dtypes:
            for n, p, shp in ((10, [0.2, 0.3, 0.5], None), (10, [0.1, 0.6, 0.3], [2, 3]),
                              (100, [0.25, 0.25, 0.25, 0.25], None), (10, [0.0, 0.5, 0.5], None)):
                G.run("multinomial", md, {"n": n, "p": p, "shape": shp, "dtype": bd},
                      lambda k, n=n, p=p, shp=shp, bd=bd: multinomial(k, n, p, shp, bd, md), pDtype=pdt,
                      note=NOTES["multinomial"])
        # geometric
        for p, shp in ((0.1, [6]), (0.5, [6]), (0.9, [6]), (0.01, [6]), (1.0, [3]), ([0.2, 0.7], None)):
            G.run("geometric", md, {"p": p, "shape": shp, "dtype": None},
                  lambda k, p=p, shp=shp: geometric(k, p, shp, None, md), pDtype=pdt, note=NOTES["geometric"])
        G.run("geometric", md, {"p": 0.3, "shape": [4], "dtype": "int32"},
              lambda k: geometric(k, 0.3, [4], "int32", md), pDtype=pdt, note=NOTES["geometric"])
    return G.cases


def main():
    C = self_check()
    n_ok = sum(1 for r in C.rows if r[1])
    for name, ok, detail in C.rows:
        print(f"  {'ok  ' if ok else 'FAIL'}: {name}: {detail}", file=sys.stderr)
    print(f"self-check: {n_ok} passed, {len(C.rows) - n_ok} failed", file=sys.stderr)
    if n_ok != len(C.rows):
        sys.exit(1)
    cases = gen_fixture()
    counts = {}
    for c in cases:
        counts[c["fn"]] = counts.get(c["fn"], 0) + 1
    nsens = sum(1 for c in cases if c.get("ulpSensitive"))
    print(f"cases: {len(cases)} ({nsens} flagged ulpSensitive) {counts}", file=sys.stderr)
    provenance = (
        "Generated by scripts/reference/jax_samplers_ref.py (importing scripts/reference/jax_random_ref.py), an "
        "independent pure-NumPy model of jax 0.10.2 jax.random samplers (threefry2x32, CPU semantics) written from "
        "/work/shared/reference/jax-random.md sections 6 and 7.1. NOT produced by running JAX. Command: "
        "python3 scripts/reference/jax_samplers_ref.py > test/random/fixtures/jax-samplers-numpy-ref.json "
        f"(python {sys.version.split()[0]}, numpy {np.__version__}). "
        f"Self-check passed {n_ok}/{len(C.rows)} checks (every section 7.1 sampler row within 4 float32 ulp, "
        "integers exact; the loggamma NaN corner case; the section 3.3 Common-Gotchas normals) before writing. "
        "Arithmetic: float32 cases in float32 (every op rounded), float64 cases in float64; uniform uses an exact "
        "FMA; erf_inv uses Giles' polynomials with exact-FMA Horner steps; multiply->add sites that XLA:CPU "
        "contracts (gamma v = 1 + x*c, loggamma boost log1p(-u)*(1/a), poisson/binomial-BTRS mul-adds, wald, "
        "double_sided_maxwell, maxwell, multivariate_normal dot) are exact FMAs; other transcendentals (log, log1p, exp, "
        "tan, pow, erf, lgamma) are NumPy/math float64 results rounded to the dtype, whereas XLA uses its own "
        "approximations -> compare float values with a tolerance (ulps / rtol ~1e-6 for float32, ~1e-12 for "
        "float64; samplers with rejection loops or large dynamic range (gamma a=1e-3, pareto, cauchy, f, t) "
        "may need more). Cases flagged ulpSensitive contain a floor()/comparison within a few ulps of its "
        "threshold, so an integer value or an accept/reject branch may legitimately differ. "
        "Encoding: values flat row-major; int64 values as decimal strings; float32 values as exact doubles plus "
        "bits32; float64 values plus bits64 (decimal strings); non-finite numbers in values/args as the strings "
        "'NaN', 'Infinity', '-Infinity'; 'key' is the seed's [hi, lo] key data in that mode; args use JAX parameter "
        "names and order (dtype null = JAX default); logitsDtype / pDtype give the dtype JAX would infer for "
        "array / Python-float parameters."
    )
    out = sys.stdout
    out.write('{"provenance": ' + json.dumps(provenance) + ',\n "cases": [\n')
    out.write(",\n".join(json.dumps(c, separators=(",", ":"), allow_nan=False) for c in cases))
    out.write("\n]}\n")


if __name__ == "__main__":
    main()
