import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { addMember, draftRequest, PNG_DATA_URL } from './documents-helpers.js';

// Issue 18: a link given to the signer ("Copy link") and signing in person on the host's device are
// told apart in the audit trail, and only the signer's own opening marks them as having viewed it.
let server: TestServer;
let owner: SessionClient;
let stranger: SessionClient;
beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup({ name: 'Olive Owner' });
  stranger = await server.signup();
});
afterAll(() => server.close());

const base = '/api/documents/signature-requests';

async function sentRequest() {
  const r = await draftRequest(owner, {
    signers: [
      { name: 'Ada Lovelace', email: 'ada@example.com' },
      { name: 'Bob Byron', email: 'bob@example.com' },
    ],
  });
  expect((await owner.patch(`${base}/${r.requestId}`, { action: 'send' })).status).toBe(200);
  return r;
}

const link = (requestId: string, signerId: string, body: unknown = {}) => owner.post(`${base}/${requestId}/signers/${signerId}/signing-link`, body);
const audit = async (requestId: string) => (await owner.get(`${base}/${requestId}/audit-trail`)).body as { type: string; actor: { type: string; id: string | null; name: string }; data: Record<string, unknown> }[];
const signer = async (requestId: string, signerId: string) => (await owner.get(`${base}/${requestId}`)).body.signers.find((s: { id: string }) => s.id === signerId);
const signFields = (view: { fields: { id: string; type: string }[] }) => view.fields.filter((f) => f.type === 'signature').map((f) => ({ fieldId: f.id, value: PNG_DATA_URL }));

