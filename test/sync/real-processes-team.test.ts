// Real processes, two people: a hosted instance, Dana's desktop, and Lee's laptop and desktop,
// each its own process with its own loops (outbox, sync). A ticket assigned to Lee on Dana's
// device becomes Lee's notification on both of Lee's devices; reading it on one marks it read on
// the other; tickets created on Dana's and Lee's devices while the hosted instance is down carry
// provisional numbers, then distinct final numbers in one series once it is back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeClient, type Client } from '../helpers/server.js';
import { killServerProcess, startServerProcess, type ServerProcess } from '../soak/server-process.js';
import { killHostedProcess, startHostedProcess, type HostedProcess } from '../helpers/hosted-process.js';
import { freePort } from '../helpers/net.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-sync-team-'));
let pg: TestPostgres | undefined;
afterAll(async () => {
  await pg?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const cookieOf = (res: { headers: Headers }) => (res.headers.get('set-cookie') ?? '').split(';')[0];
const clientFor = (url: string, cookie: string, entityId: string): Client => makeClient(url, { cookie, origin: url, 'x-entity-id': entityId });

/** Polls until `check` returns a value (the devices' own loops do the syncing); sync is nudged on each round. */
async function eventually<T>(what: string, nudge: Client[], check: () => Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    for (const c of nudge) await c.post('/api/sync/run', {}).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
  }
}

type Notification = { id: string; type: string; userId: string | null; title: string; readAt: string | null };
type Ticket = { id: string; ticketNumber: string; numberProvisional: boolean };

describe.each(['PGlite', 'PostgreSQL'])('a team of two people on three devices, as real processes (hosted on %s)', (store) => {
  it('notifications reach their person and her read marks travel; offline tickets get one series', async () => {
    const root = path.join(tmp, store);
    let databaseUrl: string | undefined;
    if (store === 'PostgreSQL') {
      pg = await startPostgres();
      databaseUrl = await pg.createDatabase('sync_team');
    }
    const hostedPort = await freePort();
    let hosted: HostedProcess = await startHostedProcess({ port: hostedPort, databaseUrl, dataDir: path.join(root, 'hosted') });
    const processes: ServerProcess[] = [];
    try {
      const [dana, leeLaptop, leeDesktop] = await Promise.all(['dana', 'lee-laptop', 'lee-desktop'].map((d) => startServerProcess(path.join(root, d))));
      processes.push(dana, leeLaptop, leeDesktop);
      const signup = await makeClient(dana.url).post('/api/auth/signup', { email: 'dana@example.com', password: 'correct horse battery staple', name: 'Dana', entityName: 'Acme Ltd' });
      const entityId = signup.body.entity.id as string;
      const onDana = clientFor(dana.url, cookieOf(signup), entityId);
      expect((await onDana.post('/api/sync/link', { hostedUrl: hosted.url, email: 'dana@example.com', password: 'correct horse battery staple' })).status).toBe(201);

      // Lee is invited and joins from her laptop with her own account; her desktop joins as her second device.
      const added = await onDana.post(`/api/entities/${entityId}/members`, { email: 'lee@example.com', role: 'member', name: 'Lee' });
      const leeId = added.body.member.userId as string;
      const invite = await onDana.post('/api/sync/invitations', { userId: leeId });
      const joined = await makeClient(leeLaptop.url).post('/api/sync/join', { hostedUrl: hosted.url, code: invite.body.code, email: 'lee@example.com', password: 'lee has her own password', name: 'Lee' });
      expect(joined.status, JSON.stringify(joined.body)).toBe(201);
      const onLee = clientFor(leeLaptop.url, cookieOf(joined), entityId);
      const code = await onDana.post('/api/sync/devices/code', {});
      const joined2 = await makeClient(leeDesktop.url).post('/api/sync/join', { hostedUrl: hosted.url, code: code.body.code, email: 'lee@example.com', password: 'lee has her own password' });
      expect(joined2.status, JSON.stringify(joined2.body)).toBe(201);
      const onLee2 = clientFor(leeDesktop.url, cookieOf(joined2), entityId);
      const all = [onDana, onLee, onLee2];

      // Assigned on Dana's device: Lee's notification, on both of Lee's devices.
      const ticket = await onDana.post('/api/helpdesk/tickets', { subject: 'Printer on fire', assignedTo: leeId });
      expect(ticket.status).toBe(201);
      const assigned = (n: Notification) => n.type === 'ticket.assigned' && n.userId === leeId;
      const onLaptop = await eventually('the notification on Lee’s laptop', all, async () => ((await onLee.get('/api/notifications')).body as Notification[]).find(assigned));
      expect(onLaptop.title).toMatch(/^Ticket \S+ was assigned to you$/);
      await eventually('the notification on Lee’s desktop', all, async () => ((await onLee2.get('/api/notifications')).body as Notification[]).find((n) => n.id === onLaptop.id));
      expect(((await onDana.get('/api/notifications')).body as Notification[]).filter(assigned)).toEqual([]);

      // Read on her laptop: read on her desktop.
      expect((await onLee.post(`/api/notifications/${onLaptop.id}/read`)).status).toBe(200);
      await eventually('the read mark on Lee’s desktop', all, async () => ((await onLee2.get('/api/notifications/unread-count')).body as { unread: number }).unread === 0);
      const there = ((await onLee2.get('/api/notifications')).body as Notification[]).find((n) => n.id === onLaptop.id)!;
      expect(there.readAt).not.toBeNull();

      // The hosted instance goes away: tickets made on Dana's and Lee's devices are provisional.
      await killHostedProcess(hosted.child);
      const offline: Ticket[] = [];
      for (const [c, subject] of [[onDana, 'Dana offline 1'], [onLee, 'Lee offline 1'], [onDana, 'Dana offline 2'], [onLee, 'Lee offline 2']] as const) {
        const res = await c.post('/api/helpdesk/tickets', { subject });
        expect(res.status).toBe(201);
        expect(res.body.numberProvisional).toBe(true);
        offline.push(res.body);
      }
      hosted = await startHostedProcess({ port: hostedPort, databaseUrl, dataDir: path.join(root, 'hosted') });
      const finals = await eventually('final numbers everywhere', all, async () => {
        const lists = await Promise.all(all.map(async (c) => new Map(((await c.get('/api/helpdesk/tickets')).body as Ticket[]).map((t) => [t.id, t]))));
        const numbers = offline.map((t) => lists.map((l) => l.get(t.id)));
        const settled = numbers.every((per) => per.every((t) => t && !t.numberProvisional) && new Set(per.map((t) => t!.ticketNumber)).size === 1);
        return settled ? numbers.map((per) => per[0]!.ticketNumber) : undefined;
      });
      expect(new Set(finals).size).toBe(4);
      for (const n of finals) expect(n).toMatch(/^ACME-\d{4}$/);
      const first = (await onDana.get(`/api/helpdesk/tickets/${ticket.body.id}`)).body as Ticket;
      expect(first.numberProvisional).toBe(false);
      expect(new Set([first.ticketNumber, ...finals]).size).toBe(5);
    } finally {
      for (const p of processes) await killServerProcess(p).catch(() => undefined);
      await killHostedProcess(hosted.child).catch(() => undefined);
    }
  }, 240_000);
});
