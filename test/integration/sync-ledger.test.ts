// The ledger across two devices of one entity: events, journal and chart travel; the default
// chart is one chart; decisions on the same event race as guarded transitions — the first to
// reach the hosted instance wins, and the other device's decision with its journal entry is
// undone there, so both keep the same balanced books.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, SessionClient, TestServer } from '../helpers/server.js';
import { startSyncPair, type SyncPair } from '../helpers/sync-pair.js';
import { invoice, trialBalanceIsZero } from './ledger-helpers.js';

let pair: SyncPair;
let a: TestServer;
let b: TestServer;
let onA: SessionClient;
let onB: Client;
const run = (c: Client) => pair.run(c);
const settle = () => pair.settle();
const books = async (c: Client) => {
  const events = (await c.get("/api/ledger/events?pageSize=200")).body.events.map((e: Record<string, unknown>) => ({ id: e.id, type: e.type, postingStatus: e.postingStatus, postingError: e.postingError }));
  const journal = (await c.get('/api/ledger/journal?pageSize=200')).body;
  const accounts = (await c.get('/api/ledger/accounts?includeArchived=true')).body.map((x: Record<string, unknown>) => ({ id: x.id, code: x.code, name: x.name }));
  const tb = (await c.get('/api/ledger/trial-balance?asOf=2100-01-01T00:00:00Z')).body;
  return { events, journal, accounts, tb };
};

beforeAll(async () => {
  // Both devices seed the default chart on their own before they meet (B later, on first use).
  pair = await startSyncPair('Ledger Ltd', async (owner) => {
    await owner.post('/api/ledger/events', invoice('100.00', '20.00'));
    await owner.put('/api/ledger/settings', { approvalThresholds: { USD: '1000.00' } });
  });
  ({ a, b, onA, onB } = pair);
}, 120_000);

afterAll(() => pair?.close());

describe('ledger sync', () => {
  it('a joined device has the same events, journal, chart and settings', async () => {
    const fromA = await books(onA);
    expect(fromA.events).toHaveLength(1);
    expect(fromA.journal.total).toBeGreaterThan(0);
    expect(await books(onB)).toEqual(fromA);
    expect((await onB.get('/api/ledger/settings')).body.approvalThresholds).toEqual({ USD: '1000.00' });
  });

  it('events posted on both devices reach the other; an idempotency key used on both makes one event', async () => {
    const onlyA = await onA.post('/api/ledger/events', invoice('10.00', '2.00'));
    const onlyB = await onB.post('/api/ledger/events', invoice('30.00', '6.00'));
    expect(onlyA.status).toBe(201);
    expect(onlyB.status).toBe(201);
    // The same request with the same key on both devices before either synced: one event everywhere.
    const same = invoice('50.00', '10.00', { idempotencyKey: 'inv-2026-0042' });
    const x = await onA.post('/api/ledger/events', same);
    const y = await onB.post('/api/ledger/events', { ...same, payload: { ...same.payload } });
    expect(x.status).toBe(201);
    expect(y.status).toBe(201);
    expect(x.body.id).toBe(y.body.id);
    await settle();
    const fromA = await books(onA);
    expect(await books(onB)).toEqual(fromA);
    expect(fromA.events.filter((e: { id: string }) => e.id === x.body.id)).toHaveLength(1);
    expect(fromA.events.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining([onlyA.body.id, onlyB.body.id]));
    expect(await trialBalanceIsZero(onA)).toBe(true);
  });

  it('the same held event approved on one device and rejected on the other: the first decision wins on both', async () => {
    const held = await onA.post('/api/ledger/events', invoice('5000.00', '1000.00'));
    expect(held.body.postingStatus).toBe('pending_approval');
    await settle();
    // Both decide while neither has heard of the other's decision.
    const approved = await onA.post(`/api/ledger/events/${held.body.id}/approve`, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const rejected = await onB.post(`/api/ledger/events/${held.body.id}/reject`, { reason: 'Wrong customer' });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    await run(onB); // B's rejection reaches the hosted instance first
    const statusA = await run(onA); // A's approval (and the journal entry it wrote) is refused and undone
    expect(statusA.rejected.length).toBeGreaterThan(0);
    expect(statusA.rejected[0].reason).toMatch(/Changed elsewhere first/);
    await settle();

    for (const c of [onA, onB]) {
      const event = (await c.get(`/api/ledger/events/${held.body.id}`)).body;
      expect(event.postingStatus).toBe('failed');
      expect(event.postingError).toBe('Rejected: Wrong customer');
      expect(event.entries ?? []).toHaveLength(0);
      expect(await trialBalanceIsZero(c)).toBe(true);
    }
    expect(await books(onB)).toEqual(await books(onA));
    // The device whose decision was undone tells its owner why; the winner's device says nothing.
    for (const server of [a, b]) server.ctx.events.drain(); // the outbox loop is off in tests
    const told = async (c: Client) => ((await c.get('/api/notifications')).body as { type: string; title: string; body: string }[]).filter((n) => n.type === 'sync.changes_undone' && /posting_status/.test(n.body));
    const onATold = await told(onA);
    expect(onATold).toHaveLength(1);
    expect(onATold[0].title).toMatch(/undone: another device changed ledger events/);
    expect(onATold[0].body).toMatch(/Changed elsewhere first: posting_status/);
    expect(await told(onB)).toEqual([]);
  });

  it('the same event reversed on both devices is reversed once, with one reversing entry everywhere', async () => {
    const posted = await onA.post('/api/ledger/events', invoice('70.00', '14.00'));
    await settle();
    expect((await onA.post(`/api/ledger/events/${posted.body.id}/reverse`, { reason: 'Duplicate' })).status).toBe(200);
    expect((await onB.post(`/api/ledger/events/${posted.body.id}/reverse`, { reason: 'Typo' })).status).toBe(200);
    await run(onA);
    await run(onB);
    await settle();
    const fromA = await books(onA);
    expect(await books(onB)).toEqual(fromA);
    const reversals = fromA.journal.entries.filter((e: { eventId: string; kind: string }) => e.eventId === posted.body.id && e.kind === 'reversal');
    expect(reversals).toHaveLength(1);
    expect(await trialBalanceIsZero(onB)).toBe(true);
  });

  it('accounts added on both devices travel; the same code made on both is one account', async () => {
    const x = await onA.post('/api/ledger/accounts', { code: '6950', name: 'Training', type: 'expense' });
    const y = await onB.post('/api/ledger/accounts', { code: '6950', name: 'Training and courses', type: 'expense' });
    expect(x.status).toBe(201);
    expect(y.body.id).toBe(x.body.id);
    await onB.post('/api/ledger/accounts', { code: '6960', name: 'Books', type: 'expense' });
    await settle();
    const fromA = await books(onA);
    expect(await books(onB)).toEqual(fromA);
    expect(fromA.accounts.filter((acc: { code: string }) => acc.code === '6950')).toHaveLength(1);
    expect(fromA.accounts.map((acc: { code: string }) => acc.code)).toContain('6960');
  });
});
