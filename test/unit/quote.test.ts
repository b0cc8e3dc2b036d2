import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { quoteIdent } from '../../server/db/quote.js';

describe('identifier quoting', () => {
  it('wraps in double quotes and doubles inner ones', () => {
    expect(quoteIdent('tickets')).toBe('"tickets"');
    expect(quoteIdent('we"ird')).toBe('"we""ird"');
    expect(quoteIdent('"; DROP TABLE x; --')).toBe('"""; DROP TABLE x; --"');
  });

  it('names exactly the identifier in SQLite, however odd it is', () => {
    const db = new Database(':memory:');
    const names = ['plain', 'with space', 'we"ird', '"; DROP TABLE t; --', 'select'];
    for (const n of names) db.exec(`CREATE TABLE ${quoteIdent(n)} (${quoteIdent(n)} TEXT)`);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    expect(tables.sort()).toEqual([...names].sort());
    db.close();
  });
});
