# Stan's time per gradient for bench/glm.ts's Stan column: rstan's grad_log_prob on the logistic
# regression N = 5000, D = 25 (bench/stan/logistic_regression.stan, `bernoulli_logit` as users
# write it) and posteriordb's diamonds (its own diamonds.stan, `normal_id_glm_lpdf`), the same data
# as stochax's. R's call overhead (grad_log_prob on a 1-parameter model) is measured and
# subtracted. CPU time (user + system) of batches of calls at 4 points; median of 9 batches.
# Run (writes the fixture beside this script):
#   npx tsx bench/glm.ts --write-data scratch/glm-data
#   Rscript bench/stan/glm-gradient.R scratch/glm-data > bench/stan/glm-gradient.json
# (POSTERIORDB: the posteriordb mirror, a bare git repository; default below.)
suppressMessages({ library(rstan); library(jsonlite) })
args <- commandArgs(TRUE)
dir <- if (length(args) >= 1) args[1] else "scratch/glm-data"
here <- dirname(sub("--file=", "", grep("--file=", commandArgs(FALSE), value = TRUE)))
pdb <- Sys.getenv("POSTERIORDB", "/work/.mirror/stan-dev+posteriordb/repo")
git_show <- function(path, out) system2("git", c("--git-dir", pdb, "show", paste0("HEAD:", path)), stdout = out)

cpu <- function(expr) { t <- system.time(expr); t[["user.self"]] + t[["sys.self"]] }
per_gradient <- function(model, data, reps) {
  fit <- sampling(model, data = data, chains = 1, iter = 1, algorithm = "Fixed_param", refresh = 0, seed = 1)
  k <- get_num_upars(fit)
  pts <- lapply(1:4, function(s) 0.05 * sin(1 + (0:(k - 1)) + 7 * (s - 1)))
  for (i in 1:200) grad_log_prob(fit, pts[[1 + i %% 4]])
  times <- sapply(1:9, function(r) cpu(for (i in 1:reps) grad_log_prob(fit, pts[[1 + i %% 4]])) / reps)
  1e6 * median(times)
}
tiny <- stan_model(model_code = "parameters { real x; } model { x ~ normal(0, 1); }")
overhead <- per_gradient(tiny, list(), 20000)

logit <- stan_model(file.path(here, "logistic_regression.stan"))
ld <- fromJSON(file.path(dir, "logistic-regression.json"))
lr <- per_gradient(logit, list(N = ld$N, D = ld$D, X = ld$X, y = as.integer(ld$y)), 2000)

tmp <- tempfile(); dir.create(tmp)
git_show("posterior_database/models/stan/diamonds.stan", file.path(tmp, "diamonds.stan"))
git_show("posterior_database/data/data/diamonds.json.zip", file.path(tmp, "diamonds.json.zip"))
unzip(file.path(tmp, "diamonds.json.zip"), exdir = tmp)
dm <- stan_model(file.path(tmp, "diamonds.stan"))
dd <- fromJSON(file.path(tmp, "diamonds.json"))
di <- per_gradient(dm, dd, 4000)

cat(toJSON(list(
  logistic_regression = list(us_per_gradient = lr - overhead, us_with_r_call = lr),
  diamonds = list(us_per_gradient = di - overhead, us_with_r_call = di),
  r_call_overhead_us = overhead,
  note = sprintf("rstan %s grad_log_prob, CPU time, R call overhead (%.1f us) subtracted; %s; %s",
                 packageVersion("rstan"), overhead, Sys.Date(), R.version.string)
), auto_unbox = TRUE, digits = 6, pretty = TRUE), "\n")
