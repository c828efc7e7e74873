/** grove's version, written into tool output (kept in step with package.json by a test). */
export const VERSION = '0.2.0';
