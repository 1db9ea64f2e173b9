// Logistic regression as a Stan user writes it (bench/models/glm.ts's model; data from
// `npx tsx bench/glm.ts --write-data DIR`): bench/stan/glm-gradient.R and ess-per-second.R.
data {
  int<lower=0> N;
  int<lower=1> D;
  matrix[N, D] X;
  int<lower=0, upper=1> y[N];
}
parameters {
  vector[D] beta;
  real alpha;
}
model {
  beta ~ normal(0, 1);
  alpha ~ normal(0, 5);
  y ~ bernoulli_logit(alpha + X * beta);
}
