// A team as real processes: a hosted instance with SMTP (a test SMTP server), Dana's desktop and
// laptop and Lee's laptop, each a server process of its own (no device has SMTP). Dana invites Lee
// by e-mail from Members; Lee accepts on a fresh install with her own name; all three devices list
// both people with names, roles and states; a ticket Dana assigns to Lee on her laptop becomes Lee's
// notification on Lee's device and an e-mail to Lee; a signing invitation sent from the laptop goes
// out through the hosted instance; Dana changes Lee's role and it reaches Lee; Dana removes Lee and
// Lee's device is revoked at once and lets the entity go.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { makeClient, type Client } from '../helpers/server.js';
import { startServerProcess, killServerProcess, type ServerProcess } from '../soak/server-process.js';
import { killHostedProcess, startHostedProcess, type HostedProcess } from '../helpers/hosted-process.js';
import { freePort } from '../helpers/net.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { confirmed, mailsTo, waitForMail } from '../hosted/confirm.js';
import { draftRequest } from '../integration/documents-helpers.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-team-'));
let hosted: HostedProcess | undefined;
let smtp: TestSmtp | undefined;
const devices: ServerProcess[] = [];

afterAll(async () => {
  for (const d of devices) await killServerProcess(d).catch(() => undefined);
  if (hosted) await killHostedProcess(hosted.child);
  await smtp?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const cookieOf = (res: { headers: Headers }) => (res.headers.get('set-cookie') ?? '').split(';')[0];
const clientFor = (url: string, cookie: string, entityId: string): Client => makeClient(url, { cookie, origin: url, 'x-entity-id': entityId });

type Member = { userId: string; email: string; name: string; role: string; state: string };

/** Runs sync cycles on a device until `check` holds (its own loop runs too). */
async function until<T>(c: Client, entityId: string, read: () => Promise<T>, check: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    await c.post('/api/sync/run', { entityId }).catch(() => undefined);
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it('Dana invites Lee by e-mail, Lee accepts on a fresh install; an assignment on Dana\'s laptop reaches Lee by notification and e-mail; roles and removal reach every device', async () => {
  smtp = await startSmtp();
  hosted = await startHostedProcess({ port: await freePort(), dataDir: path.join(tmp, 'hosted'), args: ['--smtp-url', smtp.url] });
  const dana = await startServerProcess(path.join(tmp, 'dana-desktop'));
  devices.push(dana);
  const lee = await startServerProcess(path.join(tmp, 'lee-laptop'));
  devices.push(lee);
  const laptop = await startServerProcess(path.join(tmp, 'dana-laptop'));
  devices.push(laptop);

  const signup = await makeClient(dana.url).post('/api/auth/signup', { email: 'dana@example.com', password: 'dana her password', name: 'Dana', entityName: 'Acme' });
  const entityId = signup.body.entity.id as string;
  const onDana = clientFor(dana.url, cookieOf(signup), entityId);
  // The link takes Dana's password on this device (another one is refused before anything is linked).
  const wrong = await onDana.post('/api/sync/link', { hostedUrl: hosted.url, email: 'dana@example.com', password: 'some other password' });
  expect(wrong.status).toBe(400);
  expect(wrong.body.error).toMatch(/password you sign in/);
  const linked = await confirmed(smtp, { hostedUrl: hosted.url, email: 'dana@example.com', password: 'dana her password' }, (b) => onDana.post('/api/sync/link', b));
  expect(linked.status, JSON.stringify(linked.body)).toBe(201);
  // Dana's laptop joins with an add-device code and her one password.
  const deviceCode = await onDana.post('/api/sync/devices/code', {});
  expect(deviceCode.status, JSON.stringify(deviceCode.body)).toBe(201);
  const joinedLaptop = await makeClient(laptop.url).post('/api/sync/join', { hostedUrl: hosted.url, code: deviceCode.body.code, email: 'dana@example.com', password: 'dana her password' });
  expect(joinedLaptop.status, JSON.stringify(joinedLaptop.body)).toBe(201);
  const onLaptop = clientFor(laptop.url, cookieOf(joinedLaptop), entityId);

  // Members → Add member: the hosted instance mails Lee a link to its join page.
  const added = await onDana.post(`/api/entities/${entityId}/members`, { email: 'lee@example.com', name: 'Lee Agent', role: 'member' });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  expect(added.body.member).toMatchObject({ email: 'lee@example.com', name: 'Lee Agent', role: 'member', state: 'invited', pending: true });
  const invitation = added.body.invitation;
  expect(invitation).toMatchObject({ state: 'sent', mailed: true, hostedUrl: hosted.url });
  const mail = await waitForMail(smtp, 'lee@example.com');
  expect(mail.text).toContain(`${hosted.url}/join?code=${invitation.code}`);
  const listed = await onDana.get(`/api/sync/invitations?entityId=${entityId}`);
  expect(listed.body).toEqual([expect.objectContaining({ email: 'lee@example.com', state: 'sent' })]);

  // Lee, on a fresh install: "Accept an invitation" with her own name and password.
  expect((await makeClient(lee.url).get('/api/auth/setup')).body.setupNeeded).toBe(true);
  const accepted = await confirmed(smtp, { hostedUrl: hosted.url, code: invitation.code, email: 'lee@example.com', password: 'lee her own password', name: 'Lee' }, (b) => makeClient(lee.url).post('/api/sync/join', b));
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
  expect(accepted.body.user).toMatchObject({ email: 'lee@example.com', name: 'Lee', id: invitation.accountId });
  const onLee = clientFor(lee.url, cookieOf(accepted), entityId);

  // Both devices list both people, with names, roles and states.
  const people = (c: Client) => async () => ((await c.get(`/api/entities/${entityId}/members`)).body as Member[]).map(({ email, name, role, state }) => ({ email, name, role, state })).sort((a, b) => a.email.localeCompare(b.email));
  const both = [
    { email: 'dana@example.com', name: 'Dana', role: 'owner', state: 'active' },
    { email: 'lee@example.com', name: 'Lee', role: 'member', state: 'active' },
  ];
  await until(onDana, entityId, people(onDana), (p) => JSON.stringify(p) === JSON.stringify(both), "Dana's members");
  await until(onLee, entityId, people(onLee), (p) => JSON.stringify(p) === JSON.stringify(both), "Lee's members");
  await until(onLaptop, entityId, people(onLaptop), (p) => JSON.stringify(p) === JSON.stringify(both), "the laptop's members");
  expect((await onDana.get(`/api/sync/invitations?entityId=${entityId}`)).body[0].state).toBe('accepted');

  // A ticket Dana assigns to Lee on her laptop: Lee's name on every device, Lee's notification on
  // her own device, and one e-mail to Lee through the hosted instance (no device has SMTP).
  const ticket = await onLaptop.post('/api/helpdesk/tickets', { subject: 'For Lee', assignedTo: invitation.accountId });
  expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
  await until(onLaptop, entityId, async () => (await onLaptop.get('/api/sync/status')).body, (st) => st?.waiting === 0, 'the laptop pushed the ticket');
  await until(onLee, entityId, async () => (await onLee.get(`/api/helpdesk/tickets/${ticket.body.id}`)).body, (t) => t?.assignedTo === invitation.accountId, 'the ticket on Lee');
  const assigned = (n: { type: string; userId: string | null }) => n.type === 'ticket.assigned' && n.userId === invitation.accountId;
  const notified = await until(onLee, entityId, async () => (await onLee.get('/api/notifications')).body, (list) => Array.isArray(list) && list.some(assigned), "Lee's notification on her device");
  expect(notified.filter(assigned)).toHaveLength(1);
  const assignedMails = async () => (await mailsTo(smtp!, 'lee@example.com')).filter((m) => /was assigned to you/.test(m.subject ?? ''));
  await until(onLaptop, entityId, assignedMails, (m) => m.length > 0, 'the assignment e-mail to Lee');
  expect((await onDana.get('/api/notifications')).body.filter(assigned)).toHaveLength(0);

  // A signing invitation sent from the laptop, which has no SMTP, goes out through the hosted instance.
  const { requestId } = await draftRequest(onLaptop, { signers: [{ name: 'Ada', email: 'ada@example.com' }] });
  expect((await onLaptop.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' })).status).toBe(200);
  const invitationMail = await until(onLaptop, entityId, () => mailsTo(smtp!, 'ada@example.com'), (m) => m.length > 0, 'the signing invitation');
  expect(invitationMail[0].text).toMatch(/sign/i);

  // Dana makes Lee an admin: it reaches Lee's device (her permissions there follow).
  const promoted = await onDana.patch(`/api/entities/${entityId}/members/${invitation.accountId}`, { role: 'admin' });
  expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
  expect(promoted.body.role).toBe('admin');
  await until(onLee, entityId, people(onLee), (p) => p.find((m) => m.email === 'lee@example.com')?.role === 'admin', "Lee's role on her device");
  expect((await onLee.get(`/api/sync/status?entityId=${entityId}`)).body.role).toBe('admin');
  // An admin cannot demote the owner; the last owner cannot be removed.
  expect((await onLee.patch(`/api/entities/${entityId}/members/${signup.body.user.id}`, { role: 'member' })).status).toBe(403);
  expect((await onDana.delete(`/api/entities/${entityId}/members/${signup.body.user.id}`)).status).toBe(400);

  // Dana removes Lee: Lee's device is revoked at once and lets the entity go.
  const removed = await onDana.delete(`/api/entities/${entityId}/members/${invitation.accountId}`);
  expect(removed.status, JSON.stringify(removed.body)).toBe(200);
  await until(onDana, entityId, people(onDana), (p) => p.find((m) => m.email === 'lee@example.com')?.state === 'removed', "Lee removed on Dana's device");
  const leeMe = await until(
    onLee,
    entityId,
    async () => (await onLee.get('/api/auth/me')).body,
    (me) => Array.isArray(me?.entities) && me.entities.length === 0,
    "Lee's device letting the entity go",
  );
  expect(leeMe.user.name).toBe('Lee');
  expect((await onLee.get('/api/helpdesk/tickets')).status).toBe(403);
  // The name of a removed person still resolves on Dana's device.
  expect((await onDana.get(`/api/helpdesk/tickets/${ticket.body.id}`)).status).toBe(200);
  await until(onLaptop, entityId, people(onLaptop), (p) => p.find((m) => m.email === 'lee@example.com')?.state === 'removed', "Lee removed on Dana's laptop");
  // One e-mail per assignment, whatever number of devices saw it.
  expect(await assignedMails()).toHaveLength(1);
}, 240_000);
