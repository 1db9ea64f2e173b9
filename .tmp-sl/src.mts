import { JointDistributionNamed, Normal, HalfNormal, Independent } from '../distributions/index.js';
import { compileTarget } from '../distributions/compile-log-density.js';
import { flatModel } from '../distributions/joint/flat-model.js';
import { pinModel } from '../distributions/compile-log-density.js';
import { add, mul, sub, stack, tensor, type Tensor } from '../src/index.js';
const T = Number(process.env.T ?? 4);
const y = tensor(Array.from({ length: T }, (_, i) => Math.sin(i * 0.3)));
const model = new JointDistributionNamed({
  phi: new Normal({ loc: 0, scale: 1 }), theta: new Normal({ loc: 0, scale: 1 }), sigma: new HalfNormal({ scale: 1 }),
  y: (phi: Tensor, theta: Tensor, sigma: Tensor) => {
    const ys = y.data as Float64Array;
    let err: Tensor = sub(tensor(ys[0]!), phi); const errs: Tensor[] = [err];
    for (let t = 1; t < T; t++) { err = sub(tensor(ys[t]!), add(mul(phi, tensor(ys[t - 1]!)), mul(theta, err))); errs.push(err); }
    return new Independent({ distribution: new Normal({ loc: sub(y, stack(errs)), scale: sigma }), reinterpretedBatchNdims: 1 });
  },
});
const m = flatModel('x', pinModel('x', model, { y }) as any);
const c = compileTarget('x', m) as any;
console.log(T, c.source.length, c.source.split("\n").length);
