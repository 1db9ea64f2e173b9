/**
 * `stochax compare <a/draws.json> <b/draws.json>…`: ArviZ's `az.compare` on the runs' saved
 * log-likelihoods — each model's PSIS-LOO (r_eff from its posterior, as `az.loo` computes it) or
 * WAIC, ranked, with elpd differences, their standard errors and stacking weights.
 */
import { basename, dirname, resolve } from 'node:path';
import { compare, loo, waic, type CompareResult, type LooResult, type WaicResult } from '../mcmc/diagnostics/loo.js';
import { parseArgs } from './args.js';
import { CliError, oneLine, type CliIo } from './errors.js';
import { readNetcdfOnlyGroups } from './merge.js';
import { readDrawsJson } from './summary.js';

export const COMPARE_HELP = `Usage: stochax compare <draws.json> <draws.json>... [--names a,b] [--ic loo|waic]
                       [--method stacking|pseudo-BMA] [--var-name y]

Compares the models of several runs by their expected log pointwise predictive density, as
ArviZ's az.compare: each run's PSIS-LOO (r_eff from its posterior, as az.loo computes it; a
laplace, pathfinder or variational run's approximate-posterior LOO from its log_p and log_q,
R loo's loo_approximate_posterior) or WAIC, from the log_likelihood group \`stochax sample\`
writes (in draws.json, or in idata/log_likelihood.nc beside it for a large run). Prints
az.compare's table, best model first: rank, elpd_loo, p_loo, elpd_diff, weight (stacking, Yao
et al. 2018, or pseudo-BMA), se, dse, warning (a Pareto k above 0.7), scale. The runs must
hold the same observations.

Flags:
  --names a,b          the models' names in the table (default: each run's model name, else its folder)
  --ic loo|waic        the criterion (default loo)
  --method M           stacking (default) or pseudo-BMA weights
  --var-name y         the observed variable whose log-likelihood to use, when a run has several

Example:
  stochax sample pooled.ts --out runs/pooled && stochax sample hierarchical.ts --out runs/hier
  stochax compare runs/pooled/draws.json runs/hier/draws.json
`;

/** Options of {@link compareRuns} (the flags of `stochax compare`). */
export interface CompareRunsOptions {
  readonly names?: readonly string[];
  readonly ic?: 'loo' | 'waic';
  readonly method?: 'stacking' | 'pseudo-BMA';
  readonly varName?: string;
}

/**
 * `az.compare` of the runs whose draws.json files are given (paths relative to `cwd`): each
 * run's LOO (r_eff from its posterior; an approximate run's from its logP and logQ) or WAIC of
 * its log-likelihood.
 *
 * @throws CliError for unreadable files, a run without a log-likelihood, ambiguous or repeated names.
 * @example
 * compareRuns(['runs/a/draws.json', 'runs/b/draws.json'], process.cwd()).format();
 */
export function compareRuns(paths: readonly string[], cwd: string, o: CompareRunsOptions = {}): CompareResult {
  const ic = o.ic ?? 'loo';
  if (o.names !== undefined && o.names.length !== paths.length) throw new CliError(`--names gives ${o.names.length} names for ${paths.length} files`);
  const files = paths.map((f) => readDrawsJson(f, cwd));
  const lost = readNetcdfOnlyGroups(files, paths.map((f) => resolve(cwd, f)), paths, ['log_likelihood']);   // not the large predictive groups
  const names = o.names ?? defaultNames(files.map((f) => f.settings.model), paths);
  if (new Set(names).size !== names.length) throw new CliError(`the models' names must differ (${names.join(', ')}); give them with --names`);
  const results: Record<string, LooResult | WaicResult> = {};
  files.forEach((f, i) => {
    const ll = f.groups.logLikelihood;
    if (ll === undefined || Object.keys(ll).length === 0) {
      const gone = lost.find((l) => l.startsWith('log_likelihood '));
      throw new CliError(`${paths[i]} has no log_likelihood group (${gone === undefined ? 'a run with --no-predictive, or a model without observed data' : `its netCDF file is gone: ${gone}`}): nothing to compare`);
    }
    const vars = Object.keys(ll);
    const chosen = o.varName ?? (vars.length === 1 ? vars[0]! : undefined);
    if (chosen === undefined) throw new CliError(`${paths[i]} has log-likelihoods of ${vars.join(', ')}; choose one with --var-name`);
    if (ll[chosen] === undefined) throw new CliError(`${paths[i]} has no log-likelihood of \`${chosen}\` (it has ${vars.join(', ')})`);
    const trace = f.trace as Record<string, unknown>;
    try {
      if (ic === 'waic') results[names[i]!] = waic(ll[chosen]!);
      else if (trace.logP !== undefined && trace.logQ !== undefined) results[names[i]!] = loo(ll[chosen]!, { logP: trace.logP as never, logQ: trace.logQ as never });
      else results[names[i]!] = loo(ll[chosen]!, { posterior: f.draws });
    } catch (e) {
      throw new CliError(`${paths[i]}: ${oneLine(e)}`);
    }
  });
  try {
    return compare(results, { method: o.method ?? 'stacking' });
  } catch (e) {
    throw new CliError(oneLine(e));
  }
}

/**
 * Runs `stochax compare`.
 *
 * @example
 * await compareCommand(['runs/a/draws.json', 'runs/b/draws.json'], io);
 */
export async function compareCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { positionals, flags } = parseArgs(argv, { names: { kind: 'string' }, ic: { kind: 'string' }, method: { kind: 'string' }, 'var-name': { kind: 'string' } }, 'compare');
  if (flags.get('help')) { io.stdout(COMPARE_HELP); return 0; }
  if (positionals.length < 2) throw new CliError('give the draws files of at least two runs: stochax compare <a/draws.json> <b/draws.json>...');
  const ic = (flags.get('ic') as string | undefined) ?? 'loo';
  if (ic !== 'loo' && ic !== 'waic') throw new CliError(`--ic must be loo or waic; got '${ic}'`);
  const method = (flags.get('method') as string | undefined) ?? 'stacking';
  if (method !== 'stacking' && method !== 'pseudo-BMA') throw new CliError(`--method must be stacking or pseudo-BMA; got '${method}'`);
  const names = (flags.get('names') as string | undefined)?.split(',').map((n) => n.trim());
  const varName = flags.get('var-name') as string | undefined;
  const table = compareRuns(positionals, io.cwd ?? process.cwd(), { ic, method, ...(names === undefined ? {} : { names }), ...(varName === undefined ? {} : { varName }) });
  io.stdout(`${table.format()}\n`);
  const warned = table.rows.filter((r) => r.warning).map((r) => r.name);
  if (warned.length > 0) {
    io.stderr(`warning: ${warned.join(', ')}: ${ic === 'loo' ? 'Pareto k above 0.7 for some observations: their PSIS-LOO estimate is unreliable (more draws, moment matching, or K-fold CV)' : 'p_waic above 0.4 for some observations: WAIC is unreliable there; prefer LOO'}\n`);
  }
  return 0;
}

/** Each run's model name (from its settings), or its folder's name when they repeat or are missing. */
function defaultNames(models: readonly unknown[], files: readonly string[]): string[] {
  const byModel = models.map((m, i) => (typeof m === 'string' && m !== '' ? m : basename(dirname(resolve(files[i]!)))));
  if (new Set(byModel).size === byModel.length) return byModel;
  return files.map((f) => basename(dirname(resolve(f))));
}
