// Signature requests across two devices of one entity: requests, signers, fields and the audit
// chain travel; a signer's token stays on the device that made it (others hold only its hash);
// the sealed PDF follows the completion; and when two devices act on one request unaware of
// each other, the first to reach the hosted instance wins and the chain stays one valid chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, SessionClient, TestServer } from '../helpers/server.js';
import { startSyncPair, type SyncPair } from '../helpers/sync-pair.js';
import { draftRequest, PNG_DATA_URL, signingToken } from './documents-helpers.js';

let pair: SyncPair;
let a: TestServer;
let b: TestServer;
let onA: SessionClient;
let onB: Client;
const base = '/api/documents/signature-requests';
const run = (c: Client) => pair.run(c);
const settle = () => pair.settle();
/** What both devices must agree on: the request, its signers (without secrets) and the whole chain. */
const view = async (c: Client, id: string) => {
  const r = (await c.get(`${base}/${id}`)).body;
  const trail = (await c.get(`${base}/${id}/audit-trail`)).body;
  const verify = (await c.get(`${base}/${id}/audit-trail/verify`)).body;
  return {
    status: r.status,
    signers: r.signers.map((s: Record<string, unknown>) => ({ id: s.id, status: s.status, email: s.email })),
    trail: trail.map((e: Record<string, unknown>) => ({ seq: e.seq, type: e.type, hash: e.hash })),
    verify,
  };
};

async function sign(server: TestServer, token: string) {
  const page = await server.anon.get(`/api/sign/${token}`);
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  const fields = page.body.fields.map((f: { id: string; type: string }) => ({ fieldId: f.id, value: f.type === 'signature' ? PNG_DATA_URL : undefined })).filter((f: { value?: string }) => f.value);
  const res = await server.anon.post(`/api/sign/${token}`, { action: 'sign', fields });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  pair = await startSyncPair('Signing Ltd');
  ({ a, b, onA, onB } = pair);
}, 120_000);

afterAll(() => pair?.close());

describe('signature requests across devices', () => {
  it('a request sent on one device, signed on both, completes with one valid chain and the sealed PDF on both', async () => {
    const { requestId, signers } = await draftRequest(onA, { signers: [{ name: 'Ada', email: 'ada@example.com' }, { name: 'Bob', email: 'bob@example.com' }] });
    expect((await onA.patch(`${base}/${requestId}`, { action: 'send' })).status).toBe(200);
    await settle();
    expect(await view(onB, requestId)).toEqual(await view(onA, requestId));
    expect((await view(onB, requestId)).verify.valid).toBe(true);

    // Ada signs through the link device A sent her.
    await sign(a, await signingToken(onA, requestId, signers[0].id));
    await settle();
    expect((await view(onB, requestId)).signers.find((s: { id: string }) => s.id === signers[0].id).status).toBe('signed');

    // Bob signs in person on device B, which never held his token: B makes a new one (A's link for him stops working).
    const oldBobToken = await signingToken(onA, requestId, signers[1].id);
    await settle();
    const bobToken = await signingToken(onB, requestId, signers[1].id);
    expect(bobToken).not.toBe(oldBobToken);
    await sign(b, bobToken);
    await expect.poll(async () => (await onB.get(`${base}/${requestId}`)).body.status, { timeout: 30_000 }).toBe('completed');
    await settle();
    expect((await a.anon.get(`/api/sign/${oldBobToken}`)).status).toBe(404);

    const onAView = await view(onA, requestId);
    expect(onAView.status).toBe('completed');
    expect(onAView.verify.valid).toBe(true);
    expect(await view(onB, requestId)).toEqual(onAView);
    const sealedOnB = await onB.request('GET', `${base}/${requestId}/document`);
    const sealedOnA = await onA.request('GET', `${base}/${requestId}/document`);
    expect(sealedOnA.status).toBe(200);
    expect(Buffer.from(sealedOnA.body as ArrayBuffer).equals(Buffer.from(sealedOnB.body as ArrayBuffer))).toBe(true);
  });

  it('cancelled on one device while reminded on the other: the first wins, the chain stays one chain', async () => {
    const { requestId } = await draftRequest(onA);
    expect((await onA.patch(`${base}/${requestId}`, { action: 'send' })).status).toBe(200);
    await settle();
    // Neither device has heard of the other's action.
    expect((await onB.post(`${base}/${requestId}/remind`, {})).status).toBe(200);
    expect((await onA.patch(`${base}/${requestId}`, { action: 'cancel' })).status).toBe(200);
    await run(onB); // B's reminder reaches the hosted instance first
    const status = await run(onA); // A's cancellation appended to a chain head that is no longer the head
    expect(status.rejected.length).toBeGreaterThan(0);
    await settle();
    const onAView = await view(onA, requestId);
    expect(onAView.status).toBe('sent');
    expect(onAView.trail.map((e: { type: string }) => e.type).at(-1)).toBe('reminded');
    expect(onAView.verify.valid).toBe(true);
    expect(await view(onB, requestId)).toEqual(onAView);
    // Cancelling again, now that A has seen the reminder, works and reaches B.
    expect((await onA.patch(`${base}/${requestId}`, { action: 'cancel' })).status).toBe(200);
    await settle();
    expect((await view(onB, requestId)).status).toBe('cancelled');
    expect((await view(onB, requestId)).verify.valid).toBe(true);
  });

  it("a signer's token never leaves the device: the hosted instance holds its hash only", async () => {
    const { rows } = await import('../../server/hosted/schema.js');
    const { and, eq } = await import('drizzle-orm');
    const stored = await pair.hosted.ctx.store.db.select().from(rows).where(and(eq(rows.entityId, onA.entityId), eq(rows.tableName, 'signers')));
    expect(stored.length).toBeGreaterThan(0);
    for (const r of stored) {
      expect(r.data).not.toHaveProperty('token_sealed');
      expect(r.data.token_hash).toMatch(/^[0-9a-f]{64}$/);
    }
    const requests = await pair.hosted.ctx.store.db.select().from(rows).where(and(eq(rows.entityId, onA.entityId), eq(rows.tableName, 'signature_requests')));
    for (const r of requests) expect(r.data).not.toHaveProperty('link_base_url');
  });
});
