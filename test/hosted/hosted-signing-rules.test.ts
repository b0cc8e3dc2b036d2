// The signing rules hold on the hosted pages as on a device: sequential order (the next signer is
// invited from the hosted instance, with a link it makes then), decline, expiry, the unknown-link
// throttle, and bad input answered with `{error}` and nothing recorded.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { freePort } from '../helpers/net.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { makeClient, startTestServer, type Client, type SessionClient, type TestServer } from '../helpers/server.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { confirmed } from './confirm.js';
import { draftRequest, PNG_DATA_URL, signingToken } from '../integration/documents-helpers.js';
import { startReceiver, type Receiver } from '../integration/webhooks-receiver.js';
import { eq } from 'drizzle-orm';
import { runAutoReminders } from '../../server/documents/reminders.js';
import { signers as signersTable } from '../../server/documents/tables.js';

/** The same rules on both stores of the hosted instance. */
function signingRules(store: string, databaseUrl: () => Promise<string | undefined>) {
  const base = '/api/documents/signature-requests';
  let smtp: TestSmtp;
  let hosted: RunningHosted;
  let hostedDir: string;
  let device: TestServer;
  let owner: SessionClient;
  let pub: Client;
  /** The device's webhook endpoint: a signer's action on the hosted pages fires the device's webhooks when it arrives. */
  let receiver: Receiver;

  beforeAll(async () => {
    smtp = await startSmtp();
    hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-rules-'));
    const port = await freePort();
    hosted = await startHosted({ port, dataDir: hostedDir, databaseUrl: await databaseUrl(), logLevel: 'silent', publicUrl: `http://127.0.0.1:${port}`, smtpUrl: smtp.url, trustProxy: 'loopback' });
    pub = makeClient(hosted.url);
    device = await startTestServer();
    owner = await device.signup({ entityName: 'Rules Ltd' });
    // The hosted account is new: its address is confirmed with the code mailed to it.
    const linked = await confirmed(smtp, { hostedUrl: hosted.url, email: owner.email, password: owner.password }, (body) => owner.post('/api/sync/link', body));
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    receiver = await startReceiver();
    const sub = await owner.post('/api/webhook-subscriptions', { url: receiver.url, events: ['signer.signed', 'signature_request.declined', 'signature_request.expired'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await device?.close();
    await hosted?.close();
    await receiver?.close();
    await smtp?.stop();
    fs.rmSync(hostedDir, { recursive: true, force: true });
  });

  const sync = async () => expect((await owner.post('/api/sync/run', {})).status).toBe(200);
  /** The events the device's webhooks delivered for a request. */
  async function delivered(requestId: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
    // Twice: events become deliveries in one loop and are sent by another.
    await device.ctx.loops.runAll();
    await device.ctx.loops.runAll();
    return receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> }).filter((e) => e.data.requestId === requestId);
  }
  const signatureFields = (page: { fields: { id: string; type: string }[] }) => page.fields.filter((f) => f.type === 'signature').map((f) => ({ fieldId: f.id, value: PNG_DATA_URL }));

  async function sentRequest(opts: Parameters<typeof draftRequest>[1]) {
    const draft = await draftRequest(owner, opts);
    const sent = await owner.patch(`${base}/${draft.requestId}`, { action: 'send' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const tokens = await Promise.all(draft.signers.map((s) => signingToken(owner, draft.requestId, s.id)));
    await sync();
    return { ...draft, tokens };
  }

  describe(`signing rules on the hosted pages (${store})`, () => {
    it('sequential order: the second signer waits; when the first signs, the hosted instance invites the second with a new link', async () => {
      const { requestId, tokens } = await sentRequest({ signingOrder: 'sequential', signers: [{ name: 'Ada First', email: 'ada.seq@example.com', order: 1 }, { name: 'Bob Second', email: 'bob.seq@example.com', order: 2 }] });
      const early = await pub.get(`/api/sign/${tokens[1]}`);
      expect(early.status).toBe(200);
      expect(early.body.canSign).toBe(false);
      expect(early.body.waitingFor).toEqual(['Ada First']);
      const tooEarly = await pub.post(`/api/sign/${tokens[1]}`, { action: 'sign', fields: signatureFields(early.body) });
      expect(tooEarly.status).toBe(409);
      expect(tooEarly.body.error).toBe('It is not your turn to sign yet');

      const ada = await pub.get(`/api/sign/${tokens[0]}`);
      expect((await pub.post(`/api/sign/${tokens[0]}`, { action: 'sign', fields: signatureFields(ada.body) })).status).toBe(200);
      await hosted.ctx.mail!.sendDue();
      const invite = (await Promise.all(smtp.received.filter((m) => m.to.includes('bob.seq@example.com')).map((m) => simpleParser(m.raw)))).at(-1);
      expect(invite?.subject).toMatch(/asks you to sign "Services agreement"/);
      const link = new RegExp(`${hosted.url}/sign/([A-Za-z0-9_-]+)`).exec(invite!.text ?? '');
      expect(link).not.toBeNull();
      // The link Bob was given before is replaced by the one the hosted instance just mailed.
      expect((await pub.get(`/api/sign/${tokens[1]}`)).status).toBe(404);
      const bob = await pub.get(`/api/sign/${link![1]}`);
      expect(bob.body.canSign).toBe(true);
      expect((await pub.post(`/api/sign/${link![1]}`, { action: 'sign', fields: signatureFields(bob.body) })).status).toBe(200);

      await sync();
      await device.ctx.loops.runAll();
      await sync();
      const detail = await owner.get(`${base}/${requestId}`);
      expect(detail.body.status).toBe('completed');
      expect(detail.body.signers.map((s: { status: string }) => s.status)).toEqual(['signed', 'signed']);
      const events = await delivered(requestId);
      expect(events.filter((e) => e.type === 'signer.signed').map((e) => e.data.email)).toEqual(['ada.seq@example.com', 'bob.seq@example.com']);
      expect((await owner.get(`${base}/${requestId}/audit-trail/verify`)).body.valid).toBe(true);
    });

    it('a reminder written on the device while a signer signs on the hosted pages: the signature wins, the chain stays one chain', async () => {
      const { requestId, tokens } = await sentRequest({ signers: [{ name: 'Hal', email: 'hal@example.com' }, { name: 'Ivy', email: 'ivy@example.com' }] });
      // Both append to the audit chain unaware of each other: the device (not yet synced) and the hosted page.
      expect((await owner.post(`${base}/${requestId}/remind`, {})).status).toBe(200);
      const hal = await pub.get(`/api/sign/${tokens[0]}`);
      expect((await pub.post(`/api/sign/${tokens[0]}`, { action: 'sign', fields: signatureFields(hal.body) })).status).toBe(200);
      await sync();
      await sync();
      const detail = await owner.get(`${base}/${requestId}`);
      expect(detail.body.signers.find((s: { email: string }) => s.email === 'hal@example.com').status).toBe('signed');
      const trail = (await owner.get(`${base}/${requestId}/audit-trail`)).body as { seq: number; type: string }[];
      expect(trail.map((e) => e.seq)).toEqual(trail.map((_, i) => i + 1));
      expect(trail.filter((e) => e.type === 'signed')).toHaveLength(1);
      expect((await owner.get(`${base}/${requestId}/audit-trail/verify`)).body.valid).toBe(true);
      // The refused reminder is reported, not silently lost.
      const status = (await owner.get('/api/sync/status')).body;
      expect(JSON.stringify(status)).toMatch(/Changed elsewhere first/);
    });

    it('automatic reminders come from the hosted instance (also while every device is offline), with a new link; the device does not remind twice', async () => {
      const { requestId, signers } = await sentRequest({ signers: [{ name: 'Jo Remind', email: 'jo.remind@example.com' }] });
      // Three days pass since the invitation (written on the device and synced, as any edit).
      const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000).toISOString();
      device.ctx.db.update(signersTable).set({ lastNotifiedAt: threeDaysAgo }).where(eq(signersTable.id, signers[0].id)).run();
      await sync();
      expect(runAutoReminders(device.ctx)).toBe(0);
      expect(await hosted.ctx.mail!.remindDue()).toBe(1);
      expect(await hosted.ctx.mail!.remindDue()).toBe(0);
      await hosted.ctx.mail!.sendDue();
      const reminder = (await Promise.all(smtp.received.filter((m) => m.to.includes('jo.remind@example.com')).map((m) => simpleParser(m.raw)))).at(-1);
      expect(reminder?.subject).toBe('Reminder: please sign "Services agreement"');
      const link = new RegExp(`${hosted.url}/sign/([A-Za-z0-9_-]+)`).exec(reminder!.text ?? '');
      expect((await pub.get(`/api/sign/${link![1]}`)).body.canSign).toBe(true);

      await sync();
      const detail = await owner.get(`${base}/${requestId}`);
      expect(detail.body.signers[0].remindersSent).toBe(1);
      expect(detail.body.auditLog.filter((e: { type: string; data: { automatic?: boolean } }) => e.type === 'reminded' && e.data.automatic)).toHaveLength(1);
      expect((await owner.get(`${base}/${requestId}/audit-trail/verify`)).body.valid).toBe(true);
      // The next one is due three days after this one, not now.
      expect(await hosted.ctx.mail!.remindDue()).toBe(0);
    });

    it('a decline on the hosted pages declines the request everywhere; the other signer can no longer sign', async () => {
      const { requestId, tokens } = await sentRequest({ signers: [{ name: 'Cy', email: 'cy@example.com' }, { name: 'Di', email: 'di@example.com' }] });
      const missingReason = await pub.post(`/api/sign/${tokens[0]}`, { action: 'decline' });
      expect(missingReason.status).toBe(400);
      expect(missingReason.body.error).toEqual(expect.any(String));
      const declined = await pub.post(`/api/sign/${tokens[0]}`, { action: 'decline', reason: 'Wrong amount' });
      expect(declined.status, JSON.stringify(declined.body)).toBe(200);
      expect(declined.body.request.status).toBe('declined');
      const other = await pub.get(`/api/sign/${tokens[1]}`);
      expect(other.body.canSign).toBe(false);
      const late = await pub.post(`/api/sign/${tokens[1]}`, { action: 'sign', fields: signatureFields(other.body) });
      expect(late.status).toBe(409);
      expect(late.body.error).toBe('This request is declined');

      await sync();
      const detail = await owner.get(`${base}/${requestId}`);
      expect(detail.body.status).toBe('declined');
      const trail = (await owner.get(`${base}/${requestId}/audit-trail`)).body as { type: string; data: { reason?: string } }[];
      expect(trail.find((e) => e.type === 'declined')?.data.reason).toBe('Wrong amount');
      // The device's webhooks and the request's creator hear of it when it arrives.
      expect((await delivered(requestId)).filter((e) => e.type === 'signature_request.declined').map((e) => e.data.reason)).toEqual(['Wrong amount']);
      const notes = (await owner.get('/api/notifications')).body;
      expect(JSON.stringify(notes)).toContain('Declined: Services agreement');
      expect((await owner.get(`${base}/${requestId}/audit-trail/verify`)).body.valid).toBe(true);
    });

    it('a request past its due date expires on the hosted pages and cannot be signed', async () => {
      const { requestId, tokens } = await sentRequest({ dueDate: new Date(Date.now() + 4_000).toISOString() });
      // Real time passes (a clock set ahead would be refused by the device as skew).
      await new Promise((resolve) => setTimeout(resolve, 4_500));
      const page = await pub.get(`/api/sign/${tokens[0]}`);
      expect(page.status).toBe(200);
      expect(page.body.request.status).toBe('expired');
      expect(page.body.canSign).toBe(false);
      const late = await pub.post(`/api/sign/${tokens[0]}`, { action: 'sign', fields: signatureFields(page.body) });
      expect(late.status).toBe(409);
      expect(late.body.error).toBe('This request is expired');
      await sync();
      expect((await owner.get(`${base}/${requestId}`)).body.status).toBe('expired');
      expect((await delivered(requestId)).map((e) => e.type)).toEqual(['signature_request.expired']);
      expect((await owner.get(`${base}/${requestId}/audit-trail/verify`)).body.valid).toBe(true);
    });

    it('bad input: a malformed token, a field that is not the signer’s, a bad value — each {error}, nothing recorded', async () => {
      const { tokens } = await sentRequest({ signers: [{ name: 'Eve', email: 'eve@example.com' }, { name: 'Fay', email: 'fay@example.com' }] });
      const malformed = await pub.get('/api/sign/not a token');
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toEqual(expect.any(String));
      const eve = await pub.get(`/api/sign/${tokens[0]}`);
      const fay = await pub.get(`/api/sign/${tokens[1]}`);
      // Each signer sees only their own fields.
      expect(eve.body.fields.every((f: { signerId: string }) => f.signerId === eve.body.signer.id)).toBe(true);
      const notMine = await pub.post(`/api/sign/${tokens[0]}`, { action: 'sign', fields: signatureFields(fay.body) });
      expect(notMine.status).toBe(400);
      expect(notMine.body.error).toBe('A fieldId is not one of your fields');
      const badPng = await pub.post(`/api/sign/${tokens[0]}`, { action: 'sign', fields: [{ fieldId: signatureFields(eve.body)[0].fieldId, value: 'data:image/png;base64,AAAA' }] });
      expect(badPng.status).toBe(400);
      const badBody = await pub.post(`/api/sign/${tokens[0]}`, { action: 'dance' });
      expect(badBody.status).toBe(400);
      // Text PostgreSQL cannot store (NUL, an unpaired surrogate) is refused at the door, not a 500.
      for (const value of ['Eve\u0000Evil', 'Eve\ud800']) {
        const odd = await pub.post(`/api/sign/${tokens[0]}`, { action: 'sign', fields: [{ fieldId: signatureFields(eve.body)[0].fieldId, value }] });
        expect(odd.status, JSON.stringify(odd.body)).toBe(400);
        expect(odd.body.error).toEqual(expect.any(String));
      }
      const oddReason = await pub.post(`/api/sign/${tokens[0]}`, { action: 'decline', reason: 'no\u0000' });
      expect(oddReason.status, JSON.stringify(oddReason.body)).toBe(400);
      expect((await pub.get(`/api/sign/${tokens[0]}`)).body.signer.status).toBe('pending');
      // The signer's name, e-mail and fields, and the errors: never stored by a browser or proxy.
      for (const answer of [malformed, eve, fay, notMine, badPng, badBody]) expect(answer.headers.get('cache-control')).toBe('no-store');
    });

    it('after 20 unknown links from one address, every signing link from it answers 429', async () => {
      const { tokens } = await sentRequest({ signers: [{ name: 'Gil', email: 'gil@example.com' }] });
      // One client address behind the proxy (this instance trusts its loopback proxy's X-Forwarded-For).
      const prober = makeClient(hosted.url, { 'x-forwarded-for': '203.0.113.7' });
      for (let i = 0; i < 20; i++) {
        const miss = await prober.get(`/api/sign/${'x'.repeat(30)}${String(i).padStart(4, '0')}`);
        expect(miss.status).toBe(404);
        expect(miss.body.error).toBe('Signing link not found');
      }
      const blocked = await prober.get(`/api/sign/${tokens[0]}`);
      expect(blocked.status).toBe(429);
      expect(blocked.body.error).toBe('Too many unknown signing links from this address; try again later');
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another address is not affected.
      const other = makeClient(hosted.url, { 'x-forwarded-for': '198.51.100.9' });
      expect((await other.get(`/api/sign/${tokens[0]}`)).status).toBe(200);
    });
  });
}

let pg: TestPostgres | undefined;
afterAll(() => pg?.stop());
signingRules('PGlite', async () => undefined);
signingRules('PostgreSQL', async () => {
  pg = await startPostgres();
  return pg.createDatabase('hosted_signing_rules');
});
