/**
 * The gap experiment: how far each greedy configuration's tree falls from the optimal tree of the
 * same depth (an `optimal` configuration in the same comparison), in training error on the same
 * folds, beside its test accuracy. Derived from a results file alone, so the terminal table, the
 * results files and the HTML report all read the same numbers.
 */
import { isForestOptions } from '../ensemble/settings.js';
import { type FitOptions, resolveOptions } from '../options/options.js';
import { reviveOptions } from './configs.js';
import { type Summary, summarize } from './cross-validate.js';
import { type CompareResults, type ConfigInfo, cellKey, type FoldRecord } from './results.js';
import { rankWithTies } from './stats/index.js';

/** Which optimal configuration a greedy configuration is measured against, or why none. */
export interface GapPairing {
  config: string;
  /** The optimal configuration of the same depth (absent: no gap, see `reason`). */
  optimal?: string;
  /** The depth limit both share. */
  depth?: number;
  /** Why there is no gap (no depth limit, a forest, no optimal configuration of that depth). */
  reason?: string;
}

/** One greedy configuration on one data set against its optimal configuration, over the folds both ran. */
export interface GapCell {
  dataset: string;
  config: string;
  optimal: string;
  depth: number;
  /** Folds (all repeats) on which both ran. */
  folds: number;
  /** Greedy training error minus the optimal tree's, per fold (a rate: 0.02 = 2 points). */
  gap: Summary;
  testAccuracy: Summary;
  optimalTestAccuracy: Summary;
  /** Folds of these on which the optimal search stopped early (the gap is then to the best tree it found). */
  unproven: number;
}

/**
 * On one data set, over the greedy configurations measured against one optimal configuration:
 * Spearman's rank correlation of their mean gap with their mean test accuracy (negative: closer to
 * optimal in training error, more accurate on test rows). NaN with fewer than 3 configurations or
 * when either side is constant.
 */
export interface GapCorrelation {
  dataset: string;
  optimal: string;
  depth: number;
  configs: number;
  rho: number;
}

export interface GapAnalysis {
  /** One per configuration that is not itself optimal, in the results' order. */
  pairings: GapPairing[];
  cells: GapCell[];
  correlations: GapCorrelation[];
}

/** True for a configuration that fits an optimal tree (`optimal: true` or the `optimal` preset). */
export function isOptimalConfig(options: Record<string, unknown>): boolean {
  return options.optimal === true || options.algorithm === 'optimal';
}

/** A configuration's depth limit and bins as fit resolves them; undefined when it has none or is not a tree. */
function treeLimits(options: Record<string, unknown>): { depth: number; bins?: number } | undefined {
  const given = reviveOptions(options) as FitOptions;
  if (isForestOptions(given)) return undefined;
  try {
    const resolved = resolveOptions(
      isOptimalConfig(options) ? { ...given, algorithm: 'optimal', optimal: true } : given,
    );
    const depth = resolved.maxDepth;
    return Number.isFinite(depth) ? { depth, bins: resolved.bins } : undefined;
  } catch {
    return undefined; // fit refused it at run time too: no folds to compare
  }
}

/** Pair each non-optimal configuration with the optimal one of its depth, preferring the same bins. */
export function gapPairings(configs: readonly ConfigInfo[]): GapPairing[] {
  const optimal = configs
    .filter((c) => isOptimalConfig(c.options))
    .map((c) => ({ label: c.label, limits: treeLimits(c.options) }));
  const pairings: GapPairing[] = [];
  for (const c of configs) {
    if (isOptimalConfig(c.options)) continue;
    if (isForestOptions(reviveOptions(c.options) as FitOptions)) {
      pairings.push({ config: c.label, reason: 'a forest, not one tree of a depth' });
      continue;
    }
    const limits = treeLimits(c.options);
    if (!limits) {
      pairings.push({ config: c.label, reason: 'no depth limit; set maxDepth to measure its gap' });
      continue;
    }
    const sameDepth = optimal.filter((o) => o.limits?.depth === limits.depth);
    const partner = sameDepth.find((o) => o.limits?.bins === limits.bins) ?? sameDepth[0];
    pairings.push(
      partner
        ? { config: c.label, optimal: partner.label, depth: limits.depth }
        : { config: c.label, depth: limits.depth, reason: `no optimal configuration of depth ${limits.depth}` },
    );
  }
  return pairings;
}

const foldKey = (dataset: string, config: string, repeat: number, fold: number) =>
  `${dataset}\u0000${config}\u0000${repeat}\u0000${fold}`;

/** Every gap of a comparison; empty cells and correlations when it has no optimal configuration. */
export function optimalGaps(results: CompareResults): GapAnalysis {
  const pairings = gapPairings(results.configs);
  const byKey = new Map<string, FoldRecord>();
  const byCell = new Map<string, FoldRecord[]>();
  for (const f of results.folds) {
    byKey.set(foldKey(f.dataset, f.config, f.repeat, f.fold), f);
    const cell = cellKey(f.dataset, f.config);
    const list = byCell.get(cell);
    if (list) list.push(f);
    else byCell.set(cell, [f]);
  }
  const cells: GapCell[] = [];
  for (const d of results.datasets) {
    for (const p of pairings) {
      if (!p.optimal) continue;
      const gaps: number[] = [];
      const acc: number[] = [];
      const optAcc: number[] = [];
      let unproven = 0;
      for (const f of byCell.get(cellKey(d.name, p.config)) ?? []) {
        const o = byKey.get(foldKey(d.name, p.optimal, f.repeat, f.fold));
        if (!o) continue;
        gaps.push(o.trainAccuracy - f.trainAccuracy);
        acc.push(f.testAccuracy);
        optAcc.push(o.testAccuracy);
        if (o.optimal && !o.optimal.proven) unproven++;
      }
      if (gaps.length === 0) continue;
      cells.push({
        dataset: d.name,
        config: p.config,
        optimal: p.optimal,
        depth: p.depth!,
        folds: gaps.length,
        gap: summarize(gaps),
        testAccuracy: summarize(acc),
        optimalTestAccuracy: summarize(optAcc),
        unproven,
      });
    }
  }
  return { pairings, cells, correlations: correlations(results, cells) };
}

function correlations(results: CompareResults, cells: readonly GapCell[]): GapCorrelation[] {
  const out: GapCorrelation[] = [];
  const optimalLabels = results.configs.filter((c) => isOptimalConfig(c.options)).map((c) => c.label);
  for (const d of results.datasets) {
    for (const o of optimalLabels) {
      const mine = cells.filter((c) => c.dataset === d.name && c.optimal === o);
      if (mine.length === 0) continue;
      out.push({
        dataset: d.name,
        optimal: o,
        depth: mine[0].depth,
        configs: mine.length,
        rho: spearman(
          mine.map((c) => c.gap.mean),
          mine.map((c) => c.testAccuracy.mean),
        ),
      });
    }
  }
  return out;
}

/** Spearman's ρ (Pearson's r of the tie-averaged ranks); NaN for fewer than 3 pairs or a constant side. */
export function spearman(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length || x.length < 3) return NaN;
  const rx = rankWithTies(x).ranks;
  const ry = rankWithTies(y).ranks;
  const n = rx.length;
  const mx = rx.reduce((s, v) => s + v, 0) / n;
  const my = ry.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) ** 2;
    syy += (ry[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : NaN;
}
