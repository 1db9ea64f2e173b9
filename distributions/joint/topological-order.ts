/**
 * TFP's deterministic node order for `JointDistributionNamed` (`joint_distribution_named.py`,
 * `_best_order`). The order decides which seed each node gets, so it must be exactly TFP's:
 *
 * 1. each node's depth is the number of edges on the longest path from it up to a root
 *    (a node without parents has depth 0);
 * 2. nodes are visited in descending `(depth, name)` order;
 * 3. visiting an unvisited node first visits its unvisited parents, also in descending
 *    `(depth, name)` order (a depth-first ascent), then emits the node.
 *
 * Names compare by Unicode code point, as Python's `str` comparison does.
 */
import { fail } from '../../src/checks.js';

/** Python's `str` ordering: by code point (JS `<` compares UTF-16 code units). */
export function comparePython(a: string, b: string): number {
  const x = [...a], y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * `[name, parents]` pairs in TFP's order. `graph` maps each node to the names of its parents
 * (in the order the callable declares them).
 *
 * @throws RangeError naming the node and the argument when a parent names no node, or naming
 *   the nodes on a cycle.
 * @example
 * bestOrder(new Map([['a', []], ['b', ['a']], ['c', ['a']], ['d', ['b', 'c']]]));
 * // → [['a', []], ['c', ['a']], ['b', ['a']], ['d', ['b', 'c']]]
 */
export function bestOrder(fn: string, graph: ReadonlyMap<string, readonly string[]>): [string, string[]][] {
  const nodes = [...graph.keys()];
  for (const [name, parents] of graph) {
    for (const p of parents) {
      if (!graph.has(p)) {
        // A bundler or minifier may rename parameters (`alpha` → `alpha2`, `a`): the destructured form keeps the names.
        const renamed = nodes.find((n) => p !== n && (p.startsWith(n) && /^\d+$/.test(p.slice(n.length))));
        const hint = ` (if a bundler renamed the parameters${renamed === undefined ? '' : ` — \`${renamed}\` became \`${p}\``}, write the callable with destructured names, \`({ ${renamed ?? nodes[0]} }) => …\`, which survive renaming)`;
        fail('range', fn, `model.${name}`, `has an argument \`${p}\` that names no node (the nodes are ${nodes.join(', ')})${hint}`, p);
      }
    }
  }
  const depth = new Map<string, number>();
  const onPath: string[] = [];
  const explore = (v: string): number => {
    const known = depth.get(v);
    if (known !== undefined) return known;
    if (onPath.includes(v)) {
      const cycle = [...onPath.slice(onPath.indexOf(v)), v];
      fail('range', fn, 'model', `has a cycle: ${cycle.join(' → ')} ("a → b": b is an argument of a's callable)`, v);
    }
    onPath.push(v);
    const parents = graph.get(v)!;
    const d = parents.length === 0 ? 0 : 1 + Math.max(...parents.map(explore));
    onPath.pop();
    depth.set(v, d);
    return d;
  };
  for (const v of nodes) explore(v);

  const descending = (a: string, b: string) => (depth.get(b)! - depth.get(a)!) || comparePython(b, a);
  const visited = new Set<string>();
  const out: [string, string[]][] = [];
  const visit = (u: string) => {
    if (visited.has(u)) return;
    visited.add(u);
    const parents = graph.get(u)!;
    for (const p of [...parents].sort(descending)) visit(p);
    out.push([u, [...parents]]);
  };
  for (const u of [...nodes].sort(descending)) visit(u);
  return out;
}
