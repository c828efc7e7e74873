/**
 * Malformed database URLs: one line naming what is wrong, exit 2, never the password, also with
 * GROVE_DEBUG=1 (which turns only internal errors into stack traces). No server is needed: every
 * URL here is refused before a connection is tried.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { checkDatabaseUrl, redactUrl } from '../../src/engines/redact.js';
import { assertBuilt, cliPath, lines } from '../helpers/cli.js';

const SECRET = 'S3cr';
const CASES: Array<[string, RegExp]> = [
  [`postgres://u:${SECRET}et@host:99999/db`, /port 99999 is above 65535/],
  [`postgres://u:${SECRET}et@host:5x/db`, /port '5x' is not a number/],
  [`postgres://u:${SECRET}et@[bad/db`, /host '\[bad' is not/],
  [`clickhouse://u:${SECRET}et@:8123/db`, /names no host/],
  [`postgresql://u:${SECRET}/x@y@host:70000/db`, /port 70000 is above 65535/],
  [`clickhouse://u:${SECRET}%zz@host/db`, /password holds a malformed %-escape/],
  [`postgres://u:${SECRET}et@ho st/db`, /host 'ho st' is not a valid host name/],
];

describe('checkDatabaseUrl', () => {
  it('names what is wrong, never the password', () => {
    for (const [url, why] of CASES) {
      let err: unknown;
      try {
        checkDatabaseUrl(url);
      } catch (e) {
        err = e;
      }
      expect(err, url).toBeInstanceOf(GroveError);
      const { message, code } = err as GroveError;
      expect(code).toBe('E_OPTION');
      expect(message).toMatch(/^malformed database URL (postgres|postgresql|clickhouse):\/\/u@/);
      expect(message).toMatch(why);
      expect(message).not.toContain(SECRET);
    }
  });

  it('accepts well-formed URLs; redactUrl drops the password of any URL, parseable or not', () => {
    for (const url of [
      'postgres://u:pw@localhost:5432/db',
      'clickhouse://127.0.0.1:8123/default',
      'postgres://[::1]/d',
    ])
      expect(() => checkDatabaseUrl(url)).not.toThrow();
    expect(redactUrl('postgres://u:pw@h:1/d')).toBe('postgres://u@h:1/d');
    expect(redactUrl(`postgres://u:${SECRET}/@x@h:99999/d`)).toBe('postgres://u@h:99999/d');
  });
});

describe('grove with a malformed database URL', () => {
  it('info and fit: one line, exit 2, no password, with and without GROVE_DEBUG', () => {
    assertBuilt();
    // Every URL under GROVE_DEBUG=1 (where an internal error would print a stack and the URL); two without.
    const runs = [
      ...CASES.map(([url, why]) => ({ debug: '1', why, args: ['info', url, '--table', 't'] })),
      ...CASES.slice(0, 2).map(([url, why]) => ({
        debug: '',
        why,
        args: ['fit', url, '--table', 't', '--out', 'm.json'],
      })),
    ];
    for (const { debug, why, args } of runs) {
      const r = spawnSync(process.execPath, [cliPath, ...args], {
        encoding: 'utf8',
        env: { ...process.env, GROVE_DEBUG: debug },
      });
      expect(r.status, r.stderr).toBe(2);
      expect(lines(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).not.toContain(SECRET);
    }
  });
});
