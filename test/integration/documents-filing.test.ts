import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { draftRequest, signingToken, uploadPdf, PNG_DATA_URL } from './documents-helpers.js';

let server: TestServer;
let owner: SessionClient;
beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup();
});
afterAll(() => server.close());

const base = '/api/documents/signature-requests';

async function download(path: string, headers: Record<string, string> = { cookie: owner.cookie, 'x-entity-id': owner.entityId }) {
  const res = await fetch(`${server.url}${path}`, { headers });
  return { status: res.status, disposition: res.headers.get('content-disposition'), data: Buffer.from(await res.arrayBuffer()) };
}

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** A sent one-signer request on a 2-page document named `name` in `folderId`. */
async function sentRequest(name: string, folderId?: string) {
  const doc = await uploadPdf(owner, { pages: 2, name, folderId });
  expect(doc.status).toBe(201);
  const created = await owner.post(base, { documentId: doc.body.id, title: `Sign ${name.slice(0, 40)}`, signers: [{ name: 'Ada Lovelace', email: 'ada@example.com' }] });
  const signerId = created.body.signers[0].id as string;
  await owner.post(`${base}/${created.body.id}/fields`, { fields: [{ signerId, type: 'signature', page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.06 }] });
  expect((await owner.patch(`${base}/${created.body.id}`, { action: 'send' })).status).toBe(200);
  const token = await signingToken(owner, created.body.id, signerId);
  const view = await server.anon.get(`/api/sign/${token}`);
  const fields = view.body.fields.map((f: { id: string }) => ({ fieldId: f.id, value: PNG_DATA_URL }));
  return { requestId: created.body.id as string, documentId: doc.body.id as string, token, sign: () => server.anon.post(`/api/sign/${token}`, { action: 'sign', fields }) };
}

describe('PATCH a field (draft editor)', () => {
  it('moves, resizes, labels and makes a field optional; the change persists and is audited', async () => {
    const { requestId } = await draftRequest(owner);
    const [field] = (await owner.get(`${base}/${requestId}/fields`)).body;
    const res = await owner.patch(`${base}/${requestId}/fields/${field.id}`, { x: 0.25, y: 0.5, width: 0.4, height: 0.1, label: '  Tenant signature ', required: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: field.id, x: 0.25, y: 0.5, width: 0.4, height: 0.1, label: 'Tenant signature', required: false });
    const again = (await owner.get(`${base}/${requestId}/fields`)).body.find((f: { id: string }) => f.id === field.id);
    expect(again).toMatchObject({ x: 0.25, y: 0.5, width: 0.4, height: 0.1, label: 'Tenant signature', required: false });

    // An empty label clears it; other properties stay.
    expect((await owner.patch(`${base}/${requestId}/fields/${field.id}`, { label: '' })).body).toMatchObject({ label: null, x: 0.25, required: false });

    const audit = (await owner.get(`${base}/${requestId}/audit-trail`)).body;
    const updated = audit.filter((e: { type: string }) => e.type === 'field_updated');
    expect(updated).toHaveLength(2);
    expect(updated[0].data).toMatchObject({ fieldId: field.id, changes: { x: 0.25, y: 0.5, width: 0.4, height: 0.1, label: 'Tenant signature', required: false } });
    expect((await owner.get(`${base}/${requestId}/audit-trail/verify`)).body.valid).toBe(true);
  });

  it('moves a field to another page of the document and to another signer', async () => {
    const { requestId, signers } = await draftRequest(owner, {
      signers: [
        { name: 'Ada', email: 'ada@example.com' },
        { name: 'Bob', email: 'bob@example.com' },
      ],
    });
    const field = (await owner.get(`${base}/${requestId}/fields`)).body.find((f: { signerId: string; page: number }) => f.signerId === signers[0].id && f.page === 1);
    const res = await owner.patch(`${base}/${requestId}/fields/${field.id}`, { page: 2, signerId: signers[1].id });
    expect(res.body).toMatchObject({ page: 2, signerId: signers[1].id });
    expect((await owner.patch(`${base}/${requestId}/fields/${field.id}`, { page: 3 })).status).toBe(400);
  });

  it('refuses a field outside its page, an empty change, a cc signer, an unknown field and a sent request', async () => {
    const { requestId, signers } = await draftRequest(owner, {
      signers: [
        { name: 'Ada', email: 'ada@example.com' },
        { name: 'Cc', email: 'cc@example.com', role: 'cc' },
      ],
    });
    const [field] = (await owner.get(`${base}/${requestId}/fields`)).body;
    const path = `${base}/${requestId}/fields/${field.id}`;
    // x 0.8 with the field's width 0.3 would leave the page.
    expect((await owner.patch(path, { x: 0.8 })).status).toBe(400);
    expect((await owner.patch(path, { x: 1.2 })).status).toBe(400);
    expect((await owner.patch(path, {})).status).toBe(400);
    expect((await owner.patch(path, { signerId: signers[1].id })).status).toBe(400);
    expect((await owner.patch(`${base}/${requestId}/fields/${crypto.randomUUID()}`, { x: 0.1 })).status).toBe(404);
    expect((await owner.get(`${base}/${requestId}/fields`)).body[0]).toMatchObject({ x: field.x, y: field.y, signerId: field.signerId });

    await owner.patch(`${base}/${requestId}`, { action: 'send' });
    expect((await owner.patch(path, { x: 0.2 })).status).toBe(409);
  });

  it('is not reachable from another entity', async () => {
    const { requestId } = await draftRequest(owner);
    const [field] = (await owner.get(`${base}/${requestId}/fields`)).body;
    const stranger = await server.signup();
    expect((await stranger.patch(`${base}/${requestId}/fields/${field.id}`, { x: 0.2 })).status).toBe(404);
  });
});

