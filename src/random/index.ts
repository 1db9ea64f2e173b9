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
export { truncatedNormal } from './truncated-normal.js';
export { gamma, loggamma } from './gamma.js';
export { poisson } from './poisson.js';
export { binomial } from './binomial.js';
export { multinomial } from './multinomial.js';
export { geometric } from './geometric.js';
export { categorical } from './categorical.js';
export { multivariateNormal } from './multivariate-normal.js';
export { orthogonal } from './orthogonal.js';
export { laplace } from './laplace.js';
export { logistic } from './logistic.js';
export { cauchy } from './cauchy.js';
export { pareto } from './pareto.js';
export { weibullMin } from './weibull-min.js';
export { rayleigh } from './rayleigh.js';
export { lognormal } from './lognormal.js';
export { triangular } from './triangular.js';
export { maxwell } from './maxwell.js';
export { doubleSidedMaxwell } from './double-sided-maxwell.js';
export { wald } from './wald.js';
export { rademacher } from './rademacher.js';
export { beta } from './beta.js';
export { dirichlet } from './dirichlet.js';
export { chisquare } from './chisquare.js';
export { t } from './t.js';
export { f } from './f.js';
export { generalizedNormal } from './generalized-normal.js';
export { ball } from './ball.js';
