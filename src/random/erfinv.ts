/**
 * The inverse error function as XLA computes it for `jax.random.normal`: Giles' single-precision
 * approximation ("Approximating the erfinv function", GPU Computing Gems, 2011) for float32 and
 * his three-branch double-precision one for float64, with XLA's coefficients.
 */
import { fma32 } from './float.js';
import { detLog1p } from '../math/index.js';

const F32_CENTRAL = [2.81022636e-8, 3.43273939e-7, -3.5233877e-6, -4.39150654e-6, 2.1858087e-4,
  -1.25372503e-3, -4.17768164e-3, 2.46640727e-1, 1.50140941].map(Math.fround);
const F32_TAIL = [-2.00214257e-4, 1.00950558e-4, 1.34934322e-3, -3.67342844e-3, 5.73950773e-3,
  -7.6224613e-3, 9.43887047e-3, 1.00167406, 2.83297682].map(Math.fround);
const F32_HALF = Math.fround(2.5), F32_THREE = 3;

/**
 * Float32 erfinv: w = −log1p(−x²); a degree-8 polynomial in w − 2.5 (w < 5) or √w − 3, by
 * Horner with fused multiply-adds, all rounded to float32; erfinv(±1) = ±∞. The log1p is
 * correctly rounded here and XLA's is within an ulp, so results agree to a few ulp.
 */
export function erfinv32(x: number): number {
  const w0 = Math.fround(-detLog1p(Math.fround(-Math.fround(x * x))));
  let p: number;
  if (w0 < 5) {
    const w = Math.fround(w0 - F32_HALF);
    p = F32_CENTRAL[0]!;
    for (let i = 1; i < 9; i++) p = fma32(p, w, F32_CENTRAL[i]!);
  } else {
    const w = Math.fround(Math.fround(Math.sqrt(w0)) - F32_THREE);
    p = F32_TAIL[0]!;
    for (let i = 1; i < 9; i++) p = fma32(p, w, F32_TAIL[i]!);
  }
  return Math.abs(x) === 1 ? x * Infinity : Math.fround(p * x);
}

// Giles' double-precision coefficients (as in XLA's ErfInv64), highest degree first.
const F64_CENTRAL = [-3.6444120640178196996e-21, -1.685059138182016589e-19, 1.2858480715256400167e-18,
  1.115787767802518096e-17, -1.333171662854620906e-16, 2.0972767875968561637e-17, 6.6376381343583238325e-15,
  -4.0545662729752068639e-14, -8.1519341976054721522e-14, 2.6335093153082322977e-12, -1.2975133253453532498e-11,
  -5.4154120542946279317e-11, 1.051212273321532285e-9, -4.1126339803469836976e-9, -2.9070369957882005086e-8,
  4.2347877827932403518e-7, -1.3654692000834678645e-6, -1.3882523362786468719e-5, 1.867342080340571352e-4,
  -7.4070253416626697512e-4, -6.0336708714301490533e-3, 0.24015818242558961693, 1.6536545626831027356];
const F64_MIDDLE = [2.2137376921775787049e-9, 9.0756561938885390979e-8, -2.7517406297064545428e-7,
  1.8239629214389227755e-8, 1.5027403968909827627e-6, -4.013867526981545969e-6, 2.9234449089955446044e-6,
  1.2475304481671778723e-5, -4.7318229009055733981e-5, 6.8284851459573175448e-5, 2.4031110387097893999e-5,
  -3.550375203628474796e-4, 9.5328937973738049703e-4, -1.6882755560235047313e-3, 2.4914420961078508066e-3,
  -3.7512085075692412107e-3, 5.370914553590063617e-3, 1.0052589676941592334, 3.0838856104922207635];
const F64_TAIL = [-2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-9,
  -3.7894654401267369937e-9, 7.6157012080783393804e-9, -1.4960026627149240478e-8, 2.9147953450901080826e-8,
  -6.7711997758452339498e-8, 2.2900482228026654717e-7, -9.9298272942317002539e-7, 4.5260625972231537039e-6,
  -1.9681778105531670567e-5, 7.5995277030017761139e-5, -2.1503011930044477347e-4, -1.3871931833623122026e-4,
  1.0103004648645343977, 4.8499064014085844221];

function horner(c: readonly number[], w: number): number {
  let p = c[0]!;
  for (let i = 1; i < c.length; i++) p = p * w + c[i]!;
  return p;
}

/**
 * Float64 erfinv: w = −log1p(−x²); a polynomial in w − 3.125 (w < 6.25), √w − 3.25 (w < 16)
 * or √w − 5. Agrees with XLA's to well within 1e-12 relative (the evaluation differs only by
 * rounding of the last few operations).
 */
export function erfinv64(x: number): number {
  const w = -detLog1p(-x * x);
  let p: number;
  if (w < 6.25) p = horner(F64_CENTRAL, w - 3.125);
  else if (w < 16) p = horner(F64_MIDDLE, Math.sqrt(w) - 3.25);
  else p = horner(F64_TAIL, Math.sqrt(w) - 5);
  return Math.abs(x) === 1 ? x * Infinity : p * x;
}
