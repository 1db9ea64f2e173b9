/**
 * The error function, its complement and its inverse in float64, computed only from IEEE-754
 * basic operations and src/math's deterministic exp and log, so every engine returns the same
 * bits.
 *
 * erf and erfc are Sun's fdlibm `s_erf.c` (the algorithm and coefficients of FreeBSD's libm and
 * of @stdlib, which this replaces): odd rational approximations on [0, 0.84375), a rational in
 * x − 1 on [0.84375, 1.25), and erfc(x) = exp(−x² − 0.5625 + R(1/x²))/x beyond, with x² split
 * exactly (the high 21 bits of x squared exactly, plus (z − x)(z + x)) so the large exponent
 * loses nothing. erfinv is Boost's `erf_inv` for 53-bit doubles (rational approximations in x
 * near 0 and in √(−ln(1 − x)) beyond), whose last branch covers 1 − x down to 2^−53.
 *
 * Accuracy against mpmath at 50 digits (test/tensor/erf.test.ts, fixtures/erf-mpmath.py, tens of
 * thousands of points including erf near 0 and subnormal, erfc to erfc(27), erfinv next to ±1
 * and tiny, and fresh mathjs BigNumber points on every run): erf within 1.5 ulp, erfc within
 * 2.5 ulp down to erfc(26.5) ≈ 1e−307 (subnormal beyond), erfinv within 2.5 ulp of the exact
 * inverse of the float64 input (ERF_ULP, ERFC_ULP, ERFINV_ULP).
 */
import { BITS_F64, BITS_I32, LO } from '../../math/bits.js';
import { detExp, detLog } from '../../math/index.js';

// Error bounds in ulp of the exact value: the worst distance to the correctly rounded result
// measured on the mpmath fixture (1, 2 and 2 ulp), plus the half ulp of that rounding.
/** Error bound of erf, in ulp. */
export const ERF_ULP = 1.5;
/** Error bound of erfc where it is a normal number, in ulp. */
export const ERFC_ULP = 2.5;
/** Error bound of erfinv, in ulp of the exact inverse of the float64 input. */
export const ERFINV_ULP = 2.5;

const TINY = 1e-300;
const ERX = 8.45062911510467529297e-1; // erf(1) rounded to 24 bits
const EFX = 1.28379167095512586316e-1; // 2/√π − 1
const EFX8 = 1.02703333676410069053; // 8·EFX

// erf on [0, 0.84375): x + x·P(x²)/Q(x²)
const PP0 = 1.28379167095512558561e-1, PP1 = -3.25042107247001499370e-1, PP2 = -2.84817495755985104766e-2,
  PP3 = -5.77027029648944159157e-3, PP4 = -2.37630166566501626084e-5;
const QQ1 = 3.97917223959155352819e-1, QQ2 = 6.50222499887672944485e-2, QQ3 = 5.08130628187576562776e-3,
  QQ4 = 1.32494738004321644526e-4, QQ5 = -3.96022827877536812320e-6;
// erf on [0.84375, 1.25): erx + P(s)/Q(s), s = x − 1
const PA0 = -2.36211856075265944077e-3, PA1 = 4.14856118683748331666e-1, PA2 = -3.72207876035701323847e-1,
  PA3 = 3.18346619901161753674e-1, PA4 = -1.10894694282396677476e-1, PA5 = 3.54783043256182359371e-2,
  PA6 = -2.16637559486879084300e-3;
const QA1 = 1.06420880400844228286e-1, QA2 = 5.40397917702171048937e-1, QA3 = 7.18286544141962662868e-2,
  QA4 = 1.26171219808761642112e-1, QA5 = 1.36370839120290507362e-2, QA6 = 1.19844998467991074170e-2;
// erfc on [1.25, 1/0.35): exp(−x² − 0.5625 + R(s)/S(s))/x, s = 1/x²
const RA0 = -9.86494403484714822705e-3, RA1 = -6.93858572707181764372e-1, RA2 = -1.05586262253232909814e1,
  RA3 = -6.23753324503260060396e1, RA4 = -1.62396669462573470355e2, RA5 = -1.84605092906711035994e2,
  RA6 = -8.12874355063065934246e1, RA7 = -9.81432934416914548592;
const SA1 = 1.96512716674392571292e1, SA2 = 1.37657754143519042600e2, SA3 = 4.34565877475229228821e2,
  SA4 = 6.45387271733267880336e2, SA5 = 4.29008140027567833386e2, SA6 = 1.08635005541779435134e2,
  SA7 = 6.57024977031928170135, SA8 = -6.04244152148580987438e-2;
// erfc on [1/0.35, 28)
const RB0 = -9.86494292470009928597e-3, RB1 = -7.99283237680523006574e-1, RB2 = -1.77579549177547519889e1,
  RB3 = -1.60636384855821916062e2, RB4 = -6.37566443368389627722e2, RB5 = -1.02509513161107724954e3,
  RB6 = -4.83519191608651397019e2;
