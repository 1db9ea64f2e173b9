/**
 * The KL-divergence registry (TFP's `@RegisterKL` / `kl_divergence`): a function is registered
 * for a pair of distribution classes, and lookup takes the registered pair closest to the
 * arguments' classes along their prototype chains (so a subclass inherits its parent's rule).
 *
 * Classes are keyed by their brand (src/brand.ts) when they have one, so a rule finds the same
 * distributions built with another copy of stochax; and a lookup searches every copy's registry
 * (a rule a user registered through either copy).
 */
import { brandOf, shared } from '../src/brand.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Distribution } from './distribution.js';

type AnyClass = abstract new (...args: never[]) => Distribution;
export type KLFunction<A extends Distribution = Distribution, B extends Distribution = Distribution> = (a: A, b: B) => Tensor;
type Key = AnyClass | symbol;
type Registry = Map<AnyClass, Map<AnyClass, KLFunction>>;

const registry: Registry = new Map();
/** Every loaded copy's registry (this copy's lookups ask their own first). */
const registries = shared('klRegistries', () => [] as Registry[]);
registries.push(registry);

/**
 * A class's key, taken at lookup (a module registers its rules before it brands its class): its
 * brand symbol when it is branded itself, else the class.
 */
const keyOf = (cls: AnyClass): Key => brandOf(cls.prototype) ?? cls;

/**
 * Registers `fn` as KL(a ‖ b) for instances of `A` and `B`.
 *
 * @throws Error if the pair is already registered.
 * @example
 * registerKL(Normal, Normal, (a, b) => ...);
 */
export function registerKL<A extends Distribution, B extends Distribution>(
  A: abstract new (...args: never[]) => A, B: abstract new (...args: never[]) => B, fn: KLFunction<A, B>,
): void {
  let row = registry.get(A);
  if (row === undefined) registry.set(A, (row = new Map()));
  if (row.has(B)) throw new Error(`registerKL: KL(${A.name} || ${B.name}) is already registered`);
  row.set(B, fn as KLFunction);
}

function ancestors(d: Distribution): Key[] {
  const out: Key[] = [];
  for (let p = Object.getPrototypeOf(d); p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) out.push(keyOf(p.constructor as AnyClass));
  return out;
}

/**
 * The registered KL function for the closest pair of classes (least total distance), if any,
 * over every copy's registry (this copy's first, which wins ties).
 */
export function lookupKL(a: Distribution, b: Distribution): KLFunction | undefined {
  const as = ancestors(a), bs = ancestors(b);
  let best: KLFunction | undefined, bestDist = Infinity;
  for (const r of [registry, ...registries.filter((x) => x !== registry)]) {
    for (const [A, row] of r) {
      const i = as.indexOf(keyOf(A));
      if (i < 0) continue;
      for (const [B, f] of row) {
        const j = bs.indexOf(keyOf(B));
        if (j >= 0 && i + j < bestDist) { best = f; bestDist = i + j; }
      }
    }
  }
  return best;
}
