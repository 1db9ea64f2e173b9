/**
 * stochax's deterministic math: the transcendental functions of `Math` computed from IEEE-754
 * basic operations only (+ − × ÷ and sqrt, correctly rounded on every engine), exact bit
 * manipulation through typed-array views and exact BigInt arithmetic, so that every JavaScript
 * engine returns the same bits. `Math.exp`, `Math.log`, `Math.sin`… are not specified to the last
 * bit, and engines (and V8 versions) differ.
 *
 * Every function here is faithfully rounded (error below 1 ulp) over its whole domain, with
 * `Math`'s special values (±0, ±∞, NaN, subnormals). Measured over 6 million mpmath points
 * (test/fixtures/detmath/generate.py): exp, expm1, the logarithms, the hyperbolic functions and
 * their inverses, cbrt and pow stay within 0.52 ulp (0.55 for expm1) and are correctly rounded
 * for all but 0.002–0.2% of inputs; sin, cos, tan, atan, atan2, asin and acos (fdlibm's kernels)
 * stay within 0.78 ulp. Checked again against mathjs BigNumber on fresh random points in every
 * test run (test/math/).
 *
 * This layer sits below tensors and random: it imports nothing from the rest of stochax.
 */
export { detExp, detExpm1, detSinh, detCosh, detTanh } from './exp.js';
export { detLog, detLog1p, detLog2, detLog10, log1pDet } from './log.js';
export { detPow } from './pow.js';
export { detSin, detCos, detTan } from './trig.js';
export { detAtan, detAtan2, detAsin, detAcos } from './atan.js';
export { detAsinh, detAcosh, detAtanh } from './hyperbolic.js';
export { detCbrt } from './cbrt.js';
export {
  erfinv64det, erfinv32det, erfinvCentralPoly, normalF64FromUnitDet, normalF64FromUnitDetInPlace,
  normalF32FromUnitDet, normalF32FromUnitDetInPlace, NORMAL_F64_LO, NORMAL_F32_LO, SQRT2_F32,
  ERFINV_CENTRAL, ERFINV_MIDDLE, ERFINV_TAIL, ERFINV32_CENTRAL, ERFINV32_TAIL,
} from './normal-det.js';
export { LN2_HI, LN2_LO, LG1, LG2, LG3, LG4, LG5, LG6, LG7 } from './log.js';
