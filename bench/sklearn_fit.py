#!/usr/bin/python3
"""scikit-learn side of bench/fit-vs-sklearn.mjs (run by it; can also be run alone).

Fits DecisionTreeClassifier (unlimited depth, every other parameter at its default,
random_state=0) on ALL rows of each data set and prints one JSON document on stdout.
Progress goes to stderr.

Run with Debian's interpreter (/usr/bin/python3 + the python3-sklearn package), not a
pyenv/virtualenv python:

    /usr/bin/python3 bench/sklearn_fit.py --data-dir ../shared/datasets \
        --datasets magic,shuttle --repeats 3

What is timed: the .fit(X, y) call only. Reading the CSV, building X (float64, C order) and
coding y as integers 0..k-1 (classes sorted, as grove's reader does) happen before the clock
starts, which matches grove's side, where readDataset() parses and codes the labels before
fit() is timed. sklearn's own float64 -> float32 copy of X is inside .fit() and is counted
(it is part of what sklearn's fit does; it takes well under a millisecond on these sizes).
"""

import argparse
import csv
import gc
import json
import os
import platform
import statistics
import sys
import time

EXIT_NO_SKLEARN = 3
EXIT_BAD_DATA = 4


def fail(code, message):
    print(f"sklearn_fit.py: {message}", file=sys.stderr)
    sys.exit(code)


try:
    import numpy as np
    import sklearn
    from sklearn.tree import DecisionTreeClassifier
except ImportError as e:  # pragma: no cover - depends on the machine
    fail(
        EXIT_NO_SKLEARN,
        f"cannot import scikit-learn/numpy with {sys.executable} ({e}). "
        "Install Debian's package: apt-get install -y python3-sklearn, "
        "and run this script with /usr/bin/python3 (not the pyenv python3).",
    )


def read_csv(path):
    """Features = every column but the last, which must be `class`. All features numeric."""
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [r for r in reader if r]
    if header[-1] != "class":
        fail(EXIT_BAD_DATA, f"{path}: last column is '{header[-1]}', expected 'class'")
    try:
        X = np.array([[float(v) for v in r[:-1]] for r in rows], dtype=np.float64)
    except ValueError as e:
        fail(EXIT_BAD_DATA, f"{path}: non-numeric feature value ({e}); this benchmark takes numeric data sets only")
    labels = [r[-1].strip() for r in rows]
    # Class order as grove codes it: numeric labels sorted by value, otherwise string order.
    try:
        keys = {lab: float(lab) for lab in set(labels)}
    except ValueError:
        keys = {lab: lab for lab in set(labels)}
    classes = sorted(set(labels), key=lambda lab: keys[lab])
    code = {lab: i for i, lab in enumerate(classes)}
    y = np.array([code[lab] for lab in labels], dtype=np.int64)
    return np.ascontiguousarray(X), y, header[:-1], classes


def one_fit(X, y, criterion, seed):
    clf = DecisionTreeClassifier(criterion=criterion, random_state=seed)
    gc.collect()
    t0 = time.perf_counter()
    clf.fit(X, y)
    t1 = time.perf_counter()
    return clf, (t1 - t0) * 1000.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", required=True)
    ap.add_argument("--datasets", default="magic,letter-recognition,shuttle,spambase")
    ap.add_argument("--criteria", default="gini,entropy")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed-spread", type=int, default=5,
                    help="also fit gini with random_state=0..N-1 (untimed) to show how tree size "
                         "depends on sklearn's random feature order; 0 = skip")
    args = ap.parse_args()
    if args.repeats < 1:
        fail(2, "--repeats must be >= 1")

    out = {
        "python": sys.version.split()[0],
        "pythonExecutable": sys.executable,
        "sklearn": sklearn.__version__,
        "numpy": np.__version__,
        "platform": platform.platform(),
        "results": [],
    }
    for name in [d for d in args.datasets.split(",") if d]:
        path = os.path.join(args.data_dir, f"{name}.csv")
        if not os.path.isfile(path):
            fail(EXIT_BAD_DATA, f"no data file {path}")
        t0 = time.perf_counter()
        X, y, features, classes = read_csv(path)
        read_ms = (time.perf_counter() - t0) * 1000.0
        for criterion in [c for c in args.criteria.split(",") if c]:
            times = []
            clf = None
            for _ in range(args.repeats):
                clf, ms = one_fit(X, y, criterion, 0)
                times.append(ms)
            acc = float((clf.predict(X) == y).mean())
            res = {
                "dataset": name,
                "rows": int(X.shape[0]),
                "features": int(X.shape[1]),
                "classes": len(classes),
                "system": "sklearn",
                "criterion": criterion,
                "params": "DecisionTreeClassifier(criterion=%r, random_state=0), other parameters default" % criterion,
                "readMs": read_ms,
                "timesMs": times,
                "bestMs": min(times),
                "medianMs": statistics.median(times),
                "nodes": int(clf.tree_.node_count),
                "leaves": int(clf.get_n_leaves()),
                "height": int(clf.get_depth()),
                "trainAccuracy": acc,
            }
            if criterion == "gini" and args.seed_spread > 0:
                spread = []
                for seed in range(args.seed_spread):
                    c = DecisionTreeClassifier(criterion=criterion, random_state=seed).fit(X, y)
                    spread.append({"seed": seed, "nodes": int(c.tree_.node_count), "height": int(c.get_depth())})
                res["seedSpread"] = spread
            out["results"].append(res)
            print(f"  sklearn {name} {criterion}: best {res['bestMs']:.1f} ms, "
                  f"{res['nodes']} nodes, acc {acc:.4f}", file=sys.stderr)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
