// A new device's initial sync stores one row-wide stamp for a row whose columns all carry the same
// stamp (`sync_stamps.column = '*'`), and a stamp per column for any other row — a row that lacks
// a column this device has, too: a write to that column must still win here as it does on the
// hosted instance, where the cell has no stamp. Tested by what the joined device then holds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { makeClient, startTestServer, type TestServer } from '../helpers/server.js';
import { call, Device, link } from '../hosted/client.js';

let hosted: RunningHosted;
let device: TestServer;
const hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-sync-stamps-'));

function ticket(entityId: string, id: string, subject: string) {
  const now = new Date().toISOString();
  return {
    id, entity_id: entityId, ticket_number: `ST-${subject}`, provisional_number: null, subject, description: null, status: 'new', priority: 'normal', channel: 'api',
    contact_email: null, contact_name: null, category_id: null, created_by: null, assigned_to: null, search_text: subject.toLowerCase(),
    created_at: now, updated_at: now, first_response_at: null, resolved_at: null, closed_at: null,
  };
}

beforeAll(async () => {
  hosted = await startHosted({ port: 0, dataDir: hostedDir, logLevel: 'silent' });
  device = await startTestServer();
}, 60_000);

afterAll(async () => {
  await device?.close();
  await hosted?.close();
  fs.rmSync(hostedDir, { recursive: true, force: true });
});

describe('initial sync: row-wide and per-column stamps', () => {
  it('a row-wide stamp for a whole row, per-column stamps for a row without some columns; later writes resolve as on the hosted instance', async () => {
    const { device: writer, input } = await link(hosted.url);
    const entityId = writer.enrolment.entity.id;
    const whole = uuidv4();
    const partial = uuidv4();
    const { description: _description, contact_name: _contactName, ...withoutTwo } = ticket(entityId, partial, 'Partial');
    // An older device (a clock an hour behind) writes afterwards: its stamps are older than the rows'.
    const behind = new Device(hosted.url, writer.enrolment, () => Date.now() - 3_600_000);
    let pushed = await writer.push([writer.change('helpdesk_tickets', whole, ticket(entityId, whole, 'Whole')), writer.change('helpdesk_tickets', partial, withoutTwo)]);
    expect(pushed.status).toBe(200);

    const code = await call(hosted.url, 'POST', '/sync/v1/devices/codes', { token: writer.token });
    const joined = await device.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: code.body.code, email: input.email, password: input.password });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    const stamps = (rowId: string) => (device.ctx.sqlite.prepare('SELECT "column" FROM sync_stamps WHERE table_name = ? AND row_id = ? ORDER BY 1').all('helpdesk_tickets', rowId) as { column: string }[]).map((r) => r.column);
    expect(stamps(whole)).toEqual(['*']);
    expect(stamps(partial)).not.toContain('*');
    expect(stamps(partial)).toContain('subject');
    expect(stamps(partial)).not.toContain('description');

    // Older than every stamp of both rows: it loses where the cell has a stamp (the whole row's
    // subject, covered by its row-wide stamp), and wins where it has none (the partial row's description).
    pushed = await behind.push([
      behind.change('helpdesk_tickets', whole, { subject: 'Older subject', description: 'Older description' }),
      behind.change('helpdesk_tickets', partial, { subject: 'Older subject', description: 'Written late' }),
    ]);
    expect(pushed.status).toBe(200);
    const cookie = (joined.headers.get('set-cookie') ?? '').split(';')[0];
    const onDevice = makeClient(device.url, { cookie, origin: device.url, 'x-entity-id': entityId });
    expect((await onDevice.post('/api/sync/run', { entityId })).status).toBe(200);

    const rows = device.ctx.sqlite.prepare('SELECT id, subject, description FROM helpdesk_tickets WHERE id IN (?, ?)').all(whole, partial) as { id: string; subject: string; description: string | null }[];
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(byId[whole]).toMatchObject({ subject: 'Whole', description: null });
    expect(byId[partial]).toMatchObject({ subject: 'Partial', description: 'Written late' });
    const onHosted = (await writer.pullAll()).changes.length;
    expect(onHosted).toBe(4);
  });
});
