// modelGraph and modelToGraphviz: the graph PyMC's model_to_graphviz draws (kinds, distributions,
// plates labelled as PyMC labels them, edges through derived values and factors), and the DOT
// text laid out by Graphviz itself (@hpcc-js/wasm-graphviz, Graphviz compiled to WebAssembly):
// its SVG must hold each variable as a node with PyMC's label, each plate as a cluster holding its
// variables, and each edge, so the text is DOT Graphviz reads as meant.
import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  HalfNormal, Independent, JointDistributionCoroutine, JointDistributionNamed, JointDistributionSequential, Normal, Root, Sample, modelGraph, modelToGraphviz,
} from '../../../distributions/index.js';
import { NotImplementedError } from '../../../distributions/distribution.js';
import { Tensor, tensor } from '../../../src/tensor/tensor.js';
import { graphSchools } from './helpers.js';

const schools = graphSchools;
const dims = { thetaTilde: ['school'], theta: ['school'], y: ['school'] };

describe('modelGraph', () => {
  it('eight schools (non-centred, a factor): kinds, distributions inside their wrappers, PyMC\'s plate labels, edges through the derived value', () => {
    const g = modelGraph(schools, { pins: ['y'], dims });
    expect(g.name).toBe('Schools');
    expect(g.nodes).toEqual([
      { name: 'mu', kind: 'free', distribution: 'Normal', shape: [], plate: '' },
      { name: 'tau', kind: 'free', distribution: 'HalfCauchy', shape: [], plate: '' },
      { name: 'thetaTilde', kind: 'free', distribution: 'Normal', shape: [8], plate: 'school (8)' },
      { name: 'theta', kind: 'deterministic', distribution: 'Deterministic', shape: [8], plate: 'school (8)' },
      { name: 'y', kind: 'observed', distribution: 'Normal', shape: [8], plate: 'school (8)' },
      { name: 'penalty', kind: 'potential', distribution: 'Potential', shape: [], plate: '' },
    ]);
    expect(g.edges).toEqual([['mu', 'theta'], ['tau', 'theta'], ['thetaTilde', 'theta'], ['theta', 'y'], ['tau', 'penalty']]);
    // without dims, the sizes; pins as a record of values; a pinned model's own pins
    const plain = modelGraph(schools, { pins: { y: new Array(8).fill(0) } });
    expect(plain.nodes.map((n) => n.plate)).toEqual(['', '', '8', '8', '8', '']);
    expect(plain.nodes.find((n) => n.name === 'y')!.kind).toBe('observed');
    expect(modelGraph(schools.experimentalPin({ y: new Array(8).fill(0) })).nodes.find((n) => n.name === 'y')!.kind).toBe('observed');
    expect(modelGraph(schools).nodes.find((n) => n.name === 'y')!.kind).toBe('free');
  });

  it('two axes: `a x b` plates; batch axes count; a sequential model has nodes only', () => {
    const m = new JointDistributionNamed({
      s: new HalfNormal({ scale: 1 }),
      w: (s: Tensor) => new Independent({ distribution: new Normal({ loc: tensor([[0, 0, 0], [0, 0, 0]]), scale: s }), reinterpretedBatchNdims: 1 }),
    });
    expect(modelGraph(m).nodes[1]).toMatchObject({ name: 'w', shape: [2, 3], plate: '2 x 3' });
    expect(modelGraph(m, { dims: { w: ['row', 'col'] } }).nodes[1]!.plate).toBe('row (2) x col (3)');
    const seq = new JointDistributionSequential([new Normal({ loc: 0, scale: 1 }), (a: Tensor) => new Normal({ loc: a, scale: 1 })]);
    const g = modelGraph(seq);
    expect(g.nodes.map((n) => n.kind)).toEqual(['free', 'free']);
    expect(g.edges).toHaveLength(1);
    expect(modelGraph(seq, { pins: [undefined, 1.5] }).nodes.map((n) => n.kind)).toEqual(['free', 'observed']);   // pins as the samplers take them
  });

  it('missing values (NaN in the pinned data): the latent y_missing beside y, with y\'s parents, as PyMC\'s y_unobserved', () => {
    const line = new JointDistributionNamed({
      a: new Normal({ loc: 0, scale: 1 }),
      s: new HalfNormal({ scale: 1 }),
      y: (a: Tensor, s: Tensor) => new Sample({ distribution: new Normal({ loc: a, scale: s }), sampleShape: 4 }),
    });
    const y = [0.5, NaN, 1.2, NaN];
    const g = modelGraph(line, { pins: { y } });
    expect(g.nodes.map((n) => [n.name, n.kind, n.shape, n.plate])).toEqual([['a', 'free', [], ''], ['s', 'free', [], ''], ['y_missing', 'free', [2], '2'], ['y', 'observed', [4], '4']]);
    expect(g.nodes[2]!.distribution).toBe('Normal');
    expect(g.edges).toEqual([['a', 'y_missing'], ['s', 'y_missing'], ['a', 'y'], ['s', 'y'], ['y_missing', 'y']]);
    // names only: the values are not known, so nothing is imputed; the model experimentalPin makes has y_missing once
    expect(modelGraph(line, { pins: ['y'] }).nodes.map((n) => n.name)).toEqual(['a', 's', 'y']);
    expect(modelGraph(line.experimentalPin({ y })).nodes.filter((n) => n.name === 'y_missing')).toHaveLength(1);
  });

  it('errors: a coroutine model has no declared graph; bad dims, pins and options name modelGraph and the argument', () => {
    const co = new JointDistributionCoroutine(function* () { yield Root(new Normal({ loc: 0, scale: 1 })); });
    expect(() => modelGraph(co)).toThrow(NotImplementedError);
    expect(() => modelGraph({} as never)).toThrow(/modelGraph.*model/);
    expect(() => modelGraph(schools, { dims: { theta: ['school', 'extra'] } })).toThrow(/modelGraph.*dims\.theta.*1 axes/);
    expect(() => modelGraph(schools, { dims: { theta: 'school' } as never })).toThrow(TypeError);
    expect(() => modelGraph(schools, { pins: ['z'] })).toThrow(/modelGraph.*pins.*`z`/);
    expect(() => modelGraph(schools, { pins: 'y' as never })).toThrow(/modelGraph.*pins/);
    expect(() => modelGraph(schools, { coords: {} } as never)).toThrow(/modelGraph.*coords/);
    // dims of variables the model lacks (data, the log-likelihood's) are left alone
    expect(() => modelGraph(schools, { dims: { obs: ['i'] } })).not.toThrow();
  });
});

