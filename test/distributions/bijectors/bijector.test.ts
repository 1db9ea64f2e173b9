// The Bijector base class: parameter batch dims in log-det-Jacobians, constant-Jacobian chains,
// and the parameter checks under validateArgs.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as bijectorsModule from '../../../distributions/bijectors/index.js';
import { Bijector, FillScaleTriL, JointMap } from '../../../distributions/bijectors/index.js';
import { Chain, Exp, Scale, Shift, Sigmoid, Softplus } from '../../../distributions/bijectors/index.js';
import { detLog } from '../../../src/math/index.js';
import { declaredOptionNames } from '../../declared-options.js';

describe('Bijector base', () => {
  it('a parameter with its own batch dims broadcasts into the log-det-Jacobian (as TFP)', () => {
    expect(new Scale({ scale: [1, 2, 3] }).forwardLogDetJacobian(1).toArray()).toEqual([0, detLog(2), detLog(3)]);
    expect(new Scale({ scale: [[1], [2]] }).forwardLogDetJacobian([5, 6, 7], 1).toArray()).toEqual([0, 3 * detLog(2)]);
  });

  it('a chain has a constant Jacobian exactly when every part has', () => {
    expect(new Chain({ bijectors: [new Shift({ shift: 1 }), new Scale({ scale: 2 })] }).isConstantJacobian).toBe(true);
    expect(new Chain({ bijectors: [new Shift({ shift: 1 }), new Exp()] }).isConstantJacobian).toBe(false);
  });

  it('validateArgs checks the parameters', () => {
    expect(() => new Scale({ scale: [1, 0], validateArgs: true })).toThrow(/Scale: `scale\[1\]` must be nonzero/);
    expect(() => new Softplus({ hingeSoftness: -1, validateArgs: true })).toThrow(/Softplus: `hingeSoftness` must be positive/);
    expect(() => new Sigmoid({ low: 1, high: 0, validateArgs: true })).toThrow(/Sigmoid: `high` must exceed `low`/);
    expect(() => new Scale({ scale: 0 })).not.toThrow();
  });
});

describe('Bijector constructors', () => {
  it('reject an unknown option with a TypeError naming the bijector and the option', () => {
    expect(() => new Scale({ scal: 2 } as never)).toThrow(TypeError);
    expect(() => new Scale({ scal: 2 } as never)).toThrow(/Scale: `options` has unknown option `scal` \(known: scale, logScale, name, validateArgs\)/);
    expect(() => new Softplus({ hingeSoftnes: 1 } as never)).toThrow(/Softplus: `options` has unknown option `hingeSoftnes`/);
    expect(() => new Exp({ validate: true } as never)).toThrow(/Exp: `options` has unknown option `validate`/);
    expect(() => new FillScaleTriL({ diagShfit: 0 } as never)).toThrow(/FillScaleTriL: `options` has unknown option `diagShfit`/);
    expect(() => new JointMap({ bijectors: [new Exp()], bijector: 1 } as never)).toThrow(/JointMap: `options` has unknown option `bijector`/);
    expect(new Scale({ scale: 2 }).copy({ scale: 3 }).forward(1).item()).toBe(3);
  });

  // Whatever a constructor's option type declares, the runtime accepts (and nothing else).
  it('accept exactly the option names each constructor\'s type declares', () => {
    const index = join(fileURLToPath(new URL('../../../', import.meta.url)), 'distributions', 'bijectors', 'index.ts');
    const isBijector = (c: unknown) => typeof c === 'function' && c !== Bijector && c.prototype instanceof Bijector;
    const declared = declaredOptionNames(index, bijectorsModule as Record<string, unknown>, isBijector);
    for (const [name, names] of declared) {
      const cls = (bijectorsModule as Record<string, unknown>)[name] as typeof Bijector;
      // FillScaleTriL builds its Chain's `bijectors` itself.
      const accepted = new Set([...cls.optionNames, 'name', 'validateArgs'].filter((n) => !(cls === FillScaleTriL && n === 'bijectors')));
      expect([...accepted].sort(), name).toEqual([...new Set(['name', 'validateArgs', ...names])].sort());
    }
    expect(declared.size).toBeGreaterThan(12);
  }, 120_000);
});
