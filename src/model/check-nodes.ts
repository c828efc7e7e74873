import { badArgument, checkArrayLike, checkNumbers, checkObject } from '../core/args.js';
import type { TreeNode } from './node.js';

/**
 * Throw GroveError (E_INPUT) unless `nodes` is a tree as the pruners and exporters read one: a
 * non-empty array of node objects, each with `counts` (numbers, as many as the root's) and `n`, and
 * either no `children` or an array of node indexes after its own with a `split`. One pass over the
 * nodes and their counts. (`validateModel` checks a model file's nodes in full.)
 */
export function checkNodes(caller: string, nodes: unknown): asserts nodes is TreeNode[] {
  checkArrayLike(caller, 'nodes', nodes);
  if (!Array.isArray(nodes) || nodes.length === 0)
    badArgument(caller, 'nodes', 'a non-empty array of tree nodes', nodes);
  let classes = -1;
  for (let i = 0; i < nodes.length; i++) {
    const node: unknown = nodes[i];
    checkObject(caller, `nodes[${i}]`, node);
    const { counts, n, children, split } = node as Partial<TreeNode>;
    checkNumbers(caller, `nodes[${i}].counts`, counts);
    if (classes < 0) classes = counts.length;
    if (counts.length !== classes)
      badArgument(caller, `nodes[${i}].counts`, `${classes} counts, as the root has`, counts.length);
    if (typeof n !== 'number') badArgument(caller, `nodes[${i}].n`, 'a number', n);
    if (children === undefined) continue;
    checkArrayLike(caller, `nodes[${i}].children`, children);
    checkObject(caller, `nodes[${i}].split`, split);
    for (let b = 0; b < children.length; b++) {
      const c = children[b];
      if (!Number.isInteger(c) || c <= i || c >= nodes.length)
        badArgument(caller, `nodes[${i}].children[${b}]`, `a node index in ${i + 1}…${nodes.length - 1}`, c);
    }
  }
}
