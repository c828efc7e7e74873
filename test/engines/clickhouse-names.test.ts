import { describe, expect, it } from 'vitest';
import { refusesDdl } from '../../src/engines/clickhouse-errors.js';
import { namedTables } from '../../src/engines/clickhouse-names.js';
import { clickhouseDialect } from '../../src/sql/index.js';

const names = (text: string) =>
  namedTables(text).tables.map((t) => (t.database === null ? t.name : `${t.database}.${t.name}`));

describe('the tables a ClickHouse FROM item names', () => {
  it('whole identifiers only: bare, backquoted (escapes undone), double-quoted, database-qualified', () => {
    const text = 'SELECT a.x FROM `we\\`ird\\\\name` AS a JOIN db.`other` USING id JOIN "dq" ON 1 WHERE typed = 2';
    const found = names(text);
    expect(found).toEqual(expect.arrayContaining(['we`ird\\name', 'db.other', 'dq', 'typed']));
    expect(found).not.toContain('t'); // no substring matches
    expect(found).not.toContain('other'); // qualified by another database
    expect(found).not.toContain('x'); // a column qualified by an alias
    expect(found).not.toContain('a'); // an alias
    expect(names(clickhouseDialect.quote('a`b\\c'))).toEqual(['a`b\\c']);
  });

  it('string literals and comments are not names', () => {
    expect(names("SELECT 'spread' AS s FROM t -- view\n/* dist */")).toEqual(['SELECT', 'AS', 'FROM', 't']);
  });

  it('table functions that read other servers, whatever their case', () => {
    for (const call of [
      "remote('h', db, t)",
      "remoteSecure('h', db, t)",
      'cluster(c, db, t)',
      'clusterAllReplicas(c, db, t)',
      'shardsCluster (c, db, t)',
      "MERGE(db, '^t')",
    ])
      expect(namedTables(`SELECT * FROM ${call}`).remote).toBe(true);
    expect(namedTables("SELECT * FROM numbers(10) WHERE remote = 1 AND match(x, 'cluster(')").remote).toBe(false);
  });
});

describe('ClickHouse errors of a user without DDL rights', () => {
  it('READONLY (164) and QUERY_IS_PROHIBITED (392) refuse DDL; other errors do not', () => {
    expect(refusesDdl('Code: 164, e.displayText() = DB::Exception: Cannot create table in readonly mode')).toBe(true);
    expect(
      refusesDdl('Code: 392, e.displayText() = DB::Exception: Cannot create table. DDL queries are prohibited'),
    ).toBe(true);
    expect(refusesDdl('Code: 1640, e.displayText() = DB::Exception: …')).toBe(false);
    expect(refusesDdl('Code: 241, e.displayText() = DB::Exception: Memory limit exceeded')).toBe(false);
  });
});
