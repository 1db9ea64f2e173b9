import { JointDistributionNamed, Normal, Sample } from './distributions/index.js';
import { windowedAdaptiveNuts } from './mcmc/index.js';
const model = new JointDistributionNamed({ x: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 100 }) });
windowedAdaptiveNuts(model, { seed: 1, numAdaptationSteps: 50, nDraws: 50 });
const t0 = performance.now();
const r = windowedAdaptiveNuts(model, { seed: 0, numAdaptationSteps: 1000 });
console.log(performance.now() - t0, 'ms', (r.trace as any).nSteps.data.reduce((a: number, b: number) => a + b, 0), 'leapfrogs');
