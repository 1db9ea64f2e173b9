import { describe, expect, it } from 'vitest';
import * as stochax from '../src/index.js';

describe('the public entry point (package "stochax")', () => {
  it('exports the names ARCHITECTURE.md promises', () => {
    for (const name of ['random', 'samplers', 'compat', 'configure', 'Tensor', 'tensor', 'statefulRng', 'defaultRng',
      'Generator', 'grad', 'valueAndGrad', 'checkGradient', 'fusedNode', 'add', 'mul', 'logsumexp', 'sum']) {
      expect(stochax, name).toHaveProperty(name);
    }
    expect(typeof stochax.compat.tensorflow.statelessUniform).toBe('function');
    expect(typeof stochax.compat.openvino.randomUniform).toBe('function');
    expect(typeof stochax.samplers.sanitizeSeed).toBe('function');
    expect(typeof stochax.random.gamma).toBe('function');
  });

  it('draws from a stateful generator through the entry point', () => {
    const rng = stochax.statefulRng(1701);
    expect(typeof rng.random()).toBe('number');
  });
});
