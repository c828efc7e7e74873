#!/usr/bin/python3
"""Reference values for test/eval/stats.test.ts, from scipy (Debian python3-scipy).

Run with Debian's interpreter:  /usr/bin/python3 scripts/stats-reference.py
The numbers it prints are pasted into the test as fixed expected values (npm test needs no Python).
"""
import scipy
from scipy import special, stats

print("scipy", scipy.__version__)
print("# special functions")
for a, x in [(0.5, 0.1), (1.0, 2.0), (2.5, 1.0), (5.0, 20.0), (10.0, 3.0), (30.0, 31.0), (0.5, 40.0)]:
    print(f"gammainc({a}, {x}) = {special.gammainc(a, x)!r}  gammaincc = {special.gammaincc(a, x)!r}")
for x, a, b in [(0.2, 2.0, 3.0), (0.5, 0.5, 0.5), (0.9, 10.0, 2.0), (0.01, 1.5, 40.0), (0.999, 3.0, 0.5)]:
    print(f"betainc({a}, {b}, {x}) = {special.betainc(a, b, x)!r}")
for x in [0.5, 1.0, 3.5, 10.0, 100.5]:
    print(f"gammaln({x}) = {special.gammaln(x)!r}")
for z in [-8.0, -3.0, -1.0, 0.0, 0.5, 2.0, 6.0]:
    print(f"norm.cdf({z}) = {stats.norm.cdf(z)!r}")
print("# distributions")
for x, df in [(0.5, 1), (3.84, 1), (9.28, 3), (20.0, 5), (100.0, 10), (1e-3, 2)]:
    print(f"chi2.sf({x}, {df}) = {stats.chi2.sf(x, df)!r}")
for x, d1, d2 in [(3.69, 3, 39), (1.0, 2, 10), (10.0, 5, 50), (0.2, 7, 63), (40.0, 2, 54)]:
    print(f"f.sf({x}, {d1}, {d2}) = {stats.f.sf(x, d1, d2)!r}")

# A 14 x 4 matrix of AUC-like values with ties, shaped like Demšar (2006) Table 6 (C4.5 variants; values
# typed from memory, so not claimed to be the paper's; they serve as fixed inputs only).
demsar = [
    [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569], [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931], [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000], [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    [0.972, 0.981, 0.975, 0.975], [0.957, 0.978, 0.946, 0.970],
]
cols = list(zip(*demsar))
print("# Friedman on the 14 x 4 matrix (tie-corrected)")
r = stats.friedmanchisquare(*cols)
print(f"friedmanchisquare = {r.statistic!r} p = {r.pvalue!r}")
N, k = len(demsar), 4
chi = r.statistic
F = (N - 1) * chi / (N * (k - 1) - chi)
print(f"iman-davenport F = {F!r} p = {stats.f.sf(F, k - 1, (k - 1) * (N - 1))!r}")
# A tie-free matrix (8 data sets x 5 competitors)
tiefree = [
    [0.81, 0.79, 0.84, 0.80, 0.77], [0.62, 0.66, 0.64, 0.61, 0.60], [0.91, 0.93, 0.95, 0.92, 0.90], [0.70, 0.72, 0.69, 0.75, 0.71],
    [0.55, 0.58, 0.61, 0.57, 0.52], [0.88, 0.86, 0.89, 0.87, 0.85], [0.97, 0.96, 0.98, 0.95, 0.94], [0.73, 0.77, 0.79, 0.74, 0.72],
]
r = stats.friedmanchisquare(*zip(*tiefree))
N, k = len(tiefree), 5
chi = r.statistic
F = (N - 1) * chi / (N * (k - 1) - chi)
print(f"tie-free friedmanchisquare = {r.statistic!r} p = {r.pvalue!r}")
print(f"tie-free iman-davenport F = {F!r} p = {stats.f.sf(F, k - 1, (k - 1) * (N - 1))!r}")

print("# Wilcoxon signed-rank (two-sided)")
a = [c[0] for c in demsar]
b = [c[1] for c in demsar]
res = stats.wilcoxon(a, b, correction=True, method="approx")
print(f"14x4 columns 1 vs 2 (approx, continuity) = {res.statistic!r} p = {res.pvalue!r}")
x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]
y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]
res = stats.wilcoxon(x, y, method="exact")
print(f"R's depression example (exact) = {res.statistic!r} p = {res.pvalue!r}")
x2 = [(i * 7) % 11 for i in range(60)]
y2 = [(i * 5) % 13 for i in range(60)]
res = stats.wilcoxon(x2, y2, correction=True, method="approx")
print(f"n=60 (approx, continuity) = {res.statistic!r} p = {res.pvalue!r}")
