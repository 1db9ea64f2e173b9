/**
 * The reverse-mode tape. While `grad`/`valueAndGrad` run a function, every op whose inputs are
 * tracked appends one node: the shapes involved and a vector–Jacobian product that maps the
 * adjoint of the op's output to adjoints of its inputs (already reduced to each input's shape).
 * Ops on untracked tensors record nothing, so code outside `grad` pays one property check.
 */

import { shared } from '../brand.js';

/** A recorded value: its position on the tape and how to send its adjoint to its inputs. */
export interface TapeNode {
  readonly tape: Tape;
  readonly index: number;
  readonly size: number;
  /** Inputs' nodes (null for untracked inputs, which need no adjoint). */
  readonly inputs: readonly (TapeNode | null)[];
  /** Adjoint of the output → adjoints of the inputs (same order; null where not needed). */
  readonly vjp: ((g: Float64Array) => readonly (Float64Array | null)[]) | null;
}

/** One recording: nodes in creation order (a topological order). */
export class Tape {
  readonly nodes: TapeNode[] = [];

  /** A node with no inputs, for a differentiated argument. */
  leaf(size: number): TapeNode {
    const node: TapeNode = { tape: this, index: this.nodes.length, size, inputs: [], vjp: null };
    this.nodes.push(node);
    return node;
  }

  add(size: number, inputs: readonly (TapeNode | null)[], vjp: TapeNode['vjp']): TapeNode {
    const node: TapeNode = { tape: this, index: this.nodes.length, size, inputs, vjp };
    this.nodes.push(node);
    return node;
  }

  /**
   * Adjoints of every node for the seed adjoint `seed` at `output`, walking the tape backwards
   * from `output` (nodes after it cannot contribute).
   */
  backward(output: TapeNode, seed: Float64Array): (Float64Array | undefined)[] {
    const adjoints: (Float64Array | undefined)[] = new Array(this.nodes.length);
    adjoints[output.index] = seed;
    for (let i = output.index; i >= 0; i--) {
      const node = this.nodes[i]!;
      const g = adjoints[i];
      if (g === undefined || node.vjp === null) continue;
      const parts = node.vjp(g);
      for (let k = 0; k < node.inputs.length; k++) {
        const input = node.inputs[k];
        const part = parts[k];
        if (!input || !part) continue;
        const acc = adjoints[input.index];
        if (acc === undefined) adjoints[input.index] = part === g ? Float64Array.from(part) : part;
        else for (let j = 0; j < acc.length; j++) acc[j]! += part[j]!;
      }
    }
    return adjoints;
  }
}

/** The tapes being recorded, innermost last (nesting is allowed; only the innermost records). */
// Shared with every other loaded copy of stochax: ops of a model's copy record on the caller's tape.
const active: Tape[] = shared('activeTapes', () => [] as Tape[]);

/** The tape that records new ops, if any. */
export function currentTape(): Tape | undefined {
  return active.length === 0 ? undefined : active[active.length - 1];   // active[-1] would take a slow keyed load
}

/** Runs `f` with `tape` recording. */
export function withTape<T>(tape: Tape, f: () => T): T {
  active.push(tape);
  try {
    return f();
  } finally {
    active.pop();
  }
}
