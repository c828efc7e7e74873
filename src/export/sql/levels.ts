import { GroveError } from '../../core/errors.js';
import { categoryBranches, NO_BRANCH, numericBranch } from '../../model/route.js';
import type { Split } from '../../model/split.js';
import type { PortableTree } from '../portable.js';

/**
 * The tree as lookup tables, one level at a time, for the SQL walk (docs/export.md, "Shape"): a
 * row's state is its node's index within its level (1-based), or `-leaf` once it has reached a
 * leaf (leaves numbered from 1). One step maps the state at level d to the state at level d + 1
 * through the level's arrays, so the query's size is linear in the nodes and its work per row is
 * one step per level, whatever the tree's size.
 *
 * Every test is binary or a lookup: a numeric split with thresholds t0 < … < tk becomes a chain of
 * binary nodes (`x ≤ t0` → branch 0, else `x ≤ t1` → branch 1, …), each sending a missing value
 * where grove's missing branch lies. A categorical or ordered split becomes a lookup by the row's
 * value code (1-based; 0 for NULL or a value the model does not know).
 */
export interface Level {
  /** The features tested at this level (model feature indexes), each once. */
  features: number[];
  /** Per node: 1-based index into `features`. */
  feature: number[];
  /** Per node: the threshold of a numeric node (0 for a lookup node). */
  threshold: number[];
  /** Per node: a numeric node's missing branch (0 = the `≤` side, 1 = the other; 0 for a lookup node). */
  missing: number[];
  /** Per node: 1-based position in `next` of its entry for branch (or value code) 0. */
  first: number[];
  /** The next state: a numeric node's two entries, or a lookup node's entry per value code. */
  next: number[];
}

/** What the SQL walk needs: its levels, and the leaves' model node ids by leaf number. */
export interface LevelTables {
  levels: Level[];
  /** leafNode[l - 1]: the model node of leaf l; leaves of C-MBSV unclassified regions come last. */
  leafNode: number[];
  /** The number of leaves that are not unclassified regions. */
  classifiedLeaves: number;
  /** The walk's first state: 1 (the root, at level 0), or the root's leaf number negated when it is a leaf. */
  rootState: number;
}

/** Whether feature f is walked by value code (categorical or ordered) rather than by threshold. */
export function isCoded(p: PortableTree, f: number): boolean {
  const feature = p.tree.features[f];
  return feature.kind === 'categorical' || feature.levels !== undefined;
}

/** The value codes' names of a coded feature: code c + 1 is `codeNames(p, f)[c]`. */
export function codeNames(p: PortableTree, f: number): string[] {
  const feature = p.tree.features[f];
  return feature.levels ?? feature.categories ?? [];
}

/** A step of the walk before numbering: a binary numeric test or a lookup by value code. */
interface WalkNode {
  feature: number;
  threshold: number;
  missing: number;
  depth: number;
  /** Per branch (numeric: 2) or value code (lookup: codes + 1): a model leaf id, or a walk node as ~index. */
  targets: number[];
}

/** Leaf numbers: classified leaves first, so a state below -classifiedLeaves is unclassified. */
function numberLeaves(p: PortableTree): { leafNumber: Int32Array; leafNode: number[]; classifiedLeaves: number } {
  const nodes = p.tree.nodes;
  const leafNumber = new Int32Array(nodes.length);
  const leafNode: number[] = [];
  for (const unclassified of [false, true]) {
    for (let i = 0; i < nodes.length; i++) {
      if (nodes[i].children || (nodes[i].unclassified === true) !== unclassified) continue;
      leafNode.push(i);
      leafNumber[i] = leafNode.length;
    }
  }
  const classifiedLeaves = leafNode.reduce((a, i) => a + (nodes[i].unclassified ? 0 : 1), 0);
  return { leafNumber, leafNode, classifiedLeaves };
}

/** A numeric split on an uncoded feature walks its thresholds as a chain of binary steps. */
export function chained(p: PortableTree, split: Split): boolean {
  return split.kind === 'numeric' && !isCoded(p, split.feature);
}

/**
 * Each split node's walk nodes (a numeric split: one per threshold, a chain) with their depths,
 * targets not yet set; `made[i]`: model node i's walk nodes.
 */
