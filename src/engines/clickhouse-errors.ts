/**
 * How grove's ClickHouse client tells its failures apart: no answer in time, no connection, the server's
 * error codes.
 */
import { GroveError } from '../core/errors.js';

/**
 * Seconds grove waits for ClickHouse to answer a request when `GROVE_CLICKHOUSE_TIMEOUT` does not
 * say: a level query over many rows answers only when it has counted them all.
 */
export const CLICKHOUSE_DEFAULT_TIMEOUT = 3600;

/** Connection failures, as opposed to a server that was reached and did not answer in time. */
export const CANNOT_CONNECT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** `GROVE_CLICKHOUSE_TIMEOUT` (seconds, > 0) or the default. */
export function timeoutSeconds(): number {
  const text = process.env.GROVE_CLICKHOUSE_TIMEOUT;
  if (text === undefined || text === '') return CLICKHOUSE_DEFAULT_TIMEOUT;
  const seconds = Number(text);
  if (!(seconds > 0) || !Number.isFinite(seconds))
    throw new GroveError(`GROVE_CLICKHOUSE_TIMEOUT must be a number of seconds above 0, not '${text}'`, {
      code: 'E_OPTION',
    });
  return seconds;
}

/** Raised by the request's timer; told apart from a connection failure. */
export class NoAnswer extends Error {}

/** The server answered with an error: `serverMessage` is its first line (`Code: N, …`). */
export class ServerError extends GroveError {
  constructor(
    message: string,
    readonly serverMessage: string,
  ) {
    super(message, { code: 'E_IO' });
  }
}

/** Server error codes of a user who may not create tables: READONLY, QUERY_IS_PROHIBITED (allow_ddl=0). */
const NO_DDL = /^Code: (164|392)\b/;

/** Server error code of a session_timeout above the server's max_session_timeout. */
export const SESSION_TOO_LONG = /^Code: 374\b/;

/** Server error code of a session that has expired (or never was): SESSION_NOT_FOUND. */
export const SESSION_NOT_FOUND = /^Code: 372\b/;

/** True when `message` (a server error's first line) says the user may not create tables. */
export function refusesDdl(message: string): boolean {
  return NO_DDL.test(message);
}
