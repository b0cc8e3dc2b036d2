import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultMigrationsDir, openDatabase } from '../../server/db/open.js';
import { startTestServer } from '../helpers/server.js';

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
});
