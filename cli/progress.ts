/**
 * Progress of `stochax sample`: on a terminal, one bar per chain redrawn in place; otherwise
 * plain lines, one when a chain starts warm-up, starts sampling and finishes.
 */
import type { ChainsProgress } from '../mcmc/sample-chain.js';
import type { CliIo } from './errors.js';

/** One chain's progress report (as the `onProgress` of `sampleChains` and of `windowedAdaptiveNuts` give it). */
export type ChainReport = ChainsProgress;

const WIDTH = 24;

/**
 * A progress display for `chains` chains on `io.stderr`.
 *
 * @example
 * const p = chainProgress(io, [0, 1, 2, 3]); p.update({ chain: 0, step: 10, total: 2000, phase: 'warmup', divergences: 0, warmupDivergences: 0 }); p.end();
 */
export function chainProgress(io: CliIo, chains: readonly number[]): { update(r: ChainReport): void; end(): void } {
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
      end() { draw(); },
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
