// Hosted accounts belong to whoever reads the address's mail, and passwords cannot be guessed at
// scale: failed sign-ins are counted per address and per account, both reserved before the
// password check. Run against PGlite and PostgreSQL (one file each). The instance trusts its
// loopback proxy's X-Forwarded-For here, so one test client can speak for many addresses.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { call, linkInput } from './client.js';
import { codeOf, confirmationCode, linkConfirmed, mailsTo, waitForMail, withConfirmation } from './confirm.js';

export function accountsSuite(name: string, databaseUrl: () => Promise<string | undefined>) {
  describe(`hosted accounts on ${name}`, () => {
    let hosted: RunningHosted;
    let smtp: TestSmtp;
    let base: string;
    let offsetMs = 0;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-accounts-'));
    let lastIp = 0;
    /** A client address no other test uses (documentation range 198.18.0.0/15). */
    const newIp = () => `198.18.${Math.floor(++lastIp / 250)}.${(lastIp % 250) + 1}`;
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const linkFrom = (ip: string, body: Record<string, unknown>) => call(base, 'POST', '/sync/v1/link', { body, headers: from(ip) });
    const later = (ms: number) => (offsetMs += ms);

    beforeAll(async () => {
      smtp = await startSmtp();
      hosted = await startHosted({ port: 0, dataDir, databaseUrl: await databaseUrl(), logLevel: 'silent', smtpUrl: smtp.url, trustProxy: 'loopback', clock: { now: () => new Date(Date.now() + offsetMs) } });
      base = hosted.url;
    }, 120_000);
    afterAll(async () => {
      await hosted?.close();
      await smtp?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    /** An account made the way its owner makes it (confirmed); a fresh address for each. */
    async function account() {
      const { device, input } = await linkConfirmed(base, smtp, linkInput());
      return { device, input };
    }

    describe('sign-up confirmed by e-mail', () => {
      it('an unknown address gets 202 and a code; the repeated link with it makes the account and enrols (201)', async () => {
        const input = linkInput();
        const first = await linkFrom(newIp(), input);
        expect(first.status).toBe(202);
        expect(first.body).toEqual({ confirmation: 'sent', email: input.email });
        // Nothing exists yet: no account, no entity.
        expect(await rowCount(hosted, `select count(*)::int as n from accounts where email = '${input.email}'`)).toBe(0);
        expect(await rowCount(hosted, `select count(*)::int as n from entities where id = '${input.entityId}'`)).toBe(0);
        const code = await confirmationCode(smtp, input.email, 1);
        // The code is kept only as its hash.
        expect(JSON.stringify(await hosted.ctx.store.db.execute('select * from signups'))).not.toContain(code.replace('-', ''));
        const done = await linkFrom(newIp(), { ...input, confirmationCode: code.toLowerCase() });
        expect(done.status, JSON.stringify(done.body)).toBe(201);
        expect(done.body.role).toBe('owner');
        expect(done.body.deviceToken).toMatch(/^dt_/);
        expect(await rowCount(hosted, `select count(*)::int as n from signups where email = '${input.email}'`)).toBe(0);
        // From now on the password alone signs in.
        const again = await linkFrom(newIp(), { ...input, deviceName: 'Second install' });
        expect(again.status).toBe(201);
      });

      it('a join with an invitation for a new address confirms it first; the invitation waits unspent', async () => {
        const { device } = await account();
        const invitee = `invitee-${uuidv4()}@example.com`;
        const invitation = await call(base, 'POST', '/sync/v1/invitations', { token: device.token, body: { email: invitee, role: 'member' } });
        expect(invitation.status).toBe(201);
        const body = { code: invitation.body.code, email: invitee, password: 'the invitee password', deviceName: 'Invitee laptop' };
        const first = await call(base, 'POST', '/sync/v1/join', { body, headers: from(newIp()) });
        expect(first.status).toBe(202);
        expect(first.body).toEqual({ confirmation: 'sent', email: invitee });
        const code = await confirmationCode(smtp, invitee, 1);
        const joined = await call(base, 'POST', '/sync/v1/join', { body: { ...body, confirmationCode: code }, headers: from(newIp()) });
        expect(joined.status, JSON.stringify(joined.body)).toBe(201);
        expect(joined.body.role).toBe('member');
        expect(joined.body.entity.id).toBe(device.enrolment.entity.id);
      });

      it('a wrong, an expired, a replaced or a used code answers 401 and makes nothing', async () => {
        const input = linkInput();
        expect((await linkFrom(newIp(), input)).status).toBe(202);
        const code = await confirmationCode(smtp, input.email, 1);
        const wrong = await linkFrom(newIp(), { ...input, confirmationCode: 'ZZZZ-ZZZZ' });
        expect(wrong.status).toBe(401);
        expect(wrong.body).toEqual({ error: 'Invalid or expired confirmation code' });
        // The code with another password: the code alone sets nothing.
        expect((await linkFrom(newIp(), { ...input, password: 'somebody else entirely', confirmationCode: code })).status).toBe(401);
        // Asked again: a new code, the first one is dead.
        expect((await linkFrom(newIp(), input)).status).toBe(202);
        const second = await confirmationCode(smtp, input.email, 2);
        expect(second).not.toBe(code);
        expect((await linkFrom(newIp(), { ...input, confirmationCode: code })).status).toBe(401);
        expect(await rowCount(hosted, `select count(*)::int as n from accounts where email = '${input.email}'`)).toBe(0);
        // Past the window of those failures (5 for this account), but not the code's 30 minutes.
        later(16 * 60_000);
        expect((await linkFrom(newIp(), { ...input, confirmationCode: second })).status).toBe(201);
        // Used: with another password it lets nobody in.
        const reused = await linkFrom(newIp(), { ...input, password: 'somebody else entirely', entityId: uuidv4(), confirmationCode: second });
        expect(reused.status).toBe(401);
        expect(reused.body.error).toBe('Invalid or expired confirmation code');

        const late = linkInput();
        expect((await linkFrom(newIp(), late)).status).toBe(202);
        const lateCode = await confirmationCode(smtp, late.email, 1);
        later(31 * 60_000);
        expect((await linkFrom(newIp(), { ...late, confirmationCode: lateCode })).status).toBe(401);
        expect(await rowCount(hosted, `select count(*)::int as n from accounts where email = '${late.email}'`)).toBe(0);
      });

      it('a code dies after five wrong tries, even once the account throttle has let go', async () => {
        const input = linkInput();
        expect((await linkFrom(newIp(), input)).status).toBe(202);
        const code = await confirmationCode(smtp, input.email, 1);
        for (let i = 0; i < 4; i++) expect((await linkFrom(newIp(), { ...input, confirmationCode: 'ZZZZ-ZZZZ' })).status).toBe(401);
        // Five failures (the 202 and four codes): the account is throttled now.
        expect((await linkFrom(newIp(), { ...input, confirmationCode: code })).status).toBe(429);
        later(16 * 60_000);
        expect((await linkFrom(newIp(), { ...input, confirmationCode: 'ZZZZ-ZZZZ' })).status).toBe(401);
        expect((await linkFrom(newIp(), { ...input, confirmationCode: code })).status).toBe(401);
      });
    });

    describe('known and unknown addresses answer alike', () => {
      it('a wrong password on a known address: 202 of the same shape, and a note to its owner without a code', async () => {
        const { input } = await account();
        const stranger = linkInput();
        const known = await linkFrom(newIp(), { ...linkInput(), email: input.email, password: 'not the right password' });
        const unknown = await linkFrom(newIp(), { ...stranger, password: 'not the right password' });
        expect(known.status).toBe(202);
        expect(unknown.status).toBe(202);
        expect(Object.keys(known.body).sort()).toEqual(Object.keys(unknown.body).sort());
        expect(known.body).toEqual({ confirmation: 'sent', email: input.email });
        const note = await waitForMail(smtp, input.email, 2); // the first was the account's own confirmation
        expect(note.subject).toMatch(/tried to use your Bureau account/);
        expect(note.text).toMatch(/password did not match/);
        expect(codeOf(note)).toBeNull();
        expect(codeOf(await waitForMail(smtp, stranger.email, 1))).not.toBeNull();
      });

      it('invite and closed: one refusal for known and unknown addresses; existing accounts still sign in', async () => {
        const { input } = await account();
        try {
          for (const [mode, hint] of [
            ['invite', /need an invitation/],
            ['closed', /takes no new accounts/],
          ] as const) {
            hosted.ctx.signups = mode;
            const known = await linkFrom(newIp(), { ...linkInput(), email: input.email, password: 'not the right password' });
            const unknown = await linkFrom(newIp(), linkInput());
            expect(known.status).toBe(401);
            expect(unknown.status).toBe(401);
            expect(known.body).toEqual(unknown.body);
            expect(known.body.error).toMatch(hint);
            expect((await linkFrom(newIp(), { ...input, deviceName: `Again (${mode})` })).status).toBe(201);
          }
        } finally {
          hosted.ctx.signups = 'open';
        }
      });

      it('invite: only an invited address may sign up (confirmed); closed: not even an invited one', async () => {
        const { device } = await account();
        const invitee = `invited-${uuidv4()}@example.com`;
        const invitation = await call(base, 'POST', '/sync/v1/invitations', { token: device.token, body: { email: invitee, role: 'viewer' } });
        const join = { code: invitation.body.code, email: invitee, password: 'the invitee password', deviceName: 'Invitee laptop' };
        try {
          hosted.ctx.signups = 'closed';
          const refused = await call(base, 'POST', '/sync/v1/join', { body: join, headers: from(newIp()) });
          expect(refused.status).toBe(401);
          expect(refused.body.error).toMatch(/takes no new accounts/);
          hosted.ctx.signups = 'invite';
          // Not invited: refused; invited: the link confirms the address like an open sign-up.
          expect((await linkFrom(newIp(), linkInput())).status).toBe(401);
          expect((await linkFrom(newIp(), linkInput({ email: invitee, password: join.password }))).status).toBe(202);
          // The invitation's own mail, then the link's confirmation.
          await waitForMail(smtp, invitee, 2);
          const joined = await withConfirmation(base, smtp, '/sync/v1/join', join, from(newIp()));
          expect(joined.status, JSON.stringify(joined.body)).toBe(201);
          expect(joined.body.role).toBe('viewer');
        } finally {
          hosted.ctx.signups = 'open';
        }
      });

      it('without SMTP, open sign-ups are made at once (unconfirmed; the CLI warns)', async () => {
        const mail = hosted.ctx.mail!;
        hosted.ctx.mail = { ...mail, configured: false };
        try {
          const input = linkInput();
          const res = await linkFrom(newIp(), input);
          expect(res.status).toBe(201);
          expect(await mailsTo(smtp, input.email)).toEqual([]);
        } finally {
          hosted.ctx.mail = mail;
        }
      });
    });

    describe('failed sign-ins per account and per address', () => {
      it('five failures lock an account whatever the addresses; 429 says how long; it unlocks by time', async () => {
        const { input } = await account();
        later(15 * 60_000 + 1000); // past the sign-up's own 202, which counted as one
        const wrong = { ...linkInput(), email: input.email, password: 'not the right password' };
        const ips = [newIp(), newIp(), newIp()];
        for (let i = 0; i < 5; i++) expect((await linkFrom(ips[i % 3], wrong)).status).toBe(202);
        for (const ip of [...ips, newIp()]) {
          const locked = await linkFrom(ip, wrong);
          expect(locked.status).toBe(429);
          expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(locked.body.error).toMatch(/^Too many failed sign-in attempts for this account; try again in 15 minutes$/);
        }
        // The owner too (the right password is not even checked), until the window has passed.
        const owner = await linkFrom(newIp(), { ...input, deviceName: 'Owner again' });
        expect(owner.status).toBe(429);
        later(15 * 60_000 + 1000);
        expect((await linkFrom(newIp(), { ...input, deviceName: 'Owner again' })).status).toBe(201);
      });

      it('an unknown address is locked the same way (its 202s count)', async () => {
        const unknown = linkInput();
        for (let i = 0; i < 5; i++) expect((await linkFrom(newIp(), unknown)).status).toBe(202);
        const locked = await linkFrom(newIp(), unknown);
        expect(locked.status).toBe(429);
        expect(locked.body.error).toMatch(/for this account; try again in \d+ minutes?$/);
      });

      it('20 concurrent wrong guesses at one account from 20 addresses: at most 5 are checked, the rest get 429 with Retry-After', async () => {
        const { input } = await account();
        later(15 * 60_000 + 1000);
        const mailsBefore = (await mailsTo(smtp, input.email)).length;
        const answers = await Promise.all(Array.from({ length: 20 }, () => linkFrom(newIp(), { ...linkInput(), email: input.email, password: 'not the right password' })));
        const statuses = answers.map((a) => a.status);
        expect(statuses.filter((s) => s === 202).length).toBeLessThanOrEqual(5);
        expect(statuses.filter((s) => s !== 202 && s !== 429)).toEqual([]);
        for (const limited of answers.filter((a) => a.status === 429)) {
          expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(limited.body.error).toEqual(expect.any(String));
        }
        // One note to the owner per checked guess, no more.
        await new Promise((r) => setTimeout(r, 300));
        expect((await mailsTo(smtp, input.email)).length - mailsBefore).toBeLessThanOrEqual(5);
      });

      it('20 failures from one address stop it for every account, other addresses go on', async () => {
        const ip = newIp();
        for (let i = 0; i < 20; i++) expect((await call(base, 'POST', '/sync/v1/join', { body: { code: 'ABCDE-FGHJK', email: `nobody${i}-${uuidv4()}@example.com`, password: 'long enough password', deviceName: 'x' }, headers: from(ip) })).status).toBe(401);
        const limited = await linkFrom(ip, linkInput());
        expect(limited.status).toBe(429);
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(limited.body.error).toMatch(/^Too many failed sign-in attempts from this address; try again in \d+ minutes?$/);
        expect((await linkFrom(newIp(), linkInput())).status).toBe(202);
      });
    });
  });
}

async function rowCount(hosted: RunningHosted, query: string): Promise<number> {
  const res = (await hosted.ctx.store.db.execute(query)) as unknown as { rows: { n: number }[] };
  return res.rows[0].n;
}
