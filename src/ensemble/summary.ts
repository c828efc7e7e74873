import type { Forest } from './forest.js';

/** Numbers as `grove show` prints them: at most 4 significant digits. */
const fmt = (x: number): string => String(Number(x.toPrecision(4)));

/** A user's name with control characters escaped (they would rewrite the terminal). */
const shown = (name: string): string =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped
  name.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/**
 * A forest in a few lines (`grove show` of a forest): its kind and trees' settings, the trees'
 * size (mean and largest depth and leaves), the out-of-bag score, and the `top` most important
 * features (mean decrease in impurity).
 */
export function forestSummary(forest: Forest, top = 10): string {
  const s = forest.stats();
  const { settings: f, options: o } = forest;
  const rows = f.bootstrap ? `bootstrap${f.maxSamples !== null ? ` of ${f.maxSamples}` : ''}` : 'every row';
  const lines = [
    `${f.kind} of ${s.trees} ${o.algorithm} trees (${o.criterion}), ${rows}, vote ${f.vote}, seed ${f.seed}`,
    `target ${shown(forest.target)}: ${forest.classes.length} classes; ${forest.features.length} features`,
    `depth: mean ${fmt(s.depth.mean)}, largest ${s.depth.max}; leaves: mean ${fmt(s.leaves.mean)}, ` +
      `largest ${s.leaves.max}; ${s.nodes} nodes in all`,
  ];
  if (forest.oob) lines.push(`out-of-bag accuracy: ${fmt(forest.oob.score)} (${forest.oob.rows} rows)`);
  lines.push(`importances (mean decrease in impurity), top ${Math.min(top, s.importances.length)}:`);
  for (const [name, value] of s.importances.slice(0, top)) lines.push(`  ${fmt(value).padEnd(8)} ${shown(name)}`);
  return `${lines.join('\n')}\n`;
}
