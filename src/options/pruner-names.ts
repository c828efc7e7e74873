/**
 * The names the `prune` option accepts. The pruner table (src/prune/registry.ts) sits above options
 * in the layers, since its entries hold tree functions, so it hands its names down here when it is
 * loaded. Every entry point loads it (the library's index, `fit`, the CLI); a process that never
 * does, such as a grow worker thread receiving options already checked, knows no names and checks
 * only that `prune` is a name.
 */

let names: (() => readonly string[]) | undefined;

/** Called by the pruner table: where the current list of pruning methods comes from. */
export function providePruneMethods(list: () => readonly string[]): void {
  names = list;
}

/** The registered pruning methods, or undefined when the pruner table is not loaded. */
export function knownPruneMethods(): readonly string[] | undefined {
  return names?.();
}
