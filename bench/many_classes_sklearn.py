# scikit-learn's side of bench/many-classes.mjs: the same data (same generator), unpruned
# DecisionTreeClassifier; prints the fit's CPU seconds and node count as JSON.
#   /usr/bin/python3 bench/many_classes_sklearn.py CLASSES
import json
import sys
import time

import numpy as np
from sklearn.tree import DecisionTreeClassifier

k = int(sys.argv[1])
d = 10
seed = 9
cols = []
for f in range(d):
    col = []
    for i in range(k):
        seed = (seed * 1103515245 + 12345) % 2**32
        col.append(seed / 2**32)
    cols.append(col)
X = np.array(cols, dtype=np.float64).T
y = np.arange(k)
t0 = time.process_time()
tree = DecisionTreeClassifier(random_state=0).fit(X, y)
cpu = time.process_time() - t0
print(json.dumps({"cpu": cpu, "nodes": int(tree.tree_.node_count)}))
