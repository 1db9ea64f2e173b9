/**
 * `stochax/mcmc`: TFP's `sampleChain` and transition kernels, step-size and mass-matrix
 * adaptation, `windowedAdaptiveNuts`, and diagnostics (TFP's ESS and R-hat; the Stan/ArviZ
 * rank-normalized R-hat, bulk/tail ESS, MCSE, E-BFMI and `summary`).
 */
export type { State, TargetLogProbFn, TargetLogProbAndGradFn, TransitionKernel } from './kernel.js';
export { sampleChain, sampleChainSteps, type SampleChainOptions, type SampleChainResult, type ChainProgress, type PartialChain } from './sample-chain.js';
export * from './parallel/index.js';
export type { Trace } from './internal/stack.js';
export {
  MetropolisHastings, type MetropolisHastingsOptions, type MetropolisHastingsResults, type ProposalResults,
} from './kernels/metropolis-hastings.js';
export {
  RandomWalkMetropolis, UncalibratedRandomWalk, randomWalkNormalFn, randomWalkUniformFn,
  type NewStateFn, type RandomWalkScale, type RandomWalkMetropolisOptions, type RandomWalkMetropolisResults,
  type UncalibratedRandomWalkOptions, type UncalibratedRandomWalkResults,
} from './kernels/random-walk-metropolis.js';
export {
  HamiltonianMonteCarlo, type HamiltonianMonteCarloOptions, type HamiltonianMonteCarloResults,
} from './kernels/hamiltonian-monte-carlo.js';
export {
  UncalibratedHamiltonianMonteCarlo, type UncalibratedHamiltonianMonteCarloResults,
} from './kernels/uncalibrated-hamiltonian-monte-carlo.js';
export { NoUTurnSampler, type NoUTurnSamplerOptions, type NoUTurnSamplerResults } from './kernels/no-u-turn-sampler.js';
export {
  MetropolisAdjustedLangevinAlgorithm, type MetropolisAdjustedLangevinAlgorithmResults,
} from './kernels/metropolis-adjusted-langevin-algorithm.js';
export { UncalibratedLangevin, type UncalibratedLangevinResults, type LangevinOptions, type VolatilityFn } from './kernels/uncalibrated-langevin.js';
export { SliceSampler, type SliceSamplerOptions, type SliceSamplerResults, type SliceStepSize } from './kernels/slice-sampler.js';
export {
  ReplicaExchangeMC, defaultSwapProposalFn, evenOddSwapProposalFn,
  type ReplicaExchangeMCOptions, type ReplicaExchangeMCResults, type SwapProposalFn, type SwapProposalArgs,
} from './kernels/replica-exchange-mc.js';
export {
  TransformedTransitionKernel, type TransformedTransitionKernelOptions, type TransformedTransitionKernelResults,
  type TransformedKernelBijector,
} from './kernels/transformed-transition-kernel.js';
export * from './kernels/simple-step-size-adaptation.js';
export * from './kernels/dual-averaging-step-size-adaptation.js';
export * from './kernels/diagonal-mass-matrix-adaptation.js';
export { reduceLogMeanExp, reduceLogHarmonicMeanExp, type LogReduceFn } from './internal/log-mean-exp.js';
export { windowSizes } from './nuts/tfp/windowed-adaptation.js';
export type { Rejection } from './internal/rejections.js';
export type { Coords, Dims } from './diagnostics/coords.js';
export {
  windowedAdaptiveNuts, windowedAdaptiveNutsSteps, type WindowedAdaptiveNutsOptions, type WindowedAdaptiveNutsResult, type WindowedTrace, type WindowedTraceFn,
  type WindowedProgress, type WindowedPartial,
} from './windowed-adaptive-nuts.js';
export {
  getStepSize, setStepSize, getInverseMassDiag, setInverseMassDiag, getLogAcceptRatio, type StepSize, type InverseMassDiag,
} from './internal/kernel-results.js';
export * from './diagnostics/index.js';
export {
  loo, waic, psislw, compare, LooResult, WaicResult, CompareResult,
  type IcScale, type LogLikelihoodInput, type LooOptions, type WaicOptions, type PsislwOptions, type CompareOptions, type CompareRow,
} from './diagnostics/loo.js';
export { hdi, type HdiOptions } from './diagnostics/hdi.js';
export { looPit, type LooPitOptions } from './diagnostics/loo-pit.js';
export {
  samplePriorPredictive, samplePosteriorPredictive, logLikelihood, logPrior, pointwiseLogProb, computeDeterministics,
  type PredictiveModel, type PosteriorDraws, type PriorPredictiveOptions, type PosteriorPredictiveOptions,
} from './predictive.js';
export {
  sbc, type SbcOptions, type SbcResult, type SbcStatsRow, type SbcBackendDiagnostics, type SbcWarning, type SbcSamplerOptions,
} from './sbc.js';
export { inferDiscrete, marginalLogLikelihood, type InferDiscreteOptions, type MarginalLogLikelihoodOptions } from './infer-discrete.js';
