import type { TreeNode } from './node.js';

/**
 * Put a subtree grown on its own (ids local, its root 0) in place of node `id` of `nodes`: its
 * root takes `id`, the rest are appended.
 */
export function placeSubtree(nodes: TreeNode[], id: number, sub: TreeNode[]): void {
  const base = nodes.length;
  const map = (j: number): number => (j === 0 ? id : base + j - 1);
  for (let j = 1; j < sub.length; j++) {
    const node = sub[j];
    if (node.children) node.children = node.children.map(map);
    nodes.push(node);
  }
  const root = sub[0];
  if (root.children) root.children = root.children.map(map);
  nodes[id] = root;
}

/**
 * Renumber nodes as the single-thread grower numbers them: the root is 0 and a node's children get
 * the next free ids when it is split, nodes being split depth-first, left to right. Trees grown in
 * pieces (worker threads) then equal, id for id, the one-thread tree.
 */
export function renumberDepthFirst(nodes: TreeNode[]): TreeNode[] {
  const out: TreeNode[] = [nodes[0]];
  const stack = [nodes[0]];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!node.children) continue;
    const kids = node.children.map((c) => nodes[c]);
    node.children = kids.map((kid) => {
      out.push(kid);
      return out.length - 1;
    });
    for (let b = kids.length - 1; b >= 0; b--) stack.push(kids[b]);
  }
  return out;
}