const SB1 = 3.03380607434824582924e1, SB2 = 3.25792512996573918826e2, SB3 = 1.53672958608443695994e3,
  SB4 = 3.19985821950859553908e3, SB5 = 2.55305040643316442583e3, SB6 = 4.74528541206955367215e2,
  SB7 = -2.24409524465858183362e1;

/** (x + x·y, y = P(x²)/Q(x²)): the small-argument ratio of erf, |x| < 0.84375. */
function smallRatio(x: number): number {
  const z = x * x;
  const r = PP0 + z * (PP1 + z * (PP2 + z * (PP3 + z * PP4)));
  const s = 1 + z * (QQ1 + z * (QQ2 + z * (QQ3 + z * (QQ4 + z * QQ5))));
  return r / s;
}

/** P(s)/Q(s) of erf on [0.84375, 1.25), s = |x| − 1. */
function middleRatio(s: number): number {
  const p = PA0 + s * (PA1 + s * (PA2 + s * (PA3 + s * (PA4 + s * (PA5 + s * PA6)))));
  const q = 1 + s * (QA1 + s * (QA2 + s * (QA3 + s * (QA4 + s * (QA5 + s * QA6)))));
  return p / q;
}

/** erfc(ax) for 1.25 ≤ ax < 28: exp(−z² − 0.5625)·exp((z − ax)(z + ax) + R/S)/ax, z = ax to 21 bits. */
function tail(ax: number): number {
  const s = 1 / (ax * ax);
  let r: number, q: number;
  if (ax < 2.857142857142857) {
    r = RA0 + s * (RA1 + s * (RA2 + s * (RA3 + s * (RA4 + s * (RA5 + s * (RA6 + s * RA7))))));
    q = 1 + s * (SA1 + s * (SA2 + s * (SA3 + s * (SA4 + s * (SA5 + s * (SA6 + s * (SA7 + s * SA8)))))));
  } else {
    r = RB0 + s * (RB1 + s * (RB2 + s * (RB3 + s * (RB4 + s * (RB5 + s * RB6)))));
    q = 1 + s * (SB1 + s * (SB2 + s * (SB3 + s * (SB4 + s * (SB5 + s * (SB6 + s * SB7))))));
  }
  BITS_F64[0] = ax;
  BITS_I32[LO] = 0; // z: ax with its low word cleared, so z·z is exact
  const z = BITS_F64[0]!;
  return (detExp(-z * z - 0.5625) * detExp((z - ax) * (z + ax) + r / q)) / ax;
}

/**
 * The error function erf(x) = (2/√π) ∫₀ˣ e^(−t²) dt, odd, with erf(±∞) = ±1.
 *
 * @example
 * erf(0.5); // 0.5204998778130465
 */
export function erf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x === 0) return x;
  const ax = Math.abs(x);
  let r: number;
  if (ax < 0.84375) {
    if (ax < 3.725290298461914e-9) {
      // 2x/√π; scaled up first below 2^−1021 so x·EFX does not lose bits to underflow.
      return ax < 2.848094538889218e-306 ? 0.125 * (8 * x + EFX8 * x) : x + EFX * x;
    }
    return x + x * smallRatio(x);
  }
  if (ax < 1.25) r = ERX + middleRatio(ax - 1);
  else if (ax < 6) r = 1 - tail(ax);
  else r = 1 - TINY;
  return x < 0 ? -r : r;
}

/**
 * The complementary error function erfc(x) = 1 − erf(x), accurate in relative terms through
 * the upper tail (erfc(26.5) ≈ 1e−307; subnormal beyond, 0 from x = 28).
 *
 * @example
 * erfc(10); // 2.088487583762545e-45
 */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const ax = Math.abs(x);
  if (ax < 0.84375) {
    if (ax < 1.3877787807814457e-17) return 1 - x;
    const y = smallRatio(x);
    if (x < 0.25) return 1 - (x + x * y);
    return 0.5 - (x * y + (x - 0.5));
  }
  if (ax < 1.25) {
    const pq = middleRatio(ax - 1);
    return x < 0 ? 1 + ERX + pq : 1 - ERX - pq;
  }
  if (ax < 28) {
    if (x < -6) return 2 - TINY;
    const r = tail(ax);
    return x < 0 ? 2 - r : r;
  }
  return x < 0 ? 2 - TINY : 0;
}

// ---- erfinv ---------------------------------------------------------------------------------------

/**
 * P(t)/Q(t) with coefficients lowest degree first, as Boost evaluates a rational: directly for
 * |t| ≤ 1, and for |t| > 1 as P and Q reversed in 1/t (the same value, better conditioned).
 */
