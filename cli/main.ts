#!/usr/bin/env node
/**
 * The `stochax` command line: `sample`, `optimize`, `laplace`, `pathfinder`, `variational`,
 * `summary`, `merge`, `compare`, `graph`, `--help`, `--version`.
 *
 * `run(argv, io)` is the whole CLI as a function (tests call it in-process); run as a script,
 * this module calls it with `process.argv.slice(2)` and exits with its code. Mistakes (missing
 * files, bad flags, a module that breaks the contract, a model whose log density is not finite
 * at any initial point) are one-line messages with exit code 1; set STOCHAX_DEBUG=1 for stacks.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CliError, oneLine, type CliIo } from './errors.js';
import { stochaxVersion } from './version.js';

export type { CliIo } from './errors.js';
export { CliError } from './errors.js';

export const HELP = `stochax — reproducible probabilistic programming: same seed, same bits.

Usage:
  stochax sample <model.ts|model.js> [--chains 4] [--draws 1000] [--warmup 1000] [--seed 0]
                 [--workers N] [--chain-index i] [--out dir] [--force] [--strict]
  stochax optimize <model> [--algorithm lbfgs|bfgs|newton] [--jacobian] [--iter N] [--init I]
                   [--seed 0] [--out dir] [--force] [--strict] [tolerances: see --help]
  stochax laplace <model> [--draws 1000] [--no-jacobian] [--mode draws.json] [optimize's flags]
  stochax pathfinder <model> [--draws 1000] [--num-paths 4] [--num-elbo-draws 25] [--seed 0] …
  stochax variational <model> [--algorithm meanfield|fullrank] [--output-draws 1000] [--eta E] …
  stochax summary <draws.json>
  stochax merge <draws.json>... [--out merged.json] [--force]
  stochax compare <draws.json> <draws.json>... [--names a,b] [--ic loo|waic]
  stochax graph <model.ts|model.js>
  stochax <command> --help
  stochax --version

Commands:
  sample       sample a model module; print the summary table; write draws.csv, draws.json
               (an ArviZ InferenceData: az.from_json('draws.json')) and report.html; print the
               run's warnings (R-hat, ESS, divergences, …) to stderr; --strict: exit 2 if any
  optimize     the posterior mode (CmdStan's optimize: L-BFGS, BFGS or Newton); the point as
               one draw in draws.json, with the convergence information in its attrs
  laplace      a normal approximation at the mode (Stan's laplace_sample): draws with logP,
               logQ (sample_stats.log_p, log_q) and Pareto k̂
  pathfinder   multi-path Pathfinder's approximate draws, with logP, logQ and Pareto k̂
  variational  ADVI (mean-field or full-rank) draws, with logP, logQ and Pareto k̂
               (these four write draws.json, draws.csv and a short report.html like sample,
               print a summary, their warnings to stderr, and take --strict)
  summary      print the summary table of a draws.json
  merge        concatenate the chains of several draws.json files
  compare      az.compare of several runs: PSIS-LOO (or WAIC) from their log-likelihoods,
               ranked, with elpd differences and stacking weights
  graph        print the model's graph as Graphviz DOT (PyMC's model_to_graphviz)

Results are never overwritten without --force, and are written to a temporary name and
renamed at the end, so an interrupted run leaves no half-written file.

A model module exports \`model\` (a JointDistribution, sampled with windowedAdaptiveNuts),
optionally \`pins\` and \`options\`; or \`setup\` (the sampleChains contract, for a custom kernel).
See \`stochax sample --help\`. optimize, laplace, pathfinder and variational take \`model\` modules.

Examples:
  stochax sample examples/eight-schools.ts --seed 0
  stochax sample model.ts --chains 8 --draws 2000 --out runs/a
  stochax summary runs/a/draws.json
  stochax optimize model.ts --out map && stochax laplace model.ts --mode map/draws.json --out approx
  stochax sample model.ts --chains 2 --chain-index 0 --out c0
  stochax sample model.ts --chains 2 --chain-index 1 --out c1
  stochax merge c0/draws.json c1/draws.json --out all/draws.json
`;

interface Command { run: (argv: readonly string[], io: CliIo) => Promise<number>; help: string }
/** Each command's module, imported when the command runs (so `sample` starts its outputs worker before loading the rest). */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  sample: async () => { const m = await import('./sample.js'); return { run: m.sampleCommand, help: m.SAMPLE_HELP }; },
  summary: async () => { const m = await import('./summary.js'); return { run: m.summaryCommand, help: m.SUMMARY_HELP }; },
  merge: async () => { const m = await import('./merge.js'); return { run: m.mergeCommand, help: m.MERGE_HELP }; },
  compare: async () => { const m = await import('./compare.js'); return { run: m.compareCommand, help: m.COMPARE_HELP }; },
  graph: async () => { const m = await import('./graph.js'); return { run: m.graphCommand, help: m.GRAPH_HELP }; },
  ...Object.fromEntries((['optimize', 'laplace', 'pathfinder', 'variational'] as const).map((name) => [name, async (): Promise<Command> => {
    const m = await import('./approximate.js');
    return { run: (argv: readonly string[], io: CliIo) => m.methodCommand(name, argv, io), help: m.METHOD_HELP[name] };
  }])),
};

/** The process's streams. */
export function processIo(): CliIo {
  return {
    stdout: (t) => { process.stdout.write(t); },
    stderr: (t) => { process.stderr.write(t); },
    isTTY: process.stderr.isTTY === true,
    cwd: process.cwd(),
  };
}

/**
 * Runs the CLI on `argv` (without `node` and the script).
 *
 * @returns the exit code: 0 on success, 1 for any error (printed as one line on `io.stderr`).
 * @example
 * const code = await run(['sample', 'model.ts', '--chains', '2'], { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
 */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    const topic = command === 'help' ? rest[0] : undefined;
    io.stdout(topic !== undefined && COMMANDS[topic] !== undefined ? (await COMMANDS[topic]()).help : HELP);
    return command === undefined ? 1 : 0;
  }
  if (command === '--version' || command === '-v') { io.stdout(`stochax ${stochaxVersion()}\n`); return 0; }
  const load = COMMANDS[command];
  if (load === undefined) {
    io.stderr(`stochax: unknown command '${command}' (commands: ${Object.keys(COMMANDS).join(', ')}; see stochax --help)\n`);
    return 1;
  }
  try {
    return await (await load()).run(rest, io);
  } catch (e) {
    io.stderr(`stochax ${command}: ${oneLine(e)}\n`);
    if (!(e instanceof CliError) && process.env.STOCHAX_DEBUG && e instanceof Error && e.stack) io.stderr(`${e.stack}\n`);
    return 1;
  }
}

function isMain(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) process.exitCode = await run(process.argv.slice(2));
