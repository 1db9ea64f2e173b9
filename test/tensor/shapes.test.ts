import { describe, expect, it } from 'vitest';
import { sameShape, showShape, sizeOf } from '../../src/tensor/shapes.js';

describe('shape helpers', () => {
  it('sizeOf multiplies the dimensions (1 for a scalar, 0 with an empty axis)', () => {
    expect(sizeOf([])).toBe(1);
    expect(sizeOf([2, 3, 4])).toBe(24);
    expect(sizeOf([5, 0, 7])).toBe(0);
  });

  it('sameShape compares length and every dimension', () => {
    expect(sameShape([], [])).toBe(true);
    expect(sameShape([2, 3], [2, 3])).toBe(true);
    expect(sameShape([2, 3], [3, 2])).toBe(false);
    expect(sameShape([2], [2, 1])).toBe(false);
  });

  it('showShape prints a shape as error messages do', () => {
    expect(showShape([])).toBe('[]');
    expect(showShape([2, 3])).toBe('[2, 3]');
  });
});
