import type { OptionDescriptor } from './descriptor.js';

/**
 * The option table's optimal-tree entries (src/optimal/): written under `options.optimal` in an
 * optimal tree's model file.
 */
export const OPTIMAL_DESCRIPTORS = [
  {
    name: 'optimal',
    type: 'boolean',
    default: false,
    help:
      'the depth-bounded tree with the fewest (weighted) training errors, found by dynamic programming with ' +
      'bounds over binary tests (docs/optimal.md), instead of greedy growth; needs maxDepth 1..10',
    flag: 'optimal',
    group: 'optimal',
  },
  {
    name: 'maxLeaves',
    type: 'integer',
    min: 2,
    default: undefined,
    help: 'optimal trees: at most this many leaves (greedy growth: maxLeafNodes)',
    flag: 'max-leaves',
    group: 'optimal',
    saved: { under: 'optimal' },
  },
  {
    name: 'objective',
    type: 'choice',
    choices: ['misclassification', 'sparse'],
    default: 'misclassification',
    help:
      'optimal trees: misclassification (fewest training errors, ties to fewer leaves) or sparse ' +
      '(training error rate + alpha × leaves, as OSDT/GOSDT/MurTree)',
    flag: 'objective',
    group: 'optimal',
    saved: { under: 'optimal' },
  },
  {
    name: 'alpha',
    type: 'number',
    atLeast: 0,
    default: 0.01,
    help: 'optimal trees, sparse objective: what one more leaf costs, in training error rate',
    flag: 'alpha',
    group: 'optimal',
    saved: { under: 'optimal' },
  },
  {
    name: 'timeLimit',
    type: 'number',
    above: 0,
    default: undefined,
    help: 'optimal trees: seconds to search; then the best tree found, marked not proven optimal, with a lower bound',
    flag: 'time-limit',
    group: 'optimal',
    saved: { under: 'optimal' },
  },
  {
    name: 'memoryLimit',
    type: 'integer',
    // Node itself takes about 64 MB resident (NODE_MB in src/optimal/memory.ts); the rest is the search's.
    min: 128,
    default: 1024,
    help:
      'optimal trees: megabytes of resident memory for the whole process, every search thread included (at ' +
      'least 128: Node itself takes about 64); a search that reaches it stops with the best tree found',
    flag: 'memory-limit',
    group: 'optimal',
  },
] as const satisfies readonly OptionDescriptor[];
