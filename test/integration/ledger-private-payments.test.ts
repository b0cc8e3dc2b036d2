// Private payments are booked for what they were: a bill, an expense, a drawing, one of our own
// businesses — or a clearing account until someone says. No Accounts payable or receivable
// balance appears without a bill or an invoice behind it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { recordInternal, trialBalanceIsZero } from './ledger-helpers.js';

let server: TestServer;
let c: SessionClient;
beforeAll(async () => {
  server = await startTestServer();
  c = await server.signup();
});
afterAll(() => server.close());

const lines = async (eventId: string) => {
  const ev = await c.get(`/api/ledger/events/${eventId}`);
  const posting = ev.body.entries.find((e: { kind: string }) => e.kind === 'posting');
  return posting.lines.map((l: { accountCode: string; side: string; amount: string }) => `${l.side} ${l.accountCode} ${l.amount}`);
};
const sent = (extra: Record<string, unknown> = {}) => ({ type: 'private_payment_sent', payload: { currency: 'ETH/18', amount: '0.25', method: 'private_send', ...extra } });
const received = (extra: Record<string, unknown> = {}) => ({ type: 'private_payment_received', payload: { currency: 'ETH/18', amount: '0.4', ...extra } });

describe('private payments in the books', () => {
  it('a payment nobody said anything about waits in Uncategorised payments, not Accounts payable', async () => {
    expect(await lines((await recordInternal(server, c.entityId, sent())).id)).toEqual(['debit 1900 0.250000000000000000', 'credit 1310 0.250000000000000000']);
  });

  it('a receipt waits in Uncategorised receipts, not Accounts receivable', async () => {
    expect(await lines((await recordInternal(server, c.entityId, received())).id)).toEqual(['debit 1310 0.400000000000000000', 'credit 2900 0.400000000000000000']);
  });

  it('a bill settles Accounts payable; an invoice settles Accounts receivable', async () => {
    expect(await lines((await recordInternal(server, c.entityId, sent({ billNumber: 'B-7' }))).id)).toEqual(['debit 2000 0.250000000000000000', 'credit 1310 0.250000000000000000']);
    expect(await lines((await recordInternal(server, c.entityId, received({ invoiceNumber: 'INV-7' }))).id)).toEqual(['debit 1310 0.400000000000000000', 'credit 1100 0.400000000000000000']);
  });

  it('saying what an uncategorised receipt was rebooks it under the same type', async () => {
    const ev = await recordInternal(server, c.entityId, received());
    const res = await c.post('/api/ledger/events/batch-reclassify', { eventIds: [ev.id], newEventType: 'private_payment_received', payloads: { [ev.id]: { ...ev.payload, counterAccount: '3000' } } });
    expect(res.body.results[0]).toMatchObject({ success: true });
    expect(await lines(res.body.results[0].newEventId)).toEqual(['debit 1310 0.400000000000000000', 'credit 3000 0.400000000000000000']);
    // Without a payload, the same type is still refused: nothing would change.
    const again = await c.post('/api/ledger/events/batch-reclassify', { eventIds: [res.body.results[0].newEventId], newEventType: 'private_payment_received' });
    expect(again.body.results[0]).toMatchObject({ success: false, message: 'Event is already of type private_payment_received' });
    expect(await trialBalanceIsZero(c)).toBe(true);
  });

  it('the clearing, drawing and own-business accounts are in every chart', async () => {
    const codes = (await c.get('/api/ledger/accounts')).body.map((a: { code: string }) => a.code);
    expect(codes).toEqual(expect.arrayContaining(['1150', '1900', '2900', '3200']));
  });

  it('are recorded by Bureau itself: the API refuses them by hand, the catalogue says so', async () => {
    const res = await c.post('/api/ledger/events', sent());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/recorded by Bureau itself/);
    const batch = await c.post('/api/ledger/events/batch', { events: [received()] });
    expect(batch.body.results[0].status).toBe(400);
    const types = (await c.get('/api/ledger/event-types')).body as { type: string; recordable: boolean }[];
    const flags = Object.fromEntries(types.map((t) => [t.type, t.recordable]));
    expect(flags).toMatchObject({ private_payment_sent: false, private_payment_received: false, transfer_shielded: false, chain_reset: false, relayer_gas_paid: false, invoice_created: true, expense_recorded: true, owner_contribution: true });
  });

  it('a chart seeded before they existed gets them on its next use', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-chart-upgrade-'));
    let s = await startTestServer({ dataDir });
    try {
      const d = await s.signup();
      await d.get('/api/ledger/accounts');
      // As an older version seeded it.
      s.ctx.sqlite.prepare("delete from ledger_accounts where entity_id = ? and code in ('1150', '1900', '2900', '3200')").run(d.entityId);
      await s.close();
      s = await startTestServer({ dataDir });
      const again = makeClient(s.url, { cookie: d.cookie, origin: s.url, 'x-entity-id': d.entityId }) as SessionClient;
      const ev = recordInternal(s, d.entityId, sent());
      expect(ev.postingStatus).toBe('posted');
      const codes = (await again.get('/api/ledger/accounts')).body.map((a: { code: string }) => a.code);
      expect(codes).toEqual(expect.arrayContaining(['1150', '1900', '2900', '3200']));
    } finally {
      await s.close();
    }
  });
});
