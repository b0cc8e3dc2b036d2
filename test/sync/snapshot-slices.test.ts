// A joining device applies a large snapshot in slices with the event loop running between them:
// what the API's thread sees meanwhile (read from a callback that runs once per turn of the loop)
// is part of the rows, never all of them while the link still asks for its snapshot. A failure
// before the last step leaves the link asking for a snapshot; the next cycle takes it whole and
// converges, and what the device wrote meanwhile is kept and reaches the hosted instance.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { write } from '../../server/db/write.js';
import { runCycle } from '../../server/sync/engine.js';
import { SLICE_ROWS } from '../../server/sync/snapshot-apply.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { call, type Device, link } from '../hosted/client.js';

/** More rows than three slices hold. */
const TICKETS = 3 * SLICE_ROWS + 7;

let hosted: RunningHosted;
let device: TestServer;
const hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-sync-slices-'));

function ticket(entityId: string, id: string, n: number) {
  const now = new Date().toISOString();
  return {
    id, entity_id: entityId, ticket_number: `SL-${n}`, provisional_number: null, subject: `Ticket ${n}`, description: null, status: 'new', priority: 'normal', channel: 'api',
    contact_email: null, contact_name: null, category_id: null, created_by: null, assigned_to: null, search_text: `ticket ${n}`,
    created_at: now, updated_at: now, first_response_at: null, resolved_at: null, closed_at: null,
  };
}

/** A new entity on the hosted instance with TICKETS tickets, and an add-device code for it. */
async function entityWithTickets() {
  const { device: writer, input } = await link(hosted.url);
  const entityId = writer.enrolment.entity.id;
  for (let n = 0; n < TICKETS; ) {
    const changes = [];
    for (; changes.length < 500 && n < TICKETS; n += 1) changes.push(writer.change('helpdesk_tickets', uuidv4(), ticket(entityId, uuidv4(), n)));
    // The row id is the ticket's id.
    for (const c of changes) c.rowId = (c.columns as { id: string }).id;
    const pushed = await writer.push(changes);
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
  }
  const code = await call(hosted.url, 'POST', '/sync/v1/devices/codes', { token: writer.token });
  return { writer, input, entityId, code: code.body.code as string };
}

interface Seen {
  tickets: number;
  needsSnapshot: number | null;
}

/**
 * Reads the entity's ticket count and its link's flag once per turn of the event loop (a chain of
 * setImmediate), calling `onPartial` the first time part of the rows is there.
 */
function watch(entityId: string, onPartial?: () => void) {
  const seen: Seen[] = [];
  let stopped = false;
  let partial = false;
  const count = device.ctx.sqlite.prepare<[string], { n: number }>('SELECT count(*) AS n FROM helpdesk_tickets WHERE entity_id = ?');
  const flag = device.ctx.sqlite.prepare<[string], { needs_snapshot: number }>('SELECT needs_snapshot FROM sync_links WHERE entity_id = ?');
  const turn = () => {
    if (stopped) return;
    const tickets = count.get(entityId)!.n;
    seen.push({ tickets, needsSnapshot: flag.get(entityId)?.needs_snapshot ?? null });
    if (!partial && tickets > 0 && tickets < TICKETS) {
      partial = true;
      onPartial?.();
    }
    setImmediate(turn);
  };
  setImmediate(turn);
  return {
    stop() {
      stopped = true;
      return seen;
    },
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

describe('a large snapshot is applied in slices', () => {
  it('the event loop runs while the rows go in; the link asks for its snapshot until all are in', async () => {
    const { input, entityId, code } = await entityWithTickets();
    const watching = watch(entityId);
    const joined = await device.anon.post('/api/sync/join', { hostedUrl: hosted.url, code, email: input.email, password: input.password });
    const seen = watching.stop();
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);

    const partial = seen.filter((s) => s.tickets > 0 && s.tickets < TICKETS);
    // Before: one transaction, so the loop saw no tickets, then all of them.
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.every((s) => s.needsSnapshot === 1)).toBe(true);
    // Never all the rows and the link done before the cursor moved.
    expect(seen.filter((s) => s.needsSnapshot === 0).every((s) => s.tickets === TICKETS)).toBe(true);
    const count = device.ctx.sqlite.prepare('SELECT count(*) AS n FROM helpdesk_tickets WHERE entity_id = ?').get(entityId) as { n: number };
    expect(count.n).toBe(TICKETS);
    const stamps = device.ctx.sqlite.prepare("SELECT count(DISTINCT row_id) AS n FROM sync_stamps WHERE table_name = 'helpdesk_tickets' AND row_id IN (SELECT id FROM helpdesk_tickets WHERE entity_id = ?)").get(entityId) as { n: number };
    expect(stamps.n).toBe(TICKETS);
    const linkRow = device.ctx.sqlite.prepare('SELECT needs_snapshot, cursor, last_error FROM sync_links WHERE entity_id = ?').get(entityId) as { needs_snapshot: number; cursor: number; last_error: string | null };
    expect(linkRow).toMatchObject({ needs_snapshot: 0, last_error: null });
    expect(linkRow.cursor).toBeGreaterThan(0);
  }, 180_000);

  it('a failure midway leaves the link asking for a snapshot; the next cycle converges and keeps what the device wrote meanwhile', async () => {
    const { writer, input, entityId, code } = await entityWithTickets();
    let edited: string | null = null;
    const watching = watch(entityId, () => {
      // Part of the rows are in: this device edits one of them (captured as any local write), and
      // the last step (the cursor's move) is made to fail.
      edited = (device.ctx.sqlite.prepare('SELECT id FROM helpdesk_tickets WHERE entity_id = ? LIMIT 1').get(entityId) as { id: string }).id;
      write(device.ctx, () => device.ctx.sqlite.prepare('UPDATE helpdesk_tickets SET subject = ? WHERE id = ?').run('Edited here meanwhile', edited));
      device.ctx.sqlite.exec(`CREATE TEMP TRIGGER fail_snapshot_end BEFORE UPDATE OF needs_snapshot ON sync_links WHEN NEW.needs_snapshot = 0 BEGIN SELECT RAISE(ABORT, 'the last step fails'); END`);
    });
    const joined = await device.anon.post('/api/sync/join', { hostedUrl: hosted.url, code, email: input.email, password: input.password });
    watching.stop();
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    expect(edited).not.toBeNull();
    const linkOf = () => device.ctx.sqlite.prepare('SELECT needs_snapshot, last_error FROM sync_links WHERE entity_id = ?').get(entityId) as { needs_snapshot: number; last_error: string | null };
    expect(linkOf().needs_snapshot).toBe(1);
    expect(linkOf().last_error).not.toBeNull();

    device.ctx.sqlite.exec('DROP TRIGGER temp.fail_snapshot_end');
    await runCycle(device.ctx, entityId);
    expect(linkOf()).toMatchObject({ needs_snapshot: 0, last_error: null });
    const rows = device.ctx.sqlite.prepare('SELECT id, subject FROM helpdesk_tickets WHERE entity_id = ?').all(entityId) as { id: string; subject: string }[];
    expect(rows).toHaveLength(TICKETS);
    expect(rows.find((r) => r.id === edited)?.subject).toBe('Edited here meanwhile');
    expect(rows.filter((r) => r.subject.startsWith('Ticket ')).length).toBe(TICKETS - 1);
    // The edit reached the hosted instance.
    const log = (await (writer as Device).pullAll()).changes as { rowId: string; columns: Record<string, unknown> }[];
    expect(log.some((c) => c.rowId === edited && c.columns.subject === 'Edited here meanwhile')).toBe(true);
  }, 180_000);
});
