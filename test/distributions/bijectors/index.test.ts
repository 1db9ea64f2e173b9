// The bijectors index exports every bijector class (each file's class under its own name).
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as tfb from '../../../distributions/bijectors/index.js';

describe('bijectors/index', () => {
  it('exports one class per bijector file, plus Bijector and JointMap', async () => {
    const dir = fileURLToPath(new URL('../../../distributions/bijectors/', import.meta.url));
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !['index.ts', 'support.ts'].includes(f));
    for (const f of files) {
      const mod = await import(`../../../distributions/bijectors/${f.replace(/\.ts$/, '.js')}`) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        if (typeof value === 'function' && /^[A-Z]/.test(name)) expect((tfb as Record<string, unknown>)[name], `${f}: ${name}`).toBe(value);
      }
    }
    for (const name of ['Ascending', 'Bijector', 'Chain', 'CholeskyOuterProduct', 'CorrelationCholesky', 'Exp', 'FillScaleTriL', 'FillTriangular',
      'Identity', 'Invert', 'JointMap', 'Log', 'NormalCDF', 'PositiveOrdered', 'Power', 'Reciprocal', 'Reshape', 'Scale', 'ScaleMatvecTriL', 'Shift', 'Sigmoid',
      'SoftmaxCentered', 'Softplus', 'SumToZero', 'Tanh', 'TransformDiagonal']) {
      expect(typeof (tfb as Record<string, unknown>)[name], name).toBe('function');
    }
  });
});
