import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultMigrationsDir, openDatabase } from '../../server/db/open.js';
import { startTestServer } from '../helpers/server.js';
import { makePdf } from '../fixtures/pdf.js';
import { uploadPdf } from './documents-helpers.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-migrate-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A copy of the migrations folder as an older release shipped it: only the first migration. */
function firstMigrationOnly(): string {
  const dir = path.join(tmp, 'old-migrations');
  fs.mkdirSync(path.join(dir, 'meta'), { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(defaultMigrationsDir, 'meta', '_journal.json'), 'utf8'));
  const first = journal.entries[0];
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: [first] }));
  fs.copyFileSync(path.join(defaultMigrationsDir, `${first.tag}.sql`), path.join(dir, `${first.tag}.sql`));
  return dir;
}

/** A copy of the migrations folder as a release before `tag` shipped it. */
function migrationsBefore(tag: string): string {
  const dir = path.join(tmp, `before-${tag}`);
  fs.mkdirSync(path.join(dir, 'meta'), { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(defaultMigrationsDir, 'meta', '_journal.json'), 'utf8'));
  const entries = journal.entries.slice(0, journal.entries.findIndex((e: { tag: string }) => e.tag === tag));
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const e of entries) fs.copyFileSync(path.join(defaultMigrationsDir, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

describe('migrations', () => {
  it('upgrades a database created by an older version in place, keeping its data', async () => {
    const dataDir = path.join(tmp, 'old');
    fs.mkdirSync(dataDir);
    const old = openDatabase(path.join(dataDir, 'bureau.db'), firstMigrationOnly());
    old.sqlite
      .prepare("insert into users (id, email, name, password_hash, created_at, updated_at) values ('0190aaaa-0000-7000-8000-000000000001', 'old@example.com', 'Old', null, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')")
      .run();
    old.sqlite.close();

    const server = await startTestServer({ dataDir });
    try {
      const applied = server.ctx.sqlite.prepare('select count(*) as n from __drizzle_migrations').get() as { n: number };
      const journal = JSON.parse(fs.readFileSync(path.join(defaultMigrationsDir, 'meta', '_journal.json'), 'utf8'));
      expect(applied.n).toBe(journal.entries.length);
      const user = server.ctx.sqlite.prepare("select email from users where email = 'old@example.com'").get();
      expect(user).toEqual({ email: 'old@example.com' });
      expect((await server.anon.get('/api/health')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('restarts on an existing data dir without re-applying migrations or losing data', async () => {
    const dataDir = path.join(tmp, 'restart');
    const first = await startTestServer({ dataDir });
    const owner = await first.signup({ email: 'keep@example.com' });
    await first.close();
    const second = await startTestServer({ dataDir });
    try {
      const login = await second.anon.post('/api/auth/login', { email: 'keep@example.com', password: owner.password });
      expect(login.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('0007: ticket search text becomes the subject alone, folded beyond ASCII', async () => {
    const dataDir = path.join(tmp, 'search');
    fs.mkdirSync(dataDir);
    // A database as 0006 left it: search text is the subject and ticket number, lower-cased.
    const old = openDatabase(path.join(dataDir, 'bureau.db'), migrationsBefore('0007_ticket_search_subject'));
    const ticketId = '0190aaaa-0000-7000-8000-000000000001';
    old.sqlite
      .prepare(
        `insert into helpdesk_tickets (id, entity_id, ticket_number, subject, status, priority, channel, search_text, created_at, updated_at)
         values (?, '0190aaaa-0000-7000-8000-0000000000e1', 'AB12C-1001', 'ÜBER den Drucker', 'new', 'normal', 'web', ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
      )
      .run(ticketId, 'über den drucker\nab12c-1001');
    old.sqlite.close();
    const server = await startTestServer({ dataDir });
    try {
      const row = server.ctx.sqlite.prepare('select search_text from helpdesk_tickets where id = ?').get(ticketId);
      expect(row).toEqual({ search_text: 'über den drucker' });
    } finally {
      await server.close();
    }
  });

  it('0030: the search indexes are keyed by creation time and hold their entity', () => {
    const file = path.join(tmp, 'keyed', 'bureau.db');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const old = openDatabase(file, migrationsBefore('0030_search_keyed_by_time'));
    const entity = '0190aaaa-0000-7000-8000-0000000000e1';
    const insert = old.sqlite.prepare(
      `insert into helpdesk_tickets (id, entity_id, ticket_number, subject, status, priority, channel, search_text, created_at, updated_at)
       values (?, ?, ?, 'Printer jam', 'new', 'normal', 'web', 'printer jam', ?, ?)`,
    );
    // Written out of order (as sync brings them), two in one millisecond, one with no readable time.
    const rows = [
      ['0190aaaa-0000-7000-8000-000000000003', '2026-01-03T00:00:00.000Z'],
      ['0190aaaa-0000-7000-8000-000000000001', '2026-01-01T00:00:00.000Z'],
      ['0190aaaa-0000-7000-8000-000000000005', '2026-01-02T00:00:00.007Z'],
      ['0190aaaa-0000-7000-8000-000000000004', '2026-01-02T00:00:00.007Z'],
      ['0190aaaa-0000-7000-8000-000000000009', 'not a time'],
    ];
    rows.forEach(([id, at], i) => insert.run(id, entity, `T-${i}`, at, at));
    old.sqlite.close();
    const db = openDatabase(file, defaultMigrationsDir);
    try {
      const keys = db.sqlite.prepare('select source_id as id, doc from helpdesk_search_docs order by doc desc').all() as { id: string; doc: number }[];
      expect(keys.map((k) => k.id)).toEqual(['0190aaaa-0000-7000-8000-000000000003', '0190aaaa-0000-7000-8000-000000000005', '0190aaaa-0000-7000-8000-000000000004', '0190aaaa-0000-7000-8000-000000000001', '0190aaaa-0000-7000-8000-000000000009']);
      expect(keys[0].doc).toBe(Date.parse('2026-01-03T00:00:00.000Z') * 2048);
      expect(keys[1].doc).toBe(Date.parse('2026-01-02T00:00:00.007Z') * 2048 + 1);
      expect(keys[4].doc).toBeLessThan(0);
      // A ticket written now in a millisecond already taken follows it; the entity's token matches all six.
      db.sqlite
        .prepare(`insert into helpdesk_tickets (id, entity_id, ticket_number, subject, status, priority, channel, search_text, created_at, updated_at) values (?, ?, 'T-9', 'Printer jam', 'new', 'normal', 'web', 'printer jam', ?, ?)`)
        .run('0190aaaa-0000-7000-8000-000000000006', entity, '2026-01-02T00:00:00.007Z', '2026-01-02T00:00:00.007Z');
      expect(db.sqlite.prepare('select doc from helpdesk_search_docs where source_id = ?').get('0190aaaa-0000-7000-8000-000000000006')).toEqual({ doc: Date.parse('2026-01-02T00:00:00.007Z') * 2048 + 2 });
      const token = `e${Buffer.from(entity, 'utf8').toString('hex')}`;
      expect(db.sqlite.prepare('select count(*) as n from helpdesk_search where helpdesk_search match ?').get(`entity : "${token}" AND {body} : ("printer"*)`)).toEqual({ n: 6 });
      expect(db.sqlite.prepare('select count(*) as n from helpdesk_search where helpdesk_search match ?').get(`{body} : ("${token}"*)`)).toEqual({ n: 0 });
    } finally {
      db.sqlite.close();
    }
  });

  it("0033: the subject trigram index is built from the tickets already there, each entity's a key range of its own", () => {
    const file = path.join(tmp, 'trigrams', 'bureau.db');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const old = openDatabase(file, migrationsBefore('0033_ticket_subject_trigrams'));
    const insert = old.sqlite.prepare(
      `insert into helpdesk_tickets (id, entity_id, ticket_number, subject, status, priority, channel, search_text, created_at, updated_at) values (?, ?, ?, ?, 'new', 'normal', 'web', ?, ?, ?)`,
    );
    const [a, b] = ['0190aaaa-0000-7000-8000-0000000000e1', '0190aaaa-0000-7000-8000-0000000000e2'];
    const tickets: [string, string, string][] = [
      ['0190aaaa-0000-7000-8000-000000000001', a, 'Printer JAM'],
      ['0190aaaa-0000-7000-8000-000000000002', a, 'Refund'],
      ['0190aaaa-0000-7000-8000-000000000003', b, 'The printer again'],
      ['0190aaaa-0000-7000-8000-000000000004', a, 'ÉPRINTER Ünicode'],
    ];
    tickets.forEach(([id, entity, subject], i) => insert.run(id, entity, `T-${i}`, subject, subject.toLowerCase(), '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'));
    old.sqlite.close();
    const db = openDatabase(file, defaultMigrationsDir);
    try {
      const ranges = db.sqlite.prepare('select entity_id as entityId, ordinal from helpdesk_trigram_entities order by ordinal').all() as { entityId: string; ordinal: number }[];
      expect(ranges.map((r) => r.entityId)).toEqual([a, b]);
      const matching = (entity: string, needle: string) => {
        const o = ranges.find((r) => r.entityId === entity)!.ordinal;
        return db.sqlite
          .prepare('select d.ticket_id as id from helpdesk_subject_trigrams s join helpdesk_trigram_docs d on d.doc = s.rowid where helpdesk_subject_trigrams match ? and s.rowid > ? and s.rowid < ? order by d.ticket_id')
          .all(`"${needle}"`, o * 2 ** 40, (o + 1) * 2 ** 40)
          .map((r) => (r as { id: string }).id);
      };
      expect(matching(a, 'printer')).toEqual(['0190aaaa-0000-7000-8000-000000000001', '0190aaaa-0000-7000-8000-000000000004']);
      expect(matching(b, 'printer')).toEqual(['0190aaaa-0000-7000-8000-000000000003']);
      expect(matching(a, 'éprin')).toEqual(['0190aaaa-0000-7000-8000-000000000004']);
      // Kept by the triggers afterwards: a subject changed moves out of one search and into another; a ticket deleted leaves.
      db.sqlite.prepare("update helpdesk_tickets set subject = 'Scanner', search_text = 'scanner' where id = ?").run('0190aaaa-0000-7000-8000-000000000001');
      db.sqlite.prepare('delete from helpdesk_tickets where id = ?').run('0190aaaa-0000-7000-8000-000000000004');
      expect(matching(a, 'printer')).toEqual([]);
      expect(matching(a, 'scan')).toEqual(['0190aaaa-0000-7000-8000-000000000001']);
      expect(db.sqlite.prepare('select count(*) as n from helpdesk_trigram_docs').get()).toEqual({ n: 3 });
    } finally {
      db.sqlite.close();
    }
  });

  it('0018 to 0020: ledger totals, entry counts and the ticket search index are built from the data already there', async () => {
    const dataDir = path.join(tmp, 'derived');
    const first = await startTestServer({ dataDir });
    const owner = await first.signup();
    const invoiceIds: string[] = [];
    for (const [i, net] of ['10.00', '123456789012345678901.50', '7.25'].entries()) {
      const res = await owner.post('/api/ledger/events', { type: 'invoice_created', payload: { invoiceNumber: `I-${i}`, currency: 'USD', netAmount: net, taxAmount: '1.00' }, timestamp: `2025-0${i + 1}-15T10:00:00.000Z` });
      expect(res.status).toBe(201);
      invoiceIds.push(res.body.id);
    }
    const manual = (await uploadPdf(owner, { name: 'Kettle manual.pdf', data: await makePdf(1, undefined, 'Descaling instructions') })).body;
    const hook = (await owner.post('/api/webhook-subscriptions', { url: 'http://127.0.0.1:9/hook', events: ['ticket.created'] })).body;
    const ticket = (await owner.post('/api/helpdesk/tickets', { subject: 'Kettle broken', description: 'It leaks' })).body;
    await owner.post(`/api/helpdesk/tickets/${ticket.id}/messages`, { body: 'Replacement shipped' });
    const q = `entityId=${owner.entityId}&asOf=2030-01-01T00:00:00.000Z`;
    const before = (await owner.get(`/api/ledger/trial-balance?${q}`)).body;
    const pl = (await owner.get(`/api/ledger/reports/profit-and-loss?entityId=${owner.entityId}&from=2025-01-20T00:00:00.000Z&to=2025-03-15T10:00:00.000Z`)).body;
    await first.close();
    // As 0017 left it: neither the totals, the counts, the index, the backup tables (0021) nor what came after (0022 the wallet's purposes, 0023 the mail settings, 0024 synced notifications and the ticket series, 0025 people, 0026 the webhooks' entity data, 0027 the document and ledger search indexes, 0029 the wallet's relayer per entity and kept bundles, 0032 the signature requests' list indexes, 0033 the subject trigram index), and those migrations still to apply.
    const old = openDatabase(path.join(dataDir, 'bureau.db'));
    // Capture triggers name every column; they are made again at start.
    for (const { name } of old.sqlite.prepare("select name from sqlite_master where type = 'trigger' and name like 'sync_capture_%'").all() as { name: string }[]) old.sqlite.exec(`DROP TRIGGER ${name}`);
    old.sqlite.exec(`
      DROP TABLE ledger_balances; DROP TABLE ledger_day_totals; DROP TABLE helpdesk_search; DROP TABLE helpdesk_search_docs;
      DROP TRIGGER ledger_lines_totals_insert; DROP TRIGGER ledger_lines_totals_delete; DROP TRIGGER ledger_entries_totals_insert; DROP TRIGGER ledger_entries_totals_delete;
      DROP TRIGGER helpdesk_tickets_search_insert; DROP TRIGGER helpdesk_tickets_search_update; DROP TRIGGER helpdesk_tickets_search_delete;
      DROP TRIGGER helpdesk_messages_search_insert; DROP TRIGGER helpdesk_messages_search_update; DROP TRIGGER helpdesk_messages_search_delete;
      DROP TABLE ledger_day_entries; DROP TRIGGER ledger_entries_count_insert; DROP TRIGGER ledger_entries_count_delete;
      DROP TABLE backup_runs; DROP TABLE backup_settings;
      ALTER TABLE wallet_activity DROP COLUMN purpose;
      DROP TABLE mail_settings; ALTER TABLE mail_outbox DROP COLUMN via; ALTER TABLE mail_outbox DROP COLUMN purpose_key; ALTER TABLE mail_outbox DROP COLUMN drop_reason;
      DROP TABLE notification_email_prefs; ALTER TABLE notification_reads DROP COLUMN entity_id;
      DROP TABLE helpdesk_settings; ALTER TABLE helpdesk_tickets DROP COLUMN provisional_number;
      DROP TABLE entity_people;
      ALTER TABLE webhook_subscriptions ADD secret_sealed text NOT NULL DEFAULT '';
      UPDATE webhook_subscriptions SET secret_sealed = (SELECT secret_sealed FROM webhook_secrets WHERE subscription_id = webhook_subscriptions.id);
      DROP TABLE entity_events; DROP TABLE webhook_secrets; ALTER TABLE outbox DROP COLUMN replay_of;
      ALTER TABLE webhook_subscriptions DROP COLUMN secret_version; ALTER TABLE webhook_subscriptions DROP COLUMN delivered_by;
      DROP TRIGGER documents_search_insert; DROP TRIGGER documents_search_update; DROP TRIGGER documents_search_delete;
      DROP TRIGGER document_texts_search_insert; DROP TRIGGER document_texts_search_delete;
      DROP TRIGGER ledger_events_search_insert; DROP TRIGGER ledger_events_search_update; DROP TRIGGER ledger_events_search_delete;
      DROP TABLE documents_search; DROP TABLE documents_search_docs; DROP TABLE document_texts; DROP INDEX documents_sha_idx;
      DROP TABLE ledger_search; DROP TABLE ledger_search_docs;
      DROP TABLE wallet_bundles;
      CREATE TABLE __old_wallet_relayers (chain text PRIMARY KEY NOT NULL, owner_key_sealed text NOT NULL, account_address text NOT NULL, created_at text NOT NULL);
      INSERT INTO __old_wallet_relayers SELECT chain, owner_key_sealed, account_address, created_at FROM wallet_relayers WHERE entity_id = '';
      DROP TABLE wallet_relayers; ALTER TABLE __old_wallet_relayers RENAME TO wallet_relayers;
      DROP INDEX signature_requests_created_idx; DROP INDEX signature_requests_entity_idx; CREATE INDEX signature_requests_entity_idx ON signature_requests (entity_id, status);
      DROP TRIGGER helpdesk_tickets_trigrams_insert; DROP TRIGGER helpdesk_tickets_trigrams_update; DROP TRIGGER helpdesk_tickets_trigrams_delete;
      DROP TABLE helpdesk_subject_trigrams; DROP TABLE helpdesk_trigram_docs; DROP TABLE helpdesk_trigram_entities;`);
    const journal = JSON.parse(fs.readFileSync(path.join(defaultMigrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
    const since = journal.entries.find((e) => e.tag === '0018_ledger_balances')!.when;
    old.sqlite.prepare('delete from __drizzle_migrations where created_at >= ?').run(since);
    old.sqlite.close();
    const second = await startTestServer({ dataDir });
    try {
      const login = await second.anon.post('/api/auth/login', { email: owner.email, password: owner.password });
      const cookie = login.headers.get('set-cookie')!.split(';')[0];
      const get = async (url: string) => (await fetch(second.url + url, { headers: { cookie, 'x-entity-id': owner.entityId } })).json();
      expect(await get(`/api/ledger/trial-balance?${q}`)).toEqual(before);
      // 0022: the webhook secret moved to webhook_secrets, under the version the subscription names.
      const moved = second.ctx.sqlite.prepare('SELECT s.secret_sealed FROM webhook_secrets s JOIN webhook_subscriptions w ON w.id = s.subscription_id AND w.secret_version = s.version WHERE w.id = ?').get(hook.id) as { secret_sealed: string };
      expect(second.ctx.secrets.open(moved.secret_sealed).toString('utf8')).toBe(hook.secret);
      expect((await get(`/api/ledger/journal?entityId=${owner.entityId}&from=2025-02-01T00:00:00.000Z`)).total).toBe(2);
      expect(await get(`/api/ledger/reports/profit-and-loss?entityId=${owner.entityId}&from=2025-01-20T00:00:00.000Z&to=2025-03-15T10:00:00.000Z`)).toEqual(pl);
      expect((await get('/api/helpdesk/tickets?q=replacement')).map((t: { id: string }) => t.id)).toEqual([ticket.id]);
      expect((await get('/api/helpdesk/tickets?q=leaks')).map((t: { id: string }) => t.id)).toEqual([ticket.id]);
      // 0027: the ledger index from the events there, the documents' from their names (the text is read again from the PDF).
      expect((await get('/api/ledger/events?q=123456789012345678901')).events.map((e: { id: string }) => e.id)).toEqual([invoiceIds[1]]);
      expect((await get('/api/documents?q=kettle')).map((d: { id: string }) => d.id)).toEqual([manual.id]);
      await second.ctx.loops.runAll();
      expect((await get('/api/documents?q=descaling')).map((d: { id: string }) => d.id)).toEqual([manual.id]);
    } finally {
      await second.close();
    }
  });
});
