import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { makePdf } from '../fixtures/pdf.js';
import { addMember, draftRequest, uploadPdf } from './documents-helpers.js';

let server: TestServer;
let owner: SessionClient;
let other: SessionClient;
beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup();
  other = await server.signup();
});
afterAll(() => server.close());

describe('document upload', () => {
  it('stores a raw application/pdf upload with its hash, page count and page sizes', async () => {
    const data = await makePdf(3, [595.28, 841.89]);
    const res = await uploadPdf(owner, { data });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ entityId: owner.entityId, name: 'contract.pdf', folderId: null, size: data.length, pageCount: 3, sha256: crypto.createHash('sha256').update(data).digest('hex') });
    expect(res.body.pages).toEqual([
      { width: 595.28, height: 841.89 },
      { width: 595.28, height: 841.89 },
      { width: 595.28, height: 841.89 },
    ]);
    const content = await fetch(`${server.url}/api/documents/${res.body.id}/content`, { headers: { cookie: owner.cookie, 'x-entity-id': owner.entityId } });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await content.arrayBuffer()).equals(data)).toBe(true);
  });

  it('accepts multipart/form-data with a file part, a name and a folder', async () => {
    const folder = await owner.post('/api/documents/folders', { name: 'Contracts' });
    const form = new FormData();
    form.set('name', 'NDA 2026');
    form.set('folderId', folder.body.id);
    form.set('file', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'nda.pdf');
    const res = await fetch(`${server.url}/api/documents`, { method: 'POST', body: form, headers: { cookie: owner.cookie, origin: server.url, 'x-entity-id': owner.entityId } });
    const body = await res.json();
    expect(res.status).toBe(201);
    expect(body).toMatchObject({ name: 'NDA 2026', folderId: folder.body.id, pageCount: 1 });
  });

  it('rejects a file that is not a PDF (400), another content type (415) and a multipart body without file (400)', async () => {
    const fake = await owner.request('POST', '/api/documents', { raw: 'hello, not a pdf', headers: { 'content-type': 'application/pdf' } });
    expect(fake.status).toBe(400);
    expect(fake.body.error).toMatch(/not a PDF/);
    const broken = await owner.request('POST', '/api/documents', { raw: '%PDF-1.7\n garbage without objects', headers: { 'content-type': 'application/pdf' } });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toMatch(/could not be read/);
    const json = await owner.post('/api/documents', { file: 'x' });
    expect(json.status).toBe(415);
    const form = new FormData();
    form.set('name', 'x');
    const noFile = await fetch(`${server.url}/api/documents`, { method: 'POST', body: form, headers: { cookie: owner.cookie, origin: server.url, 'x-entity-id': owner.entityId } });
    expect(noFile.status).toBe(400);
    expect((await noFile.json()).error).toMatch(/no `file` part/);
  });

  it('refuses uploads above the size limit with 413', async () => {
    const big = Buffer.alloc(26 * 1024 * 1024, 0x20);
    big.write('%PDF-1.7\n');
    const res = await owner.request('POST', '/api/documents', { raw: new Uint8Array(big), headers: { 'content-type': 'application/pdf' } });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/larger than 25 MB/);
  });

  it('records a document.uploaded event in the outbox', async () => {
    const res = await uploadPdf(owner, { name: 'Evented.pdf' });
    const row = server.ctx.sqlite.prepare("select data from outbox where type = 'document.uploaded' and entity_id = ? order by id desc limit 1").get(owner.entityId) as { data: string };
    expect(JSON.parse(row.data)).toMatchObject({ documentId: res.body.id, name: 'Evented.pdf' });
  });
});

