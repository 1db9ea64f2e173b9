/**
 * The geometry of a batch of chains' state: the chain dims (the log density's shape), each part's
 * shape, its elements per chain and its dtype. The flat phase space (`phase-space.ts`), the metric
 * and the trajectory all read it.
 */
import { fail } from '../../src/checks.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { showShape, sizeOf } from '../../src/tensor/shapes.js';
import type { Tensor } from '../../src/tensor/tensor.js';

/** Shapes of a state: the chain dims (the log density's shape) and each part's full shape. */
export interface Geometry {
  readonly chainShape: readonly number[];
  readonly numChains: number;
  readonly partShapes: readonly (readonly number[])[];
  /** Elements per chain in each part (the product of the part's non-chain dims). */
  readonly eventSizes: readonly number[];
  readonly dtypes: readonly FloatDType[];
  /** The log density's dtype (float32 only when the target returns float32, as in x32 mode). */
  readonly lpDtype: FloatDType;
}

/**
 * The geometry of `parts` given the log density `lp`: each part's leading dims must equal
 * `lp.shape` (independent chains).
 *
 * @throws TypeError for a non-float part; RangeError naming the expected shape otherwise.
 */
export function geometryOf(fn: string, parts: readonly Tensor[], lp: Tensor): Geometry {
  const chainShape = Object.freeze([...lp.shape]);
  const numChains = lp.size;
  const eventSizes: number[] = [];
  const dtypes: FloatDType[] = [];
  parts.forEach((t, k) => {
    if (t.dtype !== 'float64' && t.dtype !== 'float32') fail('type', fn, `currentState[${k}]`, 'must be a float32 or float64 Tensor', t.dtype);
    const lead = t.shape.slice(0, chainShape.length);
    if (t.ndim < chainShape.length || lead.some((d, i) => d !== chainShape[i])) {
      fail('range', fn, `currentState[${k}]`, `must have leading (chain) dims ${showShape(chainShape)} matching the shape of targetLogProbFn's result; its shape is ${showShape(t.shape)}`, t);
    }
    eventSizes.push(sizeOf(t.shape.slice(chainShape.length)));
    dtypes.push(t.dtype);
  });
  const lpDtype: FloatDType = lp.dtype === 'float32' ? 'float32' : 'float64';
  return { chainShape, numChains, partShapes: parts.map((t) => Object.freeze([...t.shape])), eventSizes, dtypes, lpDtype };
}
