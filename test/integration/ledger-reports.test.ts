import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { invoice, postEvent } from './ledger-helpers.js';

let server: TestServer;
let c: SessionClient;
beforeAll(async () => {
  server = await startTestServer();
  c = await server.signup();
});
afterAll(() => server.close());

describe('chart of accounts', () => {
  it('is seeded with a small-business default', async () => {
    const res = await c.get('/api/ledger/accounts');
    expect(res.status).toBe(200);
    const codes = res.body.map((a: any) => a.code);
    expect(codes).toEqual([...codes].sort());
    expect(res.body.find((a: any) => a.code === '1100')).toMatchObject({ name: 'Accounts receivable', type: 'asset', system: true, archived: false });
    // Seeded accounts no rule posts to by default may be archived.
    expect(res.body.find((a: any) => a.code === '6900')).toMatchObject({ name: 'Marketing', system: false });
    for (const type of ['asset', 'liability', 'equity', 'revenue', 'expense']) expect(res.body.some((a: any) => a.type === type)).toBe(true);
  });

  it('creates, renames, archives and deletes accounts under the rules', async () => {
    const created = await c.post('/api/ledger/accounts', { code: '6450', name: 'Postage', type: 'expense', description: 'Stamps and couriers' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ code: '6450', system: false, archived: false });
    expect((await c.post('/api/ledger/accounts', { code: '6450', name: 'Again', type: 'expense' })).status).toBe(409);
    expect((await c.post('/api/ledger/accounts', { code: '', name: 'X', type: 'expense' })).status).toBe(400);
    expect((await c.post('/api/ledger/accounts', { code: '6451', name: 'X', type: 'costs' })).status).toBe(400);
    const renamed = await c.patch(`/api/ledger/accounts/${created.body.id}`, { name: 'Postage and couriers' });
    expect(renamed.body.name).toBe('Postage and couriers');

    const spent = await postEvent(c, { type: 'expense_recorded', payload: { description: 'Courier', currency: 'USD', netAmount: '9.00', expenseAccount: '6450' } });
    expect(spent.postingStatus).toBe('posted');
    const del = await c.delete(`/api/ledger/accounts/${created.body.id}`);
    expect(del.status).toBe(409);
    expect(del.body.error).toMatch(/archive it instead/);
    const archived = await c.patch(`/api/ledger/accounts/${created.body.id}`, { archived: true });
    expect(archived.body.archived).toBe(true);
    expect((await c.get('/api/ledger/accounts')).body.some((a: any) => a.code === '6450')).toBe(false);
    expect((await c.get('/api/ledger/accounts?includeArchived=true')).body.some((a: any) => a.code === '6450')).toBe(true);
    const blocked = await postEvent(c, { type: 'expense_recorded', payload: { description: 'Courier', currency: 'USD', netAmount: '9.00', expenseAccount: '6450' } });
    expect(blocked).toMatchObject({ postingStatus: 'failed', postingError: 'Account 6450 (Postage and couriers) is archived' });

    const unused = await c.post('/api/ledger/accounts', { code: '6460', name: 'Unused', type: 'expense' });
    expect((await c.delete(`/api/ledger/accounts/${unused.body.id}`)).body).toEqual({ deleted: true });
    expect((await c.delete(`/api/ledger/accounts/${unused.body.id}`)).status).toBe(404);
    const system = (await c.get('/api/ledger/accounts')).body.find((a: any) => a.code === '1010');
    expect((await c.patch(`/api/ledger/accounts/${system.id}`, { archived: true })).status).toBe(409);
    expect((await c.delete(`/api/ledger/accounts/${system.id}`)).status).toBe(409);
  });
});

describe('journal and trial balance', () => {
  let other: SessionClient;
  beforeAll(async () => {
    other = await server.signup();
    await postEvent(other, { ...invoice('100.00', '10.00'), timestamp: '2026-01-15T12:00:00Z' });
    await postEvent(other, { type: 'invoice_paid', payload: { invoiceNumber: 'A', currency: 'USD', amount: '110.00' }, timestamp: '2026-02-10T12:00:00Z' });
    await postEvent(other, { type: 'bill_received', payload: { billNumber: 'B', currency: 'EUR', netAmount: '40.00', taxAmount: '8.00' }, timestamp: '2026-02-20T12:00:00Z' });
  });

  it('lists entries with lines, newest first, filtered by account and date', async () => {
    const all = await other.get('/api/ledger/journal');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.entries.map((e: any) => e.eventType)).toEqual(['bill_received', 'invoice_paid', 'invoice_created']);
    const accounts = (await other.get('/api/ledger/accounts')).body;
    const ar = accounts.find((a: any) => a.code === '1100');
    const onAr = await other.get(`/api/ledger/journal?accountId=${ar.id}`);
    expect(onAr.body.entries.map((e: any) => e.eventType)).toEqual(['invoice_paid', 'invoice_created']);
    const feb = await other.get('/api/ledger/journal?from=2026-02-01T00:00:00Z&to=2026-02-15T00:00:00Z');
    expect(feb.body.entries.map((e: any) => e.eventType)).toEqual(['invoice_paid']);
    expect((await other.get('/api/ledger/journal?from=february')).status).toBe(400);
  });

  it('sums to zero per currency, and respects asOf', async () => {
    const tb = await other.get('/api/ledger/trial-balance');
    expect(tb.status).toBe(200);
    expect(tb.body.totals).toEqual([
      { currency: 'EUR', debit: '48.00', credit: '48.00', balance: '0.00' },
      { currency: 'USD', debit: '220.00', credit: '220.00', balance: '0.00' },
    ]);
    const row = (code: string, cur: string) => tb.body.rows.find((r: any) => r.code === code && r.currency === cur);
    expect(row('1100', 'USD')).toMatchObject({ debit: '110.00', credit: '110.00', balance: '0.00' });
    expect(row('1010', 'USD').balance).toBe('110.00');
    expect(row('2000', 'EUR').balance).toBe('-48.00');
    const jan = await other.get('/api/ledger/trial-balance?asOf=2026-01-31T23:59:59Z');
    expect(jan.body.totals).toEqual([{ currency: 'USD', debit: '110.00', credit: '110.00', balance: '0.00' }]);
    expect(jan.body.rows.map((r: any) => [r.code, r.balance])).toEqual([
      ['1100', '110.00'],
      ['2200', '-10.00'],
      ['4000', '-100.00'],
    ]);
    const before = await other.get('/api/ledger/trial-balance?asOf=2025-01-01T00:00:00Z');
    expect(before.body).toMatchObject({ rows: [], totals: [] });
  });
});
