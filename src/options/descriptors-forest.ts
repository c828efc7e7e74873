import type { OptionDescriptor } from './descriptor.js';

/** The option table's forest entries (src/ensemble/): not tree options; fitForest reads them, fit refuses them. */
export const FOREST_DESCRIPTORS = [
  {
    name: 'forest',
    type: 'choice',
    choices: ['random-forest', 'extra-trees', 'bagging', 'random-subspace'],
    default: 'random-forest',
    help:
      'grow a forest: random-forest (bootstrap, sqrt features per node), extra-trees (random thresholds, no ' +
      'bootstrap), bagging (bootstrap, every feature), random-subspace (a feature subset per tree, all rows)',
    flag: 'forest',
    group: 'forest',
  },
  {
    name: 'trees',
    type: 'integer',
    min: 1,
    default: 100,
    help: 'trees in the forest',
    flag: 'trees',
    group: 'forest',
  },
  {
    name: 'maxSamples',
    type: 'number',
    above: 0,
    default: undefined,
    help: 'rows each bootstrap draws: a fraction in (0, 1] of the rows, or a count > 1; unset: as many as the rows',
    flag: 'max-samples',
    group: 'forest',
  },
  {
    name: 'bootstrap',
    type: 'boolean',
    default: true,
    help: "draw each tree's rows with replacement (default on for random-forest and bagging, off otherwise)",
    flag: 'bootstrap',
    group: 'forest',
  },
  {
    name: 'oobScore',
    type: 'boolean',
    default: false,
    help: 'out-of-bag accuracy: each row predicted by the trees whose bootstrap left it out (needs bootstrap)',
    flag: 'oob',
    group: 'forest',
  },
  {
    name: 'vote',
    type: 'choice',
    choices: ['proba', 'majority'],
    default: 'proba',
    help: "how trees combine: proba (mean of their class probabilities, scikit-learn's) or majority (one vote each)",
    flag: 'vote',
    group: 'forest',
  },
] as const satisfies readonly OptionDescriptor[];
