/**
 * The chains' progress display (`windowedAdaptiveNuts`' `progress`, and `stochax sample`): on a
 * terminal, one bar per chain redrawn in place; otherwise plain lines, one when a chain starts
 * warm-up, starts sampling and finishes.
 */
import type { ChainsProgress } from './sample-chain.js';

/** One chain's progress report (as the `onProgress` of `sampleChains` and of `windowedAdaptiveNuts` give it). */
export type ChainReport = ChainsProgress;

/** Where the display writes: `stderr` takes text; `isTTY` says whether bars can be redrawn in place. */
export interface ProgressOutput {
  readonly stderr: (text: string) => void;
  readonly isTTY?: boolean;
}

interface NodeProcess { stderr?: { write(text: string): unknown; isTTY?: boolean }; env?: Record<string, string | undefined> }
const nodeProcess = (): NodeProcess | undefined => (globalThis as { process?: NodeProcess }).process;

/**
 * The process's stderr (Node, Bun, Deno), else the console (browsers: plain lines).
 *
 * @example
 * chainProgress(processStderr(), [0, 1]).end();
 */
export function processStderr(): ProgressOutput {
  const err = nodeProcess()?.stderr;
  if (err !== undefined && typeof err.write === 'function') return { stderr: (t) => { err.write(t); }, isTTY: err.isTTY === true };
  return { stderr: (t) => { console.error(t.endsWith('\n') ? t.slice(0, -1) : t); }, isTTY: false };
}

/**
 * The default of `progress`: on when stderr is a terminal, but not under a test runner or CI
 * (PyMC and NumPyro show a bar by default; a browser, a pipe or a test gets nothing unasked).
 *
 * @example
 * const show = progressByDefault();   // true in an interactive terminal
 */
export function progressByDefault(): boolean {
  const p = nodeProcess();
  const env = p?.env ?? {};
  return p?.stderr?.isTTY === true && env.VITEST === undefined && env.CI === undefined && env.NODE_ENV !== 'test';
}

const WIDTH = 24;

/**
 * A progress display for `chains` chains on `io.stderr` (`update` with each report, `end` once).
 *
 * @example
 * const p = chainProgress(io, [0, 1, 2, 3]); p.update({ chain: 0, step: 10, total: 2000, phase: 'warmup', divergences: 0, warmupDivergences: 0 }); p.end();
 */
export function chainProgress(io: ProgressOutput, chains: readonly number[]): { update(r: ChainReport): void; end(): void } {
  const state = new Map<number, ChainReport | undefined>(chains.map((c) => [c, undefined]));
  const width = String(Math.max(...chains)).length;
  const label = (c: number) => `chain ${String(c).padStart(width)}`;
  if (io.isTTY) {
    const line = (c: number): string => {
      const r = state.get(c);
      if (r === undefined) return `${label(c)} [${' '.repeat(WIDTH)}]   0% waiting`;
      const frac = r.total > 0 ? r.step / r.total : 1;
      const fill = Math.round(frac * WIDTH);
      const done = r.step >= r.total;
      return `${label(c)} [${'#'.repeat(fill)}${'-'.repeat(WIDTH - fill)}] ${String(Math.floor(frac * 100)).padStart(3)}% `
        + `${done ? 'done' : r.phase.padEnd(8)} ${r.step}/${r.total}  divergences ${r.divergences} (warm-up ${r.warmupDivergences})`;
    };
    let drawn = false;
    const draw = () => {
      const up = drawn ? `\x1b[${chains.length}A` : '';
      io.stderr(up + chains.map((c) => `\x1b[2K${line(c)}\n`).join(''));
      drawn = true;
    };
    let last = 0;
    return {
      update(r) {
        state.set(r.chain, r);
        const now = Date.now();
        if (now - last >= 50 || r.step >= r.total) { last = now; draw(); }
      },
      end() { if (drawn) draw(); },
    };
  }
  return {
    update(r) {
      const prev = state.get(r.chain);
      state.set(r.chain, r);
      if (prev === undefined) io.stderr(`${label(r.chain)}: ${r.phase === 'warmup' ? 'warm-up' : 'sampling'} started (${r.total} steps)\n`);
      else if (prev.phase === 'warmup' && r.phase === 'sampling' && r.step < r.total) io.stderr(`${label(r.chain)}: sampling (step ${r.step}/${r.total}; ${r.warmupDivergences} divergences in warm-up)\n`);
      if (r.step >= r.total && (prev === undefined || prev.step < prev.total)) io.stderr(`${label(r.chain)}: done, ${r.divergences} divergences after warm-up (${r.warmupDivergences} during it)\n`);
    },
    end() {},
  };
}
