# Stan's ESS/s on the two benchmark models of bench/windowed-nuts.ts, for comparison:
# 4 chains x (1000 warm-up + 1000 draws) -- Stan's defaults and the issue's target; compare with
# `BENCH_WARMUP=1000 npx tsx bench/windowed-nuts.ts` (stochax's default is 500 warm-up steps) --
# run one after another on one core (as stochax's run),
# time = total warm-up + sampling seconds of the 4 chains (compilation excluded),
# ESS = min over parameters of rstan::ess_bulk.
# CPU seconds (user + system of the sampling call, R's process) are printed too: on a shared,
# loaded machine the robust figure. With a data directory argument it also runs the logistic
# regression N = 5000, D = 25 (bench/stan/logistic_regression.stan; data from
# `npx tsx bench/glm.ts --write-data DIR`; compare with `npx tsx bench/glm-ess.ts`).
# `Rscript bench/stan/ess-per-second.R diamonds` runs posteriordb's diamonds alone (compare with
# `BENCH_MODEL=diamonds BENCH_UNFUSED=0 npx tsx bench/glm-ess.ts`).
# Run: Rscript bench/stan/ess-per-second.R [DIR]   (needs Debian's r-cran-rstan; Debian's BH package keeps
# Boost in /usr/include, so rstan 2.21 needs `ln -s /usr/include /usr/lib/R/site-library/BH/include`).
suppressMessages(library(rstan))
here <- dirname(sub("--file=", "", grep("--file=", commandArgs(FALSE), value = TRUE)))
run <- function(file, data, pars) {
  m <- stan_model(file.path(here, file))
  cpu <- system.time(fit <- sampling(m, data = data, chains = 4, iter = 2000, warmup = 1000, cores = 1, seed = 1, refresh = 0))
  cpu <- cpu[["user.self"]] + cpu[["sys.self"]]
  secs <- sum(get_elapsed_time(fit))
  arr <- as.array(fit, pars = pars)
  ess <- min(apply(arr, 3, ess_bulk))
  div <- sum(get_divergent_iterations(fit))
  cat(sprintf("%-28s %8.2f %12.0f %8.0f %11d %12.2f %10.1f\n", file, secs, ess, ess / secs, div, cpu, ess / cpu))
}
cat(sprintf("%-28s %8s %12s %8s %11s %12s %10s\n", "model", "seconds", "min ESS_bulk", "ESS/s", "divergences", "CPU seconds", "ESS/CPU s"))
args <- commandArgs(TRUE)
if (length(args) >= 1 && args[1] == "diamonds") {
  # posteriordb's diamonds from the mirror (POSTERIORDB, a bare git repository): its own model and data.
  pdb <- Sys.getenv("POSTERIORDB", "/work/.mirror/stan-dev+posteriordb/repo")
  tmp <- tempfile(); dir.create(tmp)
  for (f in c("models/stan/diamonds.stan", "data/data/diamonds.json.zip"))
    system2("git", c("--git-dir", pdb, "show", paste0("HEAD:posterior_database/", f)), stdout = file.path(tmp, basename(f)))
  unzip(file.path(tmp, "diamonds.json.zip"), exdir = tmp)
  here <- tmp
  run("diamonds.stan", jsonlite::fromJSON(file.path(tmp, "diamonds.json")), c("b", "Intercept", "sigma"))
  quit(save = "no")
}
if (length(args) >= 1) {
  ld <- jsonlite::fromJSON(file.path(args[1], "logistic-regression.json"))
  run("logistic_regression.stan", list(N = ld$N, D = ld$D, X = ld$X, y = as.integer(ld$y)), c("alpha", "beta"))
  if (length(args) >= 2 && args[2] == "only") quit(save = "no")
}
run("std_gaussian_100.stan", list(), "x")
run("eight_schools_nc.stan", list(J = 8, y = c(28, 8, -3, 7, -1, 1, 18, 12), sigma = c(15, 10, 16, 11, 9, 11, 10, 18)),
    c("mu", "tau", "theta_tilde"))
