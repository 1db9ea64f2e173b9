/**
 * A tour of stochax's PRNG core: keys, splits and draws that are bit-exact with JAX 0.10.2.
 * Run: npm run demo   (or: npx tsx examples/demo.ts)
 *
 * Expected output: the keys and values below, each JAX-documented one marked "= JAX".
 */
import { configure, random, samplers } from '../src/index.js';

const show = (label: string, value: unknown) => console.log(`${label.padEnd(44)} ${JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? Number(v) : v))}`);
const check = (label: string, got: unknown, jax: unknown) => {
  const same = JSON.stringify(got) === JSON.stringify(jax);
  show(`${label} ${same ? '= JAX' : '!= JAX'}`, got);
  if (!same) process.exitCode = 1;
};

console.log('stochax demo: every random number is a pure function of a key.\n');

// Keys and splitting (defaults: x64 on, threefry partitionable, as JAX >= 0.5 with x64).
const key = random.key(0);
const [k1, k2] = random.split(key);
check('split(key(0))', random.keyData(random.split(key)).toArray(), [[1797259609, 2579123966], [928981903, 3453687069]]);
check('foldIn(key(0), 1) equals split(key(0))[1]', random.keyData(random.foldIn(key, 1)).toArray(), random.keyData(k2!).toArray());
show('uniform(k1, [3]) float64', random.uniform(k1!, [3]).toArray());
show('randint(k2, [5], 0, 10) int64', random.randint(k2!, [5], 0, 10).toArray());
show('permutation(key(0), 8)', random.permutation(key, 8).toArray());
show('choice(key(0), 5, [4], p)', random.choice(key, 5, [4], { p: [0.1, 0.1, 0.1, 0.1, 0.6] }).toArray());
show('bernoulli(key(0), 0.3, [6])', random.bernoulli(key, 0.3, [6]).toArray());

// Every jax.random sampler, and TFP-style seed handling.
show('normal(k1, [3])', Array.from(random.normal(k1!, [3]).data));
show('gamma(k1, 2.5, [3])', Array.from(random.gamma(k1!, 2.5, [3]).data));
show('poisson(k2, [1, 50], [2])', random.poisson(k2!, [1, 50]).toArray());
show('dirichlet(k2, [1, 2, 3])', Array.from(random.dirichlet(k2!, [1, 2, 3]).data));
const [s1, s2] = samplers.splitSeed(42, { salt: 'gamma' });
show("splitSeed(42, { salt: 'gamma' })", [random.keyData(s1!).toArray(), random.keyData(s2!).toArray()]);
show('samplers.normal([2], { mean: 10, seed: s1 })', Array.from(samplers.normal([2], { mean: 10, seed: s1 }).data));

// The same values as JAX's documentation, in JAX's default 32-bit mode.
console.log('\nJAX x32 mode (jax_enable_x64 = False):');
configure({ x64: false });
const f32 = (xs: number[]) => xs.map(Math.fround);
check('stateful_rng(1701).random((5,))', Array.from(random.uniform(random.foldIn(random.key(1701), 0), [5]).data),
  f32([0.09609699, 0.26730824, 0.5619041, 0.24421775, 0.7715055]));
check('randint(key(0), (3,3), 0, 8)', random.randint(random.key(0), [3, 3], 0, 8).toArray(), [[5, 0, 0], [5, 3, 3], [0, 7, 5]]);
check('bits(key(1701), (3,), uint32)', random.bits(random.key(1701), [3]).toArray(), [1111271205, 2679469115, 974515252]);

console.log('\nJAX before 0.5.0 (jax_threefry_partitionable = False):');
configure({ threefryPartitionable: false });
check('poisson(key(1349191556), 5, (5,))', random.poisson(random.key(1349191556), 5, [5]).toArray(), [7, 3, 6, 11, 6]);
check('gamma(key(1038747260), 0.8, (5,)) float32', Array.from(random.gamma(random.key(1038747260), 0.8, [5]).data),
  [0.824220597743988, 1.7244755029678345, 0.5028824210166931, 5.386131763458252, 0.6855431795120239]);
check('exponential(key(1942292768), (5,))', Array.from(random.exponential(random.key(1942292768), [5]).data),
  [0.5260666012763977, 0.04304581508040428, 0.0399320051074028, 0.4642702043056488, 0.1238858699798584]);
check('randint(PRNGKey(0), (3,3), 0, 8)', random.randint(random.key(0), [3, 3], 0, 8).toArray(), [[2, 1, 3], [6, 1, 5], [6, 3, 4]]);
check('split(PRNGKey(0))', random.keyData(random.split(random.key(0))).toArray(), [[4146024105, 967050713], [2718843009, 1272950319]]);
configure({ x64: true, threefryPartitionable: true });

console.log(process.exitCode ? '\nSome values differ from JAX.' : '\nAll JAX-documented values reproduced.');
