#!/usr/bin/python3
"""Walk grove's and scikit-learn's full gini trees side by side (run by bench/gini-ties.mjs).

From the root down, while both trees make the same split (same feature, same rows to the left)
we go on into both children. Where they first differ, we score both splits on the rows of that
node (weighted Gini of the children) and report whether the two are an exact tie (|diff| < 1e-12).
If every divergence is a tie, the two libraries optimise the same thing and differ only in
tie-breaking (grove: first feature in column order, lowest threshold; sklearn: features visited
in a random order drawn from random_state, first best kept).

    /usr/bin/python3 bench/gini_ties.py --data-dir DIR --trees grove-trees.json [--seed 0]
"""
import argparse
import csv
import json
import os
import sys

try:
    import numpy as np
    from sklearn.tree import DecisionTreeClassifier
except ImportError as e:
    print(f"gini_ties.py: cannot import scikit-learn with {sys.executable} ({e}); "
          "apt-get install -y python3-sklearn and use /usr/bin/python3", file=sys.stderr)
    sys.exit(3)


def weighted_gini(y, left):
    n = len(y)
    g = 0.0
    for part in (y[left], y[~left]):
        if len(part) == 0:
            continue
        _, c = np.unique(part, return_counts=True)
        p = c / c.sum()
        g += len(part) / n * (1.0 - float((p * p).sum()))
    return g


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data-dir", required=True)
    ap.add_argument("--trees", required=True, help="JSON {dataset: [grove nodes]} written by gini-ties.mjs")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    trees = json.load(open(args.trees))
    out = {}
    for name, g in trees.items():
        with open(os.path.join(args.data_dir, f"{name}.csv"), newline="") as f:
            r = csv.reader(f)
            next(r)
            rows = [row for row in r if row]
        X = np.array([[float(v) for v in row[:-1]] for row in rows])
        y = np.array([row[-1].strip() for row in rows])
        s = DecisionTreeClassifier(criterion="gini", random_state=args.seed).fit(X, y).tree_
        X32 = X.astype(np.float32)  # sklearn compares float32 features with its thresholds
        same = ties = nonties = 0
        max_diff = 0.0
        shallowest = None
        stack = [(0, 0, np.arange(len(y)), 0)]
        while stack:
            gi, si, idx, depth = stack.pop()
            node = g[gi]
            if "feature" not in node or s.children_left[si] == -1:
                continue
            gl = X[idx, node["feature"]] <= node["threshold"]
            sl = X32[idx, s.feature[si]] <= s.threshold[si]
            if node["feature"] == s.feature[si] and bool((gl == sl).all()):
                same += 1
                stack.append((node["children"][0], s.children_left[si], idx[gl], depth + 1))
                stack.append((node["children"][1], s.children_right[si], idx[~gl], depth + 1))
                continue
            d = abs(weighted_gini(y[idx], gl) - weighted_gini(y[idx], sl))
            max_diff = max(max_diff, d)
            if d < 1e-12:
                ties += 1
            else:
                nonties += 1
            if shallowest is None or depth < shallowest["depth"]:
                shallowest = {"depth": depth, "rows": int(len(idx))}
        out[name] = {"sameSplits": same, "divergences": ties + nonties, "ties": ties, "nonTies": nonties,
                     "maxGiniDiff": max_diff, "shallowestDivergence": shallowest}
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
