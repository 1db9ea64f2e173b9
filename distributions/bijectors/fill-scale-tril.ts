import type { TensorLike } from '../../src/tensor/core.js';
import { checkOptions, fail } from '../../src/checks.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { Chain } from './chain.js';
import { FillTriangular } from './fill-triangular.js';
import { Shift } from './shift.js';
import { Softplus } from './softplus.js';
import { TransformDiagonal } from './transform-diagonal.js';
import { brand } from '../../src/brand.js';

export interface FillScaleTriLOptions extends BijectorOptions {
  /** Maps the diagonal onto positive values (default `new Softplus()`). */
  readonly diagBijector?: Bijector;
  /** Added to the diagonal after `diagBijector` (default 1e-5; `null` for none). */
  readonly diagShift?: TensorLike | null;
}

/**
 * Unconstrained vectors [..., n(n+1)/2] → lower-triangular matrices [..., n, n] with a positive
 * diagonal (TFP's `tfb.FillScaleTriL`), e.g. the scale_tril of a MultivariateNormalTriL. Exactly
 * TFP's composition: `Chain([TransformDiagonal(Chain([Shift(diagShift), diagBijector])),
 * FillTriangular()])`, so the diagonal is `diagBijector(x) + diagShift` and the log-det-Jacobian
 * is the diagonal bijector's (FillTriangular contributes 0). `forwardMinEventNdims` 1,
 * `inverseMinEventNdims` 2. `inverse` needs diagonal entries above `diagShift`.
 *
 * @throws TypeError when `diagBijector` is not a Bijector acting on elements or vectors;
 *   RangeError when the last dimension of x is not a triangular number.
 * @example
 * const b = new FillScaleTriL({ diagBijector: new Exp(), diagShift: null });
 * b.forward([0, 0, 0]);              // → Tensor float64 [2, 2]: [[1, 0], [0, 1]]
 * b.inverse([[1, 0], [0.5, 2]]);     // → Tensor float64 [3]: [log 2, 0.5, 0]
 */
export class FillScaleTriL extends Chain {
  static override readonly optionNames = ['bijectors', 'diagBijector', 'diagShift'];
  constructor(options?: FillScaleTriLOptions) {
    // `bijectors` comes back from `copy` (the Chain's parameters) and is rebuilt below.
    const opts = checkOptions('FillScaleTriL', options, ['diagBijector', 'diagShift', 'name', 'validateArgs', 'bijectors'] as never[]);
    const validateArgs = opts.validateArgs ?? false;
    if (opts.diagBijector !== undefined && !(opts.diagBijector instanceof Bijector)) fail('type', 'FillScaleTriL', 'diagBijector', 'must be a Bijector', opts.diagBijector);
    let diag: Bijector = opts.diagBijector ?? new Softplus({ validateArgs });
    const shift = opts.diagShift === undefined ? 1e-5 : opts.diagShift;
    if (shift !== null) diag = new Chain({ bijectors: [new Shift({ shift }), diag] });
    super({
      ...opts,
      name: opts.name ?? 'FillScaleTriL',
      bijectors: [new TransformDiagonal({ diagBijector: diag, validateArgs }), new FillTriangular({ validateArgs })],
    });
  }
}
brand(FillScaleTriL, 'bijectors.FillScaleTriL');   // recognised across copies of stochax (src/brand.ts)
