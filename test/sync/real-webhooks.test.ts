// Webhooks across real processes: a hosted instance, Dana's desktop (A) and laptop (B), and Lee's
// laptop (C, another member), each its own process with its own sync and delivery loops. Three
// subscriptions made on A — delivered by the hosted instance, by A, and by B — each receive
// `ticket.created` exactly once for tickets created on A, on B and on C, also when the creating
// device is killed (SIGKILL) right after its push; no signing secret appears in any log.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { makeClient, type Client } from '../helpers/server.js';
import { killServerProcess, startServerProcess, type ServerProcess } from '../soak/server-process.js';
import { killHostedProcess, startHostedProcess, type HostedProcess } from '../helpers/hosted-process.js';
import { startReceiver, type Receiver } from '../integration/webhooks-receiver.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hooks-real-'));
const servers: ServerProcess[] = [];
let hosted: HostedProcess | undefined;
const receivers: Receiver[] = [];

afterAll(async () => {
  for (const s of servers) await killServerProcess(s);
  if (hosted) await killHostedProcess(hosted.child);
  for (const r of receivers) await r.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const PASSWORD = 'correct horse battery staple';
const clientFor = (url: string, cookie: string, entityId: string): Client => makeClient(url, { cookie, origin: url, 'x-entity-id': entityId });
const cookieOf = (res: { headers: Headers }) => (res.headers.get('set-cookie') ?? '').split(';')[0];

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The device has pushed everything it holds (its queue is empty). */
const pushed = (c: Client) => until('the push', async () => ((await c.get('/api/sync/status')).body.waiting === 0 ? true : null));

const ticketIds = (r: Receiver) => r.received.filter((x) => JSON.parse(x.body).type === 'ticket.created').map((x) => JSON.parse(x.body).data.ticket.id as string);

it('every ticket.created reaches each subscription exactly once, whichever device made it, even when that device is killed after its push', { timeout: 300_000 }, async () => {
  hosted = await startHostedProcess({ dataDir: path.join(tmp, 'hosted'), args: ['--allow-local-webhook-targets'] });
  const [a, b0, c] = await Promise.all(['a', 'b', 'c'].map((n) => startServerProcess(path.join(tmp, n))));
  servers.push(a, b0, c);
  let b = b0;
  const viaHosted = await startReceiver();
  const viaA = await startReceiver();
  const viaB = await startReceiver();
  receivers.push(viaHosted, viaA, viaB);

  // Dana links her desktop, joins her laptop, and invites Lee, who joins from her own install.
  const signup = await makeClient(a.url).post('/api/auth/signup', { email: 'dana@example.com', password: PASSWORD, name: 'Dana', entityName: 'Acme' });
  const entityId = signup.body.entity.id as string;
  const onA = clientFor(a.url, cookieOf(signup), entityId);
  expect((await onA.post('/api/sync/link', { hostedUrl: hosted.url, email: 'dana@example.com', password: PASSWORD })).status).toBe(201);
  const code = (await onA.post('/api/sync/devices/code', {})).body.code;
  const joinedB = await makeClient(b.url).post('/api/sync/join', { hostedUrl: hosted.url, code, email: 'dana@example.com', password: PASSWORD });
  expect(joinedB.status, JSON.stringify(joinedB.body)).toBe(201);
  let onB = clientFor(b.url, cookieOf(joinedB), entityId);
  const lee = await onA.post(`/api/entities/${entityId}/members`, { email: 'lee@example.com', role: 'member', name: 'Lee' });
  expect(lee.status, JSON.stringify(lee.body)).toBe(201);
  const invite = await onA.post('/api/sync/invitations', { userId: lee.body.member.userId });
  expect(invite.status, JSON.stringify(invite.body)).toBe(201);
  const joinedC = await makeClient(c.url).post('/api/sync/join', { hostedUrl: hosted.url, code: invite.body.code, email: 'lee@example.com', password: 'lee has her own password', name: 'Lee' });
  expect(joinedC.status, JSON.stringify(joinedC.body)).toBe(201);
  const onC = clientFor(c.url, cookieOf(joinedC), entityId);

  // Three subscriptions, all made on A.
  const bDevice = (await onB.get('/api/sync/status')).body.deviceId as string;
  const subs = [
    (await onA.post('/api/webhook-subscriptions', { url: viaHosted.url, events: ['ticket.created'], deliveredBy: 'hosted' })).body,
    (await onA.post('/api/webhook-subscriptions', { url: viaA.url, events: ['ticket.created'] })).body,
    (await onA.post('/api/webhook-subscriptions', { url: viaB.url, events: ['ticket.created'], deliveredBy: bDevice })).body,
  ];
  expect(subs.map((s) => s.deliveredBy)).toEqual(['hosted', (await onA.get('/api/sync/status')).body.deviceId, bDevice]);
  await pushed(onA);
  // Every device has them before the tickets are made (they subscribe to what happens after).
  for (const client of [onB, onC]) await until('the subscriptions on every device', async () => ((await client.get('/api/webhook-subscriptions')).body.length === 3 ? true : null));

  const made: string[] = [];
  const create = async (client: Client, subject: string) => {
    const res = await client.post('/api/helpdesk/tickets', { subject });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    made.push(res.body.id);
  };
  await create(onA, 'Made on A');
  await create(onB, 'Made on B');
  await create(onC, 'Made by Lee');

  // Lee's laptop and Dana's laptop each make one more, push it, and are killed at once.
  await create(onC, 'Lee, then gone');
  await pushed(onC);
  await killServerProcess(c);
  await create(onB, 'Laptop, then gone');
  await pushed(onB);
  await killServerProcess(b);
  // Dana's laptop delivers one subscription: it comes back, and carries on where it was.
  b = await startServerProcess(path.join(tmp, 'b'));
  servers.push(b);
  onB = clientFor(b.url, cookieOf(joinedB), entityId);

  for (const [name, r] of [['hosted', viaHosted], ['A', viaA], ['B', viaB]] as const) {
    await until(`every ticket at the subscription delivered by ${name}`, async () => (made.every((id) => ticketIds(r).includes(id)) ? true : null));
  }
  // A few more sync and delivery rounds: nothing arrives twice.
  await new Promise((r) => setTimeout(r, 6_000));
  subs.forEach((sub, i) => {
    const r = [viaHosted, viaA, viaB][i];
    expect(ticketIds(r).sort()).toEqual([...made].sort());
    const wh = new Webhook(sub.secret);
    for (const x of r.received) expect(() => wh.verify(x.body, x.headers)).not.toThrow();
  });
  // webhook-id is the event's id: the same ticket under the same id at every receiver.
  const idOf = (r: Receiver, ticket: string) => r.received.find((x) => JSON.parse(x.body).data.ticket.id === ticket)!.headers['webhook-id'];
  for (const t of made) expect(new Set([viaHosted, viaA, viaB].map((r) => idOf(r, t))).size).toBe(1);

  // No secret in any process's output.
  const outputs = [fs.readFileSync(hosted.logFile, 'utf8'), ...servers.map((s) => s.output())].join('\n');
  for (const sub of subs) expect(outputs).not.toContain(sub.secret.slice(6));
});
