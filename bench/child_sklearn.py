#!/usr/bin/python3
"""scikit-learn side of bench/run.mjs: ONE (data set, criterion) per process.

    /usr/bin/python3 bench/child_sklearn.py --dir /tmp/grove-bench/<key> --criterion gini \
        [--repeats 3] [--budget-seconds 120] [--predict-seconds 0.5]

Reads the SAME binary files as grove (bench/synthetic.mjs describes the layout: float64
little-endian, column-major X; int32 y) with numpy.fromfile; X is the transposed view of the
(features, rows) array, i.e. a Fortran-ordered (rows, features) array, no copy.

Timed: DecisionTreeClassifier(criterion, max_depth=None, min_samples_split=2,
min_samples_leaf=1, random_state=0).fit(X, y); sklearn's float64 -> float32 conversion of X
happens inside fit() and is counted, as in bench/sklearn_fit.py.
Categorical columns are given to sklearn as their integer codes (an ordinal encoding, missing
= -1); scikit-learn 1.2 rejects NaN, so a data set with a missing NUMERIC value is reported as
skipped. Predict: clf.predict(X_test) repeated to >= --predict-seconds of work.
Memory: VmRSS before the data are read (interpreter + numpy + sklearn imported), VmHWM after
the fits, VmHWM at the end. Prints JSON lines on stdout ({"event": ...}).
"""

import argparse
import gc
import json
import os
import statistics
import sys
import time


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def proc_memory():
    out = {"rss": None, "hwm": None}
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    out["rss"] = int(line.split()[1]) * 1024
                elif line.startswith("VmHWM:"):
                    out["hwm"] = int(line.split()[1]) * 1024
    except OSError:
        pass
    return out


try:
    import numpy as np
    import sklearn
    from sklearn.tree import DecisionTreeClassifier
except ImportError as e:  # pragma: no cover - depends on the machine
    print(f"child_sklearn.py: cannot import scikit-learn/numpy with {sys.executable} ({e}); "
          "apt-get install -y python3-sklearn and use /usr/bin/python3", file=sys.stderr)
    sys.exit(3)


def load(d, header, part):
    rows = header["nTrain"] if part == "train" else header["nTest"]
    cols = len(header["features"])
    X = np.fromfile(os.path.join(d, f"{part}.X.f64"), dtype="<f8").reshape(cols, rows).T
    y = np.fromfile(os.path.join(d, f"{part}.y.i32"), dtype="<i4")
    cat = [j for j, f in enumerate(header["features"]) if f["kind"] == "categorical"]
    num = [j for j, f in enumerate(header["features"]) if f["kind"] == "numeric"]
    if cat:
        X = np.array(X, order="F")  # writable copy
        for j in cat:
            col = X[:, j]
            col[np.isnan(col)] = -1.0
    numeric_nan = bool(num) and bool(np.isnan(X[:, num]).any())
    return X, y, numeric_nan


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--criterion", default="gini")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--budget-seconds", type=float, default=120.0)
    ap.add_argument("--predict-seconds", type=float, default=0.5)
    args = ap.parse_args()

    with open(os.path.join(args.dir, "header.json")) as f:
        header = json.load(f)
    gc.collect()
    mem_start = proc_memory()
    t = time.perf_counter()
    X, y, numeric_nan = load(args.dir, header, "train")
    load_ms = (time.perf_counter() - t) * 1000.0
    if numeric_nan:
        emit({"event": "result", "status": "skipped",
              "note": "scikit-learn 1.2 does not accept NaN (missing numeric values); no imputation done"})
        return
    mem_loaded = proc_memory()
    params = dict(criterion=args.criterion, max_depth=None, min_samples_split=2, min_samples_leaf=1, random_state=0)
    times = []
    clf = None
    t0 = time.perf_counter()
    for r in range(args.repeats):
        if r > 0 and (time.perf_counter() - t0) + times[-1] / 1000.0 > args.budget_seconds:
            break
        clf = None
        gc.collect()
        t = time.perf_counter()
        clf = DecisionTreeClassifier(**params).fit(X, y)
        ms = (time.perf_counter() - t) * 1000.0
        times.append(ms)
        emit({"event": "fit", "repeat": r, "ms": ms, "nodes": int(clf.tree_.node_count)})
    mem_fit = proc_memory()
    train_acc = float((clf.predict(X) == y).mean())
    Xt, yt, _ = load(args.dir, header, "test")
    test_acc = float((clf.predict(Xt) == yt).mean())
    predicted = 0
    passes = 0
    t = time.perf_counter()
    while True:
        clf.predict(Xt)
        predicted += Xt.shape[0]
        passes += 1
        elapsed = time.perf_counter() - t
        if elapsed >= args.predict_seconds:
            break
    mem_end = proc_memory()
    emit({
        "event": "result",
        "status": "ok",
        "system": "sklearn",
        "mode": "exact",
        "criterion": args.criterion,
        "options": "DecisionTreeClassifier(%s)" % ", ".join(f"{k}={v!r}" for k, v in params.items()),
        "rows": int(X.shape[0]),
        "testRows": int(Xt.shape[0]),
        "features": int(X.shape[1]),
        "classes": len(header["classes"]),
        "loadMs": load_ms,
        "timesMs": times,
        "bestMs": min(times),
        "medianMs": statistics.median(times),
        "nodes": int(clf.tree_.node_count),
        "leaves": int(clf.get_n_leaves()),
        "height": int(clf.get_depth()),
        "trainAccuracy": train_acc,
        "testAccuracy": test_acc,
        "predictRowsPerSec": predicted / elapsed,
        "predictPasses": passes,
        "mem": {"rssStart": mem_start["rss"], "rssLoaded": mem_loaded["rss"], "hwmAfterFit": mem_fit["hwm"], "hwmEnd": mem_end["hwm"]},
        "sklearn": sklearn.__version__,
        "numpy": np.__version__,
        "python": sys.version.split()[0],
    })


if __name__ == "__main__":
    main()