describe('the signed PDF is filed back into Documents', () => {
  it('once, in the original folder, named "<name> (signed).pdf", linked to the request and the original', async () => {
    const folder = await owner.post('/api/documents/folders', { name: 'Leases' });
    const { requestId, documentId, token, sign } = await sentRequest('Flat lease.pdf', folder.body.id);
    expect((await sign()).status).toBe(200);

    const detail = (await owner.get(`${base}/${requestId}`)).body;
    expect(detail.status).toBe('completed');
    const inFolder = (await owner.get(`/api/documents?folderId=${folder.body.id}`)).body;
    const copies = inFolder.filter((d: { signedFromRequestId: string | null }) => d.signedFromRequestId === requestId);
    expect(copies).toHaveLength(1);
    const copy = copies[0];
    expect(copy).toMatchObject({ id: detail.signedDocumentId, name: 'Flat lease (signed).pdf', folderId: folder.body.id, originalDocumentId: documentId, sha256: detail.signedDocumentSha256, pageCount: 3 });
    expect(copy.pages).toHaveLength(3);
    expect((await owner.get(`/api/documents/${documentId}`)).body).toMatchObject({ signedFromRequestId: null, originalDocumentId: null });

    // The copy is the sealed PDF, and downloads under its name.
    const content = await download(`/api/documents/${copy.id}/content`);
    expect(sha256(content.data)).toBe(detail.signedDocumentSha256);
    expect(content.disposition).toContain('filename="Flat lease (signed).pdf"');
    expect((await PDFDocument.load(new Uint8Array(content.data))).getPageCount()).toBe(3);
    expect(copy.size).toBe(content.data.length);

    // The sender's and the signer's downloads of the sealed PDF carry the same name.
    const sealed = await download(`${base}/${requestId}/document`);
    expect(sealed.disposition).toContain('filename="Flat lease (signed).pdf"');
    expect(sha256(sealed.data)).toBe(detail.signedDocumentSha256);
    const signerCopy = await download(`/api/sign/${token}/document`, {});
    expect(signerCopy.status).toBe(200);
    expect(signerCopy.disposition).toContain('filename="Flat lease (signed).pdf"');
    expect(signerCopy.disposition).toContain("filename*=UTF-8''Flat%20lease%20(signed).pdf");
    expect(sha256(signerCopy.data)).toBe(detail.signedDocumentSha256);

    // Completing again is refused and files nothing more.
    expect((await owner.patch(`${base}/${requestId}`, { action: 'complete' })).status).toBe(409);
    const all = (await owner.get('/api/documents')).body;
    expect(all.filter((d: { signedFromRequestId: string | null }) => d.signedFromRequestId === requestId)).toHaveLength(1);
    const completedEntries = detail.auditLog.filter((e: { type: string }) => e.type === 'completed');
    expect(completedEntries).toHaveLength(1);
    expect(completedEntries[0].data.signedDocumentId).toBe(copy.id);
  });

  it('unfiled originals give an unfiled copy; the copy can be renamed, moved and deleted, the original stays protected', async () => {
    const { requestId, documentId, sign } = await sentRequest('Offer');
    await sign();
    const detail = (await owner.get(`${base}/${requestId}`)).body;
    const copy = (await owner.get(`/api/documents/${detail.signedDocumentId}`)).body;
    expect(copy).toMatchObject({ name: 'Offer (signed).pdf', folderId: null, originalDocumentId: documentId });

    const folder = await owner.post('/api/documents/folders', { name: 'Signed' });
    expect((await owner.patch(`/api/documents/${copy.id}`, { name: 'Offer – countersigned.pdf', folderId: folder.body.id })).body).toMatchObject({ name: 'Offer – countersigned.pdf', folderId: folder.body.id });
    expect((await owner.delete(`/api/documents/${documentId}`)).status).toBe(409);
    expect((await owner.delete(`/api/documents/${copy.id}`)).status).toBe(200);
    expect((await owner.get(`${base}/${requestId}`)).body.signedDocumentId).toBeNull();
    // The request's own sealed PDF is still there.
    expect((await download(`${base}/${requestId}/document`)).status).toBe(200);
  });

  it('files one copy when the last signature and a manual "complete" race', async () => {
    const { requestId, sign } = await sentRequest('Race.pdf');
    // Signing completes the request in the background of its response (sealing takes a moment);
    // "complete" is sent as soon as the signature is recorded, while the first sealing still runs.
    const signing = sign();
    let completing: Promise<{ status: number }> | null = null;
    for (let i = 0; i < 400 && !completing; i++) {
      const d = (await owner.get(`${base}/${requestId}`)).body;
      if (d.signers[0].status === 'signed') completing = owner.patch(`${base}/${requestId}`, { action: 'complete' });
      else await new Promise((r) => setTimeout(r, 5));
    }
    const [signed, completed] = await Promise.all([signing, completing!]);
    expect(signed.status).toBe(200);
    expect([200, 409]).toContain(completed.status);
    const detail = (await owner.get(`${base}/${requestId}`)).body;
    expect(detail.status).toBe('completed');
    const copies = (await owner.get('/api/documents?search=Race')).body.filter((d: { signedFromRequestId: string | null }) => d.signedFromRequestId === requestId);
    expect(copies).toHaveLength(1);
    expect(copies[0].sha256).toBe(detail.signedDocumentSha256);
    expect(detail.auditLog.filter((e: { type: string }) => e.type === 'completed')).toHaveLength(1);
  });

  it('a long name keeps the suffix within the 200-character limit', async () => {
    const long = `${'x'.repeat(196)}.pdf`;
    const { requestId, sign } = await sentRequest(long);
    await sign();
    const copy = (await owner.get(`/api/documents/${(await owner.get(`${base}/${requestId}`)).body.signedDocumentId}`)).body;
    expect(copy.name).toHaveLength(200);
    expect(copy.name.endsWith('x (signed).pdf')).toBe(true);
  });
});