function walkNodes(p: PortableTree): { walk: WalkNode[]; made: number[][] } {
  const nodes = p.tree.nodes;
  const walk: WalkNode[] = [];
  const made: number[][] = new Array(nodes.length);
  const depthOf = new Int32Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const { split, children } = nodes[i];
    if (!split || !children) continue;
    const ids: number[] = [];
    const thresholds = chained(p, split) && split.kind === 'numeric' ? split.thresholds : [0];
    const steps = thresholds.length;
    for (let j = 0; j < steps; j++) {
      ids.push(walk.length);
      walk.push({
        feature: split.feature,
        threshold: thresholds[j],
        missing: chained(p, split) ? (j === p.missingBranch[i] ? 0 : 1) : 0,
        depth: depthOf[i] + j,
        targets: [],
      });
    }
    made[i] = ids;
    // Branch b of a chain leaves from its step min(b, steps - 1); a lookup's from its only step.
    for (let b = 0; b < children.length; b++) depthOf[children[b]] = depthOf[i] + Math.min(b, steps - 1) + 1;
  }
  return { walk, made };
}

/** Set every walk node's targets (a model leaf as its id, a walk node w as ~w). */
function linkTargets(p: PortableTree, walk: WalkNode[], made: number[][]): void {
  const nodes = p.tree.nodes;
  const to = (c: number): number => (nodes[c].children ? ~made[c][0] : c);
  for (let i = 0; i < nodes.length; i++) {
    const { split, children } = nodes[i];
    if (!split || !children) continue;
    const ids = made[i];
    if (chained(p, split)) {
      ids.forEach((w, j) => {
        walk[w].targets = [to(children[j]), j + 1 < ids.length ? ~ids[j + 1] : to(children[j + 1])];
      });
      continue;
    }
    walk[ids[0]].targets = codeChildren(p, i).map(to);
  }
}

/**
 * The child of split node i (on a coded feature) that each value code leads to: entry 0 for code
 * 0 (NULL or unknown), entry c for code c; a code the split has no branch for takes the missing branch.
 */
export function codeChildren(p: PortableTree, i: number): number[] {
  const { split, children } = p.tree.nodes[i];
  if (!split || !children) throw new GroveError(`codeChildren: node ${i} is a leaf`, { code: 'E_MODEL' });
  const m = p.missingBranch[i];
  const names = codeNames(p, split.feature);
  const branchOf =
    split.kind === 'numeric'
      ? (code: number): number => numericBranch(split.thresholds, code + 1) // ordered: rank = code + 1
      : (() => {
          const table = categoryBranches(split, names.length);
          return (code: number): number => table[code];
        })();
  const targets = [children[m]];
  for (let code = 0; code < names.length; code++) {
    const b = branchOf(code);
    targets.push(children[b === NO_BRANCH ? m : b]);
  }
  return targets;
}

/** Number the walk nodes within their levels, then write each level's arrays. */
function writeLevels(walk: WalkNode[], leafNumber: Int32Array): Level[] {
  const local = new Int32Array(walk.length);
  const byDepth: number[][] = [];
  walk.forEach((w, id) => {
    (byDepth[w.depth] ??= []).push(id);
    local[id] = byDepth[w.depth].length;
  });
  return byDepth.map((ids, depth): Level => {
    const level: Level = { features: [], feature: [], threshold: [], missing: [], first: [], next: [] };
    const featureAt = new Map<number, number>();
    for (const id of ids) {
      const w = walk[id];
      if (!featureAt.has(w.feature)) {
        level.features.push(w.feature);
        featureAt.set(w.feature, level.features.length);
      }
      level.feature.push(featureAt.get(w.feature)!);
      level.threshold.push(w.threshold);
      level.missing.push(w.missing);
      level.first.push(level.next.length + 1);
      for (const t of w.targets) {
        if (t >= 0) level.next.push(-leafNumber[t]);
        else if (walk[~t].depth !== depth + 1)
          throw new GroveError('treeToSql: the model has a child deeper than one level below its parent', {
            code: 'E_MODEL',
          });
        else level.next.push(local[~t]);
      }
    }
    return level;
  });
}

/** Build the level tables, iteratively (a model node's children have higher ids than the node). */
export function levelTables(p: PortableTree): LevelTables {
  const { leafNumber, leafNode, classifiedLeaves } = numberLeaves(p);
  if (!p.tree.nodes[0].children) return { levels: [], leafNode, classifiedLeaves, rootState: -leafNumber[0] };
  const { walk, made } = walkNodes(p);
  linkTargets(p, walk, made);
  return { levels: writeLevels(walk, leafNumber), leafNode, classifiedLeaves, rootState: 1 };
}
