/**
 * `stochax/distributions`: TFP's distributions, joint distributions and bijectors in camelCase.
 * Constructors take one options object with TFP's parameter names; sub-draws split their seeds
 * with TFP's salts so the draw structure is TFP's.
 */
export {
  Distribution, NotImplementedError,
  type DistributionOptions, type ParameterProperties, type ParameterTable, type ReparameterizationType,
  type SampleOptions,
} from './distribution.js';
export { registerKL, type KLFunction } from './kl.js';
export { Bernoulli, type BernoulliOptions } from './bernoulli.js';
export { Beta, type BetaOptions } from './beta.js';
export { BetaBinomial, type BetaBinomialOptions } from './beta-binomial.js';
export { Binomial, type BinomialOptions } from './binomial.js';
export { Categorical, type CategoricalOptions } from './categorical.js';
export { Cauchy, type CauchyOptions } from './cauchy.js';
export { Chi2, type Chi2Options } from './chi2.js';
export { Deterministic, type DeterministicOptions } from './deterministic.js';
export { Dirichlet, type DirichletOptions } from './dirichlet.js';
export { Exponential, type ExponentialOptions } from './exponential.js';
export { Gamma, type GammaOptions } from './gamma.js';
export { Geometric, type GeometricOptions } from './geometric.js';
export { HalfCauchy, type HalfCauchyOptions } from './half-cauchy.js';
export { HalfNormal, type HalfNormalOptions } from './half-normal.js';
export { HiddenMarkovModel, type HiddenMarkovModelOptions } from './hidden-markov-model.js';
export { Independent, type IndependentOptions } from './independent.js';
export { InverseGamma, type InverseGammaOptions } from './inverse-gamma.js';
export { Laplace, type LaplaceOptions } from './laplace.js';
export { LKJ, type LKJOptions } from './lkj.js';
export { LogNormal, type LogNormalOptions } from './log-normal.js';
export { Logistic, type LogisticOptions } from './logistic.js';
export { Mixture, type MixtureOptions } from './mixture.js';
export { MixtureSameFamily, type MixtureSameFamilyOptions } from './mixture-same-family.js';
export { Multinomial, type MultinomialOptions } from './multinomial.js';
export { DirichletMultinomial, type DirichletMultinomialOptions } from './dirichlet-multinomial.js';
export { MultivariateNormalDiag, type MultivariateNormalDiagOptions } from './multivariate-normal-diag.js';
export { MultivariateNormalTriL, type MultivariateNormalTriLOptions } from './multivariate-normal-tri-l.js';
export { NegativeBinomial, type NegativeBinomialOptions } from './negative-binomial.js';
export { Normal, type NormalOptions } from './normal.js';
export { OneHotCategorical, type OneHotCategoricalOptions } from './one-hot-categorical.js';
export { Poisson, type PoissonOptions } from './poisson.js';
export { Sample, type SampleOptions as SampleDistributionOptions } from './sample.js';
export { StudentT, type StudentTOptions } from './student-t.js';
export { TransformedDistribution, type TransformedDistributionOptions } from './transformed-distribution.js';
export { TruncatedNormal, type TruncatedNormalOptions } from './truncated-normal.js';
export { Uniform, type UniformOptions } from './uniform.js';
export { VonMises, type VonMisesOptions } from './von-mises.js';
export { Weibull, type WeibullOptions } from './weibull.js';
export { Gumbel, type GumbelOptions } from './gumbel.js';
export { Pareto, type ParetoOptions } from './pareto.js';
export { GeneralizedPareto, type GeneralizedParetoOptions } from './generalized-pareto.js';
export { HalfStudentT, type HalfStudentTOptions } from './half-student-t.js';
export { InverseGaussian, type InverseGaussianOptions } from './inverse-gaussian.js';
export { Kumaraswamy, type KumaraswamyOptions } from './kumaraswamy.js';
export { LogLogistic, type LogLogisticOptions } from './log-logistic.js';
export { Horseshoe, type HorseshoeOptions } from './horseshoe.js';
export { OrderedLogistic, type OrderedLogisticOptions } from './ordered-logistic.js';
export { CholeskyLKJ, type CholeskyLKJOptions } from './cholesky-lkj.js';
export { MultivariateStudentTLinearOperator, type MultivariateStudentTLinearOperatorOptions } from './multivariate-student-t.js';
export { Inflated, type InflatedOptions } from './inflated.js';
export { ImproperUniform, type ImproperUniformOptions } from './improper-uniform.js';
export { ZeroSumNormal, type ZeroSumNormalOptions } from './zero-sum-normal.js';
export { GaussianProcess, type GaussianProcessOptions } from './gaussian-process.js';
export { GaussianProcessRegressionModel, type GaussianProcessRegressionModelOptions } from './gaussian-process-regression-model.js';
export { JointDistribution, type JointDistributionOptions, type JointSampleOptions } from './joint/joint-distribution.js';
export { JointDistributionSequential, type SequentialNode } from './joint/joint-distribution-sequential.js';
export { JointDistributionNamed, type NamedModel, type NamedNode } from './joint/joint-distribution-named.js';
export { JointDistributionCoroutine, type CoroutineModel } from './joint/joint-distribution-coroutine.js';
export { JointDistributionPinned, type PinnedLogProbParts } from './joint/joint-distribution-pinned.js';
export { compileLogDensity, isCompiledLogDensity, type CompiledLogDensity, type CompileLogDensityOptions } from './compile-log-density.js';
export { DefaultJointBijector } from './joint/default-joint-bijector.js';
export { Root, type RootNode } from './joint/root.js';
export { deterministic, isDeterministicNode, isDeterministicFn, type DeterministicNode, type DeterministicFn } from './joint/deterministic-node.js';
export { factor, isFactorNode, isFactorFn, type FactorNode, type FactorFn } from './joint/factor-node.js';
export { modelGraph, modelToGraphviz, type ModelGraph, type ModelGraphNode, type ModelGraphKind, type ModelGraphOptions } from './joint/model-graph.js';
export type { PartialValues, Struct, StructKind } from './joint/values.js';
export * as bijectors from './bijectors/index.js';
export * as psdKernels from './psd-kernels/index.js';
