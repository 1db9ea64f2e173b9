// The shared argument checks (src/checks.ts): sizes checked up front against MAX_SIZE, nesting
// depth and cycles, unknown option names, and messages that stay short for any value.
import { describe, expect, it } from 'vitest';
import { checkCount, checkFunction, checkNesting, checkOptions, checkPositive, checkPositiveInteger, checkShape, MAX_NDIM, MAX_SIZE, show } from '../src/checks.js';

describe('checkShape and checkCount', () => {
  it('accept up to MAX_SIZE (2^28) elements and refuse more, naming the function and the size', () => {
    expect(MAX_SIZE).toBe(2 ** 28);
    expect(checkShape('f', 'shape', [2 ** 14, 2 ** 14])).toEqual([2 ** 14, 2 ** 14]);
    expect(() => checkShape('random.normal', 'shape', [3e9])).toThrow(RangeError);
    expect(() => checkShape('random.normal', 'shape', [3e9])).toThrow(/^random\.normal: `shape` asks for 3000000000 elements, more than the limit of 268435456; got \[3000000000\]$/);
    expect(() => checkShape('f', 'shape', 2 ** 28 + 1)).toThrow(/f: `shape` is 268435457, more than the limit of 268435456/);
    expect(() => checkShape('f', 'shape', new Array(MAX_NDIM + 1).fill(1))).toThrow(/at most 64 dimensions/);
    expect(checkCount('f', 'n', 5, 5)).toBe(5);
    expect(() => checkCount('f', 'n', 6, 5)).toThrow(/f: `n` is 6, more than the limit of 5/);
    expect(() => checkCount('f', 'n', -1)).toThrow(RangeError);
    expect(() => checkCount('f', 'n', 1.5)).toThrow(TypeError);
  });
});

describe('checkNesting', () => {
  it('refuses arrays nested more than 64 deep, and cycles, with a TypeError instead of a stack overflow', () => {
    let deep: unknown = [1];
    for (let i = 0; i < 1e5; i++) deep = [deep];
    expect(() => checkNesting('tensor', 'values', deep)).toThrow(TypeError);
    expect(() => checkNesting('tensor', 'values', deep)).toThrow(/tensor: `values` must be nested at most 64 levels deep/);
    const cyclic: unknown[] = [1];
    cyclic.push(cyclic);
    expect(() => checkNesting('tensor', 'values', cyclic)).toThrow(/must not contain itself/);
    const obj: Record<string, unknown> = { a: 1 };
    obj.self = { back: obj };
    expect(() => checkNesting('valueAndGrad', 'x', obj)).toThrow(/valueAndGrad: `x` must not contain itself/);
    // Shared (not cyclic) sub-arrays are fine.
    const row = [1, 2];
    expect(() => checkNesting('f', 'x', [row, row, { row }])).not.toThrow();
  });

  it('show() ends on a cyclic array', () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    expect(show(cyclic)).toBe('[[[an array of length 1]]]');
  });
});

describe('checkOptions', () => {
  it('rejects unknown option names with a TypeError naming them', () => {
    expect(checkOptions('f', { a: 1 }, ['a'])).toEqual({ a: 1 });
    expect(() => checkOptions('f', { a: 1, b: 2 } as { a?: number }, ['a'])).toThrow(TypeError);
    expect(() => checkOptions('f', { a: 1, b: 2 } as { a?: number }, ['a'])).toThrow(/f: `options` has unknown option `b` \(known: a\)/);
  });
});

describe('checkPositive, checkPositiveInteger and checkFunction', () => {
  it('return the value or throw in the shared format', () => {
    expect(checkPositive('f', 'x', 0.5)).toBe(0.5);
    for (const bad of [0, -1, NaN, Infinity]) expect(() => checkPositive('f', 'x', bad)).toThrow(/^f: `x` must be positive and finite; got /);
    expect(() => checkPositive('f', 'x', '1')).toThrow(TypeError);
    expect(checkPositiveInteger('f', 'n', 3)).toBe(3);
    expect(() => checkPositiveInteger('f', 'n', 0)).toThrow(/^f: `n` must be a positive integer; got 0$/);
    expect(() => checkPositiveInteger('f', 'n', 1.5)).toThrow(TypeError);
    expect(() => checkFunction('f', 'g', () => 1)).not.toThrow();
    expect(() => checkFunction('f', 'g', 1)).toThrow(/^f: `g` must be a function; got 1$/);
    expect(() => checkFunction('f', 'g', 1, 'must be a function of the state parts')).toThrow(/`g` must be a function of the state parts; got 1$/);
  });
});
