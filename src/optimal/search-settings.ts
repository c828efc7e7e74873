/** The optimal search's settings and the progress it reports. */

/** What the search reports while it runs, and at the end. */
export interface SearchProgress {
  /** Sub-problems opened (cache misses), depth-2 ones included. */
  readonly subproblems: number;
  /** Depth-2 sub-problems solved by the specialised solver. */
  readonly depth2: number;
  readonly cacheHits: number;
  readonly cacheEntries: number;
  /** The process's resident memory now (bytes; undefined where it cannot be read). */
  readonly resident?: number;
  /** Objective value of the best tree found so far at the root (Infinity before the first). */
  readonly bound: number;
  readonly seconds: number;
}

export interface SearchSettings {
  readonly maxDepth: number;
  /** Leaf budget (Infinity: 2^maxDepth). */
  readonly maxLeaves: number;
  /** Objective value of each leaf (sparse objective's α plus the tie-break toward fewer leaves). */
  readonly penalty: number;
  /** Date.now() after which the search stops (undefined: no limit). */
  readonly deadline?: number;
  /** The process's resident bytes past which the search stops (`memoryLimit`; undefined: none). */
  readonly memoryBytes?: number;
  /** Most cache slots (this thread's share of the memory bound). */
  readonly maxSlots: number;
  /** Whether depth-2 solves keep pair tables (they fit the memory bound; see Depth2Solver). */
  readonly pairs?: boolean;
  /** Similarity lower bounds between sub-problems of nearby row sets (default true; see SimilarityArchive). */
  readonly similarity?: boolean;
  /** A search that finds nothing below its bound caches its tests' least children's bounds (default true). */
  readonly testBounds?: boolean;
  readonly onProgress?: (p: SearchProgress) => void;
}
