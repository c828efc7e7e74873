import type { Engine, SqlValue, TempTable } from '../../src/engines/engine.js';
import type { Dialect } from '../../src/sql/index.js';

/**
 * An engine that runs nothing and records what grove asks of it: each query, each table made
 * (as `CREATE <name> <select>`) and each drop, in order. `tempTable` returns null when `refuse`
 * says so; `query` answers with `answer` (no rows by default).
 */
export class FakeEngine implements Engine {
  readonly log: string[] = [];
  private made = 0;
  refuse: (select: string) => boolean = () => false;
  answer: (sql: string) => unknown[][] = () => [];

  constructor(readonly dialect: Dialect) {}

  async query(sql: string, _params?: readonly SqlValue[]): Promise<unknown[][]> {
    this.log.push(sql);
    return this.answer(sql);
  }

  async stream(sql: string, params: readonly SqlValue[], onRows: (rows: unknown[][]) => void): Promise<void> {
    onRows(await this.query(sql, params));
  }

  async columns(): Promise<never[]> {
    return [];
  }

  async tempTable(select: string): Promise<TempTable | null> {
    if (this.refuse(select)) return null;
    const name = `t${++this.made}`;
    this.log.push(`CREATE ${name} ${select}`);
    return { name, drop: async () => void this.log.push(`DROP ${name}`) };
  }

  async acceptQuery(): Promise<undefined> {
    return undefined;
  }

  async close(): Promise<void> {}
}