describe('modelToGraphviz: DOT that Graphviz reads as PyMC draws it', () => {
  let graphviz: Awaited<ReturnType<typeof Graphviz.load>>;
  beforeAll(async () => { graphviz = await Graphviz.load(); }, 60_000);

  it('nodes with PyMC\'s labels and shapes, one cluster per plate, every edge', () => {
    const dot = modelToGraphviz(schools, { pins: ['y'], dims });
    expect(dot).toContain('"y" [label="y\\n~\\nNormal" shape=ellipse style=filled]');
    expect(dot).toContain('"theta" [label="theta\\n~\\nDeterministic" shape=box]');
    expect(dot).toContain('"penalty" [label="penalty\\n~\\nPotential" shape=octagon style=filled]');
    expect(dot).toContain('label="school (8)" labeljust=r labelloc=b style=rounded');
    const svg = graphviz.dot(dot);
    const titles = [...svg.matchAll(/<g id="(node|edge|clust)\d+" class="(?:node|edge|cluster)">\s*<title>([^<]*)<\/title>/g)].map((m) => [m[1], m[2]!.replace(/&#45;&gt;/g, '->')]);
    expect(titles.filter(([k]) => k === 'node').map(([, t]) => t).sort()).toEqual(['mu', 'penalty', 'tau', 'theta', 'thetaTilde', 'y']);
    expect(titles.filter(([k]) => k === 'edge').map(([, t]) => t).sort()).toEqual(['mu->theta', 'tau->penalty', 'tau->theta', 'theta->y', 'thetaTilde->theta']);
    expect(titles.filter(([k]) => k === 'clust').map(([, t]) => t)).toEqual(['clusterschool (8)']);
    // the cluster's box holds its three variables' centres, and not the others'
    const numbers = (t: string) => [...t.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
    const clusterPath = /<title>clusterschool \(8\)<\/title>\s*<path[^>]* d="([^"]*)"/.exec(svg)![1]!;
    const cs = numbers(clusterPath);
    const xs = cs.filter((_, i) => i % 2 === 0), ys = cs.filter((_, i) => i % 2 === 1);
    const inside = (name: string): boolean => {
      const shape = new RegExp(`<title>${name}</title>\\s*<(ellipse|polygon)([^>]*)`).exec(svg)!;
      const v = numbers(shape[1] === 'ellipse' ? /cx="([^"]*)" cy="([^"]*)"/.exec(shape[2]!)!.slice(1).join(',') : /points="([^"]*)"/.exec(shape[2]!)![1]!);
      const px = v.filter((_, i) => i % 2 === 0), py = v.filter((_, i) => i % 2 === 1);
      const [x, y] = [px.reduce((a, b) => a + b, 0) / px.length, py.reduce((a, b) => a + b, 0) / py.length];
      return x > Math.min(...xs) && x < Math.max(...xs) && y > Math.min(...ys) && y < Math.max(...ys);
    };
    expect(['thetaTilde', 'theta', 'y'].map(inside)).toEqual([true, true, true]);
    expect(['mu', 'tau', 'penalty'].map(inside)).toEqual([false, false, false]);
    expect(svg).toContain('>school (8)</text>');
    expect(svg).toMatch(/<title>y<\/title>\s*<ellipse fill="lightgrey"/);   // style=filled: Graphviz's default fill
  });

  it('names that need quoting, and a modelGraph given instead of a model', () => {
    const odd = new JointDistributionNamed({ 'a "b"': new Normal({ loc: 0, scale: 1 }) });
    const dot = modelToGraphviz(modelGraph(odd));
    expect(dot).toContain('"a \\"b\\"" [label="a \\"b\\"\\n~\\nNormal" shape=ellipse]');
    expect(graphviz.dot(dot)).toContain('<title>a &quot;b&quot;</title>');
    expect(() => modelToGraphviz({ nodes: 3 } as never)).toThrow(/modelToGraphviz.*model/);
  });
});
