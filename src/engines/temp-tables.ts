/** The lifetime of the in-database grower's temporary tables: made and dropped in one place. */
import { GroveError } from '../core/errors.js';
import type { Engine, SqlValue, TempTable } from './engine.js';

/**
 * The temporary tables one growth makes. Each table is dropped once, by its own `drop` or by
 * {@link TempTables.dropAll}, which a failed or interrupted growth calls so that no table
 * outlives it (a long session would otherwise keep every level's rows).
 */
export class TempTables {
  private readonly live = new Set<TempTable>();

  constructor(private readonly engine: Engine) {}

  /** The tables made and not yet dropped. */
  get size(): number {
    return this.live.size;
  }

  /**
   * A table of the rows of `select`; null when the engine keeps rows of `source` (the user's
   * FROM item) where they are, or refuses the table (no DDL rights).
   */
  async tryMake(select: string, params: readonly SqlValue[], source?: string): Promise<TempTable | null> {
    const made = await this.engine.tempTable(select, params, source);
    if (!made) return null;
    const table: TempTable = { name: made.name, drop: () => this.drop(table, made) };
    this.live.add(table);
    return table;
  }

  /** A table of the rows of grove's own tables, which every engine that made those makes: `what` names it. */
  async make(select: string, params: readonly SqlValue[], what: string): Promise<TempTable> {
    const table = await this.tryMake(select, params);
    if (!table) throw new GroveError(`${this.engine.dialect.name} made no temporary table ${what}`, { code: 'E_IO' });
    return table;
  }

  /** Drop every table still there; after a failure, its own error is the one reported (see the caller). */
  async dropAll(): Promise<void> {
    let first: unknown = null;
    for (const table of Array.from(this.live)) {
      try {
        await table.drop();
      } catch (e) {
        first ??= e;
      }
    }
    if (first !== null) throw first;
  }

  private async drop(table: TempTable, made: TempTable): Promise<void> {
    if (!this.live.delete(table)) return;
    await made.drop();
  }
}
