// The wallet across devices: its keys never leave the install that made them; the other devices
// of the entity see the wallet and its history read-only, without what would link the entity to
// its on-chain transfers, and cannot make a second wallet for it.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows as hostedRows } from '../../server/hosted/schema.js';
import { insertActivity } from '../../server/wallet/activity.js';
import type { Client, SessionClient } from '../helpers/server.js';
import { startSyncPair, type SyncPair } from '../helpers/sync-pair.js';

let pair: SyncPair;
let onA: SessionClient;
let onB: Client;
let shieldedAddress = '';
let ownerAddress = '';
const NULLIFIER = `0x${'ab'.repeat(32)}`;
const TX_HASH = `0x${'cd'.repeat(32)}`;

beforeAll(async () => {
  // The wallet is made, and a private send recorded, on device A before the link.
  pair = await startSyncPair('Wallet Ltd', async (owner, a) => {
    const init = await owner.post('/api/privacy/initialize', {});
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    ({ shieldedAddress, ownerAddress } = init.body);
    // A private send as the wallet records it (the devnet suites prove the real flow).
    a.ctx.db.transaction((tx) => insertActivity(a.ctx, tx as never, { entityId: owner.entityId, chain: 'devnet', kind: 'sent', status: 'confirmed', token: 'ETH', amount: 2n * 10n ** 17n, counterparty: 'bureau1counterparty', txHash: TX_HASH, userOpHash: TX_HASH, nullifiers: [NULLIFIER], commitments: [NULLIFIER] }));
  });
  ({ onA, onB } = pair);
}, 120_000);

afterAll(() => pair?.close());

describe('wallet across devices', () => {
  it('the holder keeps its keys; another device shows the wallet and history read-only', async () => {
    const status = (await onB.get('/api/privacy/status')).body;
    expect(status).toMatchObject({ initialized: false, heldElsewhere: true, shieldedAddress, ownerAddress });
    expect((await onA.get('/api/privacy/status')).body).toMatchObject({ initialized: true, heldElsewhere: false });

    const history = await onB.get('/api/privacy/history');
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    expect(history.body.items).toHaveLength(1);
    expect(history.body.items[0]).toMatchObject({ kind: 'sent', status: 'confirmed', token: 'ETH', amount: '200000000000000000', txHash: null, userOpHash: null, counterparty: null });
    // The holder still sees everything.
    expect((await onA.get('/api/privacy/history')).body.items[0]).toMatchObject({ txHash: TX_HASH, counterparty: 'bureau1counterparty' });
  });

  it('no second wallet, and no payment, on a device that does not hold the keys', async () => {
    for (const [p, body] of [
      ['/api/privacy/initialize', {}],
      ['/api/privacy/shield', { amount: '0.1', token: 'ETH' }],
      ['/api/privacy/unshield', { amount: '0.1', token: 'ETH', recipient: `0x${'11'.repeat(20)}` }],
    ] as const) {
      const res = await onB.post(p, body);
      expect(res.status, `${p}: ${JSON.stringify(res.body)}`).toBe(409);
      expect(res.body.error).toMatch(/held on another device/);
    }
    expect((await onB.get('/api/privacy/status')).body.initialized).toBe(false);
  });

  it('the hosted instance never receives nullifiers, commitments, transaction hashes or counterparties', async () => {
    const stored = await pair.hosted.ctx.store.db.select().from(hostedRows).where(and(eq(hostedRows.entityId, onA.entityId), eq(hostedRows.tableName, 'wallet_activity')));
    expect(stored).toHaveLength(1);
    const text = JSON.stringify(stored[0].data);
    for (const secret of [NULLIFIER, TX_HASH, 'bureau1counterparty']) expect(text).not.toContain(secret.slice(2, 20));
    expect(Object.keys(stored[0].data)).not.toEqual(expect.arrayContaining(['nullifiers']));
  });
});