describe('document management', () => {
  it('lists newest first, searches by name, renames and moves between folders', async () => {
    const a = await uploadPdf(owner, { name: 'Alpha lease.pdf' });
    const b = await uploadPdf(owner, { name: 'Beta invoice.pdf' });
    const list = await owner.get('/api/documents');
    expect(list.status).toBe(200);
    const ids = list.body.map((d: { id: string }) => d.id);
    expect(ids.indexOf(b.body.id)).toBeLessThan(ids.indexOf(a.body.id));
    const search = await owner.get('/api/documents?search=LEASE');
    expect(search.body.map((d: { id: string }) => d.id)).toEqual([a.body.id]);

    const folder = await owner.post('/api/documents/folders', { name: 'Leases' });
    const moved = await owner.patch(`/api/documents/${a.body.id}`, { name: 'Alpha lease (signed).pdf', folderId: folder.body.id });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ name: 'Alpha lease (signed).pdf', folderId: folder.body.id });
    const inFolder = await owner.get(`/api/documents?folderId=${folder.body.id}`);
    expect(inFolder.body.map((d: { id: string }) => d.id)).toEqual([a.body.id]);
    const root = await owner.get('/api/documents?folderId=root');
    expect(root.body.map((d: { id: string }) => d.id)).not.toContain(a.body.id);

    const badFolder = await owner.patch(`/api/documents/${a.body.id}`, { folderId: crypto.randomUUID() });
    expect(badFolder.status).toBe(400);
    const emptyName = await owner.patch(`/api/documents/${a.body.id}`, { name: '  ' });
    expect(emptyName.status).toBe(400);
  });

  it('deletes an unused document, but not one used by a signature request (409)', async () => {
    const doc = await uploadPdf(owner);
    const del = await owner.delete(`/api/documents/${doc.body.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true });
    expect((await owner.get(`/api/documents/${doc.body.id}`)).status).toBe(404);

    const { documentId } = await draftRequest(owner);
    const used = await owner.delete(`/api/documents/${documentId}`);
    expect(used.status).toBe(409);
    expect(used.body.error).toMatch(/used by a signature request/);
  });
});

describe('document access', () => {
  it("hides another entity's documents (404) and refuses keys of another entity (403)", async () => {
    const doc = await uploadPdf(owner);
    expect((await other.get(`/api/documents/${doc.body.id}`, { headers: { 'x-entity-id': other.entityId } })).status).toBe(404);
    expect((await other.get(`/api/documents/${doc.body.id}/content`)).status).toBe(404);
    expect((await other.patch(`/api/documents/${doc.body.id}`, { name: 'x' })).status).toBe(404);
    expect((await other.delete(`/api/documents/${doc.body.id}`)).status).toBe(404);
    const otherKey = await server.apiKeyClient(other, ['read:documents']);
    const mismatch = await otherKey.get(`/api/documents/${doc.body.id}?entityId=${owner.entityId}`);
    expect(mismatch.status).toBe(403);
    const notMember = await other.get(`/api/documents?entityId=${owner.entityId}`, { headers: { 'x-entity-id': owner.entityId } });
    expect(notMember.status).toBe(403);
  });

  it('needs read:documents to read and write:documents to upload with an API key', async () => {
    const reader = await server.apiKeyClient(owner, ['read:documents']);
    const list = await reader.get(`/api/documents?entityId=${owner.entityId}`);
    expect(list.status).toBe(200);
    const upload = await uploadPdf(reader, { entityId: owner.entityId });
    expect(upload.status).toBe(403);
    expect(upload.body.error).toMatch(/write:documents/);
    const writer = await server.apiKeyClient(owner, ['write:documents']);
    expect((await uploadPdf(writer, { entityId: owner.entityId })).status).toBe(201);
    expect((await writer.get(`/api/documents?entityId=${owner.entityId}`)).status).toBe(403);
    expect((await server.anon.get(`/api/documents?entityId=${owner.entityId}`)).status).toBe(401);
  });

  it('lets a viewer read but not upload (403)', async () => {
    const viewer = await addMember(server, owner, 'viewer');
    expect((await viewer.get('/api/documents')).status).toBe(200);
    const res = await uploadPdf(viewer);
    expect(res.status).toBe(403);
  });

  it('produces a PDF that pdf-lib can reopen from the content route', async () => {
    const doc = await uploadPdf(owner, { pages: 2 });
    const res = await fetch(`${server.url}/api/documents/${doc.body.id}/content`, { headers: { cookie: owner.cookie, 'x-entity-id': owner.entityId } });
    const pdf = await PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
    expect(pdf.getPageCount()).toBe(2);
  });
});
