import type { SessionClient } from '../helpers/server.js';
import { makePdf } from '../fixtures/pdf.js';

export interface FieldSpec {
  type: 'signature' | 'initials' | 'name' | 'email' | 'date' | 'text' | 'checkbox';
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  label?: string;
  required?: boolean;
}

/** A sent request for one signer with the given fields, made through the API (the UI for this is tested in documents.spec.ts). */
export async function sentRequest(client: SessionClient, fields: FieldSpec[], pages = 1) {
  const upload = await client.request('POST', '/api/documents?name=Lease.pdf', { raw: new Uint8Array(await makePdf(pages)), headers: { 'content-type': 'application/pdf' } });
  const created = await client.post('/api/documents/signature-requests', {
    documentId: upload.body.id,
    title: 'Flat lease',
    message: 'Please sign the lease.',
    signers: [{ name: 'Kim Tenant', email: 'kim@example.com' }],
  });
  if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  const requestId = created.body.id as string;
  const signerId = created.body.signers[0].id as string;
  const placed = await client.post(`/api/documents/signature-requests/${requestId}/fields`, { fields: fields.map((f) => ({ signerId, ...f })) });
  if (placed.status !== 201) throw new Error(`fields failed: ${JSON.stringify(placed.body)}`);
  await client.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' });
  const link = await client.post(`/api/documents/signature-requests/${requestId}/signers/${signerId}/signing-link`, {});
  return { requestId, signerId, url: link.body.url as string };
}

/** The signer's stored field values by label (or type), read back through the API. */
export async function storedValues(client: SessionClient, requestId: string): Promise<Record<string, string | null>> {
  const res = await client.get(`/api/documents/signature-requests/${requestId}/fields`);
  return Object.fromEntries(res.body.map((f: { label: string | null; type: string; value: string | null }) => [f.label ?? f.type, f.value]));
}
