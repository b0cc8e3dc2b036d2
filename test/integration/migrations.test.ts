import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultMigrationsDir, openDatabase } from '../../server/db/open.js';
import { makeClient, startTestServer } from '../helpers/server.js';

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
    const first = await startTestServer({ dataDir });
    const owner = await first.signup();
    const ticket = (await owner.post('/api/helpdesk/tickets', { subject: 'ÜBER den Drucker' })).body;
    // As 0006 left it: subject and ticket number, lower-cased; and 0007 not yet applied.
    first.ctx.sqlite.prepare('update helpdesk_tickets set search_text = ? where id = ?').run(`über den drucker\n${ticket.ticketNumber.toLowerCase()}`, ticket.id);
    first.ctx.sqlite.prepare('delete from __drizzle_migrations where created_at = (select max(created_at) from __drizzle_migrations)').run();
    await first.close();
    const second = await startTestServer({ dataDir });
    try {
      const login = await second.anon.post('/api/auth/login', { email: owner.email, password: owner.password });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
      const client = makeClient(second.url, { cookie, 'x-entity-id': owner.entityId });
      const search = async (q: string) => (await client.get(`/api/helpdesk/tickets?search=${encodeURIComponent(q)}`)).body.map((t: { id: string }) => t.id);
      expect(await search('über DEN')).toEqual([ticket.id]);
      expect(await search(ticket.ticketNumber)).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
