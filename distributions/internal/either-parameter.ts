/**
 * Parameters a distribution takes in one of two forms (`logits` or `probs`, `rate` or
 * `logRate`): the check that exactly one is given, and, for a success probability given as
 * `probs` or as `logits`, p, 1 − p and logit p from whichever was given (differentiable).
 */
import { fail } from '../../src/checks.js';
import { log, log1p, neg, sigmoid, sub } from '../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../src/tensor/tensor.js';

/**
 * Checks that exactly one of `options[first]` and `options[second]` is given.
 *
 * @throws TypeError naming `fn` and `first` when both or neither are.
 * @example
 * checkExactlyOne('Bernoulli', options, 'logits', 'probs');
 */
export function checkExactlyOne(fn: string, options: object, first: string, second: string): void {
  const o = options as Record<string, unknown>;
  if ((o[first] === undefined) === (o[second] === undefined)) {
    fail('type', fn, first, `or \`${second}\` must be given, but not both`, o[first] ?? o[second]);
  }
}

/**
 * p: `probs`, or sigmoid(`logits`).
 *
 * @example
 * probsOf(tensor([0]), undefined); // 0.5
 */
export function probsOf(logits: Tensor | undefined, probs: Tensor | undefined): Tensor {
  return probs ?? sigmoid(logits!);
}

/**
 * 1 − p: sigmoid(−`logits`) (exact for large logits), or 1 − `probs`.
 *
 * @example
 * oneMinusProbsOf(undefined, tensor([0.25])); // 0.75
 */
export function oneMinusProbsOf(logits: Tensor | undefined, probs: Tensor | undefined): Tensor {
  return logits ? sigmoid(neg(logits)) : sub(1, probs!);
}

/**
 * log(p / (1 − p)): `logits`, or log(`probs`) − log1p(−`probs`).
 *
 * @example
 * logitsOf(undefined, tensor([0.5])); // 0
 */
export function logitsOf(logits: Tensor | undefined, probs: Tensor | undefined): Tensor {
  return logits ?? sub(log(probs!), log1p(neg(probs!)));
}
