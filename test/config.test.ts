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
    expect(() => configure({ x64: 'false' as never })).toThrow(TypeError);   // a string is not coerced (it would be truthy)
    expect(() => configure({ threefryPartitionable: null as never })).toThrow(/configure: `threefryPartitionable` must be a boolean/);
    // An unknown name is a TypeError naming it, as for every other options object.
    expect(() => configure({ partitionable: true } as never)).toThrow(TypeError);
    expect(() => configure({ partitionable: true } as never)).toThrow(/configure: `options` has unknown option `partitionable` \(known: x64, threefryPartitionable\)/);
    // A bad value changes nothing, not even the valid options beside it.
    expect(() => configure({ x64: false, threefryPartitionable: 'no' as never })).toThrow(TypeError);
    expect(() => configure(null as never)).toThrow(TypeError);
    expect(getModes()).toEqual({ x64: true, partitionable: true });
  });
});
