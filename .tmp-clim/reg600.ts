import { JointDistributionNamed, Normal, HalfNormal, Independent } from '../distributions/index.js';
import { add, mul, tensor, type Tensor } from '../src/index.js';
const N = 600;
const x = tensor(Array.from({ length: N }, (_, i) => Math.sin(i * 0.37) * 2));
const y = tensor(Array.from({ length: N }, (_, i) => 1 + 0.5 * Math.sin(i * 0.37) * 2 + 0.3 * Math.cos(i * 1.7)));
export const model = new JointDistributionNamed({
  a: new Normal({ loc: 0, scale: 5 }),
  b: new Normal({ loc: 0, scale: 5 }),
  sigma: new HalfNormal({ scale: 2 }),
  y: (a: Tensor, b: Tensor, sigma: Tensor) => new Independent({ distribution: new Normal({ loc: add(a, mul(b, x)), scale: sigma }), reinterpretedBatchNdims: 1 }),
});
export const pins = { y };
