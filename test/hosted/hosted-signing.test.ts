// Public signing through the hosted instance, with real processes: the hosted instance runs as
// `npm run hosted` would (--public-url, --smtp-url) and the device as `npm run server` would, each
// its own process. The device links, sends a request to two signers and stops; both sign through
// the hosted URL while no device runs; the device starts again, syncs, completes and seals on its
// own (its background loops); the hosted instance mails the signed copies.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killHostedProcess, startHostedProcess, type HostedProcess } from '../helpers/hosted-process.js';
import { freePort } from '../helpers/net.js';
import { extractSignature, verifyCms } from '../helpers/pdf-seal.js';
import { makeClient, type Client } from '../helpers/server.js';
import { killServerProcess, startServerProcess, type ServerProcess } from '../soak/server-process.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { confirmed } from './confirm.js';
import { draftRequest, PNG_DATA_URL } from '../integration/documents-helpers.js';

const base = '/api/documents/signature-requests';
let smtp: TestSmtp;
let hosted: HostedProcess;
let hostedDir: string;
let deviceDir: string;
let device: ServerProcess | undefined;
let publicUrl: string;

beforeAll(async () => {
  smtp = await startSmtp();
  hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-signing-'));
  deviceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-device-signing-'));
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  hosted = await startHostedProcess({ dataDir: path.join(hostedDir, 'data'), port, args: ['--public-url', publicUrl, '--smtp-url', smtp.url, '--mail-from', 'Bureau <sign@bureau.test>'] });
}, 60_000);

afterAll(async () => {
  if (device) await killServerProcess(device);
  if (hosted) await killHostedProcess(hosted.child);
  await smtp?.stop();
  fs.rmSync(hostedDir, { recursive: true, force: true });
  fs.rmSync(deviceDir, { recursive: true, force: true });
});

const parsed = async (): Promise<ParsedMail[]> => Promise.all(smtp.received.map((m) => simpleParser(m.raw)));
const mailsTo = async (email: string) => (await parsed()).filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((t) => t?.text.includes(email)));

/** The signing link in the newest invitation to `email`. */
async function linkFor(email: string): Promise<string> {
  const invites = (await mailsTo(email)).filter((m) => / asks you to /.test(m.subject ?? ''));
  const m = new RegExp(`${publicUrl}/sign/([A-Za-z0-9_-]+)`).exec(invites.at(-1)?.text ?? '');
  if (!m) throw new Error(`no signing link for ${email} in ${invites.length} invitations`);
  return m[1];
}

async function signOnHosted(token: string, userAgent: string) {
  const anon = makeClient(publicUrl, { 'user-agent': userAgent });
  const page = await anon.get(`/api/sign/${token}`);
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  expect(page.body.canSign).toBe(true);
  const fields = page.body.fields.filter((f: { type: string }) => f.type === 'signature').map((f: { id: string }) => ({ fieldId: f.id, value: PNG_DATA_URL }));
  const signed = await anon.post(`/api/sign/${token}`, { action: 'sign', fields });
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  expect(signed.body.signer.status).toBe('signed');
  return anon;
}

const startDevice = () => startServerProcess(deviceDir, { args: ['--smtp-url', smtp.url] });
const sessionOn = (url: string, cookie: string, entityId: string): Client => makeClient(url, { cookie, origin: url, 'x-entity-id': entityId });

