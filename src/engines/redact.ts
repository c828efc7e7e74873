/** A URL as messages may show it: user kept, password removed. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '';
    return u.toString().replace(/:@/, '@');
  } catch {
    return url.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1@');
  }
}
