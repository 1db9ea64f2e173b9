/**
 * `stochax graph <model>`: the model module's graph as Graphviz DOT on stdout (PyMC's
 * `pm.model_to_graphviz`), for `dot -Tsvg`, or with `--svg` drawn without Graphviz: variables with their distributions and plates (by
 * the module's `dims`), observed nodes (its `pins`) filled, derived values as boxes.
 */
import { modelGraph, modelToGraphviz } from '../distributions/joint/model-graph.js';
import { modelGraphPlot } from './report/plots/model-graph.js';
import { parseArgs } from './args.js';
import { CliError, type CliIo } from './errors.js';
import { loadModel } from './load-model.js';

export const GRAPH_HELP = `Usage: stochax graph <model.ts|model.js> [--svg]

Prints the model's graph as Graphviz DOT, as PyMC's pm.model_to_graphviz draws it: each
variable "name ~ Distribution" (free: ellipse; observed, from the module's pins: filled
ellipse; deterministic(...): box; factor(...): filled octagon), the variables of one plate
boxed together (labelled by the module's dims, e.g. "school (8)", else by their sizes), and an
edge from each input. stochax sample's report.html draws the same graph.

Flags:
  --svg            print an SVG drawn without Graphviz instead (report.html's drawing: layers
                   from the roots down, the plate under each name)

Examples:
  stochax graph examples/eight-schools.ts > schools.dot && dot -Tsvg schools.dot > schools.svg
  stochax graph examples/eight-schools.ts --svg > schools.svg
`;

/**
 * Runs `stochax graph`.
 *
 * @example
 * await graphCommand(['examples/eight-schools.ts'], io);
 */
export async function graphCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { positionals, flags } = parseArgs(argv, { svg: { kind: 'bool' } }, 'graph');
  if (flags.get('help')) { io.stdout(GRAPH_HELP); return 0; }
  if (positionals.length !== 1) throw new CliError('give one model file: stochax graph <model.ts|model.js>');
  const model = await loadModel(positionals[0]!, io.cwd ?? process.cwd());
  if (model.kind !== 'joint') throw new CliError(`${model.name} is a setup module (a custom kernel), which has no model to draw; graph takes a module exporting \`model\``);
  const graph = modelGraph(model.model, { ...(model.pins === undefined ? {} : { pins: model.pins }), ...(model.dims === undefined ? {} : { dims: model.dims }) });
  io.stdout(flags.get('svg') === true ? `${modelGraphPlot(graph)}\n` : modelToGraphviz(graph));
  return 0;
}
