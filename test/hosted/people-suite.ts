// The people of an entity on the hosted instance: invitations (mailed, listed with their state,
// resent, revoked; expired, revoked and used codes refused plainly), role changes and removals
// (which revoke the member's devices), the people rows every device pulls, device names and one
// password per person. Run against PGlite and PostgreSQL (one file each).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { REMOVED_MEMBER_MESSAGE } from '../../server/sync/protocol.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { call, Device, linkInput } from './client.js';
import { linkConfirmed, waitForMail, withConfirmation } from './confirm.js';

export function peopleSuite(name: string, databaseUrl: () => Promise<string | undefined>) {
  describe(`hosted people on ${name}`, () => {
    let hosted: RunningHosted;
    let smtp: TestSmtp;
    let base: string;
    let offsetMs = 0;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-people-'));

    beforeAll(async () => {
      smtp = await startSmtp();
      hosted = await startHosted({ port: 0, dataDir, databaseUrl: await databaseUrl(), logLevel: 'silent', smtpUrl: smtp.url, clock: { now: () => new Date(Date.now() + offsetMs) } });
      base = hosted.url;
    }, 120_000);
    afterAll(async () => {
      await hosted?.close();
      await smtp?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    /** The entity's people rows as a device has them after pulling the whole log. */
    async function peopleOf(device: Device) {
      const { changes } = await device.pullAll();
      const rows = new Map<string, Record<string, unknown>>();
      for (const c of changes.filter((c: { table: string }) => c.table === 'entity_people')) {
        expect(c.deviceId).toBe('00000000-0000-0000-0000-000000000000');
        rows.set(c.rowId, { ...(rows.get(c.rowId) ?? {}), ...c.columns });
      }
      return [...rows.values()].filter((r) => !r._deleted);
    }

    async function invite(owner: Device, body: Record<string, unknown>) {
      const res = await call(base, 'POST', '/sync/v1/invitations', { token: owner.token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    }

    async function accept(code: string, email: string, extra: Record<string, unknown> = {}) {
      const res = await withConfirmation(base, smtp, '/sync/v1/join', { code, email, password: 'lee her own password', deviceName: 'Lee laptop', ...extra });
      return res;
    }

    /** Dana links an entity; Lee is invited by e-mail and accepts on her own install. */
    async function team() {
      const { device: dana, input } = await linkConfirmed(base, smtp, linkInput());
      const lee = `lee-${uuidv4()}@example.com`;
      const invitation = await invite(dana, { email: lee, name: 'Lee Agent', role: 'member' });
      const joined = await accept(invitation.code, lee, { name: 'Lee' });
      expect(joined.status, JSON.stringify(joined.body)).toBe(201);
      return { dana, danaInput: input, lee, leeDevice: new Device(base, joined.body), invitation };
    }

    it("the entity's people enter its log with its first change of people: the owner's row comes with the first invitation", async () => {
      const { device, input } = await linkConfirmed(base, smtp, linkInput());
      // A log that holds only the business's data stays exactly that (the linking device knows its own account).
      expect(await peopleOf(device)).toEqual([]);
      await invite(device, { email: `first-${uuidv4()}@example.com`, role: 'viewer' });
      const people = await peopleOf(device);
      expect(people).toContainEqual(expect.objectContaining({ entity_id: input.entityId, user_id: device.enrolment.accountId, email: input.email, role: 'owner', state: 'active' }));
      expect(people).toHaveLength(2);
    });

    it('one person invited to two businesses before she has an account is one id in both, and stays it when she accepts', async () => {
      // A device that holds both businesses knows her as one person (one local user, a membership in each).
      const { device: first } = await linkConfirmed(base, smtp, linkInput());
      const { device: second } = await linkConfirmed(base, smtp, linkInput());
      const lee = `lee-${uuidv4()}@example.com`;
      const one = await invite(first, { email: lee, role: 'member' });
      const two = await invite(second, { email: lee, role: 'viewer' });
      expect(two.accountId).toBe(one.accountId);
      const idsIn = async (device: Device) => (await peopleOf(device)).filter((p) => p.email === lee).map((p) => p.user_id);
      expect(await idsIn(first)).toEqual([one.accountId]);
      expect(await idsIn(second)).toEqual([one.accountId]);
      const joined = await accept(two.code, lee, { name: 'Lee' });
      expect(joined.status, JSON.stringify(joined.body)).toBe(201);
      expect(joined.body.accountId).toBe(one.accountId);
      const again = await accept(one.code, lee, { name: 'Lee' });
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      expect(again.body.accountId).toBe(one.accountId);
    });

    it('an invitation is mailed with a link to the join page, listed as sent, and her row says invited on every device', async () => {
      const { device: dana } = await linkConfirmed(base, smtp, linkInput());
      const lee = `lee-${uuidv4()}@example.com`;
      const invitation = await invite(dana, { email: lee, name: 'Lee Agent', role: 'member' });
      expect(invitation).toMatchObject({ email: lee, name: 'Lee Agent', role: 'member', state: 'sent', mailed: true });
      expect(invitation.code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
      expect(invitation.joinUrl).toBe(`${base}/join?code=${invitation.code}`);
      const mail = await waitForMail(smtp, lee);
      expect(mail.text).toContain(invitation.joinUrl);
      expect(mail.text).toContain(invitation.code);
      // The code is kept only as its hash.
      expect(JSON.stringify(await hosted.ctx.store.db.execute('select * from invitations'))).not.toContain(invitation.code.replace('-', ''));
      const page = await call(base, 'GET', `/join?code=${invitation.code}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain(invitation.code);
      expect(page.body).toContain(base);
      expect(page.body).toContain('Accept an invitation');
      const people = await peopleOf(dana);
      expect(people).toContainEqual(expect.objectContaining({ user_id: invitation.accountId, email: lee, name: 'Lee Agent', role: 'member', state: 'invited' }));
      const listed = await call(base, 'GET', '/sync/v1/invitations', { token: dana.token });
      expect(listed.body).toEqual([expect.objectContaining({ id: invitation.id, state: 'sent', email: lee })]);
      expect(JSON.stringify(listed.body)).not.toContain(invitation.code);
    });

    it('Lee accepts with her own name: a member, her row active everywhere, the invitation accepted; the code does not work twice', async () => {
      const { dana, lee, leeDevice, invitation } = await team();
      expect(leeDevice.enrolment.role).toBe('member');
      expect(leeDevice.enrolment.accountId).toBe(invitation.accountId);
      for (const device of [dana, leeDevice]) {
        const people = await peopleOf(device);
        expect(people).toHaveLength(2);
        expect(people).toContainEqual(expect.objectContaining({ user_id: invitation.accountId, email: lee, name: 'Lee', role: 'member', state: 'active' }));
      }
      const listed = await call(base, 'GET', '/sync/v1/invitations', { token: dana.token });
      expect(listed.body[0].state).toBe('accepted');
      const again = await call(base, 'POST', '/sync/v1/join', { body: { code: invitation.code, email: lee, password: 'lee her own password', deviceName: 'Another' } });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatch(/accepted already/);
    });

    it('an expired or revoked invitation is refused plainly (410), with nothing joined; revoking drops her row; resending renews the code', async () => {
      const { device: dana } = await linkConfirmed(base, smtp, linkInput());
      const late = `late-${uuidv4()}@example.com`;
      const expiring = await invite(dana, { email: late, role: 'member' });
      offsetMs += 8 * 86_400_000;
      try {
        const expired = await accept(expiring.code, late);
        expect(expired.status).toBe(410);
        expect(expired.body.error).toMatch(/expired/);
        const listed = await call(base, 'GET', '/sync/v1/invitations', { token: dana.token });
        expect(listed.body[0].state).toBe('expired');
        // Resent: a new code that works, the old one no longer.
        const resent = await call(base, 'POST', `/sync/v1/invitations/${expiring.id}/resend`, { token: dana.token });
        expect(resent.status).toBe(200);
        expect(resent.body.state).toBe('sent');
        expect(resent.body.code).not.toBe(expiring.code);
        // The old code is no code any more: the same refusal as any unknown code (no account exists to sign in to).
        expect([400, 401]).toContain((await call(base, 'POST', '/sync/v1/join', { body: { code: expiring.code, email: late, password: 'lee her own password', deviceName: 'X' } })).status);
      } finally {
        offsetMs -= 8 * 86_400_000;
      }
      const gone = `gone-${uuidv4()}@example.com`;
      const withdrawn = await invite(dana, { email: gone, role: 'viewer' });
      const revoked = await call(base, 'DELETE', `/sync/v1/invitations/${withdrawn.id}`, { token: dana.token });
      expect(revoked.status).toBe(200);
      expect(revoked.body.state).toBe('revoked');
      const refused = await accept(withdrawn.code, gone);
      expect(refused.status).toBe(410);
      expect(refused.body.error).toMatch(/withdrawn/);
      expect((await call(base, 'POST', `/sync/v1/invitations/${withdrawn.id}/resend`, { token: dana.token })).status).toBe(410);
      expect((await peopleOf(dana)).map((p) => p.email)).not.toContain(gone);
      const accounts = await hosted.ctx.store.db.execute(`select count(*)::int as n from accounts where email = '${gone}'`);
      expect(Number((accounts as unknown as { rows: { n: number }[] }).rows[0].n)).toBe(0);
    });

    it('refuses an invitation of a member (409), a device writing people rows itself, and a member inviting', async () => {
      const { dana, danaInput, lee, leeDevice } = await team();
      expect((await call(base, 'POST', '/sync/v1/invitations', { token: dana.token, body: { email: lee, role: 'admin' } })).status).toBe(409);
      expect((await call(base, 'POST', '/sync/v1/invitations', { token: dana.token, body: { email: danaInput.email, role: 'member' } })).status).toBe(409);
      expect((await call(base, 'POST', '/sync/v1/invitations', { token: leeDevice.token, body: { email: `x-${uuidv4()}@example.com`, role: 'member' } })).status).toBe(403);
      const forged = dana.change('entity_people', JSON.stringify([danaInput.entityId, leeDevice.enrolment.accountId]), { entity_id: danaInput.entityId, user_id: leeDevice.enrolment.accountId, email: lee, name: 'Lee', role: 'owner', state: 'active', _deleted: 0 });
      const pushed = await dana.push([forged]);
      expect(pushed.status).toBe(200);
      expect(pushed.body.results[0]).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/hosted instance only/) });
      expect((await peopleOf(dana)).find((p) => p.email === lee)?.role).toBe('member');
    });

    it('a role change by the owner is enforced at once and reaches every device; owner rules hold', async () => {
      const { dana, leeDevice, invitation } = await team();
      const leeId = invitation.accountId;
      const viewer = await call(base, 'PATCH', `/sync/v1/members/${leeId}`, { token: dana.token, body: { role: 'viewer' } });
      expect(viewer.status, JSON.stringify(viewer.body)).toBe(200);
      expect(viewer.body).toMatchObject({ accountId: leeId, role: 'viewer', state: 'active' });
      // A viewer's device cannot write any more.
      const write = await leeDevice.push([leeDevice.change('categories', uuidv4(), { name: 'x' })]);
      expect(write.status).toBe(403);
      expect((await peopleOf(leeDevice)).find((p) => p.user_id === leeId)?.role).toBe('viewer');
      expect((await call(base, 'PATCH', `/sync/v1/members/${leeId}`, { token: dana.token, body: { role: 'admin' } })).status).toBe(200);
      // An admin changes no owner, and appoints none.
      expect((await call(base, 'PATCH', `/sync/v1/members/${dana.enrolment.accountId}`, { token: leeDevice.token, body: { role: 'member' } })).status).toBe(403);
      expect((await call(base, 'PATCH', `/sync/v1/members/${leeId}`, { token: leeDevice.token, body: { role: 'owner' } })).status).toBe(403);
      expect((await call(base, 'DELETE', `/sync/v1/members/${dana.enrolment.accountId}`, { token: leeDevice.token })).status).toBe(403);
      // The last owner stays.
      const demote = await call(base, 'PATCH', `/sync/v1/members/${dana.enrolment.accountId}`, { token: dana.token, body: { role: 'admin' } });
      expect(demote.status).toBe(409);
      expect(demote.body.error).toMatch(/at least one owner/);
      expect((await call(base, 'DELETE', `/sync/v1/members/${dana.enrolment.accountId}`, { token: dana.token })).status).toBe(409);
      expect((await call(base, 'PATCH', `/sync/v1/members/${uuidv4()}`, { token: dana.token, body: { role: 'admin' } })).status).toBe(404);
    });

    it("removing a member revokes her devices at once (a waiting pull answers 401 saying why) and her row says removed", async () => {
      const { dana, leeDevice, invitation } = await team();
      const { cursor } = await leeDevice.pullAll();
      const waiting = leeDevice.pull(cursor, '&waitMs=20000');
      await new Promise((r) => setTimeout(r, 300));
      const removed = await call(base, 'DELETE', `/sync/v1/members/${invitation.accountId}`, { token: dana.token });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      expect(removed.body.state).toBe('removed');
      const answer = await waiting;
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe(REMOVED_MEMBER_MESSAGE);
      const push = await leeDevice.push([leeDevice.change('categories', uuidv4(), { name: 'x' })]);
      expect(push.status).toBe(401);
      expect(push.body.error).toBe(REMOVED_MEMBER_MESSAGE);
      expect((await peopleOf(dana)).find((p) => p.user_id === invitation.accountId)).toMatchObject({ state: 'removed', removed_at: expect.any(String) });
      const devices = await call(base, 'GET', '/sync/v1/devices', { token: dana.token });
      expect(devices.body.find((d: { id: string }) => d.id === leeDevice.enrolment.deviceId).revokedAt).not.toBeNull();
    });

    it('devices are renamed (own, or any as owner); a member cannot rename another', async () => {
      const { dana, leeDevice } = await team();
      const own = await call(base, 'PATCH', `/sync/v1/devices/${leeDevice.enrolment.deviceId}`, { token: leeDevice.token, body: { name: "Lee's laptop" } });
      expect(own.status).toBe(200);
      expect(own.body.name).toBe("Lee's laptop");
      expect((await call(base, 'PATCH', `/sync/v1/devices/${dana.enrolment.deviceId}`, { token: leeDevice.token, body: { name: 'Mine now' } })).status).toBe(404);
      expect((await call(base, 'PATCH', `/sync/v1/devices/${leeDevice.enrolment.deviceId}`, { token: dana.token, body: { name: 'Agent laptop' } })).status).toBe(200);
      expect((await call(base, 'PATCH', `/sync/v1/devices/${dana.enrolment.deviceId}`, { token: dana.token, body: { name: '' } })).status).toBe(400);
      const listed = await call(base, 'GET', '/sync/v1/devices', { token: dana.token });
      expect(listed.body.map((d: { name: string }) => d.name)).toContain('Agent laptop');
    });

    it('a password changed through one device is the account password; the old one no longer works anywhere', async () => {
      const { dana, danaInput } = await team();
      const wrong = await call(base, 'POST', '/sync/v1/account/password', { token: dana.token, body: { currentPassword: 'not it at all', newPassword: 'a brand new password' } });
      expect(wrong.status).toBe(403);
      const changed = await call(base, 'POST', '/sync/v1/account/password', { token: dana.token, body: { currentPassword: danaInput.password, newPassword: 'a brand new password' } });
      expect(changed.status).toBe(204);
      expect((await call(base, 'POST', '/sync/v1/account/password/check', { token: dana.token, body: { password: 'a brand new password' } })).status).toBe(204);
      expect((await call(base, 'POST', '/sync/v1/account/password/check', { token: dana.token, body: { password: danaInput.password } })).status).toBe(403);
      const code = await call(base, 'POST', '/sync/v1/devices/codes', { token: dana.token });
      const second = await call(base, 'POST', '/sync/v1/join', { body: { code: code.body.code, email: danaInput.email, password: 'a brand new password', deviceName: 'Dana laptop' } });
      expect(second.status).toBe(201);
    });
  });
}
