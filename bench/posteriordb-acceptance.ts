/**
 * Issue 30's acceptance on posteriordb, seed by seed: `gp_pois_regr` and `low_dim_gauss_mix`
 * (test/fixtures/posteriordb/), 4 chains × (1000 warm-up + 1000 kept), `windowedAdaptiveNuts`'
 * defaults. For each seed: does the run agree with the reference posterior (every compared
 * quantity |z| ≤ 4 with z over √(MCSE² + MCSE_ref²), sd ratio in [0.9, 1.1]), which chains its
 * "chains disagree" warning names (the stuck-in-a-minor-mode test of chains-disagree.ts), and
 * whether the chains not named agree with the reference; plus each chain's means of the log
 * density and the parameters, and the wall and CPU time of the call.
 *
 * With `--tool rstan --draws DIR` it reads rstan's draws of the same models
 * (test/fixtures/posteriordb/rstan_minor_modes.R writes DIR/<model>-<seed>.csv) and applies the
 * same rule to them — stochax's `samplingWarnings` on rstan's lp__, parameters and sampler
 * fields — so the two tools' minor-mode counts are comparable.
 *
 *   npx tsx bench/posteriordb-acceptance.ts [--model gp_pois_regr|low_dim_gauss_mix|both]
 *     [--seeds 1-20] [--init uniform|prior|median|pathfinder] [--cores N] [--out FILE.json]
 *   npx tsx bench/posteriordb-acceptance.ts --tool rstan --draws /tmp/rstan-pdb [--out FILE.json]
 *
 *   npx tsx bench/posteriordb-acceptance.ts --merge a.json,b.json,… --out FILE.json   # runs over parts of the seeds
 *
 * A seed's verdict: `agrees` (all chains agree with the reference), `minor mode named` (not, but
 * the warning names chains and the others agree), or `FAIL`. A line per seed goes to stderr; the
 * JSON (per seed, per chain means and the verdict) to `--out` or stdout.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { samplingWarnings } from '../mcmc/diagnostics/warnings.js';
import '../optimize/pathfinder.js';   // registers init: 'pathfinder'
import { Tensor } from '../src/tensor/tensor.js';
import { gpFixture, judge, mixFixture, parseSeeds, runStochax, type ModelName, type SeedResult } from '../test/fixtures/posteriordb/models.js';

/** rstan's run of `model` at `seed` from `dir`/<model>-<seed>.csv, judged by the same rule. */
export function judgeRstan(model: ModelName, seed: number, dir: string): SeedResult {
  const lines = readFileSync(join(dir, `${model}-${seed}.csv`), 'utf8').trim().split(/\r?\n/);
  const header = lines[0]!.split(',').map((h) => h.replace(/"/g, ''));
  const rows = lines.slice(1).map((l) => l.split(',').map(Number));
  const col = (name: string): number => { const j = header.indexOf(name); if (j < 0) throw new Error(`${model}-${seed}.csv has no column ${name}`); return j; };
  const chainCol = col('chain');
  const C = Math.max(...rows.map((r) => r[chainCol]!)) + 1, n = rows.length / C;
  // [n, C] of one column (the CSV is chain-major)
  const field = (name: string): Tensor => {
    const j = col(name), out = new Float64Array(n * C);
    rows.forEach((r, q) => { out[(q % n) * C + r[chainCol]!] = r[j]!; });
    return new Tensor(out, [n, C], 'float64');
  };
  // rstan's labels are Stan's (mu[1], f_tilde[3]), as the reference's
  const params = header.filter((h) => !['chain', 'lp__', 'divergent__', 'treedepth__', 'energy__'].includes(h));
  const draws = Object.fromEntries(params.map((p) => [p, field(p)]));
  const trace = { targetLogProb: field('lp__'), diverging: field('divergent__'), treeDepth: field('treedepth__'), energy: field('energy__') };
  const warnings = samplingWarnings(draws, trace, { warmupDraws: 0 });
  const reference = model === 'gp_pois_regr' ? gpFixture.reference : mixFixture.reference;
  // gp_pois_regr's f is not in rstan's CSV (the check sees f_tilde, as stochax's sees fTilde):
  // its agreement is on rho and alpha.
  const quantities = params.filter((p) => reference[p] !== undefined).map((p) => [p, draws[p]!] as const);
  return judge(seed, reference, quantities, trace.targetLogProb, warnings);
}

/** The collapsed JSON text of a record (one line per chain, warning list and verdict pair). */
const jsonText = (out: unknown): string => `${JSON.stringify(out, null, 1).replace(/[{[][^{}[\]]*[}\]]/g, (m) => m.replace(/\s*\n\s*/g, ' '))}\n`;

/** One model's record from its seeds' results. */
function modelRecord(results: readonly SeedResult[]): Record<string, unknown> {
  const count = (v: SeedResult['verdict']): number => results.filter((x) => x.verdict === v).length;
  return {
    seeds: results.length, agrees: count('agrees'), minorModeNamed: count('minor mode named'), fail: count('FAIL'),
    withChainsDisagree: results.filter((x) => x.named.length > 0).length, results,
  };
}

/** Merges the JSON of runs over parts of the seeds (run side by side) into one, seeds in order. */
function merge(files: readonly string[], outFile: string | undefined): void {
  const parts = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as { tool: string; settings: unknown; command: string; models: Record<string, { results: SeedResult[] }> });
  const models: Record<string, SeedResult[]> = {};
  for (const p of parts) for (const [m, r] of Object.entries(p.models)) (models[m] ??= []).push(...r.results);
  const out = {
    tool: parts[0]!.tool, settings: parts[0]!.settings, commands: parts.map((p) => p.command),
    models: Object.fromEntries(Object.entries(models).map(([m, r]) => [m, modelRecord([...r].sort((a, b) => a.seed - b.seed))])),
  };
  if (outFile === undefined) process.stdout.write(jsonText(out)); else writeFileSync(outFile, jsonText(out));
}

function main(argv: readonly string[]): void {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i]!.startsWith('--') || argv[i + 1] === undefined) throw new Error(`posteriordb-acceptance: expected --name value pairs, got ${argv.slice(i).join(' ')}`);
    args.set(argv[i]!.slice(2), argv[i + 1]!);
  }
  const known = ['tool', 'model', 'seeds', 'init', 'cores', 'out', 'draws', 'merge'];
  for (const k of args.keys()) if (!known.includes(k)) throw new Error(`posteriordb-acceptance: unknown option --${k} (known: ${known.join(', ')})`);
  if (args.has('merge')) { merge(args.get('merge')!.split(','), args.get('out')); return; }
  const tool = args.get('tool') ?? 'stochax';
  const models: ModelName[] = (args.get('model') ?? 'both') === 'both' ? ['gp_pois_regr', 'low_dim_gauss_mix'] : [args.get('model') as ModelName];
  const seeds = parseSeeds(args.get('seeds') ?? '1-20');
  const options: Record<string, unknown> = {};
  if (args.has('init')) options.init = args.get('init');
  if (args.has('cores')) options.cores = Number(args.get('cores'));
  const out: Record<string, unknown> = {
    tool, settings: tool === 'rstan' ? 'rstan 2.21, 4 chains × (1000 warm-up + 1000), adapt_delta 0.8, init uniform(−2, 2)' : { chains: 4, warmup: 1000, draws: 1000, ...options },
    command: `npx tsx bench/posteriordb-acceptance.ts ${argv.join(' ')}`, models: {},
  };
  // The JSON is rewritten after every seed, so a long run stopped part-way keeps what it did.
  const write = (): void => { if (args.has('out')) writeFileSync(args.get('out')!, jsonText(out)); };
  for (const model of models) {
    const results: SeedResult[] = [];
    for (const seed of seeds) {
      const r = tool === 'rstan' ? judgeRstan(model, seed, args.get('draws') ?? '/tmp/rstan-pdb') : runStochax(model, seed, options);
      results.push(r);
      process.stderr.write(`${model} seed ${seed}: ${r.verdict}${r.named.length > 0 ? ` (chains ${r.named.join(', ')} named)` : ''}; worst z ${r.worst.z}, sd ratio ${r.worst.sdRatio}`
        + `${r.wallSeconds === undefined ? '' : `; ${r.wallSeconds} s wall, ${r.cpuSeconds} s CPU`}; warnings: ${r.warnings.join(', ') || 'none'}\n`);
      (out.models as Record<string, unknown>)[model] = modelRecord(results);
      write();
    }
  }
  if (!args.has('out')) process.stdout.write(jsonText(out));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
