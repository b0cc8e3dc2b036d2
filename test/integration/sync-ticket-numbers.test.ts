// One ticket-number series per business across devices: tickets created on two devices before
// they sync carry provisional numbers, then get distinct final numbers in one series from the
// hosted instance; mail quoting either number threads; an owner sets the prefix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSyncPair, type SyncPair } from '../helpers/sync-pair.js';
import { ingestEmail } from '../../server/helpdesk/mail-in.js';
import { rfc822 } from './helpdesk-mail-helpers.js';
import type { Client } from '../helpers/server.js';

let pair: SyncPair;
beforeAll(async () => {
  // Tickets from before the link were numbered on device A in its own series (ACME-1001, -1002).
  pair = await startSyncPair('Acme Ltd', async (onA) => {
    for (const subject of ['Before one', 'Before two']) expect((await onA.post('/api/helpdesk/tickets', { subject })).status).toBe(201);
  });
}, 120_000);
afterAll(() => pair?.close());

type T = { id: string; ticketNumber: string; numberProvisional: boolean; subject: string };
const byId = async (c: Client) => new Map(((await c.get('/api/helpdesk/tickets')).body as T[]).map((t) => [t.id, t]));

describe('one ticket-number series per business', () => {
  const created: T[] = [];

  it('a ticket made before the link keeps its number from the local series', async () => {
    const tickets = [...(await byId(pair.onA)).values()];
    expect(tickets.map((t) => t.ticketNumber).sort()).toEqual(['ACME-1001', 'ACME-1002']);
    expect(tickets.every((t) => !t.numberProvisional)).toBe(true);
    expect((await pair.onA.get('/api/helpdesk/ticket-numbering')).body).toEqual({ prefix: 'ACME', chosen: false, assignedBy: 'hosted' });
  });

  it('tickets created on both devices before syncing are provisional, then final and distinct in one series', async () => {
    for (const [c, subject] of [[pair.onA, 'On A 1'], [pair.onB, 'On B 1'], [pair.onA, 'On A 2'], [pair.onB, 'On B 2']] as const) {
      const res = await c.post('/api/helpdesk/tickets', { subject, contactEmail: 'ada@customer.test' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ numberProvisional: true, ticketNumber: expect.stringMatching(/^ACME-[0-9A-Z]{5}-\d+$/) });
      created.push(res.body);
    }
    // Shown as provisional on the detail page too.
    expect((await pair.onB.get(`/api/helpdesk/tickets/${created[1].id}`)).body.numberProvisional).toBe(true);
    await pair.settle();
    const onA = await byId(pair.onA);
    const onB = await byId(pair.onB);
    const finals = created.map((t) => onA.get(t.id)!);
    expect(finals.every((t) => !t.numberProvisional)).toBe(true);
    expect(finals.map((t) => t.ticketNumber).sort()).toEqual(['ACME-1003', 'ACME-1004', 'ACME-1005', 'ACME-1006']);
    for (const t of finals) expect(onB.get(t.id)).toMatchObject({ ticketNumber: t.ticketNumber, numberProvisional: false });
    expect((await pair.onB.get(`/api/helpdesk/tickets/${created[1].id}`)).body.numberProvisional).toBe(false);
  });

  it('mail quoting the provisional number, or the final one, joins the ticket', async () => {
    const t = created[0];
    const final = (await byId(pair.onA)).get(t.id)!.ticketNumber;
    const viaProvisional = await ingestEmail(pair.a.ctx, pair.onA.entityId, await rfc822({ from: 'ada@customer.test', subject: `Re: [#${t.ticketNumber}] On A 1`, text: 'Still broken.' }));
    expect(viaProvisional).toMatchObject({ outcome: 'appended', ticketId: t.id });
    const viaFinal = await ingestEmail(pair.b.ctx, pair.onA.entityId, await rfc822({ from: 'ada@customer.test', subject: `Re: [#${final}] On A 1`, text: 'And now?' }));
    expect(viaFinal).toMatchObject({ outcome: 'appended', ticketId: t.id });
  });

  it('an owner sets the prefix; new tickets everywhere use it, the series goes on', async () => {
    const put = await pair.onA.put('/api/helpdesk/ticket-numbering', { prefix: 'acx' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual({ prefix: 'ACX', chosen: true, assignedBy: 'hosted' });
    await pair.settle();
    expect((await pair.onB.get('/api/helpdesk/ticket-numbering')).body.prefix).toBe('ACX');
    const t = (await pair.onB.post('/api/helpdesk/tickets', { subject: 'After the rename' })).body;
    expect(t.ticketNumber).toMatch(/^ACX-[0-9A-Z]{5}-\d+$/);
    await pair.settle();
    expect((await byId(pair.onA)).get(t.id)).toMatchObject({ ticketNumber: 'ACX-1007', numberProvisional: false });
  });

  it.each([
    [{ prefix: 'A' }, 'prefix: must be 2 to 6'],
    [{ prefix: 'TOOLONGX' }, 'prefix: must be 2 to 6'],
    [{ prefix: '1ABC' }, 'prefix: must be 2 to 6'],
    [{ prefix: 'AB-C' }, 'prefix: must be 2 to 6'],
    [{}, 'prefix'],
  ])('refuses %j with 400', async (body, message) => {
    const res = await pair.onA.put('/api/helpdesk/ticket-numbering', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
  });
});
