/**
 * How stochax recognises its own objects: by a registered brand, not by `instanceof` on one
 * module copy. A model that imports `stochax` (the built package) while the CLI runs from the
 * sources, or an application with two installed copies, has two `Tensor` classes, two
 * `Distribution` classes, …; an object from either must pass the other's checks.
 *
 * `brand(Class, 'Kind')` puts `Symbol.for('stochax.Kind')` (value: {@link COMPAT}) on the class's
 * prototype and makes `x instanceof Class` test that brand, so the existing `instanceof` checks
 * accept every copy of a compatible version. A subclass that is not branded itself keeps the
 * ordinary `instanceof`. An object branded by an incompatible copy is a TypeError that says so,
 * rather than being misread.
 *
 * Dependency-free on purpose (like `checks.ts`): every layer may import it.
 */

/**
 * The compatibility level: copies with the same level share object layouts (Tensor's fields,
 * the tape, key arrays, distributions' internals). Raise it when any of those changes.
 */
export const COMPAT = 1;

/** This copy's package version (kept equal to package.json's by a test), for messages. */
export const VERSION = '0.1.0';

const VERSION_KEY = Symbol.for('stochax.version');
const ordinaryHasInstance = Function.prototype[Symbol.hasInstance];

/** The registered symbol of a kind: `Symbol.for('stochax.' + kind)`. */
export function brandSymbol(kind: string): symbol {
  return Symbol.for(`stochax.${kind}`);
}

/**
 * Brands `cls` as stochax's `kind`: its instances (from any copy of a compatible version) pass
 * `x instanceof cls` and {@link isBranded}.
 *
 * @example
 * export class Tensor { … }
 * brand(Tensor, 'Tensor');
 */
export function brand(cls: abstract new (...args: never[]) => object, kind: string): void {
  const sym = brandSymbol(kind);
  Object.defineProperty(cls.prototype, sym, { value: COMPAT });
  if (!Object.prototype.hasOwnProperty.call(cls.prototype, VERSION_KEY)) Object.defineProperty(cls.prototype, VERSION_KEY, { value: VERSION });
  Object.defineProperty(cls, Symbol.hasInstance, {
    value(this: unknown, x: unknown): boolean {
      // Inherited by subclasses: theirs is the ordinary check unless they are branded too. The
      // prototype carries the brand but is no instance (as with the ordinary check).
      return this === cls ? x !== cls.prototype && hasBrand(x, sym, kind) : ordinaryHasInstance.call(this, x);
    },
  });
}

/**
 * True when `x` carries stochax's brand `kind` at this copy's compatibility level.
 *
 * @throws TypeError when `x` carries the brand of an incompatible stochax version.
 */
export function isBranded(x: unknown, kind: string): boolean {
  return hasBrand(x, brandSymbol(kind), kind);
}

/**
 * The brand symbol `prototype` carries as its own property (the class it belongs to was branded
 * itself), or undefined: a key for a class that is the same in every copy of stochax.
 *
 * @example
 * brandOf(Normal.prototype);   // Symbol(stochax.Normal)
 */
export function brandOf(prototype: object): symbol | undefined {
  return Object.getOwnPropertySymbols(prototype).find((s) => s !== VERSION_KEY && s.description?.startsWith('stochax.') === true);
}

function hasBrand(x: unknown, sym: symbol, kind: string): boolean {
  if (x === null || (typeof x !== 'object' && typeof x !== 'function')) return false;
  const level = (x as Record<symbol, unknown>)[sym];
  if (level === COMPAT) return true;
  if (level === undefined) return false;
  const version = (x as Record<symbol, unknown>)[VERSION_KEY];
  throw new TypeError(
    `stochax: this ${kind} comes from an incompatible copy of stochax (version ${String(version ?? 'unknown')}, `
    + `compatibility level ${String(level)}; this copy is version ${VERSION}, level ${COMPAT}): `
    + 'install one version of stochax (npm ls stochax shows the copies), or build the object with the copy that uses it',
  );
}

/**
 * Module state that every copy of a compatible version must share (the active tape, the global
 * modes): one object on `globalThis` per name and compatibility level, made by `init` the first time.
 */
export function shared<T extends object>(name: string, init: () => T): T {
  const key = Symbol.for(`stochax.shared.${name}@${COMPAT}`);
  const g = globalThis as unknown as Record<symbol, T | undefined>;
  return g[key] ??= init();
}
