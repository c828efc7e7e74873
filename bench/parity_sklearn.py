# scikit-learn's side of bench/parity-sklearn.mjs: reads a JSON job on stdin
# ({"csv": path, "cases": [{"max_leaf_nodes": m, "criterion": c}, ...]}: DecisionTreeClassifier's
# parameters) and prints, per case, the
# leaf count and training accuracy of DecisionTreeClassifier(random_state=0) on every row.
import json
import sys

import pandas as pd
from sklearn.tree import DecisionTreeClassifier

job = json.load(sys.stdin)
frame = pd.read_csv(job["csv"])
X = frame.drop(columns=["class"]).to_numpy(dtype=float)
y = frame["class"].astype(str).to_numpy()
out = []
for case in job["cases"]:
    tree = DecisionTreeClassifier(random_state=0, **case).fit(X, y)
    out.append({"leaves": int(tree.get_n_leaves()), "accuracy": float(tree.score(X, y)), "depth": int(tree.get_depth())})
print(json.dumps(out))
