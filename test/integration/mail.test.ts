import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { draftRequest, PNG_DATA_URL } from './documents-helpers.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';

let smtp: TestSmtp;
/** What reached the SMTP server since the last reset, as text. */
const inbox = () => smtp.received.map((m) => ({ to: m.to, raw: m.raw.toString('utf8') }));
const clearInbox = () => void (smtp.received.length = 0);
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.stop());
afterEach(() => {
  clearInbox();
  smtp.refuse(0);
});

/** Decodes a quoted-printable body the way a mail client would, enough to read links. */
function decodeQp(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** The Subject header, unfolded and with RFC 2047 encoded words decoded. */
function subjectOf(raw: string): string {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? '';
  return header
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_m, q: string) => Buffer.from(q.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'));
}

function signingLinks(raw: string): string[] {
  return [...new Set(decodeQp(raw).match(/https?:\/\/[^\s"<]+\/sign\/[A-Za-z0-9_-]+/g) ?? [])];
}

async function deliver(server: TestServer) {
  await server.ctx.loops.runAll();
  server.ctx.events.drain();
}

describe('mail through a real SMTP server', () => {
  let server: TestServer;
  let owner: SessionClient;
  beforeAll(async () => {
    server = await startTestServer({ smtpUrl: smtp.url, mailFrom: 'Bureau <sign@bureau.test>' });
    owner = await server.signup();
  });
  afterAll(() => server.close());

  it('send e-mails the first signer a working signing link, and the delivery is audited', async () => {
    const { requestId, signers } = await draftRequest(owner, { signingOrder: 'sequential', signers: [{ name: 'Ada', email: 'ada@example.com' }, { name: 'Bob', email: 'bob@example.com' }] });
    await owner.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' });
    expect((await owner.get('/api/mail/status')).body).toMatchObject({ configured: true, queued: 1 });
    await deliver(server);
    expect(inbox().map((m) => m.to)).toEqual([['ada@example.com']]);
    const mail = inbox()[0].raw;
    expect(mail).toMatch(/^From: Bureau <sign@bureau.test>/m);
    expect(subjectOf(mail)).toBe(`${owner.user.name} asks you to sign "Services agreement"`);
    const [link] = signingLinks(mail);
    expect(link.startsWith(server.url)).toBe(true);
    const token = link.split('/sign/')[1];
    const view = await server.anon.get(`/api/sign/${token}`);
    expect(view.status).toBe(200);
    expect(view.body.signer).toMatchObject({ id: signers[0].id, email: 'ada@example.com' });
    const detail = await owner.get(`/api/documents/signature-requests/${requestId}`);
    expect(detail.body.auditLog.find((e: { type: string }) => e.type === 'email_sent')).toMatchObject({ data: { kind: 'signing_invite', signerId: signers[0].id, to: 'ada@example.com' } });

    // Ada signs: Bob is invited next; nobody else is.
    clearInbox();
    const sig = view.body.fields.find((f: { type: string }) => f.type === 'signature');
    await server.anon.post(`/api/sign/${token}`, { action: 'sign', fields: [{ fieldId: sig.id, value: PNG_DATA_URL }] });
    await deliver(server);
    expect(inbox().map((m) => m.to)).toEqual([['bob@example.com']]);
  });

  it('remind e-mails the same working link to whoever still has to act', async () => {
    const { requestId } = await draftRequest(owner, { signers: [{ name: 'Cleo', email: 'cleo@example.com' }, { name: 'Dan', email: 'dan@example.com' }] });
    await owner.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' });
    await deliver(server);
    const invites = new Map(inbox().map((m) => [m.to[0], signingLinks(m.raw)[0]]));
    expect([...invites.keys()].sort()).toEqual(['cleo@example.com', 'dan@example.com']);
    clearInbox();
    const res = await owner.post(`/api/documents/signature-requests/${requestId}/remind`, {});
    expect(res.body.mailConfigured).toBe(true);
    await deliver(server);
    expect(inbox().map((m) => m.to[0]).sort()).toEqual(['cleo@example.com', 'dan@example.com']);
    for (const m of inbox()) {
      expect(subjectOf(m.raw)).toBe('Reminder: please sign "Services agreement"');
      expect(signingLinks(m.raw)[0]).toBe(invites.get(m.to[0]));
      expect((await server.anon.get(`/api/sign/${signingLinks(m.raw)[0].split('/sign/')[1]}`)).status).toBe(200);
    }
  });

  it('e-mails everyone and the sender when the request completes', async () => {
    const { requestId } = await draftRequest(owner, { signers: [{ name: 'Eve', email: 'eve@example.com' }, { name: 'Fay', email: 'fay@example.com', role: 'cc' }] });
    await owner.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' });
    await deliver(server);
    const token = signingLinks(inbox()[0].raw)[0].split('/sign/')[1];
    clearInbox();
    const view = await server.anon.get(`/api/sign/${token}`);
    const sig = view.body.fields.find((f: { type: string }) => f.type === 'signature');
    const done = await server.anon.post(`/api/sign/${token}`, { action: 'sign', fields: [{ fieldId: sig.id, value: 'Eve' }] });
    expect(done.body.request.status).toBe('completed');
    await deliver(server);
    expect(inbox().map((m) => m.to[0]).sort()).toEqual([owner.email, 'eve@example.com', 'fay@example.com'].sort());
    expect(inbox().map((m) => subjectOf(m.raw))).toEqual(Array(3).fill('Completed: "Services agreement"'));
  });

  it('tells invited signers when the request is cancelled, and the sender when a signer declines', async () => {
    const first = await draftRequest(owner, { signers: [{ name: 'Hal', email: 'hal@example.com' }] });
    await owner.patch(`/api/documents/signature-requests/${first.requestId}`, { action: 'send' });
    await deliver(server);
    clearInbox();
    await owner.patch(`/api/documents/signature-requests/${first.requestId}`, { action: 'cancel' });
    await deliver(server);
    expect(inbox().map((m) => [m.to[0], subjectOf(m.raw)])).toEqual([['hal@example.com', 'Cancelled: "Services agreement"']]);

    const second = await draftRequest(owner, { signers: [{ name: 'Ivy', email: 'ivy@example.com' }] });
    await owner.patch(`/api/documents/signature-requests/${second.requestId}`, { action: 'send' });
    await deliver(server);
    const token = signingLinks(inbox().at(-1)!.raw)[0].split('/sign/')[1];
    clearInbox();
    await server.anon.post(`/api/sign/${token}`, { action: 'decline', reason: 'Not authorised to sign' });
    await deliver(server);
    expect(inbox().map((m) => [m.to[0], subjectOf(m.raw)])).toEqual([[owner.email, 'Declined: "Services agreement"']]);
    expect(decodeQp(inbox()[0].raw)).toContain('Not authorised to sign');
  });

  it('retries a failed delivery with backoff instead of dropping it', async () => {
    await draftRequest(owner, { signers: [{ name: 'Gus', email: 'gus@example.com' }] }).then(({ requestId }) => owner.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' }));
    smtp.refuse(1);
    await deliver(server);
    expect(inbox()).toHaveLength(0);
    const status = await owner.get('/api/mail/status');
    expect(status.body.queued).toBe(1);
    expect(status.body.lastError).toMatch(/Mailbox unavailable/);
    const outbox = await owner.get('/api/mail/outbox');
    expect(outbox.body[0]).toMatchObject({ to: 'gus@example.com', status: 'queued', attempts: 1 });
    expect(outbox.body[0]).not.toHaveProperty('bodySealed');
  });
});

describe('mail without SMTP', () => {
  it('stays queued and says so', async () => {
    const server = await startTestServer();
    try {
      const owner = await server.signup();
      const { requestId } = await draftRequest(owner);
      await owner.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' });
      await deliver(server);
      const status = await owner.get('/api/mail/status');
      expect(status.body).toMatchObject({ configured: false, queued: 1, sent: 0 });
      expect(inbox()).toHaveLength(0);
      const body = server.ctx.sqlite.prepare('select body_sealed from mail_outbox limit 1').get() as { body_sealed: string };
      expect(body.body_sealed).not.toMatch(/sign\//);
    } finally {
      await server.close();
    }
  });
});
