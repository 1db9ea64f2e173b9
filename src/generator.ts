/**
 * The stateful NumPy-style generator (`statefulRng`, `defaultRng`, `Generator`), JAX's
 * stateful-RNG proposal on stochax's keys: a base key and a counter, one fresh
 * `foldIn(baseKey, counter)` key per draw. See `Generator` for what matches NumPy's
 * `default_rng` and what differs. The implementation is split by topic under `src/generator/`.
 *
 * @example
 * import { statefulRng } from 'stochax';
 * const rng = statefulRng(1701);
 * rng.uniform(-1, 1, [3]); // → Tensor float64 [3]
 */
export { Generator } from './generator/generator.js';
export { statefulRng, defaultRng, type GeneratorSeed, type StatefulRngOptions } from './generator/rng.js';
export type { GeneratorJSON } from './generator/core.js';
export type { FloatOptions, IntegersOptions, IntLike } from './generator/basic.js';
export type { ChoiceOptions } from './generator/arrays.js';
export type { ParamLike, Scalar, SizeLike } from './generator/args.js';
