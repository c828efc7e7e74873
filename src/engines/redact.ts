import { GroveError } from '../core/errors.js';

/** A URL as messages may show it: user kept, password removed. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '';
    return u.toString().replace(/:@/, '@');
  } catch {
    // Unparseable: the password may hold any character ('/', '@'), so everything from the
    // user's ':' to the last '@' goes.
    const m = /^([a-z][a-z0-9+.-]*:\/\/)([^:/@]*)(:[\s\S]*)?@([^@]*)$/i.exec(url);
    if (m) return `${m[1]}${m[2]}@${m[4]}`;
    return url;
  }
}

/** What is wrong with the host and port part of an unparseable URL (`host:port`, `[v6]:port`). */
function hostProblem(hostPort: string): string {
  if (hostPort === '') return 'it names no host';
  const m = /^(\[[^\]]*\]|[^:[\]]*)(?::(.*))?$/.exec(hostPort);
  if (!m) return `the host '${hostPort}' is not a host name or a bracketed IPv6 address`;
  const [, host, port] = m;
  if (port !== undefined && !/^\d{1,5}$/.test(port)) return `the port '${port}' is not a number`;
  if (port !== undefined && Number(port) > 65535) return `the port ${port} is above 65535`;
  if (host === '' && port !== undefined) return 'it names no host';
  return `the host '${host}' is not a valid host name`;
}

/**
 * Check a database URL (`postgres://user:password@host:port/db`, `clickhouse://…`) before any use,
 * so that a malformed one is one line naming what is wrong, never an internal error, and never
 * shows the password.
 *
 * @throws GroveError (E_OPTION) naming the problem and the URL without its password
 */
export function checkDatabaseUrl(url: string): void {
  const label = redactUrl(url);
  const bad = (why: string) => new GroveError(`malformed database URL ${label}: ${why}`, { code: 'E_OPTION' });
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    const rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
    const at = rest.lastIndexOf('@');
    const afterUser = at < 0 ? rest : rest.slice(at + 1);
    throw bad(hostProblem(afterUser.split(/[/?#]/)[0]));
  }
  if (u.hostname === '') throw bad('it names no host');
  for (const [what, text] of [
    ['user name', u.username],
    ['password', u.password],
    ['database name', u.pathname],
  ] as const) {
    try {
      decodeURIComponent(text);
    } catch {
      throw bad(`the ${what} holds a malformed %-escape (write '%' as %25)`);
    }
  }
}
