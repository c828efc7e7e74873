"""scikit-learn DecisionTreeClassifier with ccp_alpha chosen by CV (1-SE rule), on folds exported by
scripts/compare-peers.mjs. Run with Debian's /usr/bin/python3 (python3-sklearn 1.2).

Usage: /usr/bin/python3 sklearn_cv.py DIR...  (each DIR holds data.csv, kinds.txt, outer.txt, inner.csv)
Prints one CSV line per outer fold: dataset,fold,accuracy,leaves,leavesFull,alpha

Preprocessing (scikit-learn 1.2 trees take neither missing values nor strings), fitted on the outer
training fold: numeric columns -> SimpleImputer(median); categorical columns ->
SimpleImputer(most_frequent) then OneHotEncoder(handle_unknown='ignore').
Inner CV: grove's inner folds; one full tree per inner fold, pruned at the geometric midpoints of
the full tree's alpha sequence (1.0 for the last) with the estimator's own _prune_tree; pooled
misclassification error; SE = sqrt(e(1-e)/n); the largest alpha whose error <= min + SE.
When the sequence has more than 200 alphas, 200 of them (evenly spaced by index, first and last
kept) are the candidates.
"""
import copy
import csv
import math
import os
import sys

import numpy as np
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
from sklearn.tree import DecisionTreeClassifier

MAX_CANDIDATES = 200


def load(folder):
    kinds = open(os.path.join(folder, "kinds.txt")).read().split()
    with open(os.path.join(folder, "data.csv"), newline="") as f:
        rows = list(csv.reader(f))[1:]
    cols = []
    for j, kind in enumerate(kinds):
        if kind == "numeric":
            cols.append(np.array([float(r[j]) if r[j] != "" else np.nan for r in rows], dtype=float))
        else:
            cols.append(np.array([r[j] if r[j] != "" else np.nan for r in rows], dtype=object))
    y = np.array([r[-1] for r in rows], dtype=object)
    outer = np.loadtxt(os.path.join(folder, "outer.txt"), dtype=int)
    inner = np.loadtxt(os.path.join(folder, "inner.csv"), dtype=int, delimiter=",", ndmin=2)
    return kinds, cols, y, outer, inner


def frame(cols, rows):
    out = np.empty((len(rows), len(cols)), dtype=object)
    for j, c in enumerate(cols):
        out[:, j] = c[rows]
    return out


def preprocessor(kinds):
    num = [j for j, k in enumerate(kinds) if k == "numeric"]
    cat = [j for j, k in enumerate(kinds) if k != "numeric"]
    parts = []
    if num:
        parts.append(("num", SimpleImputer(strategy="median"), num))
    if cat:
        parts.append(("cat", make_pipeline(SimpleImputer(strategy="most_frequent"), OneHotEncoder(handle_unknown="ignore")), cat))
    return ColumnTransformer(parts, sparse_threshold=0)


def pruned(tree, alpha):
    c = copy.copy(tree)
    c.ccp_alpha = alpha
    c._prune_tree()  # builds a new tree_; the full tree is untouched
    return c


def choose_alpha(X, y, groups):
    full = DecisionTreeClassifier(random_state=0).fit(X, y)
    alphas = np.unique(full.cost_complexity_pruning_path(X, y).ccp_alphas)
    if len(alphas) > MAX_CANDIDATES:
        idx = np.unique(np.round(np.linspace(0, len(alphas) - 1, MAX_CANDIDATES)).astype(int))
        alphas = alphas[idx]
    evals = [math.sqrt(alphas[k] * alphas[k + 1]) for k in range(len(alphas) - 1)] + [1.0]
    wrong = np.zeros(len(alphas))
    for g in np.unique(groups):
        tr, te = groups != g, groups == g
        t = DecisionTreeClassifier(random_state=0).fit(X[tr], y[tr])
        for k, a in enumerate(evals):
            m = pruned(t, a) if a > 0 else t
            wrong[k] += np.sum(m.predict(X[te]) != y[te])
    err = wrong / len(y)
    best = int(np.argmin(err))
    se = math.sqrt(err[best] * (1 - err[best]) / len(y))
    chosen = max(k for k in range(len(alphas)) if err[k] <= err[best] + se + 1e-12)
    return full, float(alphas[chosen])


def main():
    for folder in sys.argv[1:]:
        kinds, cols, y, outer, inner = load(folder)
        for f in sorted(set(outer.tolist())):
            tr = np.where(outer != f)[0]
            te = np.where(outer == f)[0]
            prep = preprocessor(kinds).fit(frame(cols, tr))
            Xtr = prep.transform(frame(cols, tr)).astype(float)
            Xte = prep.transform(frame(cols, te)).astype(float)
            full, alpha = choose_alpha(Xtr, y[tr], inner[tr, f])
            model = pruned(full, alpha) if alpha > 0 else full
            acc = float(np.mean(model.predict(Xte) == y[te]))
            print(f"{os.path.basename(folder)},{f},{acc:.10f},{model.get_n_leaves()},{full.get_n_leaves()},{alpha:.10g}", flush=True)


if __name__ == "__main__":
    main()
