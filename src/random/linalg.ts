/**
 * Small dense linear algebra in float64 for the matrix samplers (`multivariateNormal`,
 * `orthogonal`): Cholesky, the cyclic-Jacobi symmetric eigendecomposition and Householder QR.
 * The kernels live in the tensor layer (`src/tensor/linalg-kernels.ts`), which the differentiable
 * linear-algebra ops share; they are re-exported here under the names the samplers use.
 */
export { cholesky, householderQr, symmetricEigen, type ReducedQr, type SymmetricEigen } from '../tensor/linalg-kernels.js';
