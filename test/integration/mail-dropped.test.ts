// Mail whose reason is gone is dropped, not sent; one "Completed" mail per person.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { draftRequest, signingToken } from './documents-helpers.js';

let smtp: TestSmtp;
let server: TestServer;
let owner: SessionClient;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer({ smtpUrl: smtp.url });
  owner = await server.signup();
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});
afterEach(() => void (smtp.received.length = 0));

/** The Subject header, unfolded and with RFC 2047 encoded words decoded. */
function subjectOf(raw: string): string {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? '';
  return header
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_m, q: string) => Buffer.from(q.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'));
}
const subjects = (to: string) => smtp.received.filter((m) => m.to.includes(to)).map((m) => subjectOf(m.raw.toString()));
async function deliver() {
  await server.ctx.loops.runAll();
  server.ctx.events.drain();
}
async function sign(requestId: string, signerId: string) {
  const token = await signingToken(owner, requestId, signerId);
  const view = await server.anon.get(`/api/sign/${token}`);
  const fields = view.body.fields.filter((f: { signerId: string }) => f.signerId === signerId).map((f: { id: string }) => ({ fieldId: f.id, value: 'Signed' }));
  const res = await server.anon.post(`/api/sign/${token}`, { action: 'sign', fields });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('mail whose reason is gone', () => {
  it('an invitation still queued when the request is cancelled is dropped, with the reason shown, and its signer is not told of a cancel', async () => {
    const { requestId } = await draftRequest(owner, { signers: [{ name: 'Ada', email: 'ada@example.com' }] });
    await owner.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' });
    await owner.patch(`/api/documents/signature-requests/${requestId}`, { action: 'cancel' });
    await deliver();
    expect(subjects('ada@example.com')).toEqual([]);
    const outbox = (await owner.get('/api/mail/outbox')).body as { ref: { kind: string; requestId?: string }; status: string; dropReason: string | null }[];
    const invite = outbox.find((m) => m.ref.kind === 'signing_invite' && m.ref.requestId === requestId);
    expect(invite).toMatchObject({ status: 'dropped', dropReason: 'The request was cancelled meanwhile' });
    expect((await owner.get('/api/mail/status')).body.dropped).toBeGreaterThanOrEqual(1);
  });

  it('reminders still queued when the request completes are dropped; the completion is mailed', async () => {
    const { requestId, signers } = await draftRequest(owner, { signers: [{ name: 'Bob', email: 'bob@example.com' }] });
    await owner.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' });
    await deliver();
    smtp.received.length = 0;
    expect((await owner.post(`/api/documents/signature-requests/${requestId}/remind`, {})).status).toBe(200);
    await sign(requestId, signers[0].id);
    await deliver();
    expect(subjects('bob@example.com')).toEqual(['Completed: "Services agreement"']);
  });
});

describe('one "Completed" mail per person', () => {
  it('the sender who is also a signer gets one, not two', async () => {
    const { requestId, signers } = await draftRequest(owner, { signers: [{ name: owner.user.name, email: owner.email }, { name: 'Cleo', email: 'cleo@example.com', role: 'cc' }] });
    await owner.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' });
    await deliver();
    smtp.received.length = 0;
    await sign(requestId, signers[0].id);
    await deliver();
    expect(subjects(owner.email)).toEqual(['Completed: "Services agreement"']);
    expect(subjects('cleo@example.com')).toEqual(['Completed: "Services agreement"']);
  });
});
