/** The user's query (`--query`) as grove's queries read it. */

/** `query` without trailing semicolons and white space. */
export function trimQuery(query: string): string {
  return query.replace(/[\s;]+$/, '');
}

/**
 * The user's query as a subquery: trailing semicolons dropped, on lines of its own (a trailing
 * line comment then ends before the closing parenthesis).
 */
export function asSubquery(query: string): string {
  return `(\n${trimQuery(query)}\n)`;
}
