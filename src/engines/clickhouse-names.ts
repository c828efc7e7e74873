/**
 * The tables a ClickHouse FROM item (a table name or a `--query`) names, read from its text: whole
 * identifiers — bare, backquoted or double-quoted (escapes undone), alone or qualified by a
 * database, not after `AS` (an alias) — outside string literals and comments; and whether it calls
 * a table function that reads other servers (`remote`, `remoteSecure`, `cluster`,
 * `clusterAllReplicas`, `…Cluster`, `merge`). Keywords and columns count as names too: a false
 * alarm costs only speed.
 */

/** A table the text may read: `database` null when unqualified (the session's database). */
export interface NamedTable {
  database: string | null;
  name: string;
}

/** What {@link namedTables} finds in a FROM item. */
export interface SourceNames {
  tables: NamedTable[];
  /** True when the text calls a table function whose rows may live on other servers. */
  remote: boolean;
}

/** Table functions that read other servers' (or several tables') rows. */
const REMOTE_FUNCTION = /^(remote\w*|cluster\w*|\w+Cluster|merge)$/i;
const BARE_START = /[A-Za-z_]/;
const BARE = /[A-Za-z0-9_$]/;

/** The characters ClickHouse reads for a backslash and a letter (any other character stands for itself). */
const ESCAPED = new Map([
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
  ['0', '\0'],
  ['b', '\b'],
  ['f', '\f'],
  ['a', '\x07'],
  ['v', '\v'],
]);

type Token = { kind: 'id'; value: string; quoted: boolean } | { kind: 'dot' } | { kind: 'open' } | { kind: 'other' };

/** The text between `quote`s from `at` (just past the opening one), backslash escapes undone. */
function quoted(text: string, at: number, quote: string): { value: string; end: number } {
  let value = '';
  let i = at;
  while (i < text.length && text[i] !== quote) {
    if (text[i] === '\\' && i + 1 < text.length) {
      value += ESCAPED.get(text[i + 1]) ?? text[i + 1];
      i += 2;
    } else value += text[i++];
  }
  return { value, end: i + 1 };
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') i++;
    else if (ch === '-' && text[i + 1] === '-') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (ch === "'") {
      i = quoted(text, i + 1, "'").end;
      out.push({ kind: 'other' });
    } else if (ch === '`' || ch === '"') {
      const q = quoted(text, i + 1, ch);
      out.push({ kind: 'id', value: q.value, quoted: true });
      i = q.end;
    } else if (BARE_START.test(ch)) {
      const start = i;
      while (i < text.length && BARE.test(text[i])) i++;
      out.push({ kind: 'id', value: text.slice(start, i), quoted: false });
    } else if (ch >= '0' && ch <= '9') {
      while (i < text.length && BARE.test(text[i])) i++; // a number (or a tuple's index after a dot)
      out.push({ kind: 'other' });
    } else {
      out.push(ch === '.' ? { kind: 'dot' } : ch === '(' ? { kind: 'open' } : { kind: 'other' });
      i++;
    }
  }
  return out;
}

/** The tables `text` names and whether it calls a remote table function (see the file's comment). */
export function namedTables(text: string): SourceNames {
  const all = tokens(text);
  const tables: NamedTable[] = [];
  let remote = false;
  for (let j = 0; j < all.length; j++) {
    const t = all[j];
    const before = all[j - 1];
    if (t.kind !== 'id' || before?.kind === 'dot') continue;
    if (before?.kind === 'id' && !before.quoted && /^as$/i.test(before.value)) continue; // an alias
    const after = all[j + 1];
    const qualified = after?.kind === 'dot' ? all[j + 2] : undefined;
    if (qualified?.kind === 'id') {
      tables.push({ database: t.value, name: qualified.value });
      j += 2;
    } else if (after?.kind === 'open') {
      if (!t.quoted && REMOTE_FUNCTION.test(t.value)) remote = true;
    } else tables.push({ database: null, name: t.value });
  }
  return { tables, remote };
}
