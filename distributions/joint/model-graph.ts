/**
 * `modelGraph` and `modelToGraphviz`: a joint model's graph as PyMC's `model_to_graphviz` draws
 * it (NumPyro's `render_model` is the same idea): every variable with its distribution, its kind
 * (free, observed, deterministic, a factor term as PyMC's Potential) and its plate, the variables
 * sharing one shape or one set of `dims` boxed together, and an edge from each input to the
 * variable that reads it. `modelToGraphviz` gives Graphviz's DOT text (`dot -Tsvg`); the report's
 * `modelGraphPlot` draws the same graph without Graphviz.
 */
import { checkOptions, fail } from '../../src/checks.js';
import { zerosSeed } from '../../src/samplers/seeds.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { Distribution } from '../distribution.js';
import { Independent } from '../independent.js';
import { Sample } from '../sample.js';
import { JointDistribution } from './joint-distribution.js';
import { JointDistributionPinned } from './joint-distribution-pinned.js';
import { countNaN, MISSING_SUFFIX } from './impute-missing.js';
import type { PartialValues, StructKind } from './values.js';

/** How PyMC's graph shows a variable: a free or observed random variable, a derived value, or a log-density term. */
export type ModelGraphKind = 'free' | 'observed' | 'deterministic' | 'potential';

/** One variable of a {@link ModelGraph}. */
export interface ModelGraphNode {
  readonly name: string;
  readonly kind: ModelGraphKind;
  /**
   * The distribution's name, inside `Independent` and `Sample` (`Normal` for a plate of normals,
   * as PyMC names the random variable); `Deterministic` and `Potential` for the others.
   */
  readonly distribution: string;
  /** The shape of one draw of it (batch and event axes). */
  readonly shape: readonly number[];
  /**
   * Its plate, PyMC's label: `school (8)` with `dims` (axes joined by ` x `), else the sizes
   * (`8`, `2 x 3`); `''` for a scalar.
   */
  readonly plate: string;
}

/** A model's graph: variables in declaration order and edges `[from, to]` (an input to the variable reading it). */
export interface ModelGraph {
  readonly name: string;
  readonly nodes: readonly ModelGraphNode[];
  readonly edges: readonly (readonly [string, string])[];
}

/** Options of {@link modelGraph}. */
export interface ModelGraphOptions {
  /**
   * The observed nodes: their names, or the pinned values as `windowedAdaptiveNuts` takes them
   * (a record by name, or an array in model order); a pinned model's own pins count too.
   */
  readonly pins?: readonly string[] | PartialValues;
  /** ArviZ's and PyMC's `dims`: dimension names per variable, one per axis, which label the plates. */
  readonly dims?: Readonly<Record<string, readonly string[]>>;
}

const FN = 'modelGraph';

/**
 * The graph of a joint model, for `modelToGraphviz` and the report. Parents are the variables an
 * entry's function names: a `JointDistributionNamed` shows its `deterministic(...)` values and
 * `factor(...)` terms as their own variables (a derived value between two nodes stays between
 * them); a `JointDistributionSequential` has nodes only. A coroutine model does not declare its
 * parents, so it has no graph (as TFP's `resolve_graph`).
 *
 * @throws {TypeError} for a model that is not a joint distribution, or bad options.
 * @throws {RangeError} for a `dims` entry whose length is not its variable's rank, or a pin that names no node.
 * @throws NotImplementedError for a `JointDistributionCoroutine`.
 * @example
 * import { HalfCauchy, Independent, JointDistributionNamed, Normal, Sample, modelGraph } from 'stochax/distributions';
 * const schools = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 5 }),
 *   tau: new HalfCauchy({ loc: 0, scale: 5 }),
 *   theta: (mu, tau) => new Sample({ distribution: new Normal({ loc: mu, scale: tau }), sampleShape: 8 }),
 *   y: (theta) => new Independent({ distribution: new Normal({ loc: theta, scale: 10 }), reinterpretedBatchNdims: 1 }),
 * });
 * modelGraph(schools, { pins: ['y'], dims: { theta: ['school'], y: ['school'] } }).nodes[2];
 * // { name: 'theta', kind: 'free', distribution: 'Normal', shape: [8], plate: 'school (8)' }
 */
