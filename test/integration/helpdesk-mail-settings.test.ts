// Helpdesk e-mail settings, connection tests, delivery failures and access, against a real
// dovecot and smtp-server.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutDovecot, startDovecot, type TestDovecot } from '../helpers/dovecot.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { freePort } from '../helpers/net.js';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { addMemberClient } from './helpdesk-fixtures.js';
import { pollMailbox } from '../../server/helpdesk/mail-watch.js';
import { connectMailbox, poll, rfc822, sendQueued, SUPPORT, ticketDetail, ticketsOf } from './helpdesk-mail-helpers.js';

const ADA = 'ada@customer.test';

describe.skipIf(skipWithoutDovecot)('helpdesk mailbox settings', () => {
  let dovecot: TestDovecot;
  let smtp: TestSmtp;
  let server: TestServer;
  let owner: SessionClient;
  let password: string;

  beforeAll(async () => {
    dovecot = await startDovecot();
    password = dovecot.addUser(SUPPORT, 'Sup3r-S3cret-Passw0rd').password;
    smtp = await startSmtp();
    server = await startTestServer({ smtpUrl: smtp.url });
    owner = await server.signup();
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.stop();
    await dovecot?.stop();
  });

  it('shows an unconfigured mailbox as off, and whether SMTP is configured', async () => {
    const res = await owner.get('/api/helpdesk/mailbox');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      address: null,
      displayName: null,
      signature: null,
      imap: null,
      incoming: { state: 'off', lastCheckedAt: null, lastError: null, nextAttemptAt: null },
      outgoing: { configured: true },
    });
  });

  it('refuses bad settings with a clear error', async () => {
    const bad = async (body: unknown) => owner.put('/api/helpdesk/mailbox', body);
    expect((await bad({ address: 'not an address' })).body.error).toMatch(/^address: must be a valid e-mail address/);
    expect((await bad({ address: SUPPORT, imap: { host: 'imap.acme.test', port: 70000, tls: true, user: 'u', password: 'p' } })).body.error).toBe('imap.port: must be 1–65535');
    expect((await bad({ address: SUPPORT, imap: { host: 'bad host/x', port: 993, tls: true, user: 'u', password: 'p' } })).body.error).toBe('imap.host: must be a host name or an IP address');
    const noPassword = await bad({ address: SUPPORT, imap: { host: 'imap.acme.test', port: 993, tls: true, user: 'u' } });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.error).toMatch(/^imap.password: is required/);
    expect((await bad({ address: SUPPORT, extra: 1 })).status).toBe(400);
  });

  it('never returns the IMAP password, and never stores it in plaintext', async () => {
    const saved = await connectMailbox(owner, dovecot, password);
    expect(saved).toMatchObject({ address: SUPPORT, displayName: 'Acme Support', imap: { host: dovecot.host, port: dovecot.port, tls: false, user: SUPPORT, passwordSet: true }, incoming: { state: 'connecting' } });
    const got = await owner.get('/api/helpdesk/mailbox');
    expect(JSON.stringify(got.body)).not.toContain(password);
    expect(got.body.imap).not.toHaveProperty('password');
    server.ctx.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    for (const file of fs.readdirSync(server.dataDir).filter((f) => f.startsWith('bureau.db'))) {
      expect(fs.readFileSync(path.join(server.dataDir, file)).includes(Buffer.from(password)), file).toBe(false);
    }
    // Omitted fields are kept, including the password while host and user stay the same.
    const kept = await owner.put('/api/helpdesk/mailbox', { address: SUPPORT, imap: { host: dovecot.host, port: dovecot.port, tls: false, user: SUPPORT } });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ displayName: 'Acme Support', signature: 'Acme Support team\nhttps://acme.test/help' });
    expect((await owner.post('/api/helpdesk/mailbox/test', {})).body).toEqual({ ok: true, mailbox: 'INBOX', messages: 0 });
    // A stored password is never sent to another server.
    const elsewhere = await owner.put('/api/helpdesk/mailbox', { address: SUPPORT, imap: { host: 'imap.attacker.test', port: 143, tls: false, user: SUPPORT } });
    expect(elsewhere.status).toBe(400);
    expect((await owner.post('/api/helpdesk/mailbox/test', { imap: { host: 'imap.attacker.test' } })).status).toBe(400);
  });

  it('tests a connection and says what failed: auth, refused, dns, tls, missing mailbox', async () => {
    await dovecot.deliver(SUPPORT, await rfc822({ from: ADA, subject: 'count me', text: 'x' }));
    expect((await owner.post('/api/helpdesk/mailbox/test', {})).body).toEqual({ ok: true, mailbox: 'INBOX', messages: 1 });

    const fail = async (imap: Record<string, unknown>) => {
      const res = await owner.post('/api/helpdesk/mailbox/test', { imap });
      expect(res.status).toBe(422);
      return res.body as { error: string; details: { reason: string } };
    };
    const auth = await fail({ password: 'wrong' });
    expect(auth.details.reason).toBe('auth');
    expect(auth.error).toMatch(/refused the user name or password/);
    const closed = await freePort();
    const refused = await fail({ port: closed, password: 'x' });
    expect(refused).toMatchObject({ details: { reason: 'refused' } });
    expect(refused.error).toContain(`127.0.0.1:${closed} refused the connection`);
    const dns = await fail({ host: 'nonexistent.invalid', password: 'x' });
    expect(dns).toMatchObject({ details: { reason: 'dns' }, error: 'The server name "nonexistent.invalid" could not be found. Check the IMAP host name.' });
    expect(await fail({ tls: true })).toMatchObject({ details: { reason: 'tls' } });
    // A mailbox the server cannot open (its maildir unreadable to dovecot).
    dovecot.addUser('broken@acme.test', 'pw');
    fs.mkdirSync(path.join(dovecot.dir, 'mail', 'broken@acme.test'), { mode: 0o700 });
    const mailbox = await fail({ user: 'broken@acme.test', password: 'pw' });
    expect(mailbox.details.reason).toBe('mailbox');
    expect(mailbox.error).toMatch(/^Signed in, but the server could not open INBOX/);
    // The secret never shows up in an answer or the log.
    expect(JSON.stringify([auth, refused, dns, mailbox])).not.toContain(password);
  });

  it('shows backoff while the server is unreachable, and recovers', async () => {
    const closed = await freePort();
    await owner.put('/api/helpdesk/mailbox', { address: SUPPORT, imap: { host: '127.0.0.1', port: closed, tls: false, user: SUPPORT } });
    expect(await pollMailbox(server.ctx, owner.entityId)).toBeNull();
    const first = (await owner.get('/api/helpdesk/mailbox')).body.incoming;
    expect(first).toMatchObject({ state: 'backoff' });
    expect(first.lastError).toMatch(/refused the connection/);
    const wait1 = Date.parse(first.nextAttemptAt) - Date.now();
    expect(wait1).toBeGreaterThan(20_000);
    await pollMailbox(server.ctx, owner.entityId);
    const wait2 = Date.parse((await owner.get('/api/helpdesk/mailbox')).body.incoming.nextAttemptAt) - Date.now();
    expect(wait2).toBeGreaterThan(wait1 + 20_000); // doubled
    // Not due yet: the loop leaves it alone.
    await server.ctx.loops.runAll();
    expect((await owner.get('/api/helpdesk/mailbox')).body.incoming.lastError).toMatch(/refused/);

    await owner.put('/api/helpdesk/mailbox', { address: SUPPORT, imap: { host: dovecot.host, port: dovecot.port, tls: false, user: SUPPORT } });
    await server.ctx.loops.runAll(); // due at once after a change
    expect((await owner.get('/api/helpdesk/mailbox')).body.incoming).toMatchObject({ state: 'polling', lastError: null });
  });

  it('never e-mails internal notes, nor replies without a contact e-mail', async () => {
    smtp.received.length = 0;
    const ticket = (await owner.post('/api/helpdesk/tickets', { subject: 'Phone call', contactEmail: ADA, channel: 'phone' })).body;
    const note = await owner.post(`/api/helpdesk/tickets/${ticket.id}/messages`, { body: 'Customer sounded upset', isInternal: true });
    expect(note.body.delivery).toBeNull();
    const anonymous = (await owner.post('/api/helpdesk/tickets', { subject: 'No contact' })).body;
    expect((await owner.post(`/api/helpdesk/tickets/${anonymous.id}/messages`, { body: 'Noted.' })).body.delivery).toBeNull();
    await sendQueued(server);
    expect(smtp.received).toHaveLength(0);

    // The first reply on a ticket without mail so far carries the number, without Re:.
    await owner.post(`/api/helpdesk/tickets/${ticket.id}/messages`, { body: 'As discussed on the phone…' });
    await sendQueued(server);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].raw.toString()).toMatch(new RegExp(`^Subject: \\[#${ticket.ticketNumber}\\] Phone call`, 'm'));
  });

  it('writes priority changes to the timeline', async () => {
    const ticket = (await owner.post('/api/helpdesk/tickets', { subject: 'Slow login' })).body;
    await owner.patch(`/api/helpdesk/tickets/${ticket.id}`, { priority: 'high' });
    const detail = await ticketDetail(owner, ticket.id);
    expect(detail.messages.filter((m) => m.authorType === 'system').map((m) => m.body)).toContain(`Priority changed from Normal to High by ${owner.user.name}`);
  });

  it('keeps another entity out: no reading or changing the mailbox, its attachments or deliveries', async () => {
    const other = await server.signup();
    const asOther = { headers: { 'x-entity-id': owner.entityId } };
    expect((await other.get('/api/helpdesk/mailbox', asOther)).status).toBe(403);
    expect((await other.put('/api/helpdesk/mailbox', { address: 'x@evil.test' }, asOther)).status).toBe(403);
    expect((await other.post('/api/helpdesk/mailbox/test', {}, asOther)).status).toBe(403);
    expect((await other.get('/api/helpdesk/mailbox')).body).toMatchObject({ address: null, imap: null, incoming: { state: 'off' } });

    await dovecot.deliver(SUPPORT, await rfc822({ from: ADA, subject: 'With a file', text: 'x', attachments: [{ filename: 'a.txt', content: 'secret file' }] }));
    await poll(server, owner.entityId);
    const t = (await ticketsOf(owner)).find((x) => x.subject === 'With a file')!;
    const m = (await ticketDetail(owner, t.id)).messages.find((x) => x.authorType === 'customer')!;
    expect((await other.get(`/api/helpdesk/tickets/${t.id}/attachments/${m.attachments[0].id}`)).status).toBe(404);
    expect((await other.post(`/api/helpdesk/tickets/${t.id}/messages/${m.id}/resend`, {})).status).toBe(404);

    // Viewers read the mailbox; only SETTINGS.MANAGE changes it; API keys read with read:helpdesk and never write it.
    const viewer = await addMemberClient(server, owner, 'viewer');
    expect((await viewer.get('/api/helpdesk/mailbox')).status).toBe(200);
    const member = await addMemberClient(server, owner, 'member');
    expect((await member.put('/api/helpdesk/mailbox', { address: SUPPORT })).status).toBe(403);
    expect((await member.delete('/api/helpdesk/mailbox')).status).toBe(403);
    const key = await server.apiKeyClient(owner, ['read:helpdesk', 'write:helpdesk']);
    expect((await key.get(`/api/helpdesk/mailbox?entityId=${owner.entityId}`)).status).toBe(200);
    expect((await key.put(`/api/helpdesk/mailbox?entityId=${owner.entityId}`, { address: SUPPORT })).status).toBe(403);
  });

  it('deletes the mailbox: incoming goes off and replies are no longer e-mailed', async () => {
    expect((await owner.delete('/api/helpdesk/mailbox')).body).toEqual({ deleted: true });
    expect((await owner.get('/api/helpdesk/mailbox')).body).toMatchObject({ address: null, imap: null, incoming: { state: 'off' } });
    const ticket = (await owner.post('/api/helpdesk/tickets', { subject: 'After delete', contactEmail: ADA })).body;
    expect((await owner.post(`/api/helpdesk/tickets/${ticket.id}/messages`, { body: 'Hello' })).body.delivery).toBeNull();
  });
});

