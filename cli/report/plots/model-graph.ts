/**
 * The model graph as an SVG (what `modelToGraphviz` gives as DOT, drawn without Graphviz): the
 * variables in layers from the roots down (each one below every variable it reads), ordered in
 * each layer by where their inputs sit, with PyMC's shapes (free: ellipse; observed: grey
 * ellipse; deterministic: box; a factor: grey octagon) and the plate written under the name.
 */
import { fail } from '../../../src/checks.js';
import type { ModelGraph, ModelGraphNode } from '../../../distributions/joint/model-graph.js';
import { coord, escapeXml, svgDocument } from './svg.js';

/** Layout sizes (px): a character's width at 11 px, a node's height, the space between layers and between nodes. */
const CHAR = 6.6, NODE_H = 38, LAYER = 84, GAP = 26, MARGIN = 16;

interface Placed { readonly node: ModelGraphNode; readonly layer: number; x: number; readonly w: number }

/**
 * The model graph of `modelGraph(model, { pins, dims })` as a standalone SVG.
 *
 * @throws {TypeError} for something that is not a `modelGraph` result; {RangeError} for an edge
 *   naming no variable or a cycle.
 * @example
 * writeFileSync('model.svg', modelGraphPlot(modelGraph(model, { pins: ['y'] })));
 */
export function modelGraphPlot(graph: ModelGraph): string {
  const FN = 'modelGraphPlot';
  if (graph === null || typeof graph !== 'object' || !Array.isArray(graph.nodes) || !Array.isArray(graph.edges)) fail('type', FN, 'graph', 'must be a modelGraph(...) result', graph);
  const index = new Map(graph.nodes.map((n, i) => [n.name, i]));
  const parents: number[][] = graph.nodes.map(() => []);
  for (const [from, to] of graph.edges) {
    const a = index.get(from), b = index.get(to);
    if (a === undefined || b === undefined) fail('range', FN, 'graph.edges', `names a variable the graph lacks: ${from} -> ${to}`, [from, to]);
    parents[b]!.push(a);
  }
  // Each variable one layer below its lowest input (longest path from a root).
  const layerOf = new Array<number>(graph.nodes.length).fill(-1);
  const visiting = new Set<number>();
  const depth = (i: number): number => {
    if (layerOf[i]! >= 0) return layerOf[i]!;
    if (visiting.has(i)) fail('range', FN, 'graph.edges', `form a cycle through ${graph.nodes[i]!.name}`, graph.nodes[i]!.name);
    visiting.add(i);
    layerOf[i] = parents[i]!.reduce((m, p) => Math.max(m, depth(p) + 1), 0);
    return layerOf[i]!;
  };
  graph.nodes.forEach((_, i) => depth(i));
  const placed: Placed[] = graph.nodes.map((node, i) => ({
    node, layer: layerOf[i]!, x: 0,
    w: Math.max(56, CHAR * Math.max(`${node.name} ~ ${node.distribution}`.length, node.plate.length) + 28),
  }));
  const layers: number[][] = [];
  placed.forEach((p, i) => { (layers[p.layer] ??= []).push(i); });
  // Left to right in declaration order, then each lower layer by the mean position of its inputs (one barycentre sweep).
  const spread = (row: number[]): void => {
    let x = MARGIN;
    for (const i of row) { placed[i]!.x = x + placed[i]!.w / 2; x += placed[i]!.w + GAP; }
  };
  layers.forEach((row, k) => {
    if (k > 0) {
      const centre = (i: number) => parents[i]!.reduce((s, p) => s + placed[p]!.x, 0) / Math.max(1, parents[i]!.length);
      row.sort((a, b) => centre(a) - centre(b) || a - b);
    }
    spread(row);
  });
  const widthOf = (row: number[]) => row.reduce((s, i) => s + placed[i]!.w, 0) + GAP * (row.length - 1);
  const width = Math.max(200, ...layers.map(widthOf)) + 2 * MARGIN;
  // Each layer centred.
  for (const row of layers) {
    const shift = (width - widthOf(row)) / 2 - MARGIN;
    for (const i of row) placed[i]!.x += shift;
  }
  const height = MARGIN * 2 + layers.length * NODE_H + (layers.length - 1) * (LAYER - NODE_H);
  const top = (p: Placed) => MARGIN + p.layer * LAYER;
  const body: string[] = [];
  for (const [from, to] of graph.edges) {
    const a = placed[index.get(from)!]!, b = placed[index.get(to)!]!;
    const x1 = a.x, y1 = top(a) + NODE_H, x2 = b.x, y2 = top(b) - 2;
    // The arrowhead along the edge's direction, 8 px long.
    const dx = x2 - x1, dy = y2 - y1, len = Math.sqrt(dx * dx + dy * dy) || 1, ux = dx / len, uy = dy / len;
    const bx = x2 - 8 * ux, by = y2 - 8 * uy;
    body.push(`<line x1="${coord(x1)}" y1="${coord(y1)}" x2="${coord(bx)}" y2="${coord(by)}"/>`
      + `<polygon points="${coord(x2)},${coord(y2)} ${coord(bx - 3.5 * uy)},${coord(by + 3.5 * ux)} ${coord(bx + 3.5 * uy)},${coord(by - 3.5 * ux)}"/>`);
  }
  const shapes = placed.map((p) => {
    const cx = p.x, cy = top(p) + NODE_H / 2, hw = p.w / 2, hh = NODE_H / 2;
    const fill = p.node.kind === 'observed' || p.node.kind === 'potential' ? '#d9d9d9' : '#fff';
    const outline = p.node.kind === 'deterministic'
      ? `<rect x="${coord(cx - hw)}" y="${coord(cy - hh)}" width="${coord(p.w)}" height="${coord(NODE_H)}" fill="${fill}"/>`
      : p.node.kind === 'potential'
        ? `<polygon points="${[[-hw + 10, -hh], [hw - 10, -hh], [hw, -hh + 10], [hw, hh - 10], [hw - 10, hh], [-hw + 10, hh], [-hw, hh - 10], [-hw, -hh + 10]].map(([dx, dy]) => `${coord(cx + dx!)},${coord(cy + dy!)}`).join(' ')}" fill="${fill}"/>`
        : `<ellipse cx="${coord(cx)}" cy="${coord(cy)}" rx="${coord(hw)}" ry="${coord(hh)}" fill="${fill}"/>`;
    const label = `<text x="${coord(cx)}" y="${coord(p.node.plate === '' ? cy + 4 : cy - 1)}" text-anchor="middle">${escapeXml(`${p.node.name} ~ ${p.node.distribution}`)}</text>`;
    const plate = p.node.plate === '' ? '' : `<text x="${coord(cx)}" y="${coord(cy + 12)}" text-anchor="middle" class="ax-label">${escapeXml(p.node.plate)}</text>`;
    return `<g stroke="#555">${outline}</g>${label}${plate}`;
  });
  return svgDocument(width, height, `<g stroke="#777" fill="#777">${body.join('')}</g>${shapes.join('')}`, `Model graph of ${graph.name}`);
}
