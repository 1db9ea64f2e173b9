# Stan's ESS per CPU second on issue 33's time-series and ODE models, beside bench/ts-ode-ess.ts:
# posteriordb's arma11 and garch11 (T = 1000 simulated steps), lotka_volterra (hudson_lynx_hare,
# integrate_ode_rk45) and a one-compartment PK model (integrate_ode_rk45), data from
# bench/stan/data/ (`npx tsx bench/stan/data/write-data.ts`). Each: 4 chains x (1000 warm-up +
# 1000 draws) run one after another on one core, seed 1 (or the second argument: one seed or several,
# comma-separated; then the top-level figures are medians over the seeds, each seed's run is in
# `runs`, and the parameters are the first seed's); ESS = min over
# parameters of rstan::ess_bulk; CPU seconds = user + system of the sampling call (compilation
# excluded): on a shared, loaded machine the robust figure.
# Writes bench/stan/ts-ode-ess.json (per model: CPU and wall seconds, min ESS_bulk, leapfrogs per
# draw, divergences, and every parameter's mean, sd, ESS_bulk and MCSE of the mean), and
# test/fixtures/pk-one-compartment/stan.json (the PK model's means and sds; the fixture of
# test/examples/pk-one-compartment.test.ts).
# Run: Rscript bench/stan/ts-ode-ess.R [MODELS] [SEEDS]   (MODELS: comma-separated, default all four;
# needs Debian's r-cran-rstan, see bench/stan/ess-per-second.R)
suppressMessages(library(rstan))
rstan_options(auto_write = TRUE)   # compiled models cached as .rds beside the .stan files (not committed)
here <- dirname(sub("--file=", "", grep("--file=", commandArgs(FALSE), value = TRUE)))
args <- commandArgs(TRUE)
models <- if (length(args) >= 1) strsplit(args[1], ",")[[1]] else c("arma11", "garch11", "lotka_volterra", "pk_one_compartment")
seeds <- if (length(args) >= 2) as.integer(strsplit(args[2], ",")[[1]]) else 1L
pars <- list(arma11 = c("mu", "phi", "theta", "sigma"), garch11 = c("mu", "alpha0", "alpha1", "beta1"),
             lotka_volterra = c("theta", "z_init", "sigma"), pk_one_compartment = c("ka", "cl", "v", "sigma"))
out_file <- file.path(here, "ts-ode-ess.json")
out <- if (file.exists(out_file)) jsonlite::fromJSON(out_file, simplifyVector = FALSE) else list()
cat(sprintf("%-20s %8s %8s %12s %10s %9s %11s\n", "model", "CPU s", "wall s", "min ESS_bulk", "ESS/CPU s", "leapfrogs", "divergences"))
for (name in models) {
  data <- jsonlite::fromJSON(file.path(here, "data", paste0(name, ".json")))
  m <- stan_model(file.path(here, paste0(name, ".stan")))
  # Lotka-Volterra starts where examples/lotka-volterra.ts does (its `init`): from Stan's random inits a chain can stick in a far mode.
  init <- if (name == "lotka_volterra") function() list(theta = c(0.5, 0.03, 0.8, 0.03), z_init = c(30, 5), sigma = c(0.3, 0.3)) else "random"
  runs <- list()
  for (seed in seeds) {
    cpu <- system.time(fit <- sampling(m, data = data, chains = 4, iter = 2000, warmup = 1000, cores = 1, seed = seed, refresh = 0, init = init))
    cpu <- cpu[["user.self"]] + cpu[["sys.self"]]
    secs <- sum(get_elapsed_time(fit))
    arr <- as.array(fit, pars = pars[[name]])
    se <- summary(fit, pars = pars[[name]])$summary[, "se_mean"]   # rstan 2.21 has no ess_mean(); its summary's se_mean is the MCSE of the mean
    params <- list()
    for (p in dimnames(arr)[[3]]) {
      x <- arr[, , p]
      params[[p]] <- list(mean = mean(x), sd = sd(as.vector(x)), ess_bulk = ess_bulk(x), mcse_mean = se[[p]])
    }
    ess <- min(sapply(params, function(q) q$ess_bulk))
    sp <- get_sampler_params(fit, inc_warmup = FALSE)
    chain_leapfrogs <- sapply(sp, function(s) mean(s[, "n_leapfrog__"]))
    leapfrogs <- mean(chain_leapfrogs)
    div <- sum(unlist(lapply(sp, function(s) s[, "divergent__"])))
    load <- as.numeric(strsplit(readLines("/proc/loadavg"), " ")[[1]][1])
    cat(sprintf("%-20s %8.2f %8.2f %12.0f %10.1f %9.1f %11d   seed %d, load %.1f\n", name, cpu, secs, ess, ess / cpu, leapfrogs, div, seed, load))
    runs[[length(runs) + 1]] <- list(seed = seed, cpu_seconds = cpu, wall_seconds = secs, min_ess_bulk = ess, ess_per_cpu_second = ess / cpu,
                                     leapfrogs_per_draw = leapfrogs, chain_leapfrogs_per_draw = chain_leapfrogs,
                                     chain_step_sizes = sapply(sp, function(s) s[1, "stepsize__"]), divergences = div, load = load, params = params)
  }
  med <- function(k) median(sapply(runs, function(r) r[[k]]))
  first <- runs[[1]]
  params <- first$params
  seed <- first$seed
  out[[name]] <- list(cpu_seconds = med("cpu_seconds"), wall_seconds = med("wall_seconds"), min_ess_bulk = med("min_ess_bulk"),
                      ess_per_cpu_second = med("ess_per_cpu_second"), leapfrogs_per_draw = med("leapfrogs_per_draw"),
                      divergences = first$divergences, seed = seed, seeds = seeds, rstan = as.character(packageVersion("rstan")),
                      load = med("load"), params = params,
                      runs = lapply(runs, function(r) r[setdiff(names(r), "params")]))
  if (name == "pk_one_compartment") {
    dir.create(file.path(here, "../../test/fixtures/pk-one-compartment"), showWarnings = FALSE, recursive = TRUE)
    writeLines(jsonlite::toJSON(list(source = "bench/stan/ts-ode-ess.R (rstan, 4 x (1000 + 1000), seed above)", seed = seed,
                                     params = params), auto_unbox = TRUE, digits = NA, pretty = TRUE),
               file.path(here, "../../test/fixtures/pk-one-compartment/stan.json"))
  }
  writeLines(jsonlite::toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE), out_file)
}
