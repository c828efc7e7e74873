"""scikit-learn side of bench/forest-fit.mjs: read a CSV with pandas, fit a random forest.

    /usr/bin/python3 bench/forest_fit.py FILE.csv [--trees 100] [--jobs 2] [--repeats 1] [--seed 0]

RandomForestClassifier(n_estimators=trees, n_jobs=jobs, random_state=seed) with its defaults (gini,
sqrt features, bootstrap, grown until pure); the last column is the class. Prints one JSON line:
the read's seconds, each fit's wall and CPU seconds (every thread's; `repeats` fits in this
process), the first forest's nodes.
"""
import argparse
import json
import time

import pandas as pd
from sklearn.ensemble import RandomForestClassifier


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--trees", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    t0 = time.perf_counter()
    df = pd.read_csv(a.csv)
    y = df.pop(df.columns[-1])
    read = time.perf_counter() - t0
    fits = []
    cpus = []
    nodes = 0
    for r in range(a.repeats):
        m = RandomForestClassifier(n_estimators=a.trees, n_jobs=a.jobs, random_state=a.seed + r)
        t0 = time.perf_counter()
        c0 = time.process_time()
        m.fit(df, y)
        fits.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        if r == 0:
            nodes = int(sum(e.tree_.node_count for e in m.estimators_))
    print(json.dumps({"readSeconds": read, "fitSeconds": fits, "fitCpuSeconds": cpus, "nodes": nodes}))


if __name__ == "__main__":
    main()
