# rpart with 1-SE cost-complexity pruning, on folds exported by scripts/compare-peers.mjs.
# Usage: Rscript rpart_cv.R DIR...   (each DIR holds data.csv, kinds.txt, outer.txt, inner.csv)
# Prints one CSV line per outer fold: dataset,fold,accuracy,leaves,leavesFull,cp
suppressMessages(library(rpart))
for (dir in commandArgs(TRUE)) {
  kinds <- readLines(file.path(dir, "kinds.txt"))
  classes <- ifelse(kinds == "numeric", "numeric", "character")
  d <- read.csv(file.path(dir, "data.csv"), colClasses = c(classes, "character"), na.strings = "", check.names = FALSE)
  for (j in which(kinds == "categorical")) d[[j]] <- factor(d[[j]])
  d$y <- factor(d$y)
  outer <- scan(file.path(dir, "outer.txt"), quiet = TRUE)
  inner <- as.matrix(read.csv(file.path(dir, "inner.csv"), header = FALSE))
  for (f in sort(unique(outer))) {
    tr <- d[outer != f, , drop = FALSE]
    te <- d[outer == f, , drop = FALSE]
    groups <- inner[outer != f, f + 1] + 1   # grove's inner folds (the ones its cart preset uses)
    fit <- rpart(y ~ ., data = tr, method = "class", parms = list(split = "gini"),
                 control = rpart.control(cp = 0, minsplit = 2, minbucket = 1, xval = groups, maxcompete = 0))
    ct <- fit$cptable
    best <- which.min(ct[, "xerror"])
    limit <- ct[best, "xerror"] + ct[best, "xstd"]
    row <- min(which(ct[, "xerror"] <= limit))   # fewest splits within one SE of the best
    pruned <- prune(fit, cp = ct[row, "CP"])
    pred <- predict(pruned, te, type = "class")
    acc <- mean(as.character(pred) == as.character(te$y))
    cat(sprintf("%s,%d,%.10f,%d,%d,%.10g\n", basename(dir), f, acc,
                sum(pruned$frame$var == "<leaf>"), sum(fit$frame$var == "<leaf>"), ct[row, "CP"]))
  }
}
