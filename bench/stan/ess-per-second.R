# Stan's ESS/s on the two benchmark models of bench/windowed-nuts.ts, for comparison:
# 4 chains x (1000 warm-up + 1000 draws) -- Stan's defaults and the issue's target; compare with
# `BENCH_WARMUP=1000 npx tsx bench/windowed-nuts.ts` (stochax's default is 500 warm-up steps) --
# run one after another on one core (as stochax's run),
# time = total warm-up + sampling seconds of the 4 chains (compilation excluded),
# ESS = min over parameters of rstan::ess_bulk.
# Run: Rscript bench/stan/ess-per-second.R   (needs Debian's r-cran-rstan; Debian's BH package keeps
# Boost in /usr/include, so rstan 2.21 needs `ln -s /usr/include /usr/lib/R/site-library/BH/include`).
suppressMessages(library(rstan))
here <- dirname(sub("--file=", "", grep("--file=", commandArgs(FALSE), value = TRUE)))
run <- function(file, data, pars) {
  m <- stan_model(file.path(here, file))
  fit <- sampling(m, data = data, chains = 4, iter = 2000, warmup = 1000, cores = 1, seed = 1, refresh = 0)
  secs <- sum(get_elapsed_time(fit))
  arr <- as.array(fit, pars = pars)
  ess <- min(apply(arr, 3, ess_bulk))
  div <- sum(get_divergent_iterations(fit))
  cat(sprintf("%-28s %8.2f %12.0f %8.0f %11d\n", file, secs, ess, ess / secs, div))
}
cat(sprintf("%-28s %8s %12s %8s %11s\n", "model", "seconds", "min ESS_bulk", "ESS/s", "divergences"))
run("std_gaussian_100.stan", list(), "x")
run("eight_schools_nc.stan", list(J = 8, y = c(28, 8, -3, 7, -1, 1, 18, 12), sigma = c(15, 10, 16, 11, 9, 11, 10, 18)),
    c("mu", "tau", "theta_tilde"))
