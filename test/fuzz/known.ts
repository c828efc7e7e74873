/**
 * Known failures of the fuzz suite on this branch, each keyed by the issue 18 item whose fix makes it
 * pass. Every entry is run as an `it.fails` test: when a fix lands the test turns red and names the
 * entry to delete. The lists hold what the fuzz found with the fixed seed when it was written.
 */

/**
 * API targets (exported functions, `DecisionTree` methods) from which something other than a
 * GroveError escapes on junk arguments: what escaped, for the first counterexample found. Empty
 * since every exported function checks its arguments, and api.test.ts holds it empty: a new
 * failure is fixed, not listed.
 */
export const KNOWN_API: ReadonlyMap<string, string> = new Map<string, string>([]);

/** A known CLI failure: which generated command lines run into it, and one that does. */
export interface KnownCli {
  matches(argv: string[]): boolean;
  example: string[];
}

/** Known CLI failures by issue item (cases matching them are left out of the fuzz property). */
export const KNOWN_CLI: ReadonlyMap<string, KnownCli> = new Map<string, KnownCli>([]);
