import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { addMember, draftRequest, PNG_DATA_URL, signingToken, uploadPdf } from './documents-helpers.js';

let now = new Date('2026-11-22T09:00:00.000Z');
const clock = { now: () => new Date(now) };
let server: TestServer;
let owner: SessionClient;
let other: SessionClient;
beforeAll(async () => {
  server = await startTestServer({ clock });
  owner = await server.signup();
  other = await server.signup();
});
afterAll(() => server.close());

const base = '/api/documents/signature-requests';
const types = (log: { type: string }[]) => log.map((e) => e.type);

async function signAll(requestId: string, signers: { id: string; role: string }[]) {
  for (const s of signers.filter((x) => x.role !== 'cc')) {
    const token = await signingToken(owner, requestId, s.id);
    const view = await server.anon.get(`/api/sign/${token}`);
    const fields = view.body.fields.map((f: { id: string; type: string }) => ({ fieldId: f.id, value: f.type === 'signature' ? PNG_DATA_URL : undefined })).filter((f: { value?: string }) => f.value);
    const res = await server.anon.post(`/api/sign/${token}`, { action: 'sign', fields });
    expect(res.status).toBe(200);
  }
}

describe('creating and editing a draft', () => {
  it('creates a draft with signers, each with a signing order, and lists it', async () => {
    const doc = await uploadPdf(owner, { name: 'Lease.pdf' });
    const res = await owner.post(`${base}?entityId=${owner.entityId}`, {
      documentId: doc.body.id,
      title: 'Office lease',
      signers: [
        { name: 'Ada', email: 'ADA@example.com' },
        { name: 'Bob', email: 'bob@example.com', role: 'approver' },
        { name: 'Cy', email: 'cy@example.com', role: 'cc' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Office lease', status: 'draft', documentId: doc.body.id, documentName: 'Lease.pdf', signingOrder: 'parallel', dueDate: null, completedAt: null });
    expect(res.body.signers.map((s: { email: string; order: number; role: string }) => [s.email, s.order, s.role])).toEqual([
      ['ada@example.com', 1, 'signer'],
      ['bob@example.com', 2, 'approver'],
      ['cy@example.com', 3, 'cc'],
    ]);
    expect(types(res.body.auditLog)).toEqual(['created', 'signer_added', 'signer_added', 'signer_added']);
    const list = await owner.get(`${base}?entityId=${owner.entityId}`);
    expect(list.body[0]).toEqual({ id: res.body.id, title: 'Office lease', status: 'draft', documentId: doc.body.id, documentName: 'Lease.pdf', dueDate: null, completedAt: null, createdAt: res.body.createdAt });
    const drafts = await owner.get(`${base}?status=draft`);
    expect(drafts.body.map((r: { id: string }) => r.id)).toContain(res.body.id);
    const sent = await owner.get(`${base}?status=sent`);
    expect(sent.body.map((r: { id: string }) => r.id)).not.toContain(res.body.id);
    expect((await owner.get(`${base}?status=bogus`)).status).toBe(400);
  });

  it('validates the create body', async () => {
    const doc = await uploadPdf(owner);
    expect((await owner.post(base, { title: 'x' })).status).toBe(400);
    expect((await owner.post(base, { documentId: doc.body.id, title: '' })).status).toBe(400);
    const foreign = await uploadPdf(other);
    const cross = await owner.post(base, { documentId: foreign.body.id, title: 'x' });
    expect(cross.status).toBe(400);
    expect(cross.body.error).toMatch(/documentId/);
    expect((await owner.post(base, { documentId: doc.body.id, title: 'x', dueDate: '2020-01-01T00:00:00Z' })).status).toBe(400);
    expect((await owner.post(base, { documentId: doc.body.id, title: 'x', signers: [{ name: 'A', email: 'not-an-email' }] })).status).toBe(400);
    expect((await owner.post(base, { documentId: doc.body.id, title: 'x', signers: [{ name: 'A', email: 'a@x.io' }, { name: 'B', email: 'A@x.io' }] })).status).toBe(400);
  });

  it('manages signers while in draft only', async () => {
    const { requestId, signers } = await draftRequest(owner);
    const added = await owner.post(`${base}/${requestId}/signers`, { name: 'Grace', email: 'grace@example.com' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name: 'Grace', order: 2, status: 'pending', fieldCount: 0 });
    expect((await owner.post(`${base}/${requestId}/signers`, { name: 'Dup', email: 'grace@example.com' })).status).toBe(409);
    const changed = await owner.patch(`${base}/${requestId}/signers/${added.body.id}`, { name: 'Grace Hopper', order: 1 });
    expect(changed.body).toMatchObject({ name: 'Grace Hopper', order: 1 });
    const toCc = await owner.patch(`${base}/${requestId}/signers/${signers[0].id}`, { role: 'cc' });
    expect(toCc.status).toBe(409);
    const removed = await owner.delete(`${base}/${requestId}/signers/${added.body.id}`);
    expect(removed.body).toEqual({ deleted: true });
    expect((await owner.delete(`${base}/${requestId}/signers/${crypto.randomUUID()}`)).status).toBe(404);
    await owner.patch(`${base}/${requestId}`, { action: 'send' });
    expect((await owner.post(`${base}/${requestId}/signers`, { name: 'Late', email: 'late@example.com' })).status).toBe(409);
    expect((await owner.delete(`${base}/${requestId}/signers/${signers[0].id}`)).status).toBe(409);
  });
});

describe('field overlays', () => {
  it('places fields as page fractions, checked against the page count and signers', async () => {
    const { requestId, signers } = await draftRequest(owner, { signers: [{ name: 'Ada', email: 'ada@example.com' }, { name: 'Cc', email: 'cc@example.com', role: 'cc' }] });
    const url = `${base}/${requestId}/fields`;
    const list = await owner.get(url);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    expect(list.body[0]).toMatchObject({ signerId: signers[0].id, type: 'signature', page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.06, required: true, value: null });
    const field = { signerId: signers[0].id, type: 'text', page: 1, x: 0.1, y: 0.1, width: 0.2, height: 0.05 };
    expect((await owner.post(url, { fields: [{ ...field, page: 3 }] })).body.error).toMatch(/has 2 page/);
    expect((await owner.post(url, { fields: [{ ...field, page: 0 }] })).status).toBe(400);
    expect((await owner.post(url, { fields: [{ ...field, x: 0.9, width: 0.2 }] })).status).toBe(400);
    expect((await owner.post(url, { fields: [{ ...field, width: 0 }] })).status).toBe(400);
    expect((await owner.post(url, { fields: [{ ...field, type: 'stamp' }] })).status).toBe(400);
    expect((await owner.post(url, { fields: [{ ...field, signerId: crypto.randomUUID() }] })).status).toBe(400);
    expect((await owner.post(url, { fields: [{ ...field, signerId: signers[1].id }] })).body.error).toMatch(/cc cannot have fields/);
    const added = await owner.post(url, { fields: [field, { ...field, type: 'checkbox', required: false, y: 0.2 }] });
    expect(added.status).toBe(201);
    expect(added.body).toHaveLength(4);
    const textId = added.body.find((f: { type: string }) => f.type === 'text').id;
    const afterDelete = await owner.delete(url, { fieldIds: [textId] });
    expect(afterDelete.status).toBe(200);
    expect(afterDelete.body).toHaveLength(3);
    expect((await owner.delete(url, { fieldIds: [crypto.randomUUID()] })).status).toBe(400);
    expect((await owner.delete(url, {})).status).toBe(400);
    const detail = await owner.get(`${base}/${requestId}`);
    expect(types(detail.body.auditLog)).toEqual(expect.arrayContaining(['fields_added', 'fields_removed']));
    await owner.patch(`${base}/${requestId}`, { action: 'send' });
    expect((await owner.post(url, { fields: [field] })).status).toBe(409);
    expect((await owner.delete(url, { signerId: signers[0].id })).status).toBe(409);
  });
});

describe('send, cancel, complete', () => {
  it('refuses to send without a signer or with a signer who has no field (409)', async () => {
    const doc = await uploadPdf(owner);
    const empty = await owner.post(base, { documentId: doc.body.id, title: 'Empty' });
    const noSigner = await owner.patch(`${base}/${empty.body.id}`, { action: 'send' });
    expect(noSigner.status).toBe(409);
    expect(noSigner.body.error).toMatch(/at least one signer/);
    const noField = await owner.post(base, { documentId: doc.body.id, title: 'No field', signers: [{ name: 'A', email: 'a@example.com' }] });
    const res = await owner.patch(`${base}/${noField.body.id}`, { action: 'send' });
    expect(res.status).toBe(409);
    expect(res.body.details.signerIds).toEqual([noField.body.signers[0].id]);
    await owner.post(`${base}/${noField.body.id}/fields`, { fields: [{ signerId: noField.body.signers[0].id, type: 'text', page: 1, x: 0.1, y: 0.1, width: 0.3, height: 0.05 }] });
    expect((await owner.patch(`${base}/${noField.body.id}`, { action: 'send' })).status).toBe(200);
    expect((await owner.patch(`${base}/${noField.body.id}`, { action: 'archive' })).status).toBe(400);
  });

  it('sends, then allows only the moves of the state machine', async () => {
    const { requestId } = await draftRequest(owner);
    expect((await owner.patch(`${base}/${requestId}`, { action: 'complete' })).status).toBe(409);
    const sent = await owner.patch(`${base}/${requestId}`, { action: 'send' });
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('sent');
    expect(sent.body.sentAt).toBeTruthy();
    expect(sent.body.signers[0].sentAt).toBeTruthy();
    expect((await owner.patch(`${base}/${requestId}`, { action: 'send' })).status).toBe(409);
    const early = await owner.patch(`${base}/${requestId}`, { action: 'complete' });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatch(/Not every signer/);
    const cancelled = await owner.patch(`${base}/${requestId}`, { action: 'cancel' });
    expect(cancelled.body).toMatchObject({ status: 'cancelled' });
    expect(cancelled.body.cancelledAt).toBeTruthy();
    for (const action of ['send', 'cancel', 'complete']) expect((await owner.patch(`${base}/${requestId}`, { action })).status).toBe(409);
    expect((await owner.post(`${base}/${requestId}/remind`, {})).status).toBe(409);
    const events = server.ctx.sqlite.prepare("select type from outbox where entity_id = ? and type like 'signature_request.%'").all(owner.entityId) as { type: string }[];
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['signature_request.sent', 'signature_request.cancelled']));
  });

  it('cancels a draft', async () => {
    const { requestId } = await draftRequest(owner);
    const res = await owner.patch(`${base}/${requestId}`, { action: 'cancel' });
    expect(res.body.status).toBe('cancelled');
  });
});

describe('signing with a token', () => {
  it('shows the signer only their request, records the first view, and completes when the last signer signs', async () => {
    const { requestId, signers } = await draftRequest(owner, { signers: [{ name: 'Ada', email: 'ada@example.com' }, { name: 'Bob', email: 'bob@example.com' }] });
    await owner.patch(`${base}/${requestId}`, { action: 'send' });
    const adaToken = await signingToken(owner, requestId, signers[0].id);
    const view = await server.anon.get(`/api/sign/${adaToken}`, { headers: { 'user-agent': 'AdaBrowser/1.0' } });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ request: { id: requestId, title: 'Services agreement', status: 'sent', pageCount: 2 }, signer: { id: signers[0].id, name: 'Ada', status: 'pending' }, canSign: true, waitingFor: [] });
    expect(view.body.fields.every((f: { signerId: string }) => f.signerId === signers[0].id)).toBe(true);
    await server.anon.get(`/api/sign/${adaToken}`);
    const pdf = await fetch(`${server.url}/api/sign/${adaToken}/document`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');

    const sigField = view.body.fields.find((f: { type: string }) => f.type === 'signature');
    const missing = await server.anon.post(`/api/sign/${adaToken}`, { action: 'sign', fields: [] });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/signature on page 1 is required/);
    const notPng = await server.anon.post(`/api/sign/${adaToken}`, { action: 'sign', fields: [{ fieldId: sigField.id, value: 'data:image/png;base64,AAAA' }] });
    expect(notPng.status).toBe(400);
    const foreignField = await server.anon.post(`/api/sign/${adaToken}`, { action: 'sign', fields: [{ fieldId: crypto.randomUUID(), value: 'x' }] });
    expect(foreignField.status).toBe(400);

    const signed = await server.anon.post(`/api/sign/${adaToken}`, { action: 'sign', fields: [{ fieldId: sigField.id, value: PNG_DATA_URL }] }, { headers: { 'user-agent': 'AdaBrowser/1.0' } });
    expect(signed.status).toBe(200);
    expect(signed.body.signer.status).toBe('signed');
    expect(signed.body.fields.find((f: { type: string }) => f.type === 'date').value).toBe('2026-11-22');
    expect(signed.body.request.status).toBe('sent');
    expect((await server.anon.post(`/api/sign/${adaToken}`, { action: 'sign', fields: [] })).status).toBe(409);

    const bobToken = await signingToken(owner, requestId, signers[1].id);
    const bobView = await server.anon.get(`/api/sign/${bobToken}`);
    const bobSig = bobView.body.fields.find((f: { type: string }) => f.type === 'signature');
    const done = await server.anon.post(`/api/sign/${bobToken}`, { action: 'sign', fields: [{ fieldId: bobSig.id, value: 'Bob Typed' }] });
    expect(done.body.request.status).toBe('completed');

    const detail = await owner.get(`${base}/${requestId}`);
    expect(detail.body.status).toBe('completed');
    expect(detail.body.completedAt).toBeTruthy();
    expect(detail.body.signedDocumentSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(detail.body.signers.map((s: { status: string }) => s.status)).toEqual(['signed', 'signed']);
    const log = detail.body.auditLog;
    expect(types(log).filter((t: string) => t === 'viewed')).toHaveLength(2);
    const adaSigned = log.find((e: { type: string; data: { signerId?: string } }) => e.type === 'signed' && e.data.signerId === signers[0].id);
    expect(adaSigned).toMatchObject({ actor: { type: 'signer', id: signers[0].id }, userAgent: 'AdaBrowser/1.0' });
    expect(adaSigned.ip).toBeTruthy();
    expect(types(log).at(-1)).toBe('completed');
    const trail = await owner.get(`${base}/${requestId}/audit-trail`);
    expect(trail.body).toEqual(log);
    const outbox = server.ctx.sqlite.prepare('select type from outbox where entity_id = ?').all(owner.entityId) as { type: string }[];
    expect(outbox.map((e) => e.type)).toEqual(expect.arrayContaining(['signer.signed', 'signature_request.completed']));
    expect((await owner.patch(`${base}/${requestId}`, { action: 'complete' })).status).toBe(409);
    expect((await owner.patch(`${base}/${requestId}`, { action: 'cancel' })).status).toBe(409);
  });

  it('lets an approver approve and a viewer acknowledge; a cc only receives the result', async () => {
    const { requestId, signers } = await draftRequest(owner, {
      signers: [
        { name: 'Signer', email: 'signer@example.com' },
        { name: 'Approver', email: 'approver@example.com', role: 'approver' },
        { name: 'Viewer', email: 'viewer@example.com', role: 'viewer' },
        { name: 'Copy', email: 'copy@example.com', role: 'cc' },
      ],
    });
    const sent = await owner.patch(`${base}/${requestId}`, { action: 'send' });
    expect(sent.body.signers.map((s: { role: string; sentAt: string | null }) => [s.role, Boolean(s.sentAt)])).toEqual([
      ['signer', true],
      ['approver', true],
      ['viewer', true],
      ['cc', false],
    ]);
    const cc = signers.find((s) => s.role === 'cc')!;
    const ccLink = await owner.post(`${base}/${requestId}/signers/${cc.id}/signing-link`, {});
    expect(ccLink.status).toBe(409);
    const ccToken = server.ctx.secrets.open((server.ctx.sqlite.prepare('select token_sealed from signers where id = ?').get(cc.id) as { token_sealed: string }).token_sealed).toString('utf8');
    expect((await server.anon.post(`/api/sign/${ccToken}`, { action: 'sign', fields: [] })).status).toBe(409);
    const viewer = signers.find((s) => s.role === 'viewer')!;
    const viewerToken = await signingToken(owner, requestId, viewer.id);
    const acknowledged = await server.anon.post(`/api/sign/${viewerToken}`, { action: 'sign', fields: [] });
    expect(acknowledged.body.signer.status).toBe('signed');
    await signAll(requestId, signers.filter((s) => s.role === 'signer' || s.role === 'approver'));
    const detail = await owner.get(`${base}/${requestId}`);
    expect(detail.body.status).toBe('completed');
    expect(detail.body.signers.find((s: { role: string }) => s.role === 'cc').status).toBe('pending');
    const note = server.ctx.sqlite.prepare("select title, user_id from notifications where entity_id = ? and type = 'signature_request.completed'").all(owner.entityId) as { title: string; user_id: string }[];
    expect(note.some((n) => n.user_id === owner.user.id && /Signed by everyone/.test(n.title))).toBe(true);
  });

  it('follows a sequential order: the second signer waits for the first', async () => {
    const { requestId, signers } = await draftRequest(owner, { signingOrder: 'sequential', signers: [{ name: 'First', email: 'first@example.com' }, { name: 'Second', email: 'second@example.com' }] });
    const sent = await owner.patch(`${base}/${requestId}`, { action: 'send' });
    expect(sent.body.signers.map((s: { sentAt: string | null }) => Boolean(s.sentAt))).toEqual([true, false]);
    const secondToken = await signingToken(owner, requestId, signers[1].id);
    const waiting = await server.anon.get(`/api/sign/${secondToken}`);
    expect(waiting.body).toMatchObject({ canSign: false, waitingFor: ['First'] });
    const sig = waiting.body.fields.find((f: { type: string }) => f.type === 'signature');
    const tooEarly = await server.anon.post(`/api/sign/${secondToken}`, { action: 'sign', fields: [{ fieldId: sig.id, value: 'Second' }] });
    expect(tooEarly.status).toBe(409);
    expect(tooEarly.body.error).toMatch(/not your turn/);
    await signAll(requestId, [signers[0]]);
    const after = await owner.get(`${base}/${requestId}`);
    expect(after.body.signers[1].sentAt).toBeTruthy();
    expect((await server.anon.get(`/api/sign/${secondToken}`)).body.canSign).toBe(true);
  });

  it('a decline closes the request for everyone', async () => {
    const { requestId, signers } = await draftRequest(owner, { signers: [{ name: 'Ada', email: 'ada@example.com' }, { name: 'Bob', email: 'bob@example.com' }] });
    await owner.patch(`${base}/${requestId}`, { action: 'send' });
    const token = await signingToken(owner, requestId, signers[0].id);
    expect((await server.anon.post(`/api/sign/${token}`, { action: 'decline', reason: '' })).status).toBe(400);
    const declined = await server.anon.post(`/api/sign/${token}`, { action: 'decline', reason: 'Wrong amount' });
    expect(declined.status).toBe(200);
    expect(declined.body.request.status).toBe('declined');
    // The answer is what the signer sees now: her own decline, not the view from before it.
    expect(declined.body.signer).toMatchObject({ status: 'declined' });
    const bob = await signingToken(owner, requestId, signers[1].id).catch((e: Error) => e.message);
    expect(bob).toMatch(/409/);
    const detail = await owner.get(`${base}/${requestId}`);
    expect(detail.body.signers[0]).toMatchObject({ status: 'declined', declineReason: 'Wrong amount' });
    expect(types(detail.body.auditLog).at(-1)).toBe('declined');
    const note = server.ctx.sqlite.prepare("select title from notifications where entity_id = ? and type = 'signature_request.declined'").get(owner.entityId) as { title: string } | undefined;
    expect(note?.title).toMatch(/Declined/);
  });

  it('answers unknown and malformed tokens with 404 and 400', async () => {
    expect((await server.anon.get(`/api/sign/${'a'.repeat(43)}`)).status).toBe(404);
    expect((await server.anon.post(`/api/sign/${'a'.repeat(43)}`, { action: 'sign', fields: [] })).status).toBe(404);
    expect((await server.anon.get('/api/sign/short')).status).toBe(400);
  });

  it('expires a sent request when its due date passes', async () => {
    const due = new Date(now.getTime() + 86_400_000).toISOString();
    const { requestId, signers } = await draftRequest(owner, { dueDate: due });
    await owner.patch(`${base}/${requestId}`, { action: 'send' });
    const token = await signingToken(owner, requestId, signers[0].id);
    now = new Date(now.getTime() + 2 * 86_400_000);
    await server.ctx.loops.runAll();
    const detail = await owner.get(`${base}/${requestId}`);
    expect(detail.body.status).toBe('expired');
    expect(detail.body.expiredAt).toBeTruthy();
    expect(types(detail.body.auditLog)).toContain('expired');
    const note = server.ctx.sqlite.prepare("select title from notifications where entity_id = ? and type = 'signature_request.expired'").get(owner.entityId) as { title: string } | undefined;
    expect(note?.title).toBe('Expired: Services agreement');
    const view = await server.anon.get(`/api/sign/${token}`);
    expect(view.body).toMatchObject({ canSign: false, request: { status: 'expired' } });
    expect((await server.anon.post(`/api/sign/${token}`, { action: 'sign', fields: [] })).status).toBe(409);
    for (const action of ['send', 'cancel', 'complete']) expect((await owner.patch(`${base}/${requestId}`, { action })).status).toBe(409);
  });
});

describe('audit chain', () => {
  it('verifies, and detects an entry altered in the database', async () => {
    const { requestId } = await draftRequest(owner);
    await owner.patch(`${base}/${requestId}`, { action: 'send' });
    const ok = await owner.get(`${base}/${requestId}/audit-trail/verify`);
    expect(ok.body).toMatchObject({ valid: true, brokenAt: null });
    expect(ok.body.entries).toBeGreaterThanOrEqual(4);
    const trail = (await owner.get(`${base}/${requestId}/audit-trail`)).body;
    for (let i = 1; i < trail.length; i++) expect(trail[i].prevHash).toBe(trail[i - 1].hash);
    server.ctx.sqlite.prepare("update signature_audit set actor_name = 'Mallory' where request_id = ? and seq = 2").run(requestId);
    const broken = await owner.get(`${base}/${requestId}/audit-trail/verify`);
    expect(broken.body).toMatchObject({ valid: false, brokenAt: 2 });
  });

  it('detects a deleted entry', async () => {
    const { requestId } = await draftRequest(owner);
    server.ctx.sqlite.prepare('delete from signature_audit where request_id = ? and seq = 1').run(requestId);
    const res = await owner.get(`${base}/${requestId}/audit-trail/verify`);
    expect(res.body).toMatchObject({ valid: false, brokenAt: 2 });
  });
});

describe('access and isolation', () => {
  it("hides another entity's requests (404), refuses foreign keys (403) and keys without the scope (403)", async () => {
    const { requestId, signers } = await draftRequest(owner);
    for (const path of ['', '/fields', '/audit-trail', '/audit-trail/verify', '/signers']) expect((await other.get(`${base}/${requestId}${path}`)).status).toBe(404);
    expect((await other.patch(`${base}/${requestId}`, { action: 'send' })).status).toBe(404);
    expect((await other.post(`${base}/${requestId}/remind`, {})).status).toBe(404);
    expect((await other.post(`${base}/${requestId}/signers/${signers[0].id}/signing-link`, {})).status).toBe(404);
    expect((await other.get(base)).body.map((r: { id: string }) => r.id)).not.toContain(requestId);
    const foreignKey = await server.apiKeyClient(other, ['read:documents']);
    expect((await foreignKey.get(`${base}?entityId=${owner.entityId}`)).status).toBe(403);
    const reader = await server.apiKeyClient(owner, ['read:documents']);
    expect((await reader.get(`${base}/${requestId}?entityId=${owner.entityId}`)).status).toBe(200);
    expect((await reader.get(`${base}/${requestId}/fields`, { headers: { 'x-entity-id': owner.entityId } })).status).toBe(200);
    expect((await reader.patch(`${base}/${requestId}?entityId=${owner.entityId}`, { action: 'send' })).status).toBe(403);
    expect((await reader.post(`${base}/${requestId}/remind?entityId=${owner.entityId}`, {})).status).toBe(403);
    const writer = await server.apiKeyClient(owner, ['write:documents']);
    expect((await writer.get(`${base}?entityId=${owner.entityId}`)).status).toBe(403);
    const sent = await writer.patch(`${base}/${requestId}?entityId=${owner.entityId}`, { action: 'send' });
    expect(sent.status).toBe(200);
    expect(sent.body.auditLog.at(-1).actor.type).toBe('api_key');
    const viewer = await addMember(server, owner, 'viewer');
    expect((await viewer.get(`${base}/${requestId}`)).status).toBe(200);
    expect((await viewer.patch(`${base}/${requestId}`, { action: 'cancel' })).status).toBe(403);
  });
});

describe('reminders and parties', () => {
  it('reminds only signers whose turn it is and records it; auto-reminds on schedule', async () => {
    const { requestId, signers } = await draftRequest(owner, { signingOrder: 'sequential', signers: [{ name: 'One', email: 'one@example.com' }, { name: 'Two', email: 'two@example.com' }] });
    expect((await owner.post(`${base}/${requestId}/remind`, {})).status).toBe(409);
    await owner.patch(`${base}/${requestId}`, { action: 'send' });
    const res = await owner.post(`${base}/${requestId}/remind`, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ reminded: [{ signerId: signers[0].id, name: 'One', email: 'one@example.com' }], mailConfigured: false });
    now = new Date(now.getTime() + 3 * 86_400_000);
    await server.ctx.loops.runAll();
    const detail = await owner.get(`${base}/${requestId}`);
    const reminded = detail.body.auditLog.filter((e: { type: string }) => e.type === 'reminded');
    expect(reminded.map((e: { data: { automatic: boolean } }) => e.data.automatic)).toEqual([false, true]);
    expect(detail.body.signers[0].remindersSent).toBe(1);
    await server.ctx.loops.runAll();
    expect((await owner.get(`${base}/${requestId}`)).body.signers[0].remindersSent).toBe(1);
  });

  it('lists members and past signers, searchable', async () => {
    await draftRequest(owner, { signers: [{ name: 'Zelda Party', email: 'zelda@example.com' }] });
    const all = await owner.get('/api/documents/signature-parties');
    expect(all.status).toBe(200);
    const emails = all.body.map((p: { email: string }) => p.email);
    expect(emails).toContain(owner.email);
    expect(emails).toContain('zelda@example.com');
    const zelda = all.body.find((p: { email: string }) => p.email === 'zelda@example.com');
    expect(zelda).toMatchObject({ name: 'Zelda Party', isMember: false, userId: null, timesUsed: 1 });
    expect(zelda.lastUsedAt).toBeTruthy();
    const search = await owner.get('/api/documents/signature-parties?search=ZELD');
    expect(search.body.map((p: { email: string }) => p.email)).toEqual(['zelda@example.com']);
    expect((await other.get('/api/documents/signature-parties')).body.map((p: { email: string }) => p.email)).not.toContain('zelda@example.com');
  });
});

describe('OpenAPI', () => {
  it('documents the documents, folders and signing routes', async () => {
    const doc = (await server.anon.get('/api/openapi.json')).body;
    for (const p of ['/api/documents', '/api/documents/folders/{folderId}/grants', '/api/documents/signature-requests/{requestId}/fields', '/api/sign/{token}', '/api/mail/status']) expect(doc.paths[p]).toBeDefined();
    expect(JSON.stringify(doc.components.schemas.SignatureRequestStatus)).toMatch(/draft → sent/);
  });
});