describe('issuing a signing link', () => {
  it('records a copied link as shared (the default) and says who shared it', async () => {
    const { requestId, signers } = await sentRequest();
    const shared = await link(requestId, signers[0].id, { purpose: 'shared' });
    expect(shared.status).toBe(200);
    expect(shared.body.url).toMatch(/\/sign\/[A-Za-z0-9_-]+$/);
    expect((await link(requestId, signers[1].id)).status).toBe(200);
    const issued = (await audit(requestId)).filter((e) => e.type === 'signing_link_issued');
    expect(issued.map((e) => e.data)).toEqual([
      { signerId: signers[0].id, purpose: 'shared' },
      { signerId: signers[1].id, purpose: 'shared' },
    ]);
    expect(issued[0].actor).toMatchObject({ type: 'user', id: owner.user.id, name: 'Olive Owner' });
    expect((await owner.get(`${base}/${requestId}/audit-trail/verify`)).body.valid).toBe(true);
  });

  it('refuses an unknown purpose with 400 and an error', async () => {
    const { requestId, signers } = await sentRequest();
    const res = await link(requestId, signers[0].id, { purpose: 'emailed' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
    expect((await audit(requestId)).some((e) => e.type === 'signing_link_issued')).toBe(false);
  });
});

describe('viewed means the signer opened it', () => {
  it("marks the signer viewed when the signer's own link is opened, once", async () => {
    const { requestId, signers } = await sentRequest();
    const { token } = (await link(requestId, signers[0].id)).body;
    expect((await signer(requestId, signers[0].id)).viewedAt).toBeNull();
    expect((await server.anon.get(`/api/sign/${token}`)).status).toBe(200);
    expect((await server.anon.get(`/api/sign/${token}`)).status).toBe(200);
    expect((await signer(requestId, signers[0].id)).viewedAt).toEqual(expect.any(String));
    const viewed = (await audit(requestId)).filter((e) => e.type === 'viewed');
    expect(viewed).toHaveLength(1);
    expect(viewed[0].actor).toMatchObject({ type: 'signer', id: signers[0].id });
  });

  it('a host opening in-person signing does not mark the signer viewed; the signing records in person and who hosted it', async () => {
    const { requestId, signers } = await sentRequest();
    const issued = await link(requestId, signers[0].id, { purpose: 'in_person' });
    expect(issued.status).toBe(200);
    const { token } = issued.body;
    // The host's device opens the screen (the host's session comes along), twice, as a re-render would.
    for (let i = 0; i < 2; i++) {
      const view = await owner.get(`/api/sign/${token}?inPerson=true`);
      expect(view.status).toBe(200);
      expect(view.body.canSign).toBe(true);
    }
    expect((await signer(requestId, signers[0].id)).viewedAt).toBeNull();
    expect((await audit(requestId)).some((e) => e.type === 'viewed')).toBe(false);

    const view = (await owner.get(`/api/sign/${token}?inPerson=true`)).body;
    const signed = await owner.post(`/api/sign/${token}?inPerson=true`, { action: 'sign', fields: signFields(view) });
    expect(signed.status).toBe(200);
    expect(signed.body.signer.status).toBe('signed');
    const log = await audit(requestId);
    expect(log.find((e) => e.type === 'signing_link_issued')?.data).toEqual({ signerId: signers[0].id, purpose: 'in_person' });
    const entry = log.find((e) => e.type === 'signed')!;
    expect(entry.actor).toMatchObject({ type: 'signer', id: signers[0].id });
    expect(entry.data).toMatchObject({ signerId: signers[0].id, inPerson: true, hostedBy: { id: owner.user.id, name: 'Olive Owner' } });
    expect(log.some((e) => e.type === 'viewed')).toBe(false);
    // Signing in front of the host is seeing the document: the signer is viewed from then on.
    expect((await signer(requestId, signers[0].id)).viewedAt).toEqual(expect.any(String));
    expect((await owner.get(`${base}/${requestId}/audit-trail/verify`)).body.valid).toBe(true);
  });

  it('a signer signing with their own link is not recorded as in person', async () => {
    const { requestId, signers } = await sentRequest();
    const { token } = (await link(requestId, signers[1].id)).body;
    const view = (await server.anon.get(`/api/sign/${token}`)).body;
    expect((await server.anon.post(`/api/sign/${token}`, { action: 'sign', fields: signFields(view) })).status).toBe(200);
    const entry = (await audit(requestId)).find((e) => e.type === 'signed')!;
    expect(entry.data.inPerson).toBeUndefined();
    expect(entry.data.hostedBy).toBeUndefined();
  });

  it('records a decline in person with its host', async () => {
    const { requestId, signers } = await sentRequest();
    const { token } = (await link(requestId, signers[0].id, { purpose: 'in_person' })).body;
    const res = await owner.post(`/api/sign/${token}?inPerson=true`, { action: 'decline', reason: 'Wrong address' });
    expect(res.status).toBe(200);
    expect((await audit(requestId)).find((e) => e.type === 'declined')?.data).toMatchObject({ reason: 'Wrong address', inPerson: true, hostedBy: { id: owner.user.id } });
  });
});

describe('who may host in-person signing', () => {
  it('refuses a host who is signed out (401), outside the entity or without the sign permission (403), and a malformed flag (400)', async () => {
    const { requestId, signers } = await sentRequest();
    const { token } = (await link(requestId, signers[0].id, { purpose: 'in_person' })).body;
    const viewer = await addMember(server, owner, 'viewer');
    const signedOut = await server.anon.get(`/api/sign/${token}?inPerson=true`);
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.error).toMatch(/signed-in member/);
    expect((await stranger.get(`/api/sign/${token}?inPerson=true`)).status).toBe(403);
    const byViewer = await viewer.post(`/api/sign/${token}?inPerson=true`, { action: 'decline', reason: 'no' });
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.error).toEqual(expect.any(String));
    const bad = await owner.get(`/api/sign/${token}?inPerson=yes`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual(expect.any(String));
    // None of these touched the request.
    expect((await signer(requestId, signers[0].id))).toMatchObject({ status: 'pending', viewedAt: null });
    // An unknown link is still a 404 first, in person or not.
    expect((await owner.get(`/api/sign/${'x'.repeat(43)}?inPerson=true`)).status).toBe(404);
  });
});

describe('signing answers', () => {
  it("are never stored by a browser or proxy (the signer's name, e-mail and fields): Cache-Control: no-store, as on the hosted instance", async () => {
    const { signers, requestId } = await sentRequest();
    const { token } = (await link(requestId, signers[0].id)).body;
    const view = await server.anon.get(`/api/sign/${token}`);
    const answers = [
      view,
      await server.anon.get(`/api/sign/${token}/document`),
      await server.anon.post(`/api/sign/${token}`, { action: 'sign', fields: signFields(view.body) }),
      await server.anon.get(`/api/sign/${'x'.repeat(43)}`),
      await server.anon.post(`/api/sign/${token}`, { action: 'dance' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 404, 400]);
    for (const a of answers) expect(a.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the OpenAPI document', () => {
  it('documents the purpose of a signing link and the inPerson flag of the signing routes', async () => {
    const doc = (await server.anon.get('/api/openapi.json')).body;
    const issue = doc.paths['/api/documents/signature-requests/{requestId}/signers/{signerId}/signing-link'].post;
    expect(JSON.stringify(issue.requestBody)).toContain('in_person');
    for (const method of ['get', 'post']) {
      const op = doc.paths['/api/sign/{token}'][method];
      expect(op.parameters.map((p: { name: string }) => p.name)).toContain('inPerson');
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403']));
    }
  });
});
