// One entity on a hosted instance with a bit of everything, as real devices make it: a desktop
// links, sends a signature request and syncs (so the mirror holds real rows, a document blob and a
// signing link); then raw device tokens of each kind are enrolled through the wire protocol.
import crypto from 'node:crypto';
import { startTestServer } from '../helpers/server.js';
import { draftRequest, signingToken } from '../integration/documents-helpers.js';
import { call, type Reply } from './client.js';
import { confirmed } from './confirm.js';
import type { TestSmtp } from '../helpers/smtp.js';

export interface HostedSeed {
  entityId: string;
  email: string;
  password: string;
  /** An owner's device, enrolled by link: its raw token. */
  ownerToken: string;
  ownerDeviceId: string;
  /** Another owner device, for operations that revoke a device. */
  spareDeviceId: string;
  spareToken: string;
  /** A device of a viewer member. */
  viewerToken: string;
  viewerDeviceId: string;
  /** A device that was revoked. */
  revokedToken: string;
  /** A file stored for the entity (only for it), and its bytes. */
  blobSha: string;
  blob: Buffer;
  /** A sent request's signer: the public signing token, the request and one of the signer's fields. */
  signingToken: string;
  requestId: string;
  signerId: string;
  fieldId: string;
  documentId: string;
  /** Change ids of the entity's log. */
  changeIds: string[];
  /** Unused add-device codes (each joins once with `email`/`password`). */
  codes: string[];
}

function expectStatus(what: string, res: Reply, status: number) {
  if (res.status !== status) throw new Error(`hosted seed: ${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.body;
}

/** `smtp`: the instance confirms new addresses by mail (it has SMTP); the seed reads the codes there. */
export async function seedHostedEntity(hostedUrl: string, label: string, opts: { codes?: number; smtp?: TestSmtp } = {}): Promise<HostedSeed> {
  const confirming = <R extends { status: number }>(body: { email: string } & Record<string, unknown>, post: (b: Record<string, unknown>) => Promise<R>) => (opts.smtp ? confirmed(opts.smtp, body, post) : post(body));
  const desktop = await startTestServer();
  try {
    const owner = await desktop.signup({ entityName: `${label} Ltd` });
    expectStatus('desktop link', await confirming({ hostedUrl, email: owner.email, password: owner.password }, (b) => owner.post('/api/sync/link', b)), 201);
    const draft = await draftRequest(owner, { signers: [{ name: `${label} Signer`, email: `signer-${label.toLowerCase()}@example.com` }] });
    expectStatus('send', await owner.patch(`/api/documents/signature-requests/${draft.requestId}`, { action: 'send' }), 200);
    const token = await signingToken(owner, draft.requestId, draft.signers[0].id);
    expectStatus('sync', await owner.post('/api/sync/run', {}), 200);

    const enrol = async (deviceName: string) =>
      expectStatus(`link ${deviceName}`, await call(hostedUrl, 'POST', '/sync/v1/link', { body: { email: owner.email, password: owner.password, entityId: owner.entityId, entityName: `${label} Ltd`, deviceName } }), 201) as {
        deviceToken: string;
        deviceId: string;
      };
    const main = await enrol(`${label} fuzz owner`);
    const spare = await enrol(`${label} spare`);
    const revoked = await enrol(`${label} revoked`);
    expectStatus('revoke', await call(hostedUrl, 'DELETE', `/sync/v1/devices/${revoked.deviceId}`, { token: main.deviceToken }), 204);

    const viewerEmail = `viewer-${label.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const invitation = expectStatus('invite viewer', await call(hostedUrl, 'POST', '/sync/v1/invitations', { token: main.deviceToken, body: { email: viewerEmail, role: 'viewer' } }), 201);
    const viewer = expectStatus('viewer joins', await confirming({ code: invitation.code, email: viewerEmail, password: owner.password, deviceName: `${label} viewer` }, (b) => call(hostedUrl, 'POST', '/sync/v1/join', { body: b })), 201);

    const blob = Buffer.from(`${label} private file ${crypto.randomUUID()}`);
    const blobSha = crypto.createHash('sha256').update(blob).digest('hex');
    expectStatus('blob', await call(hostedUrl, 'PUT', `/sync/v1/blobs/${blobSha}`, { token: main.deviceToken, raw: blob, headers: { 'content-type': 'application/octet-stream' } }), 201);

    const page = expectStatus('signing page', await call(hostedUrl, 'GET', `/api/sign/${token}`), 200);
    const pulled = expectStatus('pull', await call(hostedUrl, 'GET', '/sync/v1/pull?cursor=0', { token: main.deviceToken }), 200);
    const codes: string[] = [];
    for (let i = 0; i < (opts.codes ?? 0); i++) codes.push(expectStatus('code', await call(hostedUrl, 'POST', '/sync/v1/devices/codes', { token: main.deviceToken }), 201).code);
    return {
      entityId: owner.entityId,
      email: owner.email,
      password: owner.password,
      ownerToken: main.deviceToken,
      ownerDeviceId: main.deviceId,
      spareDeviceId: spare.deviceId,
      spareToken: spare.deviceToken,
      viewerToken: viewer.deviceToken,
      viewerDeviceId: viewer.deviceId,
      revokedToken: revoked.deviceToken,
      blobSha,
      blob,
      signingToken: token,
      requestId: draft.requestId,
      signerId: draft.signers[0].id,
      fieldId: page.fields[0].id,
      documentId: draft.documentId,
      changeIds: pulled.changes.map((c: { id: string }) => c.id),
      codes,
    };
  } finally {
    await desktop.close();
  }
}
