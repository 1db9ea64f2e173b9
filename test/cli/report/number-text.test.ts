// draws.json and draws.csv print each number once (cli/report/number-text.ts): the texts of
// every dtype and special value equal what the plain writers printed before (kept here as the
// reference: String(x) per cell, arrays joined per level), with and without the shared scope,
// and a scope never hands out the texts of values changed after it ended.
import { describe, expect, it } from 'vitest';
import { arvizArray, toDrawsCsv } from '../../../cli/report/draws-files.js';
import { jsonNumber, sharingNumberTexts } from '../../../cli/report/number-text.js';
import { float64Values } from '../../../mcmc/diagnostics/draws.js';
import { flattenParameters } from '../../../cli/report/parameters.js';
import { sampleStats, statColumns } from '../../../cli/report/sample-stats.js';
import { Tensor } from '../../../src/tensor/tensor.js';

/** The JSON of a part as the writer built it before: nested arrays joined per level, a slice per level. */
function referenceArviz(t: Tensor): string {
  const [nDraws, nChains = 1] = t.shape as number[];
  const event = t.shape.slice(2), eventSize = event.reduce((a, b) => a * b, 1);
  const values = float64Values(t);
  const big = t.data instanceof BigInt64Array ? t.data : undefined;
  const leaf = (i: number) => (t.dtype === 'bool' ? (values[i] !== 0 ? 'true' : 'false') : big !== undefined ? String(big[i]) : jsonNumber(values[i]!));
  const nest = (base: number, dims: readonly number[], stride: number): string => {
    if (dims.length === 0) return leaf(base);
    const inner = stride / dims[0]!;
    const items: string[] = [];
    for (let k = 0; k < dims[0]!; k++) items.push(nest(base + k * inner, dims.slice(1), inner));
    return `[${items.join(', ')}]`;
  };
  const chains: string[] = [];
  for (let c = 0; c < nChains; c++) {
    const rows: string[] = [];
    for (let d = 0; d < nDraws!; d++) rows.push(nest((d * nChains + c) * eventSize, event, eventSize));
    chains.push(`[${rows.join(', ')}]`);
  }
  return `[${chains.join(', ')}]`;
}

/** The CSV as it was written before: every cell printed by csvNumber from the chain-major copies. */
function referenceCsv(draws: Record<string, Tensor>, trace: Record<string, Tensor>): string {
  const params = flattenParameters('t', draws);
  const { draws: nDraws, chains: nChains } = params[0]!;
  const columns = [...params.map((p) => ({ label: p.name, values: p.values })), ...sampleStats('t', trace, nDraws, nChains).flatMap((s) => statColumns(s))];
  const csvNumber = (x: number) => (Object.is(x, -0) ? '-0' : String(x));
  const cell = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const lines = [['chain', 'draw', ...columns.map((c) => c.label)].map(cell).join(',')];
  for (let c = 0; c < nChains; c++) for (let d = 0; d < nDraws; d++) lines.push(`${c},${d},${columns.map((col) => csvNumber(col.values[c * nDraws + d]!)).join(',')}`);
  return `${lines.join('\n')}\n`;
}

const SPECIAL = [NaN, Infinity, -Infinity, -0, 0, 1e-310, 5e-324, -1.7976931348623157e308, 0.1 + 0.2, 123456789012345680000, 1e21, -2.5];
const at = (i: number) => SPECIAL[i % SPECIAL.length]!;
const draws = {
  a: new Tensor(Float64Array.from({ length: 12 }, (_, i) => at(i)), [4, 3], 'float64'),
  L: new Tensor(Float64Array.from({ length: 48 }, (_, i) => at(i * 7 + 1)), [4, 3, 2, 2], 'float64'),
  f: new Tensor(Float32Array.from({ length: 24 }, (_, i) => at(i + 3) / 3), [4, 3, 2], 'float32'),
  k: new Tensor(Int32Array.from({ length: 12 }, (_, i) => i - 6), [4, 3], 'int32'),
};
const trace = {
  diverging: new Tensor(Uint8Array.from({ length: 12 }, (_, i) => i % 5 === 0 ? 1 : 0), [4, 3], 'bool'),
  treeDepth: new Tensor(Int32Array.from({ length: 12 }, (_, i) => i % 4), [4, 3], 'int32'),
  energy: new Tensor(Float64Array.from({ length: 12 }, (_, i) => at(i + 5)), [4, 3], 'float64'),
  big: new Tensor(BigInt64Array.from({ length: 12 }, (_, i) => 2n ** 60n + BigInt(i)), [4, 3], 'int64'),
};

describe('numbers printed once for draws.json and draws.csv', () => {
  it('arvizArray writes every dtype and special value as before (NaN, ±Infinity, −0.0, subnormals, booleans, 64-bit integers)', () => {
    for (const t of [...Object.values(draws), ...Object.values(trace), new Tensor(new Float64Array(0), [0, 2, 3], 'float64'), new Tensor(Float64Array.of(1, 2), [2], 'float64')]) {
      expect(arvizArray(t)).toBe(referenceArviz(t));
      expect(sharingNumberTexts(() => arvizArray(t))).toBe(referenceArviz(t));
    }
  });

  it('toDrawsCsv writes every cell as before (−0 as -0), alone and after draws.json in one scope', () => {
    const want = referenceCsv(draws, trace);
    expect(toDrawsCsv(draws, trace)).toBe(want);
    expect(sharingNumberTexts(() => { for (const t of [...Object.values(draws), ...Object.values(trace)]) arvizArray(t); return toDrawsCsv(draws, trace); })).toBe(want);
  });

  it('a scope keeps no texts after it ends: changed draws are printed anew', () => {
    const t = new Tensor(Float64Array.of(1, 2, 3, 4), [2, 2], 'float64');
    expect(sharingNumberTexts(() => arvizArray(t))).toBe('[[1, 3], [2, 4]]');
    (t.data as Float64Array)[0] = -0;
    expect(sharingNumberTexts(() => arvizArray(t))).toBe('[[-0.0, 3], [2, 4]]');
    expect(toDrawsCsv({ t })).toBe('chain,draw,t\n0,0,-0\n0,1,3\n1,0,2\n1,1,4\n');
  });
});
