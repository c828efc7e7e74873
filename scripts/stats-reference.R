#!/usr/bin/env Rscript
# Reference values for test/eval/stats.test.ts, from R (Debian r-base-core).
#   Rscript scripts/stats-reference.R
# The numbers it prints are pasted into the test as fixed expected values (npm test needs no R).
options(digits = 17)
cat(R.version.string, "\n")

cat("# Nemenyi q_alpha = qtukey(1 - alpha, k, Inf) / sqrt(2)  (Demsar 2006, Table 5a)\n")
for (alpha in c(0.05, 0.10)) cat("alpha", alpha, ":", format(qtukey(1 - alpha, 2:12, Inf) / sqrt(2), digits = 10), "\n")
cat("ptukey(3.0, 4, Inf) =", ptukey(3.0, 4, Inf), " ptukey(4.5, 8, Inf) =", ptukey(4.5, 8, Inf), "\n")

# A 14 x 4 matrix with ties, shaped like Demsar (2006) Table 6 (fixed inputs only).
demsar <- matrix(c(
  0.763, 0.768, 0.771, 0.798, 0.599, 0.591, 0.590, 0.569, 0.954, 0.971, 0.968, 0.967, 0.628, 0.661, 0.654, 0.657,
  0.882, 0.888, 0.886, 0.898, 0.936, 0.931, 0.916, 0.931, 0.661, 0.668, 0.609, 0.685, 0.583, 0.583, 0.563, 0.625,
  0.775, 0.838, 0.866, 0.875, 1.000, 1.000, 1.000, 1.000, 0.940, 0.962, 0.965, 0.962, 0.619, 0.666, 0.614, 0.669,
  0.972, 0.981, 0.975, 0.975, 0.957, 0.978, 0.946, 0.970), ncol = 4, byrow = TRUE)
cat("# Friedman on the 14 x 4 matrix (R corrects for ties)\n")
ft <- friedman.test(demsar)
cat("friedman.test:", ft$statistic, "p =", ft$p.value, "\n")
cat("average ranks:", colMeans(t(apply(-demsar, 1, rank))), "\n")

cat("# Wilcoxon signed-rank, wilcox.test(paired = TRUE) defaults\n")
w <- suppressWarnings(wilcox.test(demsar[, 1], demsar[, 2], paired = TRUE))
cat("14x4 columns 1 vs 2: V =", w$statistic, "p =", w$p.value, "\n")
x <- c(1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30)
y <- c(0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29)
w <- wilcox.test(x, y, paired = TRUE)
cat("depression example (exact): V =", w$statistic, "p =", w$p.value, "\n")
i <- 0:59
x2 <- (i * 7) %% 11
y2 <- (i * 5) %% 13
w <- suppressWarnings(wilcox.test(x2, y2, paired = TRUE))
cat("n=60: zeros =", sum(x2 == y2), "V =", w$statistic, "p =", w$p.value, "\n")
d <- c(0.3, -0.1, 0.7, 1.2, 0.5, -0.4, 0.9, 1.1, 0.2, 0.8, 1.5, -0.6)
w <- wilcox.test(d, rep(0, length(d)), paired = TRUE)
cat("n=12 exact: V =", w$statistic, "p =", w$p.value, "\n")
cat("psignrank(10, 12) =", psignrank(10, 12), "\n")

cat("# Friedman without tie correction (Demsar's formula) on the 14 x 4 matrix, and Iman-Davenport\n")
R <- colMeans(t(apply(-demsar, 1, rank))); N <- nrow(demsar); k <- ncol(demsar)
chi <- 12 * N / (k * (k + 1)) * (sum(R^2) - k * (k + 1)^2 / 4)
FF <- (N - 1) * chi / (N * (k - 1) - chi)
cat("uncorrected chi2 =", chi, "p =", pchisq(chi, k - 1, lower.tail = FALSE), " F =", FF, "p =", pf(FF, k - 1, (k - 1) * (N - 1), lower.tail = FALSE), "\n")
tiefree <- matrix(c(
  0.81, 0.79, 0.84, 0.80, 0.77, 0.62, 0.66, 0.64, 0.61, 0.60, 0.91, 0.93, 0.95, 0.92, 0.90, 0.70, 0.72, 0.69, 0.75, 0.71,
  0.55, 0.58, 0.61, 0.57, 0.52, 0.88, 0.86, 0.89, 0.87, 0.85, 0.97, 0.96, 0.98, 0.95, 0.94, 0.73, 0.77, 0.79, 0.74, 0.72), ncol = 5, byrow = TRUE)
ft <- friedman.test(tiefree); chi <- unname(ft$statistic); N <- 8; k <- 5
FF <- (N - 1) * chi / (N * (k - 1) - chi)
cat("tie-free friedman.test:", chi, "p =", ft$p.value, " F =", FF, "p =", pf(FF, k - 1, (k - 1) * (N - 1), lower.tail = FALSE), "\n")
cat("pchisq(100, 10, lower=F) =", pchisq(100, 10, lower.tail = FALSE), " pf(40, 2, 54, lower=F) =", pf(40, 2, 54, lower.tail = FALSE), "\n")
