import { makeClient, type Client, type SessionClient, type TestServer } from '../helpers/server.js';
import { makePdf } from '../fixtures/pdf.js';

/** Adds a new person to the owner's entity with `role` and returns their session client. */
export async function addMember(server: TestServer, owner: SessionClient, role: 'admin' | 'member' | 'viewer'): Promise<SessionClient> {
  const email = `${role}-${Math.random().toString(36).slice(2)}@example.com`;
  const added = await owner.post(`/api/entities/${owner.entityId}/members`, { email, role, name: `A ${role}` });
  if (added.status !== 201) throw new Error(`add member failed: ${added.status} ${JSON.stringify(added.body)}`);
  const password = 'correct horse battery staple';
  const accepted = await server.anon.post('/api/auth/accept-invite', { token: added.body.inviteToken, password });
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  const cookie = (accepted.headers.get('set-cookie') ?? '').split(';')[0];
  const client = makeClient(server.url, { cookie, origin: server.url, 'x-entity-id': owner.entityId });
  return { ...client, user: accepted.body.user, entityId: owner.entityId, email, password, cookie };
}

/** Uploads a generated PDF as the raw body. */
export async function uploadPdf(client: Client, opts: { pages?: number; name?: string; folderId?: string; entityId?: string; data?: Buffer } = {}) {
  const data = opts.data ?? (await makePdf(opts.pages ?? 1));
  const qs = new URLSearchParams();
  if (opts.name) qs.set('name', opts.name);
  if (opts.folderId) qs.set('folderId', opts.folderId);
  if (opts.entityId) qs.set('entityId', opts.entityId);
  const q = qs.toString();
  return client.request('POST', `/api/documents${q ? `?${q}` : ''}`, { raw: new Uint8Array(data), headers: { 'content-type': 'application/pdf', 'x-filename': 'contract.pdf' } });
}

/** Draft request with one signer who has a signature field; returns ids. */
export async function draftRequest(client: Client, opts: { signers?: { name: string; email: string; role?: string; order?: number }[]; signingOrder?: 'parallel' | 'sequential'; dueDate?: string } = {}) {
  const doc = await uploadPdf(client, { pages: 2 });
  if (doc.status !== 201) throw new Error(`upload failed: ${doc.status} ${JSON.stringify(doc.body)}`);
  const signers = opts.signers ?? [{ name: 'Ada Lovelace', email: 'ada@example.com' }];
  const created = await client.post('/api/documents/signature-requests', { documentId: doc.body.id, title: 'Services agreement', message: 'Please sign', signers, signingOrder: opts.signingOrder, dueDate: opts.dueDate });
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const requestId: string = created.body.id;
  const fields = created.body.signers
    .filter((s: { role: string }) => s.role === 'signer' || s.role === 'approver')
    .flatMap((s: { id: string }) => [
      { signerId: s.id, type: 'signature', page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.06 },
      { signerId: s.id, type: 'date', page: 2, x: 0.5, y: 0.8, width: 0.2, height: 0.04 },
    ]);
  if (fields.length) {
    const placed = await client.post(`/api/documents/signature-requests/${requestId}/fields`, { fields });
    if (placed.status !== 201) throw new Error(`fields failed: ${placed.status} ${JSON.stringify(placed.body)}`);
  }
  return { requestId, documentId: doc.body.id as string, signers: created.body.signers as { id: string; email: string; name: string; role: string }[] };
}

/** The signer's token, through the in-person signing link. */
export async function signingToken(client: Client, requestId: string, signerId: string): Promise<string> {
  const link = await client.post(`/api/documents/signature-requests/${requestId}/signers/${signerId}/signing-link`, {});
  if (link.status !== 200) throw new Error(`link failed: ${link.status} ${JSON.stringify(link.body)}`);
  return link.body.token;
}

/** A tiny valid PNG (1×1) as a data URL, like a drawn signature. */
export const PNG_DATA_URL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
