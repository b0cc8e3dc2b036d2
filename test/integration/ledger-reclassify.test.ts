import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { invoice, postEvent, recordInternal, trialBalanceIsZero } from './ledger-helpers.js';

let server: TestServer;
let c: SessionClient;
beforeAll(async () => {
  server = await startTestServer();
  c = await server.signup();
});
afterAll(() => server.close());

const reclassify = (client: SessionClient, eventIds: string[], newEventType: string) => client.post('/api/ledger/events/batch-reclassify', { eventIds, newEventType });

describe('POST /api/ledger/events/batch-reclassify', () => {
  it('reverses and reposts good events and reports each bad one without affecting the others', async () => {
    const good = await postEvent(c, invoice('100.00', '20.00'));
    const failed = await postEvent(c, { type: 'invoice_created', payload: { currency: 'USD' } });
    const unposted = await postEvent(c, { type: 'quote_issued', payload: { quoteNumber: 'Q', currency: 'USD', amount: '1' } });
    const other = await server.signup();
    const foreign = await postEvent(other, invoice());
    const missing = crypto.randomUUID();

    const res = await reclassify(c, [good.id, failed.id, unposted.id, foreign.id, missing], 'payment_received');
    expect(res.status).toBe(200);
    expect(res.body.summary).toEqual({ total: 5, succeeded: 1, failed: 4 });
    const byId = Object.fromEntries(res.body.results.map((r: any) => [r.eventId, r]));
    expect(byId[good.id]).toMatchObject({ success: true, newEventId: expect.any(String) });
    expect(byId[failed.id]).toMatchObject({ success: false, message: 'Only posted events can be reclassified (status is failed)' });
    expect(byId[unposted.id]).toMatchObject({ success: false, message: 'Only posted events can be reclassified (status is unposted)' });
    expect(byId[foreign.id]).toMatchObject({ success: false, message: 'Event not found' });
    expect(byId[missing]).toMatchObject({ success: false, message: 'Event not found' });
    expect(res.body.results.map((r: any) => r.eventId)).toEqual([good.id, failed.id, unposted.id, foreign.id, missing]);

    const original = await c.get(`/api/ledger/events/${good.id}`);
    expect(original.body).toMatchObject({ postingStatus: 'reversed', reclassifiedTo: byId[good.id].newEventId });
    expect(original.body.entries.map((e: any) => e.kind)).toEqual(['posting', 'reversal']);
    const replacement = await c.get(`/api/ledger/events/${byId[good.id].newEventId}`);
    expect(replacement.body).toMatchObject({ type: 'payment_received', postingStatus: 'posted', reclassifiedFrom: good.id, payload: good.payload, timestamp: good.timestamp });
    expect(replacement.body.entries[0].lines.map((l: any) => [l.accountCode, l.side, l.amount])).toEqual([
      ['1010', 'debit', '120.00'],
      ['4000', 'credit', '100.00'],
      ['2200', 'credit', '20.00'],
    ]);
    // The foreign entity's event is untouched.
    expect((await other.get(`/api/ledger/events/${foreign.id}`)).body.postingStatus).toBe('posted');
    const tb = await c.get('/api/ledger/trial-balance');
    const ar = tb.body.rows.find((r: any) => r.code === '1100');
    expect(ar.balance).toBe('0.00');
    expect(await trialBalanceIsZero(c)).toBe(true);
    const outbox = server.ctx.sqlite.prepare("select data from outbox where type = 'ledger.event.reversed'").all() as { data: string }[];
    expect(outbox.some((o) => JSON.parse(o.data).eventId === good.id)).toBe(true);
  });

  it('reports a payload invalid for the new type and leaves the original posted', async () => {
    const ev = await postEvent(c, invoice());
    const res = await reclassify(c, [ev.id], 'invoice_paid');
    expect(res.body.summary).toEqual({ total: 1, succeeded: 0, failed: 1 });
    expect(res.body.results[0].message).toMatch(/^Invoice paid needs more than this event has: Needs amount$/);
    const after = await c.get(`/api/ledger/events/${ev.id}`);
    expect(after.body.postingStatus).toBe('posted');
    expect(after.body.entries).toHaveLength(1);
  });

  it('refuses events already reversed, of the same type, or pending approval', async () => {
    const reversed = await postEvent(c, invoice());
    await c.post(`/api/ledger/events/${reversed.id}/reverse`, {});
    const same = await postEvent(c, { type: 'payment_received', payload: { currency: 'USD', netAmount: '5' } });
    const owner = await server.signup();
    await owner.put('/api/ledger/settings', { approvalThresholds: { USD: '1' } });
    const held = await postEvent(owner, invoice());
    expect((await reclassify(c, [reversed.id, same.id], 'payment_received')).body.results.map((r: any) => r.message)).toEqual([
      'Event is already reversed',
      'Event is already of type payment_received',
    ]);
    expect((await reclassify(owner, [held.id], 'payment_received')).body.results[0].message).toBe('Only posted events can be reclassified (status is pending_approval)');
  });

  it('refuses a bad request as a whole with 400', async () => {
    const ev = await postEvent(c, invoice());
    expect((await reclassify(c, [ev.id], 'nonsense_type')).status).toBe(400);
    const noRule = await reclassify(c, [ev.id], 'quote_issued');
    expect(noRule.status).toBe(400);
    expect(noRule.body.error).toMatch(/no posting rule/);
    expect((await reclassify(c, [], 'payment_received')).status).toBe(400);
    expect((await reclassify(c, [ev.id, ev.id], 'payment_received')).status).toBe(400);
    expect((await reclassify(c, ['not-a-uuid'], 'payment_received')).status).toBe(400);
    expect((await c.post('/api/ledger/events/batch-reclassify', { eventIds: [ev.id] })).status).toBe(400);
  });
});

