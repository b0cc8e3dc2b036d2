// Linking to (and joining from) a hosted instance that confirms new accounts by e-mail: the desktop
// passes the hosted 202 on, the person enters the mailed code, the same request again links.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { makeClient, startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { confirmationCode, mailsTo } from '../hosted/confirm.js';

let smtp: TestSmtp;
let hosted: RunningHosted;
let a: TestServer;
let owner: SessionClient;
const hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-sync-confirm-'));

beforeAll(async () => {
  smtp = await startSmtp();
  hosted = await startHosted({ port: 0, dataDir: hostedDir, logLevel: 'silent', smtpUrl: smtp.url });
  a = await startTestServer();
  owner = await a.signup({ entityName: 'Confirm Ltd' });
}, 120_000);

afterAll(async () => {
  await a?.close();
  await hosted?.close();
  await smtp?.stop();
  fs.rmSync(hostedDir, { recursive: true, force: true });
});

describe('linking with a new hosted account', () => {
  it('202 with the address, nothing linked; a wrong code 400; the mailed code links (201)', async () => {
    const body = { hostedUrl: hosted.url, email: owner.email, password: owner.password };
    const first = await owner.post('/api/sync/link', body);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body).toEqual({ confirmation: 'sent', email: owner.email });
    expect((await owner.get('/api/sync/status')).body).toEqual({ linked: false, state: 'unlinked' });

    const code = await confirmationCode(smtp, owner.email, 1);
    const wrong = await owner.post('/api/sync/link', { ...body, confirmationCode: 'ZZZZ-ZZZZ' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('Linking failed: Invalid or expired confirmation code');

    const linked = await owner.post('/api/sync/link', { ...body, confirmationCode: code });
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    expect(linked.body).toMatchObject({ linked: true, state: 'synced', waiting: 0 });
  });

  it('an invited member joins from a fresh install: 202, then the code, then signed in', async () => {
    const c = await startTestServer();
    try {
      const added = await owner.post(`/api/entities/${owner.entityId}/members`, { email: 'newcomer@example.com', role: 'member', name: 'New Comer' });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      const invite = await owner.post('/api/sync/invitations', { userId: added.body.member.userId });
      expect(invite.status, JSON.stringify(invite.body)).toBe(201);
      const body = { hostedUrl: hosted.url, code: invite.body.code, email: 'newcomer@example.com', password: 'newcomer own password', name: 'New Comer' };
      // Each invitation went out by mail (the add, then the invite of the added member, which replaces it).
      const invitationMails = await mailsTo(smtp, 'newcomer@example.com');
      expect(invitationMails.map((m) => m.subject)).toEqual([expect.stringMatching(/invited you/), expect.stringMatching(/invited you/)]);
      const first = await c.anon.post('/api/sync/join', body);
      expect(first.status, JSON.stringify(first.body)).toBe(202);
      expect(first.body).toEqual({ confirmation: 'sent', email: 'newcomer@example.com' });
      expect(first.headers.get('set-cookie')).toBeNull();
      const joined = await c.anon.post('/api/sync/join', { ...body, confirmationCode: await confirmationCode(smtp, 'newcomer@example.com', invitationMails.length + 1) });
      expect(joined.status, JSON.stringify(joined.body)).toBe(201);
      expect(joined.body.user.id).toBe(added.body.member.userId);
      const member = makeClient(c.url, { cookie: (joined.headers.get('set-cookie') ?? '').split(';')[0], origin: c.url, 'x-entity-id': owner.entityId });
      expect((await member.get('/api/auth/me')).body.entities.find((e: { id: string }) => e.id === owner.entityId).role).toBe('member');
    } finally {
      await c.close();
    }
  });

  it('a wrong password for an existing hosted account: the same 202, a note to its owner, then the hosted limit (429) passed on', async () => {
    // Its own password here (a link takes the device's password), which is not the owner's hosted one.
    const other = await a.signup({ entityName: 'Guessed Co', password: 'not the right password' });
    const body = { hostedUrl: hosted.url, email: owner.email, password: 'not the right password' };
    const mailsBefore = (await mailsTo(smtp, owner.email)).length;
    // Its own sign-up counted two failures (the 202 and the wrong code): three more reach the limit of five.
    for (let i = 0; i < 3; i++) expect((await other.post('/api/sync/link', body)).status).toBe(202);
    const limited = await other.post('/api/sync/link', body);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.error).toMatch(/^Linking failed: Too many failed sign-in attempts for this account; try again in \d+ minutes?$/);
    await new Promise((r) => setTimeout(r, 300));
    expect((await mailsTo(smtp, owner.email)).length - mailsBefore).toBe(3);
  });
});
