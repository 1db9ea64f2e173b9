import { JointDistributionNamed, Normal, HalfNormal, Independent, Sample, compileLogDensity } from '../distributions/index.js';
import { add, mul, sub, stack, tensor, type Tensor } from '../src/index.js';
for (const T of (process.env.TS ?? "250,1000,4000").split(",").map(Number)) {
  const y = tensor(Array.from({ length: T }, (_, i) => Math.sin(i * 0.3)));
  const model = new JointDistributionNamed({
    phi: new Normal({ loc: 0, scale: 1 }),
    theta: new Normal({ loc: 0, scale: 1 }),
    sigma: new HalfNormal({ scale: 1 }),
    y: (phi: Tensor, theta: Tensor, sigma: Tensor) => {
      // ARMA(1,1) written step by step (scalar ops): err_t = y_t - (phi*y_{t-1} + theta*err_{t-1})
      const ys = y.data as Float64Array;
      let err: Tensor = sub(tensor(ys[0]!), phi);
      const errs: Tensor[] = [err];
      for (let t = 1; t < T; t++) { err = sub(tensor(ys[t]!), add(mul(phi, tensor(ys[t - 1]!)), mul(theta, err))); errs.push(err); }
      return new Independent({ distribution: new Normal({ loc: sub(y, stack(errs)), scale: sigma }), reinterpretedBatchNdims: 1 });
    },
  });
  const t0 = performance.now();
  const c = compileLogDensity(model, { pins: { y } });
  const t1 = performance.now();
  const g = new Float64Array(3); const x = Float64Array.of(0.3, 0.2, -0.1);
  for (let i = 0; i < Number(process.env.WARM ?? 50); i++) c.logDensityGradient(x, g);
  const c0 = process.cpuUsage(); const t2 = performance.now(); const R = 200;
  for (let i = 0; i < R; i++) c.logDensityGradient(x, g);
  const t3 = performance.now(); const cu = process.cpuUsage(c0); const cpuUs = (cu.user + cu.system) / R;
  console.log(`T=${T} ops~${T * 4} compile ${(t1 - t0).toFixed(0)} ms  grad cpu ${cpuUs.toFixed(1)} us  (${(cpuUs * 1000 / (T * 4)).toFixed(0)} ns/op)`);
}