describe('helpdesk reply delivery failures', () => {
  let smtp: TestSmtp;
  let server: TestServer;
  let owner: SessionClient;
  let offset = 0;
  const clock = { now: () => new Date(Date.now() + offset) };

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer({ smtpUrl: smtp.url, clock });
    owner = await server.signup();
    await owner.put('/api/helpdesk/mailbox', { address: SUPPORT, displayName: 'Acme Support' });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.stop();
  });

  it('shows a refused reply as failed with the reason, keeps the message, and resends it', async () => {
    const ticket = (await owner.post('/api/helpdesk/tickets', { subject: 'Refund', contactEmail: ADA })).body;
    const reply = (await owner.post(`/api/helpdesk/tickets/${ticket.id}/messages`, { body: 'Your refund is on its way.' })).body;
    smtp.refuse(Infinity);
    await sendQueued(server);
    const retrying = (await ticketDetail(owner, ticket.id)).messages.find((m) => m.id === reply.id)!;
    expect(retrying.delivery).toMatchObject({ state: 'queued', to: ADA });
    expect(retrying.delivery!.error).toMatch(/Mailbox unavailable/);
    expect((await owner.post(`/api/helpdesk/tickets/${ticket.id}/messages/${reply.id}/resend`, {})).status).toBe(409);

    // The outbox retries with backoff, then gives up.
    for (let i = 0; i < 8; i++) {
      offset += 61 * 60_000;
      await sendQueued(server);
    }
    const failed = (await ticketDetail(owner, ticket.id)).messages.find((m) => m.id === reply.id)!;
    expect(failed).toMatchObject({ body: 'Your refund is on its way.', delivery: { state: 'failed', to: ADA, sentAt: null } });
    expect(failed.delivery!.error).toMatch(/Mailbox unavailable/);
    expect(smtp.received).toHaveLength(0);

    smtp.refuse(0);
    const resent = await owner.post(`/api/helpdesk/tickets/${ticket.id}/messages/${reply.id}/resend`, {});
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id: reply.id, delivery: { state: 'queued', error: null } });
    expect((await owner.post(`/api/helpdesk/tickets/${ticket.id}/messages/${reply.id}/resend`, {})).status).toBe(409);
    await sendQueued(server);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].to).toEqual([ADA]);
    const sent = (await ticketDetail(owner, ticket.id)).messages.find((m) => m.id === reply.id)!;
    expect(sent.delivery).toMatchObject({ state: 'sent', error: null });
    // Same Message-ID as the first attempt had: the customer's client sees one message.
    expect(smtp.received[0].raw.toString()).toMatch(new RegExp(`^Message-ID: <${reply.id}@acme\\.test>`, 'mi'));
  });
});
