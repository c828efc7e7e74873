/**
 * A pruning method added through the public extension point: `registerPruner` from the library's
 * entry, used by `fit` through the `prune` option and named in the model file.
 */
import { describe, expect, it } from 'vitest';
import {
  DecisionTree,
  fit,
  GroveError,
  listPruners,
  type Pruner,
  registerPruner,
  resolveOptions,
  type TreeNode,
} from '../../src/index.js';
import { readDataset } from '../../src/sources/file-source.js';
import { repoRoot } from '../helpers/cli.js';

const iris = await readDataset(`${repoRoot}/data/iris.csv`);

/** The toy method: cut the tree back to its root. */
const toRoot: Pruner = {
  name: 'test-to-root',
  description: 'prune every split away',
  reads: [],
  prune: ({ nodes }) => ({ nodes: [{ counts: nodes[0].counts.slice(), n: nodes[0].n, depth: 0 }] }),
};

/** A toy with a hold-out: keeps the tree grown on the first half of the rows, records the other half. */
const seenRows: number[] = [];
const halves: Pruner = {
  name: 'test-halves',
  description: 'grow on the even rows; keep the tree',
  reads: ['seed'],
  holdOut: (data) => {
    const rows = Array.from({ length: data.nRows }, (_, i) => i);
    return { train: rows.filter((r) => r % 2 === 0), validation: rows.filter((r) => r % 2 === 1) };
  },
  prune: ({ nodes, validationRows }) => {
    seenRows.push(validationRows!.length);
    return { nodes: nodes as TreeNode[], details: { validationRows: validationRows!.length } };
  },
};

describe('registerPruner', () => {
  registerPruner(toRoot);
  registerPruner(halves);

  it('adds a method that fit uses and the model file names', () => {
    const tree = fit(iris, { algorithm: 'cart', prune: 'test-to-root' });
    expect(tree.nodes).toHaveLength(1);
    expect(tree.pruning).toMatchObject({ method: 'test-to-root', leavesAfter: 1 });
    expect(tree.pruning!.leavesBefore).toBeGreaterThan(1);
    const file = JSON.parse(JSON.stringify(tree.toJSON()));
    expect(file.options.prune).toBe('test-to-root');
    expect(file.pruning.method).toBe('test-to-root');
    const copy = DecisionTree.fromJSON(file);
    expect(copy.pruning?.method).toBe('test-to-root');
    expect(copy.predict(iris)).toEqual(tree.predict(iris));
  });

  it('holds rows out for a method that asks for it', () => {
    const tree = fit(iris, { prune: 'test-halves' });
    expect(seenRows.at(-1)).toBe(75);
    expect(tree.pruning).toMatchObject({ method: 'test-halves', validationRows: 75 });
    expect(tree.nodes[0].n).toBe(75);
  });

  it('lists it with the built-in methods, and validation accepts its name', () => {
    expect(listPruners().map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'none',
        'pessimistic',
        'error-based',
        'reduced-error',
        'cost-complexity',
        'test-to-root',
      ]),
    );
    expect(resolveOptions({ prune: 'test-to-root' }).prune).toBe('test-to-root');
    expect(() => resolveOptions({ prune: 'test-nothing' })).toThrow(/^prune must be one of .*test-to-root/);
  });

  it('refuses a taken name, a missing function and an option that does not exist', () => {
    expect(() => registerPruner(toRoot)).toThrow(/already registered/);
    expect(() => registerPruner({ ...toRoot, prune: undefined as never })).toThrow(GroveError);
    expect(() => registerPruner({ ...toRoot, name: 'test-x', reads: ['depth' as never] })).toThrow(
      /reads 'depth', which is not a tree option/,
    );
    registerPruner({ ...toRoot, description: 'replaced' }, { replace: true });
    expect(listPruners().find((p) => p.name === 'test-to-root')?.description).toBe('replaced');
  });
});
