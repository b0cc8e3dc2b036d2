// POST /sync/v1/mail on PGlite and PostgreSQL: a linked device hands over mail and the hosted
// instance sends it, once, only to addresses the entity knows, within its quota.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { call } from './client.js';
import { seedHostedEntity, type HostedSeed } from './seed.js';

/** Mails handed over per entity per window here: small, so the quota is reached in a test. */
const QUOTA = 6;

export function hostedMailSuite(name: string, databaseUrl: () => Promise<string | undefined>) {
  describe(`POST /sync/v1/mail on ${name}`, () => {
    let hosted: RunningHosted;
    let smtp: TestSmtp;
    let a: HostedSeed;
    let b: HostedSeed;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-mail-'));

    beforeAll(async () => {
      smtp = await startSmtp();
      hosted = await startHosted({
        port: 0,
        dataDir,
        databaseUrl: await databaseUrl(),
        logLevel: 'silent',
        smtpUrl: smtp.url,
        mailFrom: 'Bureau <mail@hosted.test>',
        limits: { mailQuota: { limit: QUOTA, windowMs: 60 * 60_000, message: 'Daily e-mail quota used up' } },
      });
      a = await seedHostedEntity(hosted.url, 'Alpha', { smtp });
      b = await seedHostedEntity(hosted.url, 'Beta', { smtp });
    }, 240_000);
    afterAll(async () => {
      await hosted?.close();
      await smtp?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const mail = (to: string, extra: Record<string, unknown> = {}) => ({ id: crypto.randomUUID(), to, subject: 'Please sign', text: 'Open the link', html: '<p>Open the link</p>', ref: { kind: 'test' }, ...extra });
    const send = (token: string, body: unknown) => call(hosted.url, 'POST', '/sync/v1/mail', { token, body });
    const received = (to: string) => smtp.received.filter((m) => m.to.includes(to));
    const stored = async (mailId: string) => {
      const res = (await hosted.ctx.store.db.execute(`select status, body, reason from relayed_mail where mail_id = '${mailId}'`)) as unknown as { rows: { status: string; body: unknown; reason: string | null }[] };
      return res.rows[0];
    };

    it('sends a signing invitation to a signer of the entity once; a retry with the same id answers what became of it', async () => {
      const body = mail('signer-alpha@example.com', { ref: { kind: 'signing_invite', requestId: a.requestId, signerId: a.signerId } });
      const first = await send(a.ownerToken, body);
      expect(first.status, JSON.stringify(first.body)).toBe(202);
      expect(first.body).toEqual({ id: body.id, status: 'queued', reason: null });
      await hosted.ctx.mail!.sendDue();
      expect(received('signer-alpha@example.com')).toHaveLength(1);
      const raw = received('signer-alpha@example.com')[0].raw.toString('utf8');
      expect(raw).toMatch(/^From: Bureau <mail@hosted.test>/m);
      expect(raw).toMatch(new RegExp(`^X-Bureau-Mail-Id: ${body.id}`, 'im'));
      // The body is not kept once the mail is sent.
      expect(await stored(body.id)).toMatchObject({ status: 'sent', body: null });

      const again = await send(a.ownerToken, body);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ id: body.id, status: 'sent', reason: null });
      await hosted.ctx.mail!.sendDue();
      expect(received('signer-alpha@example.com')).toHaveLength(1);
    });

    it("sends to a member's account address", async () => {
      const before = received(a.email.toLowerCase()).length;
      const res = await send(a.ownerToken, mail(a.email.toUpperCase()));
      expect(res.status).toBe(202);
      await hosted.ctx.mail!.sendDue();
      expect(received(a.email.toLowerCase()).length - before).toBe(1);
    });

    it("refuses an address the entity does not know (another entity's signer too), keeping nothing", async () => {
      for (const to of ['stranger@example.com', 'signer-beta@example.com']) {
        const body = mail(to);
        const res = await send(a.ownerToken, body);
        expect(res.status).toBe(403);
        expect(res.body.error).toMatch(/only to addresses the business knows/);
        expect(await stored(body.id)).toBeUndefined();
      }
      await hosted.ctx.mail!.sendDue();
      expect(received('stranger@example.com')).toHaveLength(0);
      expect(received('signer-beta@example.com')).toHaveLength(0);
    });

    it('refuses oversize and bad input with {error}', async () => {
      const big = await send(a.ownerToken, mail(a.email, { text: 'x'.repeat(900 * 1024) }));
      expect(big.status).toBe(413);
      expect(big.body.error).toEqual(expect.any(String));
      const long = await send(a.ownerToken, mail(a.email, { html: 'x'.repeat(300 * 1024) }));
      expect(long.status).toBe(400);
      for (const bad of [{ to: `${a.email}, stranger@example.com` }, { to: [a.email, 'x@example.com'] }, { subject: 'Line\r\nBcc: x@example.com' }, { id: 'not-a-uuid' }, { extra: 1 }]) {
        const res = await send(a.ownerToken, mail(a.email, bad));
        expect(res.status, JSON.stringify(bad)).toBe(400);
        expect(res.body.error).toEqual(expect.any(String));
      }
    });

    it("drops a second mail of the same purpose from another device, and an invitation whose signer signed meanwhile", async () => {
      const purposeKey = `completed:${a.requestId}:${a.email.toLowerCase()}`;
      const first = await send(a.ownerToken, mail(a.email, { subject: 'Completed', purposeKey }));
      expect(first.status).toBe(202);
      const second = await send(a.spareToken, mail(a.email, { subject: 'Completed', purposeKey }));
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ status: 'dropped', reason: expect.stringMatching(/already sent/) });
      await hosted.ctx.mail!.sendDue();
      expect(smtp.received.filter((m) => m.to.includes(a.email.toLowerCase()) && m.raw.toString().includes('Subject: Completed'))).toHaveLength(1);

      // The signer signs on the public page: a reminder queued for them afterwards is dropped, not sent.
      const signed = await call(hosted.url, 'POST', `/api/sign/${a.signingToken}`, { body: { action: 'sign', fields: [{ fieldId: a.fieldId, value: 'Alpha Signer' }] } });
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      const before = received('signer-alpha@example.com').length;
      const reminder = mail('signer-alpha@example.com', { ref: { kind: 'signing_reminder', requestId: a.requestId, signerId: a.signerId } });
      const res = await send(a.ownerToken, reminder);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ status: 'dropped', reason: expect.stringMatching(/signed meanwhile/) });
      await hosted.ctx.mail!.sendDue();
      expect(received('signer-alpha@example.com').length - before).toBe(0);
      expect(await stored(reminder.id)).toMatchObject({ status: 'dropped', body: null });
    });

    it("stops an entity at its quota (429 with Retry-After); other entities are not affected", async () => {
      for (let i = 0; i < QUOTA; i++) expect((await send(b.ownerToken, mail(b.email))).status).toBe(202);
      const over = await send(b.ownerToken, mail(b.email));
      expect(over.status).toBe(429);
      expect(over.body.error).toBe('Daily e-mail quota used up');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await send(a.ownerToken, mail(a.email))).status).toBe(202);
    });

    it('refuses a revoked device, a viewer and no token', async () => {
      expect((await send(a.revokedToken, mail(a.email))).status).toBe(401);
      expect((await send(a.viewerToken, mail(a.email))).status).toBe(403);
      expect((await call(hosted.url, 'POST', '/sync/v1/mail', { body: mail(a.email) })).status).toBe(401);
    });
  });
}
