// The business export reads a slice at a time (other requests answered between slices) from a
// connection of its own: its parts must still be the bytes of the entity read at one moment.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { cleanupBackups, startWriter } from './backup-helpers.js';
import { encodeValue, exportedTables } from '../../server/backup/export-entity.js';
import { columnsOf } from '../../server/backup/inspect.js';

let a: TestServer;
let owner: SessionClient;

/** More journal lines than one formatted piece (5,000), on many days and at shared milliseconds. */
const EVENTS = 1800;

beforeAll(async () => {
  a = await startTestServer();
  owner = await a.signup({ entityName: 'Sliced Exports' });
  for (let i = 0; i < 4; i++) {
    const t = await owner.post('/api/helpdesk/tickets', { subject: `Slow thing ${i}`, description: `line ${i}\nwith "quotes", commas` });
    expect(t.status).toBe(201);
    expect((await owner.post(`/api/helpdesk/tickets/${t.body.id}/messages`, { body: `Reply ${i}` })).status).toBe(201);
  }
  const start = Date.parse('2024-01-01T00:00:00.000Z');
  for (let from = 0; from < EVENTS; from += 600) {
    const events = Array.from({ length: 600 }, (_, k) => {
      const i = from + k;
      // Three events share each millisecond: a piece is never cut between lines of one millisecond.
      const at = new Date(start + Math.floor(i / 3) * 3_600_000).toISOString();
      return { type: 'invoice_created', payload: { invoiceNumber: `INV-${i}`, currency: 'USD', netAmount: `${100 + i}.00`, taxAmount: '1.50' }, timestamp: at, idempotencyKey: `slice-${i}` };
    });
    const res = await owner.post('/api/ledger/events/batch', { events });
    expect(res.status).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  cleanupBackups(a);
  await a.close();
});

const entry = (file: string, name: string) => execFileSync('tar', ['-xOf', file, name], { maxBuffer: 1 << 30 });

/** The rows part as the export wrote it before it read in slices: every table at once, one JSON.stringify. */
function rowsAtOnce(entityId: string): string {
  const db = a.ctx.sqlite;
  const tables: Record<string, { columns: string[]; rows: unknown[][] }> = {};
  for (const t of exportedTables(db)) {
    const rows = db.prepare(`SELECT * FROM "${t}" WHERE entity_id = ? ORDER BY rowid`).raw().safeIntegers(true).all(entityId) as unknown[][];
    if (rows.length) tables[t] = { columns: columnsOf(db, t).map((c) => c.name), rows: rows.map((r) => r.map(encodeValue)) };
  }
  const entity = db.prepare('SELECT * FROM entities WHERE id = ?').get(entityId);
  const members = db
    .prepare('SELECT u.id, u.email, u.name, m.role, u.created_at AS createdAt, m.created_at AS memberSince FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.entity_id = ? ORDER BY m.created_at, u.id')
    .all(entityId);
  return JSON.stringify({ entity, members, tables });
}

describe('export business, read in slices', () => {
  it('writes the same rows and journal CSV as reading everything at once', async () => {
    const res = await owner.post(`/api/backups/export?entityId=${owner.entityId}`);
    expect(res.status).toBe(201);
    const file = res.body.file as string;
    expect(entry(file, 'rows.json').toString('utf8')).toBe(rowsAtOnce(owner.entityId));
    const journal = await owner.get('/api/ledger/journal.csv');
    expect(journal.status).toBe(200);
    const csv = entry(file, 'readable/ledger/journal.csv').toString('utf8');
    expect(csv.split('\r\n').length).toBeGreaterThan(5000);
    expect(csv).toBe(journal.body);
  }, 120_000);

  it('reads one moment while tickets and events are written meanwhile', async () => {
    const writer = startWriter(owner, 1);
    let res;
    try {
      res = await owner.post(`/api/backups/export?entityId=${owner.entityId}`);
    } finally {
      writer.stop();
    }
    expect(await writer.done).toBeGreaterThan(0);
    expect(res.status).toBe(201);
    const file = res.body.file as string;
    const rows = JSON.parse(entry(file, 'rows.json').toString('utf8')) as { tables: Record<string, { columns: string[]; rows: unknown[][] }> };
    const manifest = JSON.parse(entry(file, 'manifest.json').toString('utf8')) as { tables: Record<string, number> };
    expect(Object.fromEntries(Object.entries(rows.tables).map(([t, v]) => [t, v.rows.length]))).toEqual(manifest.tables);
    // One moment: every event's entries are there with it, every entry's lines with it.
    const col = (t: string, c: string) => rows.tables[t]!.columns.indexOf(c);
    const events = new Set(rows.tables.ledger_events!.rows.map((r) => r[col('ledger_events', 'id')]));
    const entries = rows.tables.ledger_entries!.rows;
    expect(entries.every((r) => events.has(r[col('ledger_entries', 'event_id')]))).toBe(true);
    const entryIds = new Set(entries.map((r) => r[col('ledger_entries', 'id')]));
    expect(rows.tables.ledger_lines!.rows.every((r) => entryIds.has(r[col('ledger_lines', 'entry_id')]))).toBe(true);
    // The readable journal is of the same moment: as many lines as the rows part has.
    const csv = entry(file, 'readable/ledger/journal.csv').toString('utf8');
    expect(csv.trimEnd().split('\r\n').length - 1).toBe(rows.tables.ledger_lines!.rows.length);
  }, 120_000);
});
