/**
 * Small facts about shapes (arrays of dimensions), in one place: the element count, equality and
 * the rendering used in error messages. Dependency-free, so checks, tensors, samplers,
 * distributions and kernels may all import it.
 */

/** The number of elements of a tensor of shape `shape` (1 for a scalar's `[]`). */
export function sizeOf(shape: readonly number[]): number {
  let n = 1;
  for (let i = 0; i < shape.length; i++) n *= shape[i]!;
  return n;
}

/** Whether two shapes are equal, dimension by dimension. */
export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A shape as error messages print it: `[2, 3]`. */
export function showShape(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}
