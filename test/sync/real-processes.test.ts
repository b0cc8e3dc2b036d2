// Real processes: two device servers and a hosted instance, each its own process group. Both
// devices write while the hosted instance and then one device are killed with SIGKILL and
// restarted; afterwards both devices converge with every acknowledged write exactly once.
// The hosted instance runs once on PGlite (its data dir) and once on a real PostgreSQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeClient, type Client } from '../helpers/server.js';
import { killServerProcess, startServerProcess, type ServerProcess } from '../soak/server-process.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { killHostedProcess, startHostedProcess, type HostedProcess } from '../helpers/hosted-process.js';
import { freePort } from '../helpers/net.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-sync-real-'));
const hostedGroups = new Set<number>();
let pg: TestPostgres | undefined;

afterAll(async () => {
  await pg?.stop();
  for (const pgid of hostedGroups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

function clientFor(url: string, cookie: string, entityId: string): Client {
  return makeClient(url, { cookie, origin: url, 'x-entity-id': entityId });
}

async function ticketsOf(c: Client): Promise<{ id: string; subject: string; priority: string }[]> {
  const res = await c.get('/api/helpdesk/tickets');
  if (res.status !== 200) throw new Error(`tickets ${res.status}`);
  return (res.body as { id: string; subject: string; priority: string }[]).map(({ id, subject, priority }) => ({ id, subject, priority })).sort((x, y) => x.id.localeCompare(y.id));
}

describe.each(['PGlite', 'PostgreSQL'])('devices and a hosted instance (%s) as real processes', (store) => {
  it('converge after kill -9 of the hosted instance and of a device mid-sync, nothing lost or duplicated', async () => {
    const root = path.join(tmp, store);
    let databaseUrl: string | undefined;
    if (store === 'PostgreSQL') {
      pg = await startPostgres();
      databaseUrl = await pg.createDatabase('sync_real');
    }
    const hostedPort = await freePort();
    let hosted: HostedProcess = await startHostedProcess({ port: hostedPort, databaseUrl, dataDir: path.join(root, 'hosted') });
    hostedGroups.add(hosted.child.pid!);
    const a = await startServerProcess(path.join(root, 'a'));
    let b: ServerProcess = await startServerProcess(path.join(root, 'b'));
    try {
      const signup = await makeClient(a.url).post('/api/auth/signup', { email: 'owner@example.com', password: 'correct horse battery staple', name: 'Owner', entityName: 'Acme' });
      const entityId = signup.body.entity.id as string;
      const onA = clientFor(a.url, (signup.headers.get('set-cookie') ?? '').split(';')[0], entityId);
      for (let i = 0; i < 5; i++) expect((await onA.post('/api/helpdesk/tickets', { subject: `before link ${i}` })).status).toBe(201);
      expect((await onA.post('/api/sync/link', { hostedUrl: hosted.url, email: 'owner@example.com', password: 'correct horse battery staple' })).status).toBe(201);
      const code = (await onA.post('/api/sync/devices/code', {})).body.code;
      const joined = await makeClient(b.url).post('/api/sync/join', { hostedUrl: hosted.url, code, email: 'owner@example.com', password: 'correct horse battery staple' });
      expect(joined.status, JSON.stringify(joined.body)).toBe(201);
      const cookieB = (joined.headers.get('set-cookie') ?? '').split(';')[0];
      let onB = clientFor(b.url, cookieB, entityId);

      // Writers on both devices; every acknowledged create is remembered. The devices' own sync
      // loops run all along (every second).
      const acknowledged = new Set<string>();
      let writing = true;
      const writer = async (name: string, client: () => Client) => {
        for (let i = 0; writing; i++) {
          const res = await client()
            .post('/api/helpdesk/tickets', { subject: `${name} ${i}`, priority: i % 2 ? 'high' : 'low' })
            .catch(() => null);
          if (res?.status === 201) acknowledged.add(res.body.id);
          await new Promise((r) => setTimeout(r, 40));
        }
      };
      const writers = [writer('from A', () => onA), writer('from B', () => onB)];

      await new Promise((r) => setTimeout(r, 1500));
      await killHostedProcess(hosted.child); // mid-sync: the devices' loops are pushing and pulling
      await new Promise((r) => setTimeout(r, 1000));
      hosted = await startHostedProcess({ port: hostedPort, databaseUrl, dataDir: path.join(root, 'hosted') });
      hostedGroups.add(hosted.child.pid!);
      await new Promise((r) => setTimeout(r, 1000));
      await killServerProcess(b); // a device, mid-sync
      b = await startServerProcess(path.join(root, 'b'));
      onB = clientFor(b.url, cookieB, entityId);
      await new Promise((r) => setTimeout(r, 1500));
      writing = false;
      await Promise.all(writers);

      // Heal: cycles until both are synced with nothing waiting and the same tickets.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const [sa, sb] = [await onA.post('/api/sync/run', {}), await onB.post('/api/sync/run', {})];
        const [ta, tb] = [await ticketsOf(onA), await ticketsOf(onB)];
        if (sa.body.state === 'synced' && sb.body.state === 'synced' && sa.body.waiting === 0 && sb.body.waiting === 0 && JSON.stringify(ta) === JSON.stringify(tb)) break;
        if (Date.now() > deadline) {
          console.log(fs.readFileSync(hosted.logFile, 'utf8').slice(-3000));
        }
        if (Date.now() > deadline) throw new Error(`no convergence: A ${JSON.stringify(sa.body)} B ${JSON.stringify(sb.body)} (${ta.length} vs ${tb.length} tickets)`);
        await new Promise((r) => setTimeout(r, 500));
      }
      const final = await ticketsOf(onA);
      const ids = final.map((t) => t.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of acknowledged) expect(ids).toContain(id);
      expect(final.filter((t) => t.subject.startsWith('before link'))).toHaveLength(5);
      expect(acknowledged.size).toBeGreaterThan(10);
      expect((await onA.get('/api/sync/status')).body.rejected).toEqual([]);
    } finally {
      await killServerProcess(a).catch(() => undefined);
      await killServerProcess(b).catch(() => undefined);
      await killHostedProcess(hosted.child).catch(() => undefined);
    }
  }, 180_000);
});