export function modelGraph(model: JointDistribution<StructKind> | JointDistributionPinned<StructKind>, options: ModelGraphOptions = {}): ModelGraph {
  const o = checkOptions(FN, options, ['pins', 'dims']);
  const pinned = model instanceof JointDistributionPinned ? model : undefined;
  const jd = pinned?.distribution ?? model;
  if (!(jd instanceof JointDistribution)) fail('type', FN, 'model', 'must be a joint distribution (e.g. JointDistributionNamed) or a pinned one', model);
  const declared = jd.declaredGraph();
  const names = jd.nodeNames;
  const given = pinsOf(jd, o.pins);
  const observed = new Set([...Object.keys(pinned?.pins ?? {}), ...given.names]);
  // Observed values with NaN: those entries are sampled as the latent node `y_missing` (see experimentalPin).
  const missing = new Map<string, number>();
  for (const [n, v] of [...Object.entries(pinned?.pins ?? {}), ...given.values]) {
    const m = countNaN(v);
    if (m > 0 && !names.includes(`${n}${MISSING_SUFFIX}`)) missing.set(n, m);   // (a model pinned by experimentalPin has the node already)
  }
  for (const p of observed) if (!names.includes(p)) fail('range', FN, 'options.pins', `names \`${p}\`, which is not a node (${names.join(', ')})`, p);
  // One run on placeholders (no random draws: the shapes a draw has) for the derived values' and factor terms' shapes.
  const dists = jd.singleSampleDistributions();
  const shapes = new Map<string, readonly number[]>(names.map((n, i) => [n, [...dists[i]!.batchShape, ...dists[i]!.eventShape]]));
  const kinds = new Map(declared.map((d) => [d.name, d.kind]));
  if (declared.some((d) => d.kind !== 'node')) {
    jd.executeSample(FN, [], zerosSeed(), [], (name, v) => { shapes.set(name, v.shape); }, { placeholders: true, onFactor: (name, v: Tensor) => { shapes.set(name, v.shape); } });
  }
  const dims = checkDims(o.dims, shapes);
  const nodes = declared.flatMap(({ name, kind }): ModelGraphNode[] => {
    const shape = shapes.get(name) ?? [];
    const d = kind === 'node' ? dists[names.indexOf(name)] : undefined;
    const node: ModelGraphNode = {
      name,
      kind: kind === 'deterministic' ? 'deterministic' : kind === 'factor' ? 'potential' : observed.has(name) ? 'observed' : 'free',
      distribution: d === undefined ? (kind === 'factor' ? 'Potential' : 'Deterministic') : leafName(d),
      shape,
      plate: shape.map((n, k) => (dims[name] === undefined ? String(n) : `${dims[name]![k]} (${n})`)).join(' x '),
    };
    const m = missing.get(name);
    return m === undefined ? [node] : [{ ...node, name: `${name}${MISSING_SUFFIX}`, kind: 'free', shape: [m], plate: String(m) }, node];
  });
  const edges = declared.flatMap(({ name, parents }) => {
    const read = parents.filter((p) => kinds.has(p));
    // y_missing has y's parents, and y (its observed and imputed entries together) is what later variables read.
    if (!missing.has(name)) return read.map((p) => [p, name] as const);
    const imputed = `${name}${MISSING_SUFFIX}`;
    return [...read.map((p) => [p, imputed] as const), ...read.map((p) => [p, name] as const), [imputed, name] as const];
  });
  return { name: pinned?.name ?? jd.name, nodes, edges };
}

/**
 * The observed nodes from `pins`: node names, or pinned values as the samplers take them (a
 * record, or an array in model order), with the values when given.
 */
function pinsOf(jd: JointDistribution<StructKind>, pins: unknown): { names: string[]; values: [string, unknown][] } {
  if (pins === undefined) return { names: [], values: [] };
  if (Array.isArray(pins) && pins.length > 0 && pins.every((p) => typeof p === 'string')) return { names: pins as string[], values: [] };
  if (pins === null || typeof pins !== 'object') fail('type', FN, 'options.pins', 'must be node names or pinned values (a record, or an array in model order)', pins);
  const flat = jd.flattenValues(FN, 'options.pins', pins);
  const values = jd.nodeNames.flatMap((n, i): [string, unknown][] => (flat[i] === undefined || flat[i] === null ? [] : [[n, flat[i]]]));
  return { names: values.map(([n]) => n), values };
}

