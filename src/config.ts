import { shared } from './brand.js';
import { checkBoolean, checkOptions } from './checks.js';

/**
 * The global modes, read once at each public entry point and passed down explicitly; nothing
 * below `src/random`'s public functions reads them.
 */
export interface Modes {
  /** 64-bit default dtypes and seeds (JAX with `jax_enable_x64`). */
  readonly x64: boolean;
  /** JAX's `jax_threefry_partitionable` (default since JAX 0.5.0). */
  readonly partitionable: boolean;
}

// Shared with every other loaded copy of stochax, so `configure` in a model's copy holds for the CLI's.
const state = shared('modes', () => ({ current: Object.freeze({ x64: true, partitionable: true }) as Modes }));

/** Options accepted by `configure`. */
export interface ConfigureOptions {
  x64?: boolean;
  threefryPartitionable?: boolean;
}

/**
 * Sets the global modes and returns the previous ones (as options, so they can be restored).
 * Defaults: `x64: true` (float64 default dtype, 64-bit seeds) and `threefryPartitionable: true`
 * (JAX ≥ 0.5.0). `configure({ x64: false })` reproduces JAX's default 32-bit mode.
 *
 * @example
 * const previous = configure({ x64: false, threefryPartitionable: false });
 * // ... reproduce an old JAX result ...
 * configure(previous);
 */
export function configure(options: ConfigureOptions): Required<ConfigureOptions> {
  // An unknown name is a TypeError like every other options object's (it was a RangeError).
  const opts = checkOptions('configure', options, ['x64', 'threefryPartitionable']);
  const previous = { x64: state.current.x64, threefryPartitionable: state.current.partitionable };
  state.current = Object.freeze({
    x64: opts.x64 === undefined ? state.current.x64 : checkBoolean('configure', 'x64', opts.x64),
    partitionable: opts.threefryPartitionable === undefined
      ? state.current.partitionable
      : checkBoolean('configure', 'threefryPartitionable', opts.threefryPartitionable),
  });
  return previous;
}

/** The current modes (a frozen snapshot). */
export function getModes(): Modes {
  return state.current;
}
