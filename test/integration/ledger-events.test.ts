import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { invoice, memberClient, postEvent, recordInternal, trialBalanceIsZero } from './ledger-helpers.js';

let server: TestServer;
let c: SessionClient;
beforeAll(async () => {
  server = await startTestServer();
  c = await server.signup();
});
afterAll(() => server.close());

describe('POST /api/ledger/events', () => {
  it('posts an invoice as a balanced journal entry and records the domain event', async () => {
    const res = await c.post('/api/ledger/events', { ...invoice('100.00', '20.00'), source: 'billing', correlationId: 'order-1', metadata: { note: 'first' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ entityId: c.entityId, type: 'invoice_created', postingStatus: 'posted', postingError: null, source: 'billing', correlationId: 'order-1', schemaVersion: '1', metadata: { note: 'first' } });
    const detail = await c.get(`/api/ledger/events/${res.body.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.entries).toHaveLength(1);
    const lines = detail.body.entries[0].lines.map((l: any) => [l.accountCode, l.side, l.amount, l.currency]);
    expect(lines).toEqual([
      ['1100', 'debit', '120.00', 'USD'],
      ['4000', 'credit', '100.00', 'USD'],
      ['2200', 'credit', '20.00', 'USD'],
    ]);
    const outbox = server.ctx.sqlite.prepare("select type, data from outbox where entity_id = ? and type like 'ledger.%'").all(c.entityId) as { type: string; data: string }[];
    expect(outbox.some((o) => o.type === 'ledger.event.posted' && JSON.parse(o.data).eventId === res.body.id)).toBe(true);
  });

  it('defaults source to "ui" for sessions and timestamp to now; keeps a given timestamp in UTC', async () => {
    const a = await postEvent(c, invoice());
    expect(a.source).toBe('ui');
    const b = await postEvent(c, { ...invoice(), timestamp: '2026-03-01T10:00:00+02:00' });
    expect(b.timestamp).toBe('2026-03-01T08:00:00.000Z');
    const entries = await c.get(`/api/ledger/journal?eventId=${b.id}`);
    expect(entries.body.entries[0].effectiveAt).toBe('2026-03-01T08:00:00.000Z');
  });

  it('stores an event with an invalid payload as failed, with a human postingError, and posts nothing', async () => {
    const ev = await postEvent(c, { type: 'invoice_created', payload: { invoiceNumber: 'X', currency: 'USD', netAmount: '-5' } });
    expect(ev.postingStatus).toBe('failed');
    expect(ev.postingError).toMatch(/netAmount/);
    const j = await c.get(`/api/ledger/journal?eventId=${ev.id}`);
    expect(j.body.total).toBe(0);
    const outbox = server.ctx.sqlite.prepare("select data from outbox where type = 'ledger.event.failed'").all() as { data: string }[];
    expect(outbox.some((o) => JSON.parse(o.data).eventId === ev.id)).toBe(true);
  });

  it('fails amounts with more decimals than the currency has, and unknown currencies', async () => {
    const yen = await postEvent(c, { type: 'invoice_paid', payload: { invoiceNumber: 'J1', currency: 'JPY', amount: '10.5' } });
    expect(yen.postingStatus).toBe('failed');
    expect(yen.postingError).toMatch(/more than 0 decimals/);
    const bad = await postEvent(c, { type: 'invoice_paid', payload: { invoiceNumber: 'J1', currency: 'XYZW', amount: '10' } });
    expect(bad.postingStatus).toBe('failed');
    expect(bad.postingError).toMatch(/currency/);
    const eth = recordInternal(server, c.entityId, { type: 'transfer_shielded', payload: { direction: 'shield', currency: 'ETH/18', amount: '0.000000000000000001', fee: '0.5' } });
    expect(eth.postingStatus).toBe('posted');
  });

  it('fails when the rule names an account that is not in the chart', async () => {
    const ev = await postEvent(c, { type: 'expense_recorded', payload: { description: 'Lunch', currency: 'USD', netAmount: '12.00', expenseAccount: '9999' } });
    expect(ev).toMatchObject({ postingStatus: 'failed', postingError: 'Account 9999 is not in the chart of accounts' });
  });

  it('fails an unsupported schemaVersion', async () => {
    const ev = await postEvent(c, { ...invoice(), schemaVersion: '7' });
    expect(ev.postingStatus).toBe('failed');
    expect(ev.postingError).toMatch(/schemaVersion "7" is not supported/);
  });

  it('records types without posting rules as unposted', async () => {
    const ev = await postEvent(c, { type: 'quote_issued', payload: { quoteNumber: 'Q1', currency: 'USD', amount: '10.00' } });
    expect(ev.postingStatus).toBe('unposted');
    expect((await c.get(`/api/ledger/journal?eventId=${ev.id}`)).body.total).toBe(0);
  });

  it('refuses an unknown type and malformed bodies with 400', async () => {
    const unknown = await c.post('/api/ledger/events', { type: 'invoice_teleported', payload: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/Unknown event type "invoice_teleported"/);
    expect((await c.post('/api/ledger/events', { payload: {} })).status).toBe(400);
    const notObject = await c.post('/api/ledger/events', { type: 'invoice_created', payload: 'hello' });
    expect(notObject.status).toBe(400);
    expect(notObject.body.details[0].path).toBe('payload');
    expect((await c.post('/api/ledger/events', { ...invoice(), timestamp: 'yesterday' })).status).toBe(400);
  });

  it('returns the original event for a replay with the same idempotencyKey, and 409 for different input', async () => {
    const body = { ...invoice('10.00', '0'), idempotencyKey: 'import-42' };
    const first = await c.post('/api/ledger/events', body);
    expect(first.status).toBe(201);
    const again = await c.post('/api/ledger/events', body);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await c.get(`/api/ledger/journal?eventId=${first.body.id}`)).body.total).toBe(1);
    const different = await c.post('/api/ledger/events', { ...body, payload: { ...body.payload, netAmount: '11.00' } });
    expect(different.status).toBe(409);
    expect(different.body.error).toMatch(/idempotencyKey/);
    // Keys are per entity: another entity may use the same key.
    const other = await server.signup();
    expect((await other.post('/api/ledger/events', body)).status).toBe(201);
  });

  it('posts every example payload of the event-type catalogue as-is', async () => {
    const types = await c.get('/api/ledger/event-types');
    expect(types.status).toBe(200);
    expect(types.body.length).toBeGreaterThanOrEqual(10);
    for (const t of types.body) {
      expect(t.payloadSchema.type).toBe('object');
      // Types Bureau records itself are refused by hand: their examples post as the wallet records them.
      const ev = t.recordable ? await postEvent(c, { type: t.type, payload: t.example }) : recordInternal(server, c.entityId, { type: t.type, payload: t.example });
      expect([t.type, ev.postingStatus, ev.postingError]).toEqual([t.type, t.posts ? 'posted' : 'unposted', null]);
    }
    expect(await trialBalanceIsZero(c)).toBe(true);
  });
});

describe('approval', () => {
  let owner: SessionClient;
  beforeAll(async () => {
    owner = await server.signup();
    const set = await owner.put('/api/ledger/settings', { approvalThresholds: { USD: '1000.00' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ approvalThresholds: { USD: '1000.00' }, requireSeparateApprover: false });
  });

  it('holds events at or above the threshold and posts the others', async () => {
    expect((await postEvent(owner, invoice('999.99', '0'))).postingStatus).toBe('posted');
    const held = await postEvent(owner, invoice('900.00', '100.00'));
    expect(held.postingStatus).toBe('pending_approval');
    expect((await owner.get(`/api/ledger/journal?eventId=${held.id}`)).body.total).toBe(0);
    // Other currencies have no threshold.
    expect((await postEvent(owner, { type: 'invoice_paid', payload: { invoiceNumber: 'E', currency: 'EUR', amount: '50000' } })).postingStatus).toBe('posted');
  });

  it('approve posts a held event; approving or rejecting it again is 409', async () => {
    const held = await postEvent(owner, invoice('5000.00', '0'));
    const ok = await owner.post(`/api/ledger/events/${held.id}/approve`, {});
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ postingStatus: 'posted', decidedBy: owner.user.id });
    expect((await owner.get(`/api/ledger/journal?eventId=${held.id}`)).body.total).toBe(1);
    const twice = await owner.post(`/api/ledger/events/${held.id}/approve`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatch(/pending approval/);
    expect((await owner.post(`/api/ledger/events/${held.id}/reject`, {})).status).toBe(409);
  });

  it('reject fails a held event with the reason and posts nothing', async () => {
    const held = await postEvent(owner, invoice('5000.00', '0'));
    const res = await owner.post(`/api/ledger/events/${held.id}/reject`, { reason: 'duplicate invoice' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ postingStatus: 'failed', postingError: 'Rejected: duplicate invoice' });
    expect((await owner.get(`/api/ledger/journal?eventId=${held.id}`)).body.total).toBe(0);
    expect((await owner.post(`/api/ledger/events/${held.id}/approve`, {})).status).toBe(409);
  });

  it('approving an event whose account was archived meanwhile makes it failed', async () => {
    const acc = await owner.post('/api/ledger/accounts', { code: '4150', name: 'Consulting revenue', type: 'revenue' });
    const held = await postEvent(owner, { ...invoice('2000.00', '0'), payload: { ...invoice().payload, netAmount: '2000.00', taxAmount: '0', revenueAccount: '4150' } });
    expect(held.postingStatus).toBe('pending_approval');
    expect((await owner.patch(`/api/ledger/accounts/${acc.body.id}`, { archived: true })).status).toBe(200);
    const res = await owner.post(`/api/ledger/events/${held.id}/approve`, {});
    expect(res.body).toMatchObject({ postingStatus: 'failed', postingError: 'Account 4150 (Consulting revenue) is archived' });
  });

  it('four-eyes rule: whoever recorded a held event cannot approve it; another approver can', async () => {
    const set = await owner.put('/api/ledger/settings', { approvalThresholds: { USD: '1000.00' }, requireSeparateApprover: true });
    expect(set.body.requireSeparateApprover).toBe(true);
    // Omitting the flag leaves it as it is.
    expect((await owner.put('/api/ledger/settings', { approvalThresholds: { USD: '1000.00' } })).body.requireSeparateApprover).toBe(true);
    const held = await postEvent(owner, invoice('5000.00', '0'));
    expect(held.recordedBy).toEqual({ type: 'user', id: owner.user.id, name: expect.any(String) });
    const self = await owner.post(`/api/ledger/events/${held.id}/approve`, {});
    expect(self.status).toBe(403);
    expect(self.body.error).toMatch(/another approver/);
    const admin = await memberClient(server, owner, 'admin');
    const ok = await admin.post(`/api/ledger/events/${held.id}/approve`, {});
    expect(ok.status).toBe(200);
    expect(ok.body.postingStatus).toBe('posted');
    await owner.put('/api/ledger/settings', { approvalThresholds: { USD: '1000.00' }, requireSeparateApprover: false });
  });

  it('refuses bad thresholds and unknown ids', async () => {
    expect((await owner.put('/api/ledger/settings', { approvalThresholds: { USD: '1.234' } })).status).toBe(400);
    expect((await owner.put('/api/ledger/settings', { approvalThresholds: { ZZZ: '1' } })).status).toBe(400);
    expect((await owner.post(`/api/ledger/events/${crypto.randomUUID()}/approve`, {})).status).toBe(404);
  });
});

describe('reverse', () => {
  it('reverses a posted event once; the journal nets to zero', async () => {
    const ev = await postEvent(c, invoice('70.00', '7.00'));
    const res = await c.post(`/api/ledger/events/${ev.id}/reverse`, { reason: 'entered twice' });
    expect(res.status).toBe(200);
    expect(res.body.postingStatus).toBe('reversed');
    const detail = await c.get(`/api/ledger/events/${ev.id}`);
    const [posting, reversal] = detail.body.entries;
    expect(reversal).toMatchObject({ kind: 'reversal', reversesEntryId: posting.id });
    // Who reversed it and why stay in the journal.
    expect(reversal.description).toMatch(/\(entered twice, by .+\)$/);
    expect(reversal.lines.map((l: any) => [l.accountCode, l.side, l.amount])).toEqual(posting.lines.map((l: any) => [l.accountCode, l.side === 'debit' ? 'credit' : 'debit', l.amount]));
    expect((await c.post(`/api/ledger/events/${ev.id}/reverse`, {})).status).toBe(409);
    const failed = await postEvent(c, { type: 'invoice_created', payload: {} });
    expect((await c.post(`/api/ledger/events/${failed.id}/reverse`, {})).status).toBe(409);
    expect(await trialBalanceIsZero(c)).toBe(true);
  });

  it('keeps journal rows append-only in the database itself', () => {
    expect(() => server.ctx.sqlite.prepare("update ledger_lines set amount = '1'").run()).toThrow(/append-only/);
    expect(() => server.ctx.sqlite.prepare('delete from ledger_entries').run()).toThrow(/append-only/);
  });
});

describe('check before posting', () => {
  it('says per field what is wrong, previews the lines, and stores nothing', async () => {
    const before = (await c.get('/api/ledger/events')).body.total;
    const bad = await c.post('/api/ledger/events/check', { type: 'expense_recorded', payload: { currency: 'USD', netAmount: '12,50', description: '' } });
    expect(bad.status).toBe(200);
    expect(bad.body.outcome).toBe('failed');
    expect(bad.body.errors.map((e: { path: string[] }) => e.path.join('.'))).toEqual(expect.arrayContaining(['netAmount', 'description']));
    const good = await c.post('/api/ledger/events/check', { type: 'expense_recorded', payload: { description: 'Paper', currency: 'USD', netAmount: '10.00', taxAmount: '2.00', expenseAccount: '6400' } });
    expect(good.body).toEqual({
      outcome: 'posted',
      errors: [],
      lines: [
        { code: '6400', name: 'Office supplies', side: 'debit', amount: '10.00', currency: 'USD' },
        { code: '1200', name: 'VAT / sales tax receivable', side: 'debit', amount: '2.00', currency: 'USD' },
        { code: '1010', name: 'Bank account', side: 'credit', amount: '12.00', currency: 'USD' },
      ],
    });
    const noAccount = await c.post('/api/ledger/events/check', { type: 'expense_recorded', payload: { description: 'Paper', currency: 'USD', netAmount: '10.00', expenseAccount: '9999' } });
    expect(noAccount.body).toMatchObject({ outcome: 'failed', errors: [{ path: [], message: 'Account 9999 is not in the chart of accounts' }] });
    expect((await c.post('/api/ledger/events/check', { type: 'no_such_type', payload: {} })).status).toBe(400);
    expect((await c.post('/api/ledger/events/check', { type: 'expense_recorded', payload: 'x' })).status).toBe(400);
    expect((await c.get('/api/ledger/events')).body.total).toBe(before);
  });
});
