import { describe, expect, it } from 'vitest';
import { configure, getModes } from '../src/config.js';

describe('configure', () => {
  it('defaults to x64 and partitionable, and returns the previous settings', () => {
    expect(getModes()).toEqual({ x64: true, partitionable: true });
    const previous = configure({ x64: false });
    expect(previous).toEqual({ x64: true, threefryPartitionable: true });
    expect(getModes()).toEqual({ x64: false, partitionable: true });
    configure(previous);
    expect(getModes()).toEqual({ x64: true, partitionable: true });
  });

  it('rejects unknown options and non-booleans', () => {
    expect(() => configure({ x64: 1 as never })).toThrow(/configure: `x64` must be a boolean/);
    expect(() => configure({ partitionable: true } as never)).toThrow(RangeError);
    expect(() => configure(null as never)).toThrow(TypeError);
    expect(getModes()).toEqual({ x64: true, partitionable: true });
  });
});
