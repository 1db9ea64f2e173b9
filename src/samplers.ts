/**
 * TFP's `samplers` module: the only place that knows what a seed is. Distributions and kernels
 * call `sanitizeSeed(seed, { salt })` or `splitSeed(seed, { n, salt })` and never build keys
 * from numbers or fold salts themselves.
 *
 * | seed | becomes | reproducible? |
 * |---|---|---|
 * | a `KeyArray` of shape `[]` (`random.key`, `random.split`, ...) | itself | yes |
 * | `[w0, w1]`, two uint32 words (integers in [0, 2^32)) | `random.wrapKeyData([w0, w1])`, a threefry2x32 key | yes |
 * | `Uint32Array.of(w0, w1)` | the same | yes |
 * | an integer `number` (safe range) or `bigint` in [-2^63, 2^64) | `random.key(seed)` | yes (unlike TF's stateful int seeds) |
 * | `undefined` | a fresh threefry2x32 key, two words from a global `seedrandom` source | only after `samplers.setGlobalSeed(n)` |
 * | anything else: a batch of keys, a string, `null`, an `Int32Array`, `[1, 2, 3]`, ... | `TypeError` naming `seed` | |
 *
 * | rule | definition |
 * |---|---|
 * | salt | `key ← random.foldIn(key, saltToInt(salt))`; `saltToInt(s)` = SHA-512 of the UTF-8 bytes of `s`, read as one big-endian integer, mod 2^31 − 1 (`'gamma'` → 589445474), exactly as TFP salts stateless seeds. Integer seeds are salted the same way after `random.key`. A non-string salt is a `TypeError` naming `salt`. |
 * | `splitSeed(seed, { n = 2, salt })` | `[...random.split(sanitizeSeed(seed, { salt }), n)]`, `n` a positive integer |
 * | `foldIn(seed, salt)` | `random.foldIn(key, salt)` for an integer salt (taken as uint32), `random.foldIn(key, saltToInt(salt))` for a string |
 * | `zerosSeed()` / `cloneSeed(seed)` | `random.key(0)` / a copy with its own storage |
 * | `getIntegerSeed(seed)` | integer seed → `seed mod 2^31`; otherwise `random.randint(key, [], 0, 2^31 − 1, { dtype: 'int32' })` |
 * | `normal`, `uniform`, `gamma`, `poisson`, `categorical`, `shuffle` | `sanitizeSeed(seed)` with no salt, then stochax's `random` sampler |
 *
 * @example
 * import { samplers } from 'stochax';
 * const [g1, g2, b] = samplers.splitSeed([1, 2], { n: 3, salt: 'beta_binomial' });
 * samplers.normal([3], { seed: g1 });   // → Tensor float64 [3]
 */
export {
  sanitizeSeed, splitSeed, foldIn, zerosSeed, cloneSeed, getIntegerSeed, type Seed,
} from './samplers/seeds.js';
export { setGlobalSeed } from './samplers/global-seed.js';
export { saltToInt } from './sha512.js';
export { normal, type NormalOptions } from './samplers/normal.js';
export { uniform, type SamplersUniformOptions } from './samplers/uniform.js';
export { shuffle } from './samplers/shuffle.js';
export { gamma, type SamplersGammaOptions } from './samplers/gamma.js';
export { poisson, type SamplersPoissonOptions } from './samplers/poisson.js';
export { categorical } from './samplers/categorical.js';
