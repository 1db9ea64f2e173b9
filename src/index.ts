/**
 * stochax: reproducible probabilistic programming with JAX-compatible counter-based keys.
 *
 * @example
 * import { random, configure } from 'stochax';
 * const [key, subkey] = random.split(random.key(0));
 * random.uniform(subkey, [3]); // → Tensor float64 [3], the same bits as JAX
 */
export * as random from './random/index.js';
export * as samplers from './samplers.js';
export * as compat from './compat/index.js';
export * as effects from './effects/index.js';
export { Generator, statefulRng, defaultRng } from './generator.js';
export type { GeneratorJSON, GeneratorSeed, StatefulRngOptions } from './generator.js';
export { configure, getModes, type ConfigureOptions, type Modes } from './config.js';
export * from './tensor/index.js';
export { jit } from './compile/index.js';
export { odeRk45, odeRosenbrock23, OdeError, type OdeOptions, type OdeRhs } from './ode/index.js';
export * as prng from './prng/index.js';
