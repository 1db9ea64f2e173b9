/**
 * What `windowedAdaptiveNuts(model, { cores })` sends a pooled worker (`cores-worker.ts`) and
 * the layout of the shared control words both sides read. Plain data only.
 */
import type { PortableProgram } from '../../../src/compile/portable.js';
import type { Modes } from '../../../src/config.js';
import type { ChainState, PerChainSettings } from './per-chain.js';
import type { GibbsLayout } from './gibbs.js';

/** Control words (Int32, shared): workers finished, the abort flag, workers that took their task. */
export const DONE = 0, ABORT = 1, ACK = 2;
/** Chain slot j's words start at `CHAIN0 + SLOT · j`: its round, divergences after and during warm-up, draws kept. */
export const CHAIN0 = 4, SLOT = 4;

/** The draws and statistics of one chain slot, each over its own SharedArrayBuffer (`ChainDraws`' fields). */
export interface SharedDraws {
  readonly q: SharedArrayBuffer;
  readonly stepSize: SharedArrayBuffer;
  readonly nSteps: SharedArrayBuffer;
  readonly treeDepth: SharedArrayBuffer;
  readonly diverging: SharedArrayBuffer;
  readonly acceptStat: SharedArrayBuffer;
  readonly energy: SharedArrayBuffer;
  readonly lp: SharedArrayBuffer;
  readonly moved: SharedArrayBuffer;
  readonly rejections: SharedArrayBuffer;
  /** With Gibbs steps: the discrete values, `[kept, size]`. */
  readonly discrete?: SharedArrayBuffer;
}

/** One task: run `chains` (slots `slots` of the run) of the program with these settings. */
export interface CoresTask {
  readonly program: PortableProgram;
  readonly seed: { readonly impl: string; readonly data: Uint32Array };
  readonly modes: Modes;
  readonly settings: Omit<PerChainSettings, 'init' | 'onRound' | 'signal' | 'chains' | 'whyNotFinite' | 'from' | 'gibbs'>;
  /** With Gibbs steps on discrete nodes: their sites (the program's flat input is the continuous coordinates, then their values); the chains then always continue from `from`. */
  readonly gibbs?: GibbsLayout;
  readonly chains: readonly number[];
  readonly slots: readonly number[];
  /** Initial points per chain (from `currentState`), or undefined for Stan's random start. */
  readonly inits: readonly Float64Array[] | undefined;
  /** The states the chains continue from (a previous run's), or undefined to start them. */
  readonly from: readonly ChainState[] | undefined;
  readonly control: SharedArrayBuffer;
  readonly draws: readonly SharedDraws[];
  /** Where the worker posts `{ rejections, states }` (its `RejectionLog`'s entries, its chains' final states) when done, or `{ error }` when the task fails (read with `receiveMessageOnPort`). */
  readonly port: MessagePort;
}