describe('public signing through the hosted instance', () => {
  it('both signers sign on the hosted pages while the device is stopped; the device completes and seals; the hosted instance mails the signed copies', async () => {
    device = await startDevice();
    const signup = await makeClient(device.url).post('/api/auth/signup', { email: 'owner@example.com', password: 'correct horse battery staple', name: 'Olga Owner', entityName: 'Public Signing Ltd' });
    expect(signup.status).toBe(201);
    const cookie = (signup.headers.get('set-cookie') ?? '').split(';')[0];
    const entityId = signup.body.entity.id as string;
    const owner = sessionOn(device.url, cookie, entityId);
    // The hosted account is new: its address is confirmed with the code mailed to it.
    const linked = await confirmed(smtp, { hostedUrl: hosted.url, email: 'owner@example.com', password: 'correct horse battery staple' }, (body) => owner.post('/api/sync/link', body));
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);

    const { requestId, signers } = await draftRequest(owner, { signers: [{ name: 'Ada Lovelace', email: 'ada@example.com' }, { name: 'Bob Babbage', email: 'bob@example.com' }] });
    const sent = await owner.patch(`${base}/${requestId}`, { action: 'send' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    // "Copy link" gives the hosted address too.
    const copied = await owner.post(`${base}/${requestId}/signers/${signers[0].id}/signing-link`, {});
    expect(copied.body.url.startsWith(`${publicUrl}/sign/`)).toBe(true);
    // The device mails the invitations (its mail loop) and syncs the request up.
    await expect.poll(async () => (await mailsTo('bob@example.com')).length, { timeout: 30_000 }).toBe(1);
    // Its loops keep writing (the mail results go into the audit trail): sync until nothing waits.
    await expect.poll(async () => (await owner.post('/api/sync/run', {})).body.state, { timeout: 30_000 }).toBe('synced');
    const adaToken = await linkFor('ada@example.com');
    const bobToken = await linkFor('bob@example.com');
    expect(adaToken).toBe(copied.body.token);

    await killServerProcess(device);
    device = undefined;

    // Every device of the entity is offline: both sign on the hosted pages.
    await signOnHosted(adaToken, 'AdaBrowser/1.0');
    const bob = await signOnHosted(bobToken, 'BobBrowser/2.0');
    const original = await fetch(`${publicUrl}/api/sign/${bobToken}/document`);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('application/pdf');
    // Signed twice: refused, nothing recorded twice.
    const again = await bob.post(`/api/sign/${bobToken}`, { action: 'sign', fields: [] });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already signed/);

    // The device comes back; on its own it syncs, completes the request (it holds the seal key) and pushes the sealed PDF.
    device = await startDevice();
    const onDevice = sessionOn(device.url, cookie, entityId);
    await expect.poll(async () => (await onDevice.get(`${base}/${requestId}`)).body.status, { timeout: 60_000, interval: 500 }).toBe('completed');
    const detail = await onDevice.get(`${base}/${requestId}`);
    const ada = detail.body.signers.find((s: { email: string }) => s.email === 'ada@example.com');
    expect(ada.status).toBe('signed');

    const trail = (await onDevice.get(`${base}/${requestId}/audit-trail`)).body as { type: string; ip: string | null; userAgent: string | null }[];
    const signedEntries = trail.filter((e) => e.type === 'signed');
    expect(signedEntries.map((e) => e.userAgent).sort()).toEqual(['AdaBrowser/1.0', 'BobBrowser/2.0']);
    expect(signedEntries.every((e) => e.ip === '127.0.0.1')).toBe(true);
    expect(trail.filter((e) => e.type === 'viewed')).toHaveLength(2);
    expect(trail.filter((e) => e.type === 'completed')).toHaveLength(1);
    expect((await onDevice.get(`${base}/${requestId}/audit-trail/verify`)).body.valid).toBe(true);

    const sealed = Buffer.from(await (await fetch(`${device.url}${base}/${requestId}/document`, { headers: { cookie, 'x-entity-id': entityId } })).arrayBuffer());
    const { signed, der } = extractSignature(sealed);
    const check = verifyCms(signed, der);
    expect(check.digestMatches).toBe(true);
    expect(check.signatureValid).toBe(true);

    // The hosted instance mails each signer their signed copy, the sealed PDF attached.
    for (const email of ['ada@example.com', 'bob@example.com']) {
      await expect.poll(async () => (await mailsTo(email)).filter((m) => m.subject?.startsWith('Completed')).length, { timeout: 30_000 }).toBe(1);
      const copy = (await mailsTo(email)).find((m) => m.subject?.startsWith('Completed'))!;
      expect(copy.from?.text).toContain('sign@bureau.test');
      expect(copy.attachments).toHaveLength(1);
      expect(copy.attachments[0].filename).toMatch(/\(signed\)\.pdf$/);
      expect(crypto.createHash('sha256').update(copy.attachments[0].content).digest('hex')).toBe(crypto.createHash('sha256').update(sealed).digest('hex'));
    }
    // The device did not mail the signers a completion of its own.
    expect((await mailsTo('ada@example.com')).filter((m) => m.subject?.startsWith('Completed'))).toHaveLength(1);

    // The signer's link now gives the sealed PDF, from the hosted instance.
    const download = Buffer.from(await (await fetch(`${publicUrl}/api/sign/${bobToken}/document`)).arrayBuffer());
    expect(download.equals(sealed)).toBe(true);
  }, 120_000);
});
