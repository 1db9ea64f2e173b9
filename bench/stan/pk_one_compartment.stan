// One-compartment PK model with first-order absorption, one subject (examples/pk-one-compartment.ts):
// amounts a = {gut, central} from a(0) = {dose, 0} by integrate_ode_rk45 at its defaults.
functions {
  real[] da_dt(real t, real[] a, real[] theta, real[] x_r, int[] x_i) {
    real ka = theta[1];
    real cl = theta[2];
    real v = theta[3];
    return { -ka * a[1], ka * a[1] - cl / v * a[2] };
  }
}
data {
  int<lower=1> N;
  real ts[N];
  real<lower=0> dose;
  vector<lower=0>[N] c;
}
parameters {
  real<lower=0> ka;
  real<lower=0> cl;
  real<lower=0> v;
  real<lower=0> sigma;
}
model {
  real a[N, 2] = integrate_ode_rk45(da_dt, {dose, 0.0}, 0, ts, {ka, cl, v},
                                    rep_array(0.0, 0), rep_array(0, 0), 1e-6, 1e-6, 1e6);
  ka ~ lognormal(0, 0.5);
  cl ~ lognormal(log(4), 0.5);
  v ~ lognormal(log(20), 0.5);
  sigma ~ normal(0, 0.5);
  c ~ lognormal(log(to_vector(a[, 2]) / v), sigma);
}
