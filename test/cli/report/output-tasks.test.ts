// The outputs worker's warm-up (cli/report/output-tasks.ts): it runs each task once on a made-up
// run, stops when told to, and leaves nothing behind that changes a later run's outputs.
import { describe, expect, it } from 'vitest';
import { OUTPUT_TASKS, warmOutputTasks, warmupInput } from '../../../cli/report/output-tasks.js';

describe('warmOutputTasks', () => {
  it('runs every task and says so, or stops between tasks when go() turns false', () => {
    let asked = 0;
    expect(warmOutputTasks(() => { asked++; return true; })).toBe(true);
    expect(asked).toBe(5);   // loo, plots, drawsFiles, ppc, netcdf
    asked = 0;
    expect(warmOutputTasks(() => ++asked <= 2)).toBe(false);
    expect(asked).toBe(3);
  }, 60_000);

  it('the made-up run is one every task accepts, and a warmed thread makes the same outputs', () => {
    const input = warmupInput();
    const names = ['loo', 'plots', 'drawsFiles', 'ppc'] as const;
    const netcdf = { ...input, files: { ...input.files, format: 'netcdf' as const } };
    const before = [...names.map((n) => OUTPUT_TASKS[n](input)), OUTPUT_TASKS.netcdf(netcdf)];
    expect(before.every((r) => r !== undefined)).toBe(true);
    expect(Object.keys(OUTPUT_TASKS.netcdf(netcdf).files).length).toBeGreaterThan(5);   // the netCDF groups
    expect(warmOutputTasks(() => true)).toBe(true);
    expect([...names.map((n) => OUTPUT_TASKS[n](input)), OUTPUT_TASKS.netcdf(netcdf)]).toEqual(before);
  }, 60_000);
});
