/** An SQL identifier (table, column, trigger) quoted for SQLite and PostgreSQL: `"name"`, inner quotes doubled. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
