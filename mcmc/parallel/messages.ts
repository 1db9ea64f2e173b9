/** The messages between `sampleChains` and its workers (one protocol for Node and browsers). */
import type { Modes } from '../../src/config.js';
import type { Encoded } from '../../src/effects/clone.js';
import type { RemoteEffect } from '../../src/effects/remote.js';
import type { ChainProgress } from '../sample-chain.js';
import type { SerializedError } from '../internal/chain-error.js';

/** Main thread → worker. `init` comes first; then one `run` per chain, each after the previous chain's answer. */
export type ToWorker =
  | {
    readonly type: 'init';
    /** The model module's URL. */
    readonly model: string;
    /** The main thread's `configure()` modes, applied before anything runs. */
    readonly modes: Modes;
    /** Set to 1 by the main thread to abort (absent where SharedArrayBuffer is unavailable). */
    readonly abortFlag: SharedArrayBuffer | undefined;
    /** Whether the main thread listens to progress (when false, the worker posts none). */
    readonly progress?: boolean;
  }
  | { readonly type: 'run'; readonly task: Encoded };

/** Worker → main thread. Every `run` is answered by exactly one of `done`, `error`, `aborted`. */
export type FromWorker =
  | { readonly type: 'effect'; readonly effect: RemoteEffect }
  | { readonly type: 'progress'; readonly chain: number; readonly progress: ChainProgress }
  | { readonly type: 'done'; readonly chain: number; readonly result: Encoded }
  | { readonly type: 'error'; readonly chain: number; readonly error: SerializedError }
  | { readonly type: 'aborted'; readonly chain: number; readonly partial: Encoded };
