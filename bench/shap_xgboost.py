#!/usr/bin/python3
"""XGBoost side of bench/shap.mjs and bench/shap-forest.mjs: pred_contribs (exact path-dependent
TreeSHAP) on one tree, or (--forest TREES) on a random forest.

    /usr/bin/python3 bench/shap_xgboost.py --dir /tmp/grove-bench/<key> --depth 40 --rows 2000 \
        [--threads 1] [--seconds 3]
    /usr/bin/python3 bench/shap_xgboost.py --dir /tmp/grove-bench/<key> --depth 8 --forest 100 \
        --part train [--threads 2]

--forest: a random forest of the same shape as grove's (num_parallel_tree TREES in one round,
multi:softprob: one tree per class and forest tree, bootstrap-sized subsample 0.632, sqrt(features)
features per split, learning rate 1), then ONE timed pred_contribs over every row of --part.

Reads the binary cache of bench/synthetic.mjs (as bench/child_sklearn.py does), fits ONE
XGBoost tree (cached beside the data) (exact method, max_depth = grove's height, learning rate 1, no regularisation, no
minimum child weight: grown until pure or the depth bound, as grove's unpruned CART), then times
Booster.predict(DMatrix(first ROWS test rows), pred_contribs=True) repeated for >= SECONDS.
Checks local accuracy (contributions sum to the margin). Prints one JSON line.
"""

import argparse
import json
import os
import time

import numpy as np
import xgboost as xgb


def load(d, header, part):
    rows = header["nTrain"] if part == "train" else header["nTest"]
    cols = len(header["features"])
    X = np.fromfile(os.path.join(d, f"{part}.X.f64"), dtype="<f8").reshape(cols, rows).T
    y = np.fromfile(os.path.join(d, f"{part}.y.i32"), dtype="<i4")
    return np.ascontiguousarray(X), y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--depth", type=int, required=True)
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--forest", type=int, default=0)
    ap.add_argument("--part", default="test")
    args = ap.parse_args()
    if args.forest:
        return forest(args)
    with open(os.path.join(args.dir, "header.json")) as f:
        header = json.load(f)
    X, y = load(args.dir, header, "train")
    Xt, _ = load(args.dir, header, "test")
    Xt = Xt[: args.rows]
    params = {
        "objective": "binary:logistic", "tree_method": "exact", "max_depth": args.depth, "eta": 1.0,
        "lambda": 0.0, "min_child_weight": 0.0, "gamma": 0.0, "base_score": 0.5, "nthread": args.threads,
    }
    # The tree is fitted once and cached beside the data (fitting takes about a minute).
    cached = os.path.join(args.dir, f"xgb-depth{args.depth}.json")
    t = time.perf_counter()
    if os.path.exists(cached):
        booster = xgb.Booster(params={"nthread": args.threads}, model_file=cached)
    else:
        booster = xgb.train(params, xgb.DMatrix(X, label=y, nthread=args.threads), num_boost_round=1)
        booster.save_model(cached)
    fit_s = time.perf_counter() - t
    dump = booster.get_dump()[0]
    leaves = dump.count("leaf=")
    nodes = dump.count("\n")
    dm = xgb.DMatrix(Xt, nthread=args.threads)
    contribs = booster.predict(dm, pred_contribs=True)  # warm-up
    margin = booster.predict(dm, output_margin=True)
    gap = float(np.max(np.abs(contribs.sum(axis=1) - margin)))
    rows = 0
    t = time.perf_counter()
    while time.perf_counter() - t < args.seconds:
        booster.predict(dm, pred_contribs=True)
        rows += len(Xt)
    secs = time.perf_counter() - t
    print(json.dumps({
        "system": f"xgboost {xgb.__version__}", "threads": args.threads, "nodes": nodes, "leaves": leaves,
        "fitOrLoadSeconds": round(fit_s, 2), "rows": len(Xt), "rowsPerSecond": round(rows / secs, 2),
        "localAccuracyGap": gap,
    }))


def forest(args):
    with open(os.path.join(args.dir, "header.json")) as f:
        header = json.load(f)
    X, y = load(args.dir, header, "train")
    Xe, _ = load(args.dir, header, args.part)
    k = int(y.max()) + 1
    params = {
        "objective": "multi:softprob", "num_class": k, "tree_method": "exact", "max_depth": args.depth, "eta": 1.0,
        "num_parallel_tree": args.forest, "subsample": 0.632, "colsample_bynode": np.sqrt(X.shape[1]) / X.shape[1],
        "lambda": 0.0, "min_child_weight": 0.0, "gamma": 0.0, "nthread": args.threads, "seed": 1,
    }
    cached = os.path.join(args.dir, f"xgb-forest{args.forest}-depth{args.depth}.json")
    if os.path.exists(cached):
        booster = xgb.Booster(params={"nthread": args.threads}, model_file=cached)
    else:
        booster = xgb.train(params, xgb.DMatrix(X, label=y, nthread=args.threads), num_boost_round=1)
        booster.save_model(cached)
    dump = booster.get_dump()
    dm = xgb.DMatrix(Xe, nthread=args.threads)
    cpu = time.process_time()
    t = time.perf_counter()
    contribs = booster.predict(dm, pred_contribs=True)
    secs = time.perf_counter() - t
    cpu = time.process_time() - cpu
    margin = booster.predict(dm, output_margin=True)
    gap = float(np.max(np.abs(contribs.sum(axis=-1) - margin)))
    print(json.dumps({
        "system": f"xgboost {xgb.__version__}", "threads": args.threads, "trees": len(dump), "classes": k,
        "leaves": sum(d.count("leaf=") for d in dump), "rows": len(Xe), "seconds": round(secs, 2),
        "cpuSeconds": round(cpu, 2), "localAccuracyGap": gap,
    }))


if __name__ == "__main__":
    main()
