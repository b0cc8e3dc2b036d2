// Profit and loss, balance sheet and the journal as CSV, computed from real postings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { postEvent } from './ledger-helpers.js';

let server: TestServer;
let owner: SessionClient;
let other: SessionClient;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup();
  other = await server.signup();
  // January: the owner puts in 10,000; an invoice of 1,000 + 200 VAT. February: it is paid; a
  // software expense of 144 + 28.80 VAT; a EUR bill of 40 + 8 VAT (another currency, never added).
  await postEvent(owner, { type: 'owner_contribution', payload: { ownerName: 'Ada', currency: 'USD', amount: '10000.00' }, timestamp: '2026-01-02T09:00:00Z' });
  await postEvent(owner, { type: 'invoice_created', payload: { invoiceNumber: 'INV-1', currency: 'USD', netAmount: '1000.00', taxAmount: '200.00' }, timestamp: '2026-01-15T12:00:00Z' });
  await postEvent(owner, { type: 'invoice_paid', payload: { invoiceNumber: 'INV-1', currency: 'USD', amount: '1200.00' }, timestamp: '2026-02-10T12:00:00Z' });
  // An account whose name a spreadsheet would run as a formula.
  expect((await owner.post('/api/ledger/accounts', { code: '6550', name: '=HYPERLINK("http://evil.example")', type: 'expense' })).status).toBe(201);
  await postEvent(owner, { type: 'expense_recorded', payload: { description: 'Design software', merchant: 'Figma', currency: 'USD', netAmount: '144.00', taxAmount: '28.80', expenseAccount: '6550' }, timestamp: '2026-02-12T12:00:00Z' });
  await postEvent(owner, { type: 'bill_received', payload: { billNumber: 'B, "7"', currency: 'EUR', netAmount: '40.00', taxAmount: '8.00' }, timestamp: '2026-02-20T12:00:00Z' });
});
afterAll(() => server.close());

const amounts = (section: { lines: { code: string; amount: string }[] }) => Object.fromEntries(section.lines.map((l) => [l.code, l.amount]));

describe('profit and loss', () => {
  it('per currency, for the whole history and for a period', async () => {
    const all = await owner.get('/api/ledger/reports/profit-and-loss');
    expect(all.status).toBe(200);
    const usd = all.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
    expect(amounts(usd.revenue)).toEqual({ '4000': '1000.00' });
    expect(amounts(usd.expenses)).toEqual({ '6550': '144.00' });
    expect(usd).toMatchObject({ revenue: { total: '1000.00' }, expenses: { total: '144.00' }, netIncome: '856.00' });
    const eur = all.body.currencies.find((c: { currency: string }) => c.currency === 'EUR');
    expect(eur).toMatchObject({ revenue: { lines: [], total: '0.00' }, netIncome: '-40.00' });

    const feb = await owner.get('/api/ledger/reports/profit-and-loss?from=2026-01-31T23:59:59Z&to=2026-02-28T23:59:59Z');
    const febUsd = feb.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
    expect(febUsd).toMatchObject({ revenue: { total: '0.00' }, expenses: { total: '144.00' }, netIncome: '-144.00' });
    expect(feb.body.from).toBe('2026-01-31T23:59:59.000Z');
  });

  it('refuses a reversed period and bad dates; another entity sees none of it', async () => {
    expect((await owner.get('/api/ledger/reports/profit-and-loss?from=2026-03-01T00:00:00Z&to=2026-02-01T00:00:00Z')).body.error).toMatch(/from must not be after to/);
    expect((await owner.get('/api/ledger/reports/profit-and-loss?from=march')).status).toBe(400);
    expect((await owner.get('/api/ledger/reports/balance-sheet?asOf=yesterday')).status).toBe(400);
    expect((await other.get('/api/ledger/reports/profit-and-loss')).body.currencies).toEqual([]);
    expect((await server.anon.get('/api/ledger/reports/balance-sheet')).status).toBe(401);
  });
});

describe('balance sheet', () => {
  it('assets equal liabilities plus equity, with earnings not yet closed as their own line', async () => {
    const res = await owner.get('/api/ledger/reports/balance-sheet');
    expect(res.status).toBe(200);
    const usd = res.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
    // Bank: 10,000 + 1,200 − 172.80; receivable settled; VAT receivable 28.80; VAT payable 200.
    expect(amounts(usd.assets)).toEqual({ '1010': '11027.20', '1200': '28.80' });
    expect(amounts(usd.liabilities)).toEqual({ '2200': '200.00' });
    expect(amounts(usd.equity)).toEqual({ '3000': '10000.00' });
    expect(usd.equity).toMatchObject({ currentEarnings: '856.00', total: '10856.00' });
    expect(usd.assets.total).toBe('11056.00');
    expect(usd.liabilitiesAndEquity).toBe(usd.assets.total);
    for (const c of res.body.currencies) expect(c.liabilitiesAndEquity).toBe(c.assets.total);

    // As of the end of January: the invoice is still receivable.
    const jan = await owner.get('/api/ledger/reports/balance-sheet?asOf=2026-01-31T23:59:59Z');
    const janUsd = jan.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
    expect(amounts(janUsd.assets)).toEqual({ '1010': '10000.00', '1100': '1200.00' });
    expect(jan.body.currencies.some((c: { currency: string }) => c.currency === 'EUR')).toBe(false);
  });
});

describe('journal as CSV', () => {
  it('a row per line, oldest first, quoted where needed, formulas defused', async () => {
    const res = await owner.request('GET', '/api/ledger/journal.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="journal.csv"/);
    const text = Buffer.from(res.body as ArrayBuffer).toString('utf8');
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('effective_at,entry_id,event_id,event_type,kind,description,line,account_code,account_name,currency,debit,credit,memo');
    // 2 + 3 + 2 + 3 + 3 lines in five entries.
    expect(lines).toHaveLength(1 + 13);
    expect(lines[1]).toMatch(/^2026-01-02T09:00:00\.000Z,.*,owner_contribution,posting,/);
    expect(lines.at(-1)).toMatch(/^2026-02-20T12:00:00\.000Z,/);
    // The account name a spreadsheet would run is text; quotes and commas are quoted.
    expect(text).toContain(`,6550,"'=HYPERLINK(""http://evil.example"")",USD,144.00,,`);
    expect(text).toMatch(/"[^"\r\n]*B, ""7""[^"\r\n]*"/);
    const debits = lines.slice(1).map((l) => l.split(',')).filter((f) => f[0].startsWith('2026-01-15'));
    expect(debits.length).toBe(3);
  });

  it('takes the journal filters, and refuses bad ones', async () => {
    const feb = Buffer.from((await owner.request('GET', '/api/ledger/journal.csv?from=2026-02-01T00:00:00Z')).body as ArrayBuffer).toString('utf8');
    expect(feb.trimEnd().split('\r\n')).toHaveLength(1 + 8);
    expect((await owner.get('/api/ledger/journal.csv?from=february')).status).toBe(400);
    expect((await owner.get('/api/ledger/journal.csv?accountId=1010')).status).toBe(400);
    const empty = Buffer.from((await other.request('GET', '/api/ledger/journal.csv')).body as ArrayBuffer).toString('utf8');
    expect(empty.trimEnd().split('\r\n')).toHaveLength(1);
  });
});