/** `dims` checked against the variables' ranks (entries of other variables, e.g. data, are left alone). */
function checkDims(dims: unknown, shapes: ReadonlyMap<string, readonly number[]>): Readonly<Record<string, readonly string[]>> {
  if (dims === undefined) return {};
  if (dims === null || typeof dims !== 'object' || Array.isArray(dims)) fail('type', FN, 'options.dims', 'must be a record of dimension names per variable', dims);
  for (const [name, ds] of Object.entries(dims as object)) {
    if (!Array.isArray(ds) || ds.some((d) => typeof d !== 'string')) fail('type', FN, `options.dims.${name}`, 'must be an array of dimension names', ds);
    const shape = shapes.get(name);
    if (shape !== undefined && ds.length !== shape.length) fail('range', FN, `options.dims.${name}`, `must name each of the ${shape.length} axes of \`${name}\` (shape [${shape.join(', ')}])`, ds);
  }
  return dims as Readonly<Record<string, readonly string[]>>;
}

/** The distribution's class name (its `fn`, which names it in errors too) inside `Independent` and `Sample` wrappers. */
function leafName(d: Distribution): string {
  let x = d;
  while (x instanceof Independent || x instanceof Sample) x = x.distribution;
  return (x as unknown as { readonly fn: string }).fn;
}

/** PyMC's node attributes per kind (`pymc/model_graph.py`: ellipse, filled ellipse, box, filled octagon). */
const DOT_STYLE: Readonly<Record<ModelGraphKind, string>> = {
  free: 'shape=ellipse',
  observed: 'shape=ellipse style=filled',
  deterministic: 'shape=box',
  potential: 'shape=octagon style=filled',
};

/** A DOT string literal. */
function quoted(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/**
 * The model's graph as Graphviz DOT text, laid out as PyMC's `pm.model_to_graphviz`: a node per
 * variable labelled `name ~ Distribution` (free: ellipse; observed: filled ellipse;
 * deterministic: box; a factor: filled octagon, PyMC's Potential), the variables of one plate in a
 * rounded cluster labelled at its bottom right (`school (8)`), and an edge from each input.
 * Render it with Graphviz (`dot -Tsvg model.dot > model.svg`) or any DOT viewer.
 *
 * @param model - a joint model (or its {@link modelGraph}).
 * @param options - `pins` and `dims`, as {@link modelGraph}'s.
 * @throws as {@link modelGraph}.
 * @example
 * writeFileSync('schools.dot', modelToGraphviz(schools, { pins: ['y'], dims: { theta: ['school'], y: ['school'] } }));
 * // digraph "JointDistributionNamed" { … subgraph "clusterschool (8)" { "theta" [label="theta\n~\nNormal" shape=ellipse] … } "mu" -> "theta" … }
 */
export function modelToGraphviz(model: JointDistribution<StructKind> | JointDistributionPinned<StructKind> | ModelGraph, options: ModelGraphOptions = {}): string {
  const g = model instanceof JointDistribution || model instanceof JointDistributionPinned ? modelGraph(model, options) : checkGraph(model);
  const line = (n: ModelGraphNode) => `${quoted(n.name)} [label=${quoted(`${n.name}\n~\n${n.distribution}`)} ${DOT_STYLE[n.kind]}]`;
  const plates = [...new Set(g.nodes.map((n) => n.plate))];
  const out = [`digraph ${quoted(g.name)} {`];
  for (const plate of plates) {
    const members = g.nodes.filter((n) => n.plate === plate);
    if (plate === '') { for (const n of members) out.push(`\t${line(n)}`); continue; }
    out.push(`\tsubgraph ${quoted(`cluster${plate}`)} {`, ...members.map((n) => `\t\t${line(n)}`), `\t\tlabel=${quoted(plate)} labeljust=r labelloc=b style=rounded`, '\t}');
  }
  for (const [from, to] of g.edges) out.push(`\t${quoted(from)} -> ${quoted(to)}`);
  out.push('}');
  return `${out.join('\n')}\n`;
}

/** A {@link ModelGraph} given instead of a model, checked enough to draw. */
function checkGraph(g: unknown): ModelGraph {
  const x = g as Partial<ModelGraph> | null;
  if (x === null || typeof x !== 'object' || typeof x.name !== 'string' || !Array.isArray(x.nodes) || !Array.isArray(x.edges)) {
    fail('type', 'modelToGraphviz', 'model', 'must be a joint distribution, a pinned one, or a modelGraph(...) result', g);
  }
  return x as ModelGraph;
}
