/**
 * The `jax.random` analogue: typed keys, PRNG implementations and stateless samplers.
 * Each public function reads `configure()`'s modes once and passes them down.
 */
export { KeyArray } from './key-array.js';
export type { ImplName, PrngImpl, BitWidth } from './impl.js';
export { key, split, foldIn, keyData, wrapKeyData, keyImpl } from './keys.js';
export { bits, type BitsDType } from './bits.js';
export { uniform, type UniformOptions } from './uniform.js';
export { randint } from './randint.js';
export { bernoulli } from './bernoulli.js';
export { permutation } from './permutation.js';
export { choice, type ChoiceOptions } from './choice.js';
export { normal } from './normal.js';
export { exponential } from './exponential.js';
export { gumbel, type GumbelMode } from './gumbel.js';
