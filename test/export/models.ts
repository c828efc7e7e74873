/** Hand-made models for the export tests: exact leaves, splits and missing branches. */

import type { FeatureSchema } from '../../src/model/schema.js';
import { DecisionTree, fit, readDataset, type TreeNode } from '../../src/node.js';
import { fixture } from '../helpers/paths.js';

const options = fit(await readDataset(fixture('play-tennis.csv')), { algorithm: 'id3' }).toJSON().options;

/** A model file's tree from its parts (options: a valid id3 model's). */
export function handModel(features: FeatureSchema[], classes: (string | number)[], nodes: TreeNode[]): DecisionTree {
  return DecisionTree.fromJSON({ format: 'grove-tree', version: 1, target: 'y', features, classes, options, nodes });
}

/** A leaf with these class counts. */
export const leaf = (counts: number[], depth = 1): TreeNode => ({
  counts,
  n: counts.reduce((a, b) => a + b, 0),
  depth,
});
