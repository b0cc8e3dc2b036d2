// Settings → E-mail over HTTP: this install's own SMTP server, its Test, and the queue using it.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { addMember, draftRequest } from './documents-helpers.js';

/** A port on 127.0.0.1 where nothing listens (taken, then released). */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('Settings → E-mail: the device’s own SMTP server', () => {
  let smtp: TestSmtp;
  let server: TestServer;
  let owner: SessionClient;
  const good = () => ({ host: '127.0.0.1', port: smtp.port, security: 'none' as const, username: 'bureau', password: 'right password', fromAddress: 'office@acme.test', fromName: 'Acme Office' });

  beforeAll(async () => {
    smtp = await startSmtp({ auth: { user: 'bureau', pass: 'right password' } });
    server = await startTestServer();
    owner = await server.signup();
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  it('starts with none, and the queue says mail waits and why', async () => {
    expect((await owner.get('/api/mail/smtp')).body).toEqual({ source: null, settings: null });
    const { requestId } = await draftRequest(owner, { signers: [{ name: 'Ada', email: 'ada@example.com' }] });
    await owner.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' });
    await server.ctx.loops.runAll();
    const status = (await owner.get('/api/mail/status')).body;
    expect(status).toMatchObject({ configured: false, route: null, smtp: null, linked: false, queued: 1 });
    expect(status.waitingReason).toMatch(/No SMTP server/);
  });

  it('refuses bad input with 400 {error}', async () => {
    for (const bad of [{ port: 0 }, { port: 70000 }, { host: 'bad host!' }, { host: '' }, { security: 'ssl' }, { fromAddress: 'not-an-address' }, { extra: true }]) {
      const res = await owner.put('/api/mail/smtp', { ...good(), ...bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
    const test = await owner.post('/api/mail/smtp/test', { to: 'not-an-address' });
    expect(test.status).toBe(400);
    const nothing = await owner.post('/api/mail/smtp/test', {});
    expect(nothing.status).toBe(400);
    expect(nothing.body.error).toMatch(/No SMTP server is saved/);
  });

  it('Test reports an unreachable host and bad credentials in the server’s words', async () => {
    const unreachable = await owner.post('/api/mail/smtp/test', { settings: { ...good(), port: await closedPort() } });
    expect(unreachable.status).toBe(200);
    expect(unreachable.body).toMatchObject({ ok: false, to: owner.email });
    expect(['ECONNECTION', 'ESOCKET']).toContain(unreachable.body.code);
    expect(unreachable.body.response).toMatch(/ECONNREFUSED/);

    const wrong = await owner.post('/api/mail/smtp/test', { settings: { ...good(), password: 'wrong password' } });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toMatchObject({ ok: false, code: 'EAUTH', responseCode: 535 });
    expect(wrong.body.response).toMatch(/Invalid username or password/);
    expect(smtp.received).toHaveLength(0);
  });

  it('saves the setting (password sealed, never shown), Test sends through it, and the queue uses it', async () => {
    const saved = await owner.put('/api/mail/smtp', good());
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ source: 'settings', settings: { host: '127.0.0.1', port: smtp.port, security: 'none', username: 'bureau', hasPassword: true, fromAddress: 'office@acme.test', fromName: 'Acme Office' } });
    expect(JSON.stringify(saved.body)).not.toContain('right password');
    const row = server.ctx.sqlite.prepare('select password_sealed from mail_settings').get() as { password_sealed: string };
    expect(row.password_sealed).not.toContain('right password');

    const test = await owner.post('/api/mail/smtp/test', {});
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ ok: true, to: owner.email, code: null });
    expect(test.body.response).toMatch(/^250/);
    expect(smtp.received.map((m) => m.to)).toEqual([[owner.email]]);

    // The invitation that waited goes out now, from the saved address.
    await server.ctx.loops.runAll();
    const invite = smtp.received.find((m) => m.to.includes('ada@example.com'));
    expect(invite?.raw.toString()).toMatch(/^From: Acme Office <office@acme.test>/m);
    expect((await owner.get('/api/mail/status')).body).toMatchObject({ configured: true, route: 'smtp', smtp: 'settings', queued: 0, sent: 1 });
    const outbox = (await owner.get('/api/mail/outbox')).body;
    expect(outbox[0]).toMatchObject({ to: 'ada@example.com', status: 'sent', via: 'smtp' });

    // Saved again without a password: the stored one is kept.
    const kept = await owner.put('/api/mail/smtp', { ...good(), password: undefined, fromName: null });
    expect(kept.body.settings).toMatchObject({ hasPassword: true, fromName: null });
    expect((await owner.post('/api/mail/smtp/test', {})).body.ok).toBe(true);
  });

  it('is for owners and admins, signed in: members and API keys are refused', async () => {
    const member = await addMember(server, owner, 'member');
    expect((await member.get('/api/mail/smtp')).status).toBe(403);
    expect((await member.put('/api/mail/smtp', good())).status).toBe(403);
    const key = await server.apiKeyClient(owner, ['read:documents', 'write:documents']);
    expect((await key.post('/api/mail/smtp/test', {}, { headers: { 'x-entity-id': owner.entityId } })).status).toBe(403);
  });

  it('DELETE removes it: the queue falls back to --smtp-url, here none', async () => {
    const res = await owner.delete('/api/mail/smtp');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ source: null, settings: null });
    expect((await owner.get('/api/mail/status')).body).toMatchObject({ configured: false, smtp: null });
  });
});
