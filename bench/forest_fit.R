# ranger side of bench/forest-fit.mjs: read a CSV with data.table::fread, fit a random forest.
#
#   Rscript bench/forest_fit.R FILE.csv TREES THREADS REPEATS
#
# ranger(num.trees = TREES, num.threads = THREADS) with its classification defaults (gini,
# mtry = floor(sqrt(p)), bootstrap, min.node.size 1); the last column is the class (a factor).
# Prints one JSON line: the read's seconds, each fit's wall and CPU seconds (every thread's), the
# first forest's nodes.
suppressPackageStartupMessages({
  library(data.table)
  library(ranger)
})
a <- commandArgs(trailingOnly = TRUE)
trees <- as.integer(a[2])
threads <- as.integer(a[3])
repeats <- as.integer(a[4])
t0 <- proc.time()[["elapsed"]]
df <- fread(a[1], showProgress = FALSE)
target <- names(df)[ncol(df)]
df[[target]] <- as.factor(df[[target]])
read <- proc.time()[["elapsed"]] - t0
fits <- numeric(0)
cpus <- numeric(0)
cpu <- function() sum(proc.time()[c("user.self", "sys.self")])
nodes <- 0
for (r in seq_len(repeats)) {
  t0 <- proc.time()[["elapsed"]]
  c0 <- cpu()
  m <- ranger(dependent.variable.name = target, data = df, num.trees = trees, num.threads = threads,
              seed = r, verbose = FALSE)
  fits <- c(fits, proc.time()[["elapsed"]] - t0)
  cpus <- c(cpus, cpu() - c0)
  if (r == 1) nodes <- sum(sapply(m$forest$child.nodeIDs, function(t) length(t[[1]])))
}
cat(sprintf('{"readSeconds": %.4f, "fitSeconds": [%s], "fitCpuSeconds": [%s], "nodes": %d}\n', read,
            paste(sprintf("%.4f", fits), collapse = ", "), paste(sprintf("%.4f", cpus), collapse = ", "),
            as.integer(nodes)))
