// Real processes: a device with no SMTP server of its own, linked to a hosted instance that has
// one. A signing invitation (the first ones are queued on the device) and a notice to the sender
// (a signer declined on the hosted page; the device reacts and queues it) both go out through
// the hosted instance, and the SMTP server receives each exactly once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killHostedProcess, startHostedProcess, type HostedProcess } from '../helpers/hosted-process.js';
import { freePort } from '../helpers/net.js';
import { makeClient, type Client } from '../helpers/server.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { killServerProcess, startServerProcess, type ServerProcess } from '../soak/server-process.js';
import { confirmed } from '../hosted/confirm.js';
import { draftRequest } from '../integration/documents-helpers.js';

const base = '/api/documents/signature-requests';
let smtp: TestSmtp;
let hosted: HostedProcess;
let device: ServerProcess | undefined;
let publicUrl: string;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-mail-hosted-'));

beforeAll(async () => {
  smtp = await startSmtp();
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  hosted = await startHostedProcess({ dataDir: path.join(tmp, 'hosted'), port, args: ['--public-url', publicUrl, '--smtp-url', smtp.url, '--mail-from', 'Bureau <mail@bureau.test>'] });
}, 60_000);

afterAll(async () => {
  if (device) await killServerProcess(device);
  if (hosted) await killHostedProcess(hosted.child);
  await smtp?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const mailsTo = async (email: string): Promise<ParsedMail[]> => (await Promise.all(smtp.received.filter((m) => m.to.includes(email)).map((m) => simpleParser(m.raw))));
const subjectsTo = async (email: string) => (await mailsTo(email)).map((m) => m.subject ?? '');

describe('a device without SMTP, linked', () => {
  it('sends a signing invitation and a notice to the sender through the hosted instance, each exactly once', async () => {
    device = await startServerProcess(path.join(tmp, 'device'));
    const signup = await makeClient(device.url).post('/api/auth/signup', { email: 'owner@example.com', password: 'correct horse battery staple', name: 'Olga Owner', entityName: 'No SMTP Ltd' });
    expect(signup.status).toBe(201);
    const entityId = signup.body.entity.id as string;
    const owner: Client = makeClient(device.url, { cookie: (signup.headers.get('set-cookie') ?? '').split(';')[0], origin: device.url, 'x-entity-id': entityId });
    expect((await owner.get('/api/mail/status')).body).toMatchObject({ configured: false, route: null, linked: false });
    const linked = await confirmed(smtp, { hostedUrl: hosted.url, email: 'owner@example.com', password: 'correct horse battery staple' }, (body) => owner.post('/api/sync/link', body));
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    expect((await owner.get('/api/mail/status')).body).toMatchObject({ configured: true, route: 'hosted', smtp: null, linked: true });

    const { requestId } = await draftRequest(owner, { signers: [{ name: 'Ada Lovelace', email: 'ada@example.com' }] });
    expect((await owner.patch(`${base}/${requestId}`, { action: 'send' })).status).toBe(200);

    // The device's mail loop hands the invitation over once the signer has synced up; the hosted instance sends it.
    await expect.poll(() => subjectsTo('ada@example.com'), { timeout: 60_000, interval: 500 }).toEqual(['Olga Owner asks you to sign "Services agreement"']);
    const invite = (await mailsTo('ada@example.com'))[0];
    expect(invite.from?.text).toContain('mail@bureau.test');
    const token = new RegExp(`${publicUrl}/sign/([A-Za-z0-9_-]+)`).exec(invite.text ?? '')?.[1];
    expect(token).toBeTruthy();
    await expect.poll(async () => ((await owner.get('/api/mail/outbox')).body as { ref: { kind: string }; status: string; via: string | null }[]).find((m) => m.ref.kind === 'signing_invite'), { timeout: 30_000 }).toMatchObject({ status: 'sent', via: 'hosted' });

    // Ada declines on the hosted page; the device learns it by sync and tells the sender, through the hosted instance.
    const declined = await makeClient(publicUrl).post(`/api/sign/${token}`, { action: 'decline', reason: 'Wrong company name' });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    await expect.poll(async () => (await subjectsTo('owner@example.com')).filter((s) => s.startsWith('Declined')), { timeout: 60_000, interval: 500 }).toEqual(['Declined: "Services agreement"']);
    await expect.poll(async () => (await owner.get(`${base}/${requestId}`)).body.status, { timeout: 30_000 }).toBe('declined');

    // Loops keep running: nothing is sent a second time.
    await new Promise((r) => setTimeout(r, 8_000));
    expect(await subjectsTo('ada@example.com')).toEqual(['Olga Owner asks you to sign "Services agreement"']);
    expect((await subjectsTo('owner@example.com')).filter((s) => s.startsWith('Declined'))).toEqual(['Declined: "Services agreement"']);
    expect((await owner.get('/api/mail/status')).body).toMatchObject({ queued: 0, failed: 0 });
  }, 180_000);
});
