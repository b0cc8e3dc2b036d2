import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { addMember, uploadPdf } from './documents-helpers.js';

let server: TestServer;
let owner: SessionClient;
let other: SessionClient;
beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup();
  other = await server.signup();
});
afterAll(() => server.close());

const ids = (list: { id: string }[]) => list.map((x) => x.id);

describe('folders CRUD', () => {
  it('creates a folder with every field of the contract and defaults for the optional ones', async () => {
    const res = await owner.post(`/api/documents/folders?entityId=${owner.entityId}`, { name: '  Contracts ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ entityId: owner.entityId, name: 'Contracts', description: '', parentId: null, color: '#64748b', icon: 'folder', access: 'edit' });
    expect(res.body.createdAt).toBe(res.body.updatedAt);
    const child = await owner.post('/api/documents/folders', { entityId: owner.entityId, name: 'Suppliers', description: 'Supplier contracts', parentId: res.body.id, color: '#1E88E5', icon: 'briefcase' });
    expect(child.status).toBe(201);
    expect(child.body).toMatchObject({ parentId: res.body.id, color: '#1e88e5', icon: 'briefcase', description: 'Supplier contracts' });
    const list = await owner.get(`/api/documents/folders?entityId=${owner.entityId}`);
    expect(ids(list.body)).toEqual(expect.arrayContaining([res.body.id, child.body.id]));
  });

  it('validates name, colour, icon and parent', async () => {
    expect((await owner.post('/api/documents/folders', {})).status).toBe(400);
    expect((await owner.post('/api/documents/folders', { name: '' })).status).toBe(400);
    const color = await owner.post('/api/documents/folders', { name: 'x', color: 'red' });
    expect(color.status).toBe(400);
    expect(color.body.error).toMatch(/color/);
    expect((await owner.post('/api/documents/folders', { name: 'x', icon: 'rocket-ship' })).status).toBe(400);
    const parent = await owner.post('/api/documents/folders', { name: 'x', parentId: crypto.randomUUID() });
    expect(parent.status).toBe(400);
    expect(parent.body.error).toMatch(/parentId/);
    const foreign = await other.post('/api/documents/folders', { name: 'Theirs' });
    const cross = await owner.post('/api/documents/folders', { name: 'x', parentId: foreign.body.id });
    expect(cross.status).toBe(400);
  });

  it('updates fields and refuses a move that makes a cycle', async () => {
    const a = await owner.post('/api/documents/folders', { name: 'A' });
    const b = await owner.post('/api/documents/folders', { name: 'B', parentId: a.body.id });
    const c = await owner.post('/api/documents/folders', { name: 'C', parentId: b.body.id });
    const renamed = await owner.patch(`/api/documents/folders/${a.body.id}`, { name: 'A2', color: '#ff0000', icon: 'star', description: 'top' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'A2', color: '#ff0000', icon: 'star', description: 'top' });
    const cycle = await owner.patch(`/api/documents/folders/${a.body.id}`, { parentId: c.body.id });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error).toMatch(/into itself/);
    const self = await owner.patch(`/api/documents/folders/${a.body.id}`, { parentId: a.body.id });
    expect(self.status).toBe(400);
    const toRoot = await owner.patch(`/api/documents/folders/${c.body.id}`, { parentId: null });
    expect(toRoot.body.parentId).toBeNull();
  });

  it('refuses to delete a non-empty folder unless recursive, which keeps the documents', async () => {
    const top = await owner.post('/api/documents/folders', { name: 'Top' });
    const parent = await owner.post('/api/documents/folders', { name: 'Parent', parentId: top.body.id });
    const child = await owner.post('/api/documents/folders', { name: 'Child', parentId: parent.body.id });
    const doc = await uploadPdf(owner, { folderId: child.body.id });
    const refused = await owner.delete(`/api/documents/folders/${parent.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.details).toEqual({ subfolders: 1, documents: 1 });
    const deleted = await owner.delete(`/api/documents/folders/${parent.body.id}?recursive=true`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true });
    const folders = ids((await owner.get('/api/documents/folders')).body);
    expect(folders).not.toContain(parent.body.id);
    expect(folders).not.toContain(child.body.id);
    expect((await owner.get(`/api/documents/${doc.body.id}`)).body.folderId).toBe(top.body.id);
    const empty = await owner.post('/api/documents/folders', { name: 'Empty' });
    expect((await owner.delete(`/api/documents/folders/${empty.body.id}`)).status).toBe(200);
  });

  it("isolates entities: another entity's folder is 404, a foreign key is 403, a missing scope is 403", async () => {
    const mine = await owner.post('/api/documents/folders', { name: 'Private' });
    expect((await other.patch(`/api/documents/folders/${mine.body.id}`, { name: 'x' })).status).toBe(404);
    expect((await other.delete(`/api/documents/folders/${mine.body.id}`)).status).toBe(404);
    expect((await other.get(`/api/documents/folders/${mine.body.id}/grants`)).status).toBe(404);
    expect(ids((await other.get('/api/documents/folders')).body)).not.toContain(mine.body.id);
    const foreignKey = await server.apiKeyClient(other, ['read:documents', 'write:documents']);
    expect((await foreignKey.get(`/api/documents/folders?entityId=${owner.entityId}`)).status).toBe(403);
    const reader = await server.apiKeyClient(owner, ['read:documents']);
    expect((await reader.get(`/api/documents/folders?entityId=${owner.entityId}`)).status).toBe(200);
    expect((await reader.post(`/api/documents/folders?entityId=${owner.entityId}`, { name: 'x' })).status).toBe(403);
    const missing = await owner.request('GET', '/api/documents/folders', { headers: { 'x-entity-id': '' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('entityId required');
  });
});

describe('folder grants', () => {
  it('restricts a shared folder to its grantees for members below admin', async () => {
    const member = await addMember(server, owner, 'member');
    const colleague = await addMember(server, owner, 'member');
    const viewer = await addMember(server, owner, 'viewer');
    const admin = await addMember(server, owner, 'admin');
    const folder = await owner.post('/api/documents/folders', { name: 'HR' });
    const sub = await owner.post('/api/documents/folders', { name: 'Payroll', parentId: folder.body.id });
    const doc = await uploadPdf(owner, { folderId: sub.body.id, name: 'salaries.pdf' });

    // Open by default: every member sees it.
    expect(ids((await colleague.get('/api/documents/folders')).body)).toContain(folder.body.id);

    const grant = await owner.post(`/api/documents/folders/${folder.body.id}/grants`, { userId: member.user.id, level: 'view' });
    expect(grant.status).toBe(201);
    expect(grant.body).toMatchObject({ folderId: folder.body.id, userId: member.user.id, role: null, level: 'view', email: member.email });
    const roleGrant = await owner.post(`/api/documents/folders/${folder.body.id}/grants`, { role: 'viewer', level: 'view' });
    expect(roleGrant.status).toBe(201);

    // The colleague has no grant: folder, subfolder and document disappear.
    expect(ids((await colleague.get('/api/documents/folders')).body)).not.toContain(folder.body.id);
    expect(ids((await colleague.get('/api/documents/folders')).body)).not.toContain(sub.body.id);
    expect((await colleague.get(`/api/documents/${doc.body.id}`)).status).toBe(404);
    expect(ids((await colleague.get('/api/documents')).body)).not.toContain(doc.body.id);
    expect((await colleague.patch(`/api/documents/folders/${folder.body.id}`, { name: 'mine' })).status).toBe(404);

    // The member with view sees it (inherited by the subfolder) but cannot change it.
    const seen = (await member.get('/api/documents/folders')).body;
    expect(seen.find((f: { id: string }) => f.id === sub.body.id)?.access).toBe('view');
    expect((await member.get(`/api/documents/${doc.body.id}`)).status).toBe(200);
    expect((await member.patch(`/api/documents/folders/${folder.body.id}`, { name: 'x' })).status).toBe(403);
    expect((await uploadPdf(member, { folderId: sub.body.id })).status).toBe(403);
    expect((await member.post(`/api/documents/folders/${folder.body.id}/reorder`, { documentIds: [doc.body.id] })).status).toBe(403);

    // The role grant lets viewers see it; admins are never limited.
    expect(ids((await viewer.get('/api/documents/folders')).body)).toContain(folder.body.id);
    expect(ids((await admin.get('/api/documents/folders')).body)).toContain(folder.body.id);

    // Raising to edit lets the member upload; granting again changes the level, not a duplicate.
    const raised = await owner.post(`/api/documents/folders/${folder.body.id}/grants`, { userId: member.user.id, level: 'edit' });
    expect(raised.body.id).toBe(grant.body.id);
    expect((await uploadPdf(member, { folderId: sub.body.id })).status).toBe(201);
    const grants = await owner.get(`/api/documents/folders/${folder.body.id}/grants`);
    expect(grants.body).toHaveLength(2);

    // Signature requests on a restricted document are hidden the same way.
    const request = await owner.post('/api/documents/signature-requests', { documentId: doc.body.id, title: 'Payroll sign-off' });
    expect(request.status).toBe(201);
    expect((await colleague.get('/api/documents/signature-requests')).body.map((r: { id: string }) => r.id)).not.toContain(request.body.id);
    expect((await colleague.get(`/api/documents/signature-requests/${request.body.id}`)).status).toBe(404);
    expect((await colleague.post('/api/documents/signature-requests', { documentId: doc.body.id, title: 'x' })).status).toBe(400);
    expect((await member.get(`/api/documents/signature-requests/${request.body.id}`)).status).toBe(200);

    // Removing every grant opens the folder again.
    const removed = await owner.delete(`/api/documents/folders/${folder.body.id}/grants`, { userId: member.user.id });
    expect(removed.status).toBe(200);
    expect(removed.body.grants).toHaveLength(1);
    await owner.delete(`/api/documents/folders/${folder.body.id}/grants`, { grantId: roleGrant.body.id });
    expect(ids((await colleague.get('/api/documents/folders')).body)).toContain(folder.body.id);
  });

  it('lists only unfiled documents for a member who can see no folder at all', async () => {
    const boss = await server.signup();
    const staff = await addMember(server, boss, 'member');
    const secret = await boss.post('/api/documents/folders', { name: 'Board' });
    await boss.post(`/api/documents/folders/${secret.body.id}/grants`, { role: 'viewer', level: 'view' });
    const hidden = await uploadPdf(boss, { folderId: secret.body.id });
    const open = await uploadPdf(boss);
    await boss.post('/api/documents/signature-requests', { documentId: hidden.body.id, title: 'Board resolution' });
    expect((await staff.get('/api/documents/folders')).body).toEqual([]);
    const docs = await staff.get('/api/documents');
    expect(docs.status).toBe(200);
    expect(ids(docs.body)).toEqual([open.body.id]);
    const requests = await staff.get('/api/documents/signature-requests');
    expect(requests.status).toBe(200);
    expect(requests.body).toEqual([]);
  });

  it('validates grant bodies', async () => {
    const folder = await owner.post('/api/documents/folders', { name: 'Shared' });
    const url = `/api/documents/folders/${folder.body.id}/grants`;
    expect((await owner.post(url, { level: 'view' })).status).toBe(400);
    expect((await owner.post(url, { userId: owner.user.id, role: 'member', level: 'view' })).status).toBe(400);
    expect((await owner.post(url, { role: 'member', level: 'admin' })).status).toBe(400);
    const stranger = await owner.post(url, { userId: other.user.id, level: 'view' });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error).toMatch(/not a member/);
    expect((await owner.delete(url, { grantId: crypto.randomUUID() })).status).toBe(404);
    expect((await owner.delete(url, {})).status).toBe(400);
    const reader = await server.apiKeyClient(owner, ['read:documents']);
    expect((await reader.get(`${url}?entityId=${owner.entityId}`)).status).toBe(200);
    expect((await reader.post(`${url}?entityId=${owner.entityId}`, { role: 'member', level: 'view' })).status).toBe(403);
  });
});

describe('reorder', () => {
  it('sets the manual order of a folder, which listing honours', async () => {
    const folder = await owner.post('/api/documents/folders', { name: 'Ordered' });
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => uploadPdf(owner, { folderId: folder.body.id })));
    const res = await owner.post(`/api/documents/folders/${folder.body.id}/reorder`, { documentIds: [c.body.id, a.body.id, b.body.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ folderId: folder.body.id, documentIds: [c.body.id, a.body.id, b.body.id] });
    const list = await owner.get(`/api/documents?folderId=${folder.body.id}`);
    expect(ids(list.body)).toEqual([c.body.id, a.body.id, b.body.id]);
    // A partial list moves those first; the rest keep their order.
    const partial = await owner.post(`/api/documents/folders/${folder.body.id}/reorder`, { documentIds: [b.body.id] });
    expect(partial.body.documentIds).toEqual([b.body.id, c.body.id, a.body.id]);
    expect(ids((await owner.get(`/api/documents?folderId=${folder.body.id}`)).body)).toEqual([b.body.id, c.body.id, a.body.id]);
  });

  it('refuses unknown, foreign, repeated or outside-the-folder ids with 400', async () => {
    const folder = await owner.post('/api/documents/folders', { name: 'Strict' });
    const inside = await uploadPdf(owner, { folderId: folder.body.id });
    const outside = await uploadPdf(owner);
    const foreign = await uploadPdf(other);
    const url = `/api/documents/folders/${folder.body.id}/reorder`;
    for (const documentIds of [[crypto.randomUUID()], [outside.body.id], [foreign.body.id], [inside.body.id, inside.body.id], [], ['not-a-uuid']]) {
      const res = await owner.post(url, { documentIds });
      expect(res.status).toBe(400);
    }
    expect((await owner.post(`/api/documents/folders/${crypto.randomUUID()}/reorder`, { documentIds: [inside.body.id] })).status).toBe(404);
  });
});
