/** The two-parameter model the init and Pathfinder-start tests share: mu ~ N(0, 1), s ~ HalfNormal(1), y | mu, s ~ N(mu, s), y = 1. */
import { HalfNormal } from '../../distributions/half-normal.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';

export const model = new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 1 }),
  s: new HalfNormal({ scale: 1 }),
  y: (mu: Tensor, s: Tensor) => new Normal({ loc: mu, scale: s }),
}, { name: 'Simple' });
export const pins = { y: tensor(1) };
