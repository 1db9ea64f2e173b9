// modelGraphPlot: the model graph drawn without Graphviz — well-formed SVG, a shape per variable
// as PyMC draws it (ellipse, grey ellipse when observed, box, grey octagon), its plate under its
// name, each variable below every variable it reads, an arrow per edge; report.html shows it in
// its `model` section when given the graph.
import { describe, expect, it } from 'vitest';
import { modelGraph } from '../../../distributions/index.js';
import { graphSchools } from '../../distributions/joint/helpers.js';
import { modelGraphPlot } from '../../../cli/report/plots/model-graph.js';
import { reportHtml } from '../../../cli/report/report-html.js';
import { random } from '../../../src/index.js';
import { svgProblems } from './xml.js';

const schools = graphSchools;
const graph = modelGraph(schools, { pins: ['y'], dims: { thetaTilde: ['school'], theta: ['school'], y: ['school'] } });

/** Each label's text position (its x, y), by variable name. */
function labelAt(svg: string): Map<string, [number, number]> {
  return new Map([...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)" text-anchor="middle">([^<~]+) ~ [^<]*<\/text>/g)].map((m) => [m[3]!, [Number(m[1]), Number(m[2])]]));
}

describe('modelGraphPlot', () => {
  const svg = modelGraphPlot(graph);

  it('well-formed; PyMC\'s shapes; plates under the names; an arrow per edge', () => {
    expect(svgProblems(svg)).toEqual([]);
    expect(svg.match(/<ellipse [^>]*fill="#fff"/g)).toHaveLength(3);        // mu, tau, thetaTilde
    expect(svg.match(/<ellipse [^>]*fill="#d9d9d9"/g)).toHaveLength(1);     // y, observed
    expect(svg.match(/<rect [^>]*fill="#fff"/g)).toHaveLength(1);           // theta, deterministic
    expect(svg.match(/<polygon points="[^"]*" fill="#d9d9d9"/g)).toHaveLength(1);   // the factor
    expect(svg.match(/class="ax-label">school \(8\)</g)).toHaveLength(3);
    expect(svg.match(/<line /g)).toHaveLength(graph.edges.length);
    expect(svg).toContain('>y ~ Normal<');
    expect(svg).toContain('<title>Model graph of Schools</title>');
  });

  it('each variable below every variable it reads', () => {
    const at = labelAt(svg);
    expect([...at.keys()].sort()).toEqual(['mu', 'penalty', 'tau', 'theta', 'thetaTilde', 'y']);
    for (const [from, to] of graph.edges) expect(at.get(to)![1], `${from} -> ${to}`).toBeGreaterThan(at.get(from)![1] + 40);
  });

  it('bad graphs: not a graph, an edge to nowhere, a cycle', () => {
    expect(() => modelGraphPlot(3 as never)).toThrow(/modelGraphPlot.*graph/);
    expect(() => modelGraphPlot({ ...graph, edges: [['mu', 'nu']] })).toThrow(/modelGraphPlot.*edges.*nu/);
    expect(() => modelGraphPlot({ ...graph, edges: [['mu', 'tau'], ['tau', 'mu']] })).toThrow(/modelGraphPlot.*cycle/);
  });

  it('report.html draws it in a `model` section, linked from the top, only when given', () => {
    const draws = { mu: random.normal(random.key(0), [50, 2]), tau: random.normal(random.key(1), [50, 2]) };
    const page = reportHtml({ draws, modelGraph: graph });
    expect(page).toContain('<section id="model"><h2>Model graph</h2>');
    expect(page).toContain('<a href="#model">Model graph</a>');
    expect(page.split('<section id="model">')[1]!.split('</section>')[0]).toContain('>thetaTilde ~ Normal<');
    const none = reportHtml({ draws });
    expect(none).not.toContain('id="model"');
    expect(none).not.toContain('href="#model"');
  });
});