function rational(p: readonly number[], q: readonly number[], t: number): number {
  const n = Math.max(p.length, q.length);
  let s1 = 0, s2 = 0;
  if (Math.abs(t) <= 1) {
    for (let i = n - 1; i >= 0; i--) { s1 = s1 * t + (p[i] ?? 0); s2 = s2 * t + (q[i] ?? 0); }
  } else {
    const u = 1 / t;
    for (let i = 0; i < n; i++) { s1 = s1 * u + (p[i] ?? 0); s2 = s2 * u + (q[i] ?? 0); }
  }
  return s1 / s2;
}

// Boost's erf_inv_imp coefficients for 53-bit precision, lowest degree first.
const Y1 = 8.91314744949340820313e-2;
const P1 = [-0.000508781949658280665617, -0.00836874819741736770379, 0.0334806625409744615033,
  -0.0126926147662974029034, -0.0365637971411762664006, 0.0219878681111168899165, 0.00822687874676915743155,
  -0.00538772965071242932965];
const Q1 = [1, -0.970005043303290640362, -1.56574558234175846809, 1.56221558398423026363, 0.662328840472002992063,
  -0.71228902341542847553, -0.0527396382340099713954, 0.0795283687341571680018, -0.00233393759374190016776,
  0.000886216390456424707504];
const Y2 = 2.249481201171875;
const P2 = [-0.202433508355938759655, 0.105264680699391713268, 8.37050328343119927838, 17.6447298408374015486,
  -18.8510648058714251895, -44.6382324441786960818, 17.445385985570866523, 21.1294655448340526258,
  -3.67192254707729348546];
const Q2 = [1, 6.24264124854247537712, 3.9713437953343869095, -28.6608180499800029974, -20.1432634680485188801,
  48.5609213108739935468, 10.8268667355460159008, -22.6436933413139721736, 1.72114765761200282724];
const Y3 = 8.07220458984375e-1;
const P3 = [-0.131102781679951906451, -0.163794047193317060787, 0.117030156341995252019, 0.387079738972604337464,
  0.337785538912035898924, 0.142869534408157156766, 0.0290157910005329060432, 0.00214558995388805277169,
  -0.679465575181126350155e-6, 0.285225331782217055858e-7, -0.681149956853776992068e-9];
const Q3 = [1, 3.46625407242567245975, 5.38168345707006855425, 4.77846592945843778382, 2.59301921623620271374,
  0.848854343457902036425, 0.152264338295331783612, 0.01105924229346489121];
const Y4 = 9.3995571136474609375e-1;
const P4 = [-0.0350353787183177984712, -0.00222426529213447927281, 0.0185573306514231072324,
  0.00950804701325919603619, 0.00187123492819559223345, 0.000157544617424960554631, 0.460469890584317994083e-5,
  -0.230404776911882601748e-9, 0.266339227425782031962e-11];
const Q4 = [1, 1.3653349817554063097, 0.762059164553623404043, 0.220091105764131249824, 0.0341589143670947727934,
  0.00263861676657015992959, 0.764675292302794483503e-4];
const Y5 = 9.8362827301025390625e-1;
const P5 = [-0.0167431005076633737133, -0.00112951438745580278863, 0.00105628862152492910091,
  0.000209386317487588078668, 0.149624783758342370182e-4, 0.449696789927706453732e-6, 0.462596163522878599135e-8,
  -0.281128735628831791805e-13, 0.99055709973310326855e-16];
const Q5 = [1, 0.591429344886417493481, 0.138151865749083321638, 0.0160746087093676504695,
  0.000964011807005165528527, 0.275335474764726041141e-4, 0.282243172016108031869e-6];

/**
 * The inverse error function: erfinv(erf(x)) = x on (−1, 1), ±∞ at ±1, NaN outside [−1, 1].
 *
 * @example
 * erfinv(0.5); // 0.4769362762044699
 */
export function erfinv(x: number): number {
  if (Number.isNaN(x) || x > 1 || x < -1) return Number.NaN;
  if (x === 1) return Infinity;
  if (x === -1) return -Infinity;
  if (x === 0) return x;
  const sign = x < 0 ? -1 : 1;
  const ax = Math.abs(x);
  let q = 1 - ax; // exact for ax ≥ ½
  if (ax <= 0.5) {
    const g = ax * (ax + 10);
    return sign * (g * Y1 + g * rational(P1, Q1, ax));
  }
  if (q >= 0.25) {
    const g = Math.sqrt(-2 * detLog(q));
    return sign * (g / (Y2 + rational(P2, Q2, q - 0.25)));
  }
  q = Math.sqrt(-detLog(q));
  if (q < 3) return sign * (Y3 * q + rational(P3, Q3, q - 1.125) * q);
  if (q < 6) return sign * (Y4 * q + rational(P4, Q4, q - 3) * q);
  return sign * (Y5 * q + rational(P5, Q5, q - 6) * q);
}
