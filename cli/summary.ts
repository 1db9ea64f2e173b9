/** `stochax summary <draws.json>`: the summary table of a draws file. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { summary } from '../mcmc/diagnostics/summary.js';
import { samplingWarnings } from '../mcmc/diagnostics/warnings.js';
import { flattenParameters, fromArvizJson, type ArvizDraws } from './report/index.js';
import { listFlag, parseArgs } from './args.js';
import { CliError, oneLine, type CliIo } from './errors.js';
import { printWarnings } from './warnings.js';

export const SUMMARY_HELP = `Usage: stochax summary <draws.json> [--var-names a,b]

Prints the summary table (mean, MCSE, sd, ArviZ's 94% HDI hdi_3%/hdi_97%, ESS_bulk,
ESS_tail, R_hat, divergences; rows labelled by the file's coords and dims, theta[Choate]) of a draws.json written by \`stochax sample\` or \`stochax merge\` (or any
ArviZ InferenceData JSON, az.to_json's or az.from_dict-shaped, with a posterior group; its
posterior includes the model's deterministic(...) values), then the draws' warnings (R-hat,
ESS, divergences, tree depth, E-BFMI, chains that disagree) to stderr, as \`stochax sample\` does.
For the one point of \`stochax optimize\`, its values.

Flags:
  --var-names a,b  only these variables, in this order (ArviZ's var_names)

Example:
  stochax summary stochax-out/draws.json --var-names mu,tau
`;

/**
 * Reads a draws.json file.
 *
 * @throws CliError for a missing or malformed file.
 * @example
 * const { draws, trace } = readDrawsJson('stochax-out/draws.json', process.cwd());
 */
export function readDrawsJson(file: string, cwd: string): ArvizDraws {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new CliError(code === 'ENOENT' ? `draws file not found: ${path}` : `could not read ${path}: ${oneLine(e)}`);
  }
  try {
    return fromArvizJson(text);
  } catch (e) {
    throw new CliError(`${path} is not a draws.json file: ${oneLine(e)}`);
  }
}

/**
 * Runs `stochax summary`.
 *
 * @example
 * await summaryCommand(['stochax-out/draws.json'], io);
 */
export async function summaryCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { positionals, flags } = parseArgs(argv, { 'var-names': { kind: 'string' } }, 'summary');
  if (flags.get('help')) { io.stdout(SUMMARY_HELP); return 0; }
  if (positionals.length !== 1) throw new CliError('give one draws file: stochax summary <draws.json>');
  const { draws, trace, settings, groups } = readDrawsJson(positionals[0]!, io.cwd ?? process.cwd());
  const varNames = listFlag(flags, 'var-names');
  const first = Object.values(draws)[0]!;
  if (first.shape[0] === 1 && first.shape[1] === 1) {
    // One point (`stochax optimize`): its values; there is nothing to summarise or warn about.
    io.stdout(`${pointTable(draws, varNames)}\n`);
    return 0;
  }
  // The file's coords and dims label the rows as in `stochax sample`'s table (`theta[Choate]`).
  const labels = { ...(groups.coords === undefined ? {} : { coords: groups.coords }), ...(groups.dims === undefined ? {} : { dims: groups.dims }) };
  io.stdout(`${summary({ allStates: draws, trace }, { ...(varNames === undefined ? {} : { varNames }), ...labels }).format()}\n`);
  // Of every variable (as the file was sampled), whatever --var-names shows.
  const depth = settings.max_tree_depth;
  printWarnings(io, samplingWarnings(draws, trace, { ...labels, ...(typeof depth === 'number' ? { maxTreeDepth: depth } : {}) }));
  return 0;
}

/**
 * One point (`stochax optimize`'s, draws-shaped `[1, 1, ...]`) as a two-column table
 * (parameter, value) with ArviZ's labels; `varNames` picks variables.
 *
 * @example
 * pointTable(fit.params);   // '       value\nmu     1.33\nsigma  0.55'
 */
export function pointTable(posterior: unknown, varNames?: readonly string[]): string {
  const params = flattenParameters('stochax optimize', posterior);
  const parts = [...new Set(params.map((p) => p.part))];
  varNames?.forEach((v) => { if (!parts.includes(v)) throw new CliError(`--var-names names \`${v}\`, which is not among the variables (${parts.join(', ')})`); });
  const shown = varNames === undefined ? params : varNames.flatMap((v) => params.filter((p) => p.part === v));
  const rows = shown.map((p) => [p.name, String(p.values[0])]);
  const w = Math.max(0, ...rows.map((r) => r[0]!.length));
  return [`${''.padEnd(w)}  value`, ...rows.map(([n, v]) => `${n!.padEnd(w)}  ${v}`)].join('\n');
}
