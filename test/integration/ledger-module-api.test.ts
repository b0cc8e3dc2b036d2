import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { postEvent } from '../../server/ledger/index.js';
import { ledgerEvents } from '../../server/ledger/tables.js';

let server: TestServer;
let c: SessionClient;
beforeAll(async () => {
  server = await startTestServer();
  c = await server.signup();
});
afterAll(() => server.close());

const shield = { type: 'transfer_shielded', payload: { direction: 'shield', currency: 'ETH/18', amount: '0.25', fee: '0.0001', chain: 'base-sepolia' }, source: 'privacy' };

describe('postEvent() for other modules', () => {
  it('posts a shielded transfer, idempotent by key', () => {
    const first = postEvent(server.ctx, c.entityId, { ...shield, idempotencyKey: 'proof-1' });
    expect(first).toMatchObject({ replayed: false, event: { postingStatus: 'posted', source: 'privacy' } });
    const again = postEvent(server.ctx, c.entityId, { ...shield, idempotencyKey: 'proof-1' });
    expect(again).toMatchObject({ replayed: true, event: { id: first.event.id } });
  });

  it("joins the caller's transaction: a rollback there leaves no event behind", async () => {
    let eventId = '';
    expect(() =>
      server.ctx.db.transaction(() => {
        eventId = postEvent(server.ctx, c.entityId, { ...shield, idempotencyKey: 'proof-rolled-back' }).event.id;
        throw new Error('the caller failed after posting');
      }),
    ).toThrow('the caller failed');
    expect(eventId).not.toBe('');
    expect(server.ctx.db.select().from(ledgerEvents).all().some((e) => e.id === eventId)).toBe(false);
    expect((await c.get(`/api/ledger/events/${eventId}`)).status).toBe(404);
    // Posting inside a caller's transaction that commits keeps the event.
    const kept = server.ctx.db.transaction(() => postEvent(server.ctx, c.entityId, { ...shield, idempotencyKey: 'proof-2' }));
    expect((await c.get(`/api/ledger/events/${kept.event.id}`)).body.postingStatus).toBe('posted');
  });

  it('shows the shielded funds in the trial balance in ETH with 18 decimals', async () => {
    const tb = await c.get('/api/ledger/trial-balance');
    const shielded = tb.body.rows.find((r: any) => r.code === '1310');
    expect(shielded).toMatchObject({ currency: 'ETH/18', debit: '0.500000000000000000' });
    expect(tb.body.totals).toEqual([{ currency: 'ETH/18', debit: '0.500200000000000000', credit: '0.500200000000000000', balance: '0.000000000000000000' }]);
  });

  it('sums amounts beyond 64 bits exactly (long amounts, and sums that overflow SQLite integers)', async () => {
    const other = await server.signup();
    const big = (amount: string, key: string) => postEvent(server.ctx, other.entityId, { type: 'transfer_shielded', payload: { direction: 'shield', currency: 'ETH/18', amount }, idempotencyKey: key });
    big('50', 'long'); // 5 × 10^19 base units: more than 18 digits
    for (let i = 0; i < 10; i++) big('0.999999999999999999', `near-${i}`); // each fits 64 bits, their sum does not
    const tb = await other.get('/api/ledger/trial-balance');
    expect(tb.status).toBe(200);
    expect(tb.body.rows.find((r: any) => r.code === '1310').debit).toBe('59.999999999999999990');
    expect(tb.body.totals).toEqual([{ currency: 'ETH/18', debit: '59.999999999999999990', credit: '59.999999999999999990', balance: '0.000000000000000000' }]);
  });

  it('refuses an unknown type with a typed 400 error', () => {
    expect(() => postEvent(server.ctx, c.entityId, { type: 'nope' })).toThrow(/Unknown event type/);
  });
});