describe('filing', () => {
  it('searches by name within a folder or everywhere, renames and moves between folders', async () => {
    const a = await owner.post('/api/documents/folders', { name: 'A' });
    const b = await owner.post('/api/documents/folders', { name: 'B' });
    const doc = await uploadPdf(owner, { name: 'Quarterly invoice.pdf', folderId: a.body.id });
    await uploadPdf(owner, { name: 'Holiday plan.pdf', folderId: a.body.id });
    const names = async (q: string) => ((await owner.get(`/api/documents${q}`)).body as { name: string }[]).map((d) => d.name);
    expect(await names('?search=INVOICE')).toContain('Quarterly invoice.pdf');
    expect(await names(`?folderId=${a.body.id}&search=invoice`)).toEqual(['Quarterly invoice.pdf']);
    expect(await names(`?folderId=${b.body.id}&search=invoice`)).toEqual([]);

    await owner.patch(`/api/documents/${doc.body.id}`, { name: 'Q3 invoice.pdf' });
    await owner.patch(`/api/documents/${doc.body.id}`, { folderId: b.body.id });
    expect(await names(`?folderId=${b.body.id}`)).toEqual(['Q3 invoice.pdf']);
    expect(await names(`?folderId=${a.body.id}`)).toEqual(['Holiday plan.pdf']);
  });
});