describe('retry after a crash mid-batch', () => {
  it('never reverses twice: finished events report their earlier result, the rest are done', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-ledger-crash-'));
    let s = await startTestServer({ dataDir });
    try {
      const owner = await s.signup();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await postEvent(owner, invoice(`${10 + i}.00`, '1.00'))).id);
      // The batch got through the first event, then the process died.
      const partial = await reclassify(owner, ids.slice(0, 1), 'payment_received');
      expect(partial.body.summary.succeeded).toBe(1);
      const firstNewId = partial.body.results[0].newEventId;
      await s.close();

      s = await startTestServer({ dataDir });
      const again = makeClient(s.url, { cookie: owner.cookie, origin: s.url, 'x-entity-id': owner.entityId }) as SessionClient;
      const retry = await reclassify(again, ids, 'payment_received');
      expect(retry.status).toBe(200);
      expect(retry.body.summary).toEqual({ total: 3, succeeded: 3, failed: 0 });
      expect(retry.body.results[0]).toMatchObject({ success: true, newEventId: firstNewId, message: 'Already reclassified as payment_received' });

      const journalSize = async () => (await again.get('/api/ledger/journal?pageSize=200')).body.total;
      const before = await journalSize();
      expect(before).toBe(3 * 3); // per event: posting, reversal, new posting
      const third = await reclassify(again, ids, 'payment_received');
      expect(third.body.results.map((r: any) => r.newEventId)).toEqual(retry.body.results.map((r: any) => r.newEventId));
      expect(await journalSize()).toBe(before);
      for (const id of ids) expect((await again.get(`/api/ledger/journal?eventId=${id}`)).body.total).toBe(2);
      // Reclassifying to another type after that is a failure, not a second reversal.
      expect((await reclassify(again, ids.slice(0, 1), 'owner_contribution')).body.results[0].message).toBe('Event is already reversed');
      expect(await trialBalanceIsZero(again)).toBe(true);
    } finally {
      await s.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('balances a correction must not make impossible', () => {
  it('refuses, per event, to drive a receivable below zero (the invoice was already paid) unless forced', async () => {
    const owner = await server.signup();
    const paidInvoice = await postEvent(owner, { type: 'invoice_created', payload: { invoiceNumber: 'INV-42', currency: 'EUR', netAmount: '5000.00', taxAmount: '1050.00' } });
    await postEvent(owner, { type: 'invoice_paid', payload: { invoiceNumber: 'INV-42', currency: 'EUR', amount: '6050.00' } });
    const openInvoice = await postEvent(owner, invoice('100.00', '0.00'));
    const receivable = async (currency: string) => (await owner.get('/api/ledger/trial-balance')).body.rows.find((r: any) => r.code === '1100' && r.currency === currency)?.balance;

    const res = await reclassify(owner, [paidInvoice.id, openInvoice.id], 'payment_received');
    expect(res.status).toBe(200);
    expect(res.body.summary).toEqual({ total: 2, succeeded: 1, failed: 1 });
    const refused = res.body.results[0];
    expect(refused).toMatchObject({ eventId: paidInvoice.id, success: false, impossibleBalances: [{ code: '1100', name: 'Accounts receivable', currency: 'EUR', balance: '-6050.00' }] });
    expect(refused.message).toMatch(/Would leave Accounts receivable \(1100\) at -6050.00 EUR .*force/);
    expect(res.body.results[1]).toMatchObject({ eventId: openInvoice.id, success: true });
    // Nothing of the refused correction stays: the event is still posted, the receivable settled.
    expect((await owner.get(`/api/ledger/events/${paidInvoice.id}`)).body.postingStatus).toBe('posted');
    expect(await receivable('EUR')).toBe('0.00');

    expect((await owner.post('/api/ledger/events/batch-reclassify', { eventIds: [paidInvoice.id], newEventType: 'payment_received', force: 'yes' })).status).toBe(400);
    const forced = await owner.post('/api/ledger/events/batch-reclassify', { eventIds: [paidInvoice.id], newEventType: 'payment_received', force: true });
    expect(forced.body.results[0]).toMatchObject({ success: true });
    expect(await receivable('EUR')).toBe('-6050.00');
    expect(await trialBalanceIsZero(owner)).toBe(true);
  });
});

describe('reclassifying to a type that needs other fields', () => {
  const privatePayment = { type: 'private_payment_sent', payload: { currency: 'ETH/18', amount: '0.25', fee: '0.001', method: 'private_send' } };

  it('names the fields the new type needs instead of a raw validation message, and changes nothing', async () => {
    const sent = recordInternal(server, c.entityId, privatePayment);
    const res = await reclassify(c, [sent.id], 'expense_recorded');
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ success: false, message: 'Expense recorded needs more than this event has: Needs description, net amount' });
    expect((await c.get(`/api/ledger/events/${sent.id}`)).body.postingStatus).toBe('posted');
  });

  it('posts the new type with the payload given for the event', async () => {
    const sent = recordInternal(server, c.entityId, privatePayment);
    const payload = { description: 'Hosting, one year', currency: 'ETH/18', netAmount: '0.25', paymentAccount: '1310' };
    const res = await c.post('/api/ledger/events/batch-reclassify', { eventIds: [sent.id], newEventType: 'expense_recorded', payloads: { [sent.id]: payload } });
    expect(res.body.results[0]).toMatchObject({ success: true });
    const replacement = await c.get(`/api/ledger/events/${res.body.results[0].newEventId}`);
    expect(replacement.body).toMatchObject({ type: 'expense_recorded', postingStatus: 'posted', payload, reclassifiedFrom: sent.id });
    expect(await trialBalanceIsZero(c)).toBe(true);
  });

  it('says which fields of a given payload are wrong', async () => {
    const sent = recordInternal(server, c.entityId, privatePayment);
    const res = await c.post('/api/ledger/events/batch-reclassify', { eventIds: [sent.id], newEventType: 'expense_recorded', payloads: { [sent.id]: { currency: 'ETH/18', netAmount: 'lots' } } });
    expect(res.body.results[0].success).toBe(false);
    expect(res.body.results[0].message).toMatch(/^Expense recorded payload: Needs description; net amount: /);
  });

  it('refuses payloads for events it was not asked to reclassify', async () => {
    const sent = recordInternal(server, c.entityId, privatePayment);
    const res = await c.post('/api/ledger/events/batch-reclassify', { eventIds: [sent.id], newEventType: 'expense_recorded', payloads: { [crypto.randomUUID()]: {} } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/payloads/);
  });

  it('lists each type with the side of the business it is about', async () => {
    const types = (await c.get('/api/ledger/event-types')).body as { type: string; flow: string }[];
    const flow = Object.fromEntries(types.map((t) => [t.type, t.flow]));
    expect(flow).toMatchObject({ private_payment_sent: 'out', expense_recorded: 'out', bill_received: 'out', invoice_created: 'in', payment_received: 'in', transfer_shielded: 'internal', quote_issued: 'none' });
  });

  it('says "Required" for a field left empty when checking a form', async () => {
    const check = await c.post('/api/ledger/events/check', { type: 'expense_recorded', payload: { currency: 'USD' } });
    expect(check.body.outcome).toBe('failed');
    expect(check.body.errors).toEqual(expect.arrayContaining([{ path: ['description'], message: 'Required' }, { path: ['netAmount'], message: 'Required' }]));
  });
});
