/**
 * TensorFlow's stateless random ops (`tf.random.stateless_*`, `tf.random.split`,
 * `tf.random.fold_in`) on Philox-4x32-10, reproducing TensorFlow on CPU: TF's `[s0, s1]` seeds
 * (int32 sign-extended or int64) scrambled into a Philox key and counter as TF does, TF's fill
 * layout and conversions. Uniform and integer outputs are bit-exact with TF; normals agree to
 * within 2 ulp (TF calls glibc's logf/sincosf, we use `Math` functions rounded to the dtype).
 * Reference: shared/reference/philox.md §3; checked against TensorFlow 2.21 (CPU) in
 * test/compat/tensorflow.test.ts.
 *
 * float16/bfloat16 results are `uint16` Tensors of bit patterns (Node 20 has no
 * `Float16Array`); `float16BitsToNumbers` / `bfloat16BitsToNumbers` convert them.
 *
 * The samplers also accept a Philox `{ key, counter }` in place of the seed, used as is, which
 * reproduces TF's V2 raw ops and its stateful ops (`tf.random.Generator`, `tf.random.normal`).
 *
 * @example
 * import { compat } from 'stochax';
 * const tf = compat.tensorflow;
 * tf.statelessUniform([2, 3], [1, 2]);                       // → Tensor float32 [2, 3]
 * const [a, b] = tf.statelessSplit([1, 2]).toArray() as number[][];
 * tf.statelessNormal([3], a!);                               // → Tensor float32 [3]
 */
export {
  statelessRandomGetKeyCounter, type KeyCounter, type PhiloxState, type Seed, type SeedDType,
} from './tensorflow/seed.js';
export {
  statelessUniform, statelessUniformFullInt, type FullIntDType, type UniformDType, type UniformOptions,
} from './tensorflow/uniform.js';
export { statelessNormal, statelessTruncatedNormal, type NormalOptions } from './tensorflow/normal.js';
export { statelessSplit, statelessFoldIn } from './tensorflow/split.js';
export {
  bfloat16BitsToNumbers, bfloat16FromNumber, bfloat16ToNumber, float16BitsToNumbers, float16FromNumber, float16ToNumber,
} from './half.js';
export type { TfFloatDType, TfStorage } from './tensorflow/common.js';
