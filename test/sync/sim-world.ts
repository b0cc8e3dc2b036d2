// The simulated world: one hosted instance (PGlite, made once per file), three device servers
// each behind its own fault-injecting proxy and on its own skewable clock, and a virtual time
// the simulation moves. Each run uses a new entity: signed up on device 1, linked there, joined
// from devices 2 and 3 with add-device codes, as a person would.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { and, asc, eq } from 'drizzle-orm';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { changes as hostedChanges, entities as hostedEntities, invitations as hostedInvitations, members as hostedMembers, rows as hostedRows, webhookJobs as hostedWebhookJobs } from '../../server/hosted/schema.js';
import { stampsPerColumn } from '../../server/hosted/push.js';
import { engineOf } from '../../server/sync/engine.js';
import { HOSTED_DEVICE_ID } from '../../server/sync/protocol.js';
import { verifyAuditChain } from '../../server/documents/audit.js';
import { deliverDueWebhooks } from '../../server/webhooks/worker.js';
import { isOlder } from '../../server/webhooks/enqueue.js';
import type { SyncedTable } from '../../server/kernel/sync-policy.js';
import { makePdf } from '../fixtures/pdf.js';
import { makeClient, startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { PNG_DATA_URL, uploadPdf } from '../integration/documents-helpers.js';
import { FaultProxy, type Fault } from './fault-proxy.js';
import { ACCOUNT_CODES, ACCOUNT_NAMES, CATEGORIES, EVENT_KEYS, NAMES, SUBJECTS, type Op } from './sim-ops.js';

const DELETED = '_deleted';
/** Heal: at most this many rounds of one cycle per device before the world must be quiet. */
const HEAL_ROUNDS = 6;
/** Before the heal: at most this many rounds of cycles and webhook deliveries until nothing is left to deliver. */
const SETTLE_ROUNDS = 6;

/** A device's row of a synced table, as SQLite gives it. */
type Row = Record<string, unknown>;
/** Per synced table, the entity's rows sorted by row id. */
export type Dump = Record<string, Row[]>;

/** One change captured on a device, as the oracle records it right after the write. */
export interface Write {
  device: number;
  opIndex: number;
  changeId: string;
  table: string;
  rowId: string;
  op: string;
  columns: Record<string, unknown>;
  hlc: string;
}

export class SimFailure extends Error {}

function fail(message: string): never {
  throw new SimFailure(message);
}

function check(condition: unknown, message: () => string): asserts condition {
  if (!condition) fail(message());
}

const json = (v: unknown) => JSON.stringify(v);

interface Device {
  index: number;
  dataDir: string;
  server: TestServer;
  proxy: FaultProxy;
  skewMs: number;
  client: Client;
  cookie: string;
  /** Captured changes up to this local_seq have been recorded by the oracle. */
  seen: number;
}

/**
 * Every row the capture triggers (or the link snapshot) put into `sync_changes` is copied into a
 * TEMP table of the device's connection, so the oracle sees each captured change even when a
 * cycle pushes and forgets it before the simulation looks (a write during a cycle, the link).
 */
function recordCaptures(dev: Device) {
  dev.server.ctx.sqlite.exec(`
    CREATE TEMP TABLE IF NOT EXISTS sim_captured (local_seq INTEGER PRIMARY KEY, change_id TEXT, entity_id TEXT, table_name TEXT, row_id TEXT, op TEXT, columns TEXT, hlc TEXT);
    CREATE TEMP TRIGGER IF NOT EXISTS sim_record AFTER INSERT ON main.sync_changes BEGIN
      INSERT INTO sim_captured VALUES (NEW.local_seq, NEW.change_id, NEW.entity_id, NEW.table_name, NEW.row_id, NEW.op, NEW.columns, NEW.hlc);
    END;`);
}

/** The webhook receiver every subscription of the simulation points at: what arrived, by path and webhook-id. */
class Receiver {
  readonly received: { path: string; webhookId: string }[] = [];
  private server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      this.received.push({ path: req.url ?? '', webhookId: String(req.headers['webhook-id'] ?? '') });
      res.writeHead(200).end();
    });
  });
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export class World {
  /** Virtual time (ms) of the hosted instance; a device's clock is this plus its skew. */
  now = Date.UTC(2027, 0, 4, 9, 0, 0);
  hosted!: RunningHosted;
  devices: Device[] = [];
  pdfs: Buffer[] = [];
  receiver!: Receiver;
  private hostedDir = '';
  tables: SyncedTable[] = [];
  /** Per synced table, its references to rows of other synced tables. */
  readonly foreignKeys = new Map<string, { column: string; parent: string }[]>();
  /** What the runs did, summed over runs (printed at the end: a simulation that does nothing passes too). */
  readonly stats: Record<string, number> = {};

  count(key: string, n = 1) {
    this.stats[key] = (this.stats[key] ?? 0) + n;
  }

  static async create(): Promise<World> {
    const w = new World();
    w.hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-sim-hosted-'));
    // Subscriptions the hosted instance delivers point at a receiver on this machine.
    w.hosted = await startHosted({ port: 0, dataDir: w.hostedDir, logLevel: 'silent', clock: { now: () => new Date(w.now) }, allowLocalWebhookTargets: true });
    w.receiver = await new Receiver().start();
    const target = { host: '127.0.0.1', port: w.hosted.port };
    for (let i = 0; i < 3; i++) {
      const dev = { index: i, skewMs: 0, seen: 0, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), `bureau-sim-device${i + 1}-`)) } as Device;
      dev.server = await startTestServer({ dataDir: dev.dataDir, clock: { now: () => new Date(w.now + dev.skewMs) } });
      recordCaptures(dev);
      dev.proxy = await new FaultProxy(target).start();
      w.devices.push(dev);
    }
    w.tables = engineOf(w.devices[0].server.ctx).tables;
    const sqlite = w.devices[0].server.ctx.sqlite;
    for (const t of w.tables) {
      const fks = (sqlite.pragma(`foreign_key_list(${q(t.name)})`) as { table: string; from: string; to: string; on_delete: string }[]).filter((f) => w.tables.some((p) => p.name === f.table));
      w.foreignKeys.set(t.name, fks.map((f) => ({ column: f.from, parent: f.table })));
    }
    w.pdfs = await Promise.all([0, 1, 2].map((i) => makePdf(1 + (i % 2), [612, 792], `Sim document ${i}`)));
    return w;
  }

  /** Stops the device's server and starts it again on the same data (same port, same session). */
  async restart(dev: Device): Promise<void> {
    const port = dev.server.port;
    await dev.server.close();
    const options = { dataDir: dev.dataDir, clock: dev.server.ctx.clock };
    dev.server = await startTestServer({ ...options, port }).catch(() => startTestServer(options));
    recordCaptures(dev);
    dev.client = makeClient(dev.server.url, { cookie: dev.cookie, origin: dev.server.url, 'x-entity-id': this.entityId });
    // fetch may still hold a kept-alive connection to the old server on that port: let it fail here.
    for (let i = 0; ; i++) {
      try {
        if ((await dev.client.get('/api/health')).status === 200) return;
      } catch (err) {
        if (i >= 3) throw err;
      }
    }
  }

  entityId = '';
  owner = { email: '', password: '' };

  async close(): Promise<void> {
    for (const d of this.devices) {
      await d.proxy.close();
      await d.server.close();
      fs.rmSync(d.dataDir, { recursive: true, force: true });
    }
    await this.hosted?.close();
    await this.receiver?.close();
    if (this.hostedDir) fs.rmSync(this.hostedDir, { recursive: true, force: true });
  }

  /** A new entity, linked on device 1 and joined from devices 2 and 3, with no faults and no skew. */
  /** `empty`: linked before it has any data (its hosted log stays empty until the operations write). */
  async newRun(opts: { collide?: boolean; joinLate?: boolean; bulkTickets?: number; linkFaults?: Fault[]; empty?: boolean } = {}): Promise<Run> {
    this.now += 3_600_000;
    for (const d of this.devices) {
      d.proxy.reset();
      d.skewMs = 0;
    }
    const [one, two, three] = this.devices;
    const owner = await one.server.signup({ entityName: 'Simulated Ltd' });
    this.owner = { email: owner.email, password: owner.password };
    one.client = owner;
    one.cookie = owner.cookie;
    this.entityId = owner.entityId;
    for (const d of this.devices) d.seen = maxLocalSeq(d);
    const run = new Run(this, owner.entityId, owner.user.id, opts.collide ?? false);
    // Data from before the link: the link's snapshot must carry all of it.
    if (!opts.empty) await run.initialContent(one, opts.bulkTickets ?? 0);
    for (const f of opts.linkFaults ?? []) one.proxy.arm(f);
    const linked = await owner.post('/api/sync/link', { hostedUrl: one.proxy.url, email: owner.email, password: owner.password });
    check(linked.status === 201 && (linked.body.state === 'synced' || opts.linkFaults?.length), () => `link: ${linked.status} ${json(linked.body)}`);
    run.trace.push(`link → ${linked.body.state}${linked.body.lastError ? ` (${linked.body.lastError})` : ''}, waiting ${linked.body.waiting}`);
    if (opts.empty) {
      run.trace.push('linked with no data');
      this.count('runs linked with no data');
    }
    else run.recordSnapshot(one);
    await run.join(two);
    if (opts.joinLate) run.trace.push('device 3 joins later');
    else await run.join(three);
    return run;
  }
}

function maxLocalSeq(d: Device): number {
  return (d.server.ctx.sqlite.prepare('SELECT coalesce(max(local_seq), 0) AS n FROM sim_captured').get() as { n: number }).n;
}


const q = (name: string) => `"${name}"`;

export class Run {
  readonly writes: Write[] = [];
  readonly trace: string[] = [];
  /** Devices that are part of the entity (device 3 may join late). */
  readonly joined = new Set<number>([0]);
  /** Creation order of the rows the operations made (tickets, folders, documents), by id. */
  private ordinal = new Map<string, number>();
  private opIndex = -1;
  /** The code of each person's latest invitation (shown once, to the inviting device). */
  private readonly invitationCodes = new Map<number, string>();

  constructor(
    readonly world: World,
    readonly entityId: string,
    readonly ownerId: string,
    /**
     * Category names are unique per entity: unless `collide`, two devices never create the same
     * name (names carry the operation's index), a known divergence the engine does not resolve
     * (see regressions.ts, "natural keys"). Folder grants collide freely: their ids come from
     * folder and grantee, so the same grant made on two devices is one row.
     */
    readonly collide: boolean,
  ) {}

  // ---- reading a device --------------------------------------------------------------

  rowIdOf(table: SyncedTable, row: Row): string {
    return table.primaryKey.length === 1 ? String(row[table.primaryKey[0]]) : json(table.primaryKey.map((c) => row[c]));
  }

  dump(dev: Device): Dump {
    const out: Dump = {};
    for (const t of this.world.tables) {
      const rows = dev.server.ctx.sqlite.prepare(`SELECT * FROM ${q(t.name)} WHERE entity_id = ?`).all(this.entityId) as Row[];
      out[t.name] = rows.sort((a, b) => (this.rowIdOf(t, a) < this.rowIdOf(t, b) ? -1 : 1));
    }
    return out;
  }

  /** The rows of `table` this device has, in the order the simulation created them. */
  private known(dev: Device, table: string): string[] {
    const ids = (dev.server.ctx.sqlite.prepare(`SELECT id FROM ${q(table)} WHERE entity_id = ?`).all(this.entityId) as { id: string }[]).map((r) => r.id);
    return ids.filter((id) => this.ordinal.has(id)).sort((a, b) => this.ordinal.get(a)! - this.ordinal.get(b)!);
  }

  private pick(dev: Device, table: string, i: number | null): string | null {
    if (i === null) return null;
    const ids = this.known(dev, table);
    return ids.length ? ids[i % ids.length] : null;
  }

  private created(id: unknown) {
    if (typeof id === 'string' && !this.ordinal.has(id)) this.ordinal.set(id, this.ordinal.size);
  }

  /** Joins the entity from `dev` with an add-device code made on device 1, as a person would. */
  async join(dev: Device, opts: { faulted?: boolean } = {}): Promise<void> {
    const one = this.world.devices[0];
    const owner = one.client;
    const code = await one.proxy.unfaulted(() => owner.post('/api/sync/devices/code', {}));
    check(code.status === 201, () => `code: ${code.status} ${json(code.body)}`);
    const account = this.world.owner;
    const request = () => dev.server.anon.post('/api/sync/join', { hostedUrl: dev.proxy.url, code: code.body.code, email: account.email, password: account.password });
    // The join's own first pull may meet the device's faults (opts.faulted); the enrolment itself may not.
    const joined = opts.faulted ? await request() : await dev.proxy.unfaulted(request);
    check(joined.status === 201, () => `join: ${joined.status} ${json(joined.body)}`);
    dev.cookie = (joined.headers.get('set-cookie') ?? '').split(';')[0];
    dev.client = makeClient(dev.server.url, { cookie: dev.cookie, origin: dev.server.url, 'x-entity-id': this.entityId });
    check(this.newChanges(dev).length === 0, () => `joining captured changes on device ${dev.index + 1}`);
    this.joined.add(dev.index);
    this.trace.push(`device ${dev.index + 1} joined: ${json(joined.body.entity)}`);
  }

  /** Rows made on device 1 before the entity is linked (a ticket with a reply, a folder with a document, a category). */
  async initialContent(dev: Device, bulkTickets: number): Promise<void> {
    const c = dev.client;
    // Many rows, quickly: written straight into the device's database (the link reads them from there).
    const insert = dev.server.ctx.sqlite.prepare(
      `INSERT INTO helpdesk_tickets (id, entity_id, ticket_number, subject, status, priority, channel, search_text, created_at, updated_at) VALUES (?, ?, ?, ?, 'new', 'normal', 'api', ?, ?, ?)`,
    );
    const at = new Date(this.world.now).toISOString();
    dev.server.ctx.sqlite.transaction(() => {
      for (let i = 0; i < bulkTickets; i++) {
        const id = crypto.randomUUID();
        insert.run(id, this.entityId, `BULK-${i}`, `Bulk ${i}`, `bulk ${i}`, at, at);
        this.created(id);
      }
    })();
    const made = [
      await c.post('/api/helpdesk/tickets', { subject: 'Before the link', priority: 'high', contactEmail: 'c@example.com' }),
      await c.post('/api/documents/folders', { name: 'Contracts' }),
      await c.post('/api/helpdesk/categories', { name: 'Billing' }),
    ];
    for (const res of made) {
      check(res.status === 201, () => `initial content: ${res.status} ${json(res.body)}`);
      this.created(res.body.id);
    }
    const ledger = [
      await c.put('/api/ledger/settings', { approvalThresholds: { USD: '1000.00' } }),
      await c.post('/api/ledger/events', { type: 'invoice_created', payload: { invoiceNumber: 'INV-0', currency: 'USD', netAmount: '100.00', taxAmount: '10.00' } }),
    ];
    for (const res of ledger) check(res.status < 300, () => `initial ledger: ${res.status} ${json(res.body)}`);
    this.created(ledger[1].body.id);
    const reply = await c.post(`/api/helpdesk/tickets/${made[0].body.id}/messages`, { body: 'On it', isInternal: false });
    const doc = await uploadPdf(c, { data: this.world.pdfs[0], name: 'Before the link', folderId: made[1].body.id });
    for (const res of [reply, doc]) check(res.status === 201, () => `initial content: ${res.status} ${json(res.body)}`);
    this.created(doc.body.id);
    check(this.newChanges(dev).length === 0, () => 'changes of an unlinked entity were captured');
  }

  /** The link queued every row of the entity (its snapshot): exactly the rows device 1 had. */
  recordSnapshot(dev: Device): void {
    const empty: Dump = Object.fromEntries(this.world.tables.map((t) => [t.name, []]));
    const snapshot = this.newChanges(dev);
    check(snapshot.length > 0, () => 'the link queued no snapshot');
    this.checkCapture(dev, empty, snapshot, -1);
    this.writes.push(...snapshot);
    this.trace.push(`link: snapshot of ${snapshot.length} rows`);
  }

  newChanges(dev: Device): Write[] {
    const rows = dev.server.ctx.sqlite
      .prepare('SELECT local_seq, change_id, entity_id, table_name, row_id, op, columns, hlc FROM sim_captured WHERE local_seq > ? ORDER BY local_seq')
      .all(dev.seen) as { local_seq: number; change_id: string; entity_id: string; table_name: string; row_id: string; op: string; columns: string; hlc: string }[];
    if (rows.length) dev.seen = rows[rows.length - 1].local_seq;
    return rows.map((r) => {
      check(r.entity_id === this.entityId, () => `a change of another entity was captured: ${json(r)}`);
      return { device: dev.index, opIndex: this.opIndex, changeId: r.change_id, table: r.table_name, rowId: r.row_id, op: r.op, columns: JSON.parse(r.columns), hlc: r.hlc };
    });
  }

  // ---- operations --------------------------------------------------------------------

  async apply(op: Op, index: number): Promise<void> {
    this.opIndex = index;
    this.world.now += op.dt;
    this.world.count('operations');
    if ('d' in op && !this.joined.has(op.d)) {
      // Not part of the entity yet: its proxy and clock stay as they are until it joins.
      this.trace.push(`#${index} ${json(op)} → not joined`);
    } else if ('d' in op) {
      const dev = this.world.devices[op.d];
      const before = this.dump(dev);
      const newestSeen = (dev.server.ctx.sqlite.prepare('SELECT max(hlc) AS hlc FROM sync_stamps').get() as { hlc: string | null }).hlc ?? '';
      const note = await this.perform(dev, op);
      this.trace.push(`#${index} ${json(op)} → ${note}`);
      this.world.count(`op ${op.k}${/^no |^4/.test(note) ? ' (nothing to do or refused)' : ''}`);
      for (const m of note.matchAll(/(offline|error) \(([^)]*)/g)) this.world.count(`cycles that failed: ${m[1] === 'offline' ? 'offline' : m[2].replace(/[0-9]+/g, 'N')}`);
      const captured = this.newChanges(dev);
      if (op.k === 'sync' || op.k === 'fault' || op.k === 'partition' || op.k === 'release' || op.k === 'skew' || op.k === 'restart' || op.k === 'accept') {
        const own = this.delivererWrites(captured);
        check(own.length === captured.length, () => `#${index} ${op.k} captured changes (applying must not echo): ${json(captured)}`);
        this.writes.push(...own);
      } else if (op.k === 'syncWhileWriting' || op.k === 'invite' || op.k === 'changeRole' || op.k === 'removeMember') {
        // Remote changes may land around the write (a change of people runs a cycle to bring its
        // rows back from the hosted instance): only the final oracle judges it.
        this.writes.push(...captured);
      } else {
        this.checkCapture(dev, before, captured, index);
        // Causality: a write is stamped after everything its device has seen (its own writes and the
        // changes it applied), or a later edit could lose to the value it replaced.
        for (const w of captured) check(w.hlc > newestSeen, () => `#${index} on device ${dev.index + 1}: ${w.table} ${w.rowId} stamped ${w.hlc}, not after ${newestSeen} which the device had seen`);
        this.writes.push(...captured);
      }
    } else {
      const note = await this.syncMany(op.ds.filter((i) => this.joined.has(i)), op.delays);
      this.trace.push(`#${index} ${json(op)} → ${note}`);
      this.world.count('op syncMany');
      for (const m of note.matchAll(/(offline|error) \(([^)]*)/g)) this.world.count(`cycles that failed: ${m[1] === 'offline' ? 'offline' : m[2].replace(/[0-9]+/g, 'N')}`);
      for (const i of op.ds.filter((x) => this.joined.has(x))) {
        const captured = this.newChanges(this.world.devices[i]);
        const own = this.delivererWrites(captured);
        check(own.length === captured.length, () => `#${index} syncMany captured changes on device ${i + 1}: ${json(captured)}`);
        this.writes.push(...own);
      }
    }
  }

  /**
   * Applying never echoes, but a device that delivers a subscription makes its deliveries of the
   * events it pulls in the pull's transaction (its own writes, synced like any): those are kept.
   */
  private delivererWrites(captured: Write[]): Write[] {
    return captured.filter((w) => w.table === 'webhook_deliveries' && w.op === 'upsert' && w.columns.status === 'pending');
  }

  /** The captured changes, replayed on the rows before the write, give exactly the rows after it. */
  private checkCapture(dev: Device, before: Dump, captured: Write[], index: number) {
    const after = this.dump(dev);
    const replayed: Record<string, Map<string, Row>> = {};
    for (const t of this.world.tables) replayed[t.name] = new Map(before[t.name].map((r) => [this.rowIdOf(t, r), { ...r }]));
    for (const w of captured) {
      const rows = replayed[w.table];
      check(rows, () => `#${index}: change of an unknown table ${w.table}`);
      if (w.columns[DELETED]) rows.delete(w.rowId);
      else rows.set(w.rowId, { ...(rows.get(w.rowId) ?? {}), ...w.columns });
    }
    for (const t of this.world.tables) {
      const expected = [...replayed[t.name].values()].sort((a, b) => (this.rowIdOf(t, a) < this.rowIdOf(t, b) ? -1 : 1));
      const actual = after[t.name].map((r) => ({ ...r }));
      check(isDeepStrictEqual(normaliseRows(expected, t), normaliseRows(actual, t)), () => `#${index} on device ${dev.index + 1}: the captured changes do not describe the write to ${t.name}\ncaptured: ${json(captured)}\nbefore: ${json(before[t.name])}\nafter: ${json(after[t.name])}`);
    }
  }

  /** Names from a small pool collide across devices; by default each operation's name is its own. */
  private categoryName(i: number): string {
    return this.collide ? CATEGORIES[i] : `${CATEGORIES[i]} ${this.opIndex}`;
  }

  private async perform(dev: Device, op: Op & { d: number }): Promise<string> {
    const c = dev.client;
    const ok = (what: string, res: { status: number; body: any }) => {
      check(res.status < 500, () => `#${this.opIndex} ${what} on device ${dev.index + 1}: ${res.status} ${json(res.body)}`);
      if (res.status < 300 && res.body && typeof res.body === 'object' && 'id' in res.body) this.created(res.body.id);
      return res.status < 300 ? `${res.status}` : `${res.status} ${String(res.body?.error ?? '')}`;
    };
    // A change of people goes to the hosted instance at once: through a faulty proxy it may not
    // get there (502, said in words), never a 500 of the device's own.
    const viaHosted = (what: string, res: { status: number; body: any }) => {
      const unreachable = res.status === 502 && typeof res.body?.error === 'string';
      check(res.status < 500 || unreachable, () => `#${this.opIndex} ${what} on device ${dev.index + 1}: ${res.status} ${json(res.body)}`);
      return res.status < 300 ? `${res.status}` : `${res.status} ${String(res.body?.error ?? '')}`;
    };
    switch (op.k) {
      case 'ticket':
        return ok('create ticket', await c.post('/api/helpdesk/tickets', { subject: SUBJECTS[op.subject], priority: op.priority }));
      case 'editTicket': {
        const id = this.pick(dev, 'helpdesk_tickets', op.t);
        if (!id) return 'no ticket';
        const value = op.field === 'subject' ? SUBJECTS[op.value] : op.field === 'assignedTo' ? (op.value === 'owner' ? this.ownerId : null) : op.value;
        return ok('edit ticket', await c.patch(`/api/helpdesk/tickets/${id}`, { [op.field]: value }));
      }
      case 'message': {
        const id = this.pick(dev, 'helpdesk_tickets', op.t);
        if (!id) return 'no ticket';
        return ok('message', await c.post(`/api/helpdesk/tickets/${id}/messages`, { body: `Note ${this.opIndex}`, isInternal: op.internal && !op.customer, authorType: op.customer ? 'customer' : 'agent' }));
      }
      case 'folder': {
        const parentId = this.pick(dev, 'folders', op.parent);
        return ok('create folder', await c.post('/api/documents/folders', { name: NAMES[op.name], ...(parentId ? { parentId } : {}) }));
      }
      case 'renameFolder': {
        const id = this.pick(dev, 'folders', op.f);
        if (!id) return 'no folder';
        return ok('rename folder', await c.patch(`/api/documents/folders/${id}`, { name: NAMES[op.name] }));
      }
      case 'deleteFolder': {
        const id = this.pick(dev, 'folders', op.f);
        if (!id) return 'no folder';
        return ok('delete folder', await c.delete(`/api/documents/folders/${id}?recursive=true`));
      }
      case 'upload': {
        const folderId = this.pick(dev, 'folders', op.folder) ?? undefined;
        return ok('upload', await uploadPdf(c, { data: this.world.pdfs[op.pdf], name: `Doc ${this.opIndex}`, folderId }));
      }
      case 'editDoc': {
        const id = this.pick(dev, 'documents', op.doc);
        if (!id) return 'no document';
        const folderId = op.folder === null ? null : this.pick(dev, 'folders', op.folder);
        const body = op.name !== null ? { name: NAMES[op.name] } : { folderId };
        return ok('edit document', await c.patch(`/api/documents/${id}`, body));
      }
      case 'deleteDoc': {
        const id = this.pick(dev, 'documents', op.doc);
        if (!id) return 'no document';
        return ok('delete document', await c.delete(`/api/documents/${id}`));
      }
      case 'category':
        return ok('create category', await c.post('/api/helpdesk/categories', { name: this.categoryName(op.name) }));
      case 'renameCategory': {
        const id = this.pick(dev, 'helpdesk_categories', op.c);
        if (!id) return 'no category';
        return ok('rename category', await c.patch(`/api/helpdesk/categories/${id}`, { name: this.categoryName(op.name) }));
      }
      case 'deleteCategory': {
        const id = this.pick(dev, 'helpdesk_categories', op.c);
        if (!id) return 'no category';
        return ok('delete category', await c.delete(`/api/helpdesk/categories/${id}`));
      }
      case 'grant': {
        const id = this.pick(dev, 'folders', op.f);
        if (!id) return 'no folder';
        const role = op.role;
        return ok('grant', await c.post(`/api/documents/folders/${id}/grants`, { role, level: op.level }));
      }
      case 'revokeGrant': {
        const id = this.pick(dev, 'folder_grants', op.g);
        if (!id) return 'no grant';
        const { folder_id: folderId } = dev.server.ctx.sqlite.prepare('SELECT folder_id FROM folder_grants WHERE id = ?').get(id) as { folder_id: string };
        return ok('revoke grant', await c.delete(`/api/documents/folders/${folderId}/grants`, { grantId: id }));
      }
      case 'ledgerEvent': {
        const key = op.key === null ? null : EVENT_KEYS[op.key];
        const payload = { invoiceNumber: key ?? `INV-${this.opIndex}`, currency: 'USD', netAmount: op.large ? '5000.00' : '100.00', taxAmount: '10.00' };
        return ok('post event', await c.post('/api/ledger/events', { type: 'invoice_created', payload, ...(key ? { idempotencyKey: key } : {}) }));
      }
      case 'decide': {
        const id = this.pick(dev, 'ledger_events', op.e);
        if (!id) return 'no event';
        return ok(op.action, await c.post(`/api/ledger/events/${id}/${op.action}`, op.action === 'approve' ? {} : { reason: `${op.action} #${this.opIndex}` }));
      }
      case 'account':
        return ok('add account', await c.post('/api/ledger/accounts', { code: ACCOUNT_CODES[op.code], name: `${ACCOUNT_NAMES[op.code]} ${this.opIndex}`, type: 'expense' }));
      case 'renameAccount': {
        const found = dev.server.ctx.sqlite.prepare('SELECT id FROM ledger_accounts WHERE entity_id = ? AND code = ?').get(this.entityId, ACCOUNT_CODES[op.a]) as { id: string } | undefined;
        if (!found) return 'no account';
        return ok('rename account', await c.patch(`/api/ledger/accounts/${found.id}`, { name: `${ACCOUNT_NAMES[op.name]} ${this.opIndex}` }));
      }
      case 'notify':
        return ok('notify', await c.post('/api/notifications', { title: `Note ${this.opIndex}`, ...(op.everyone ? {} : { userId: this.ownerId }) }));
      case 'readNotification': {
        const id = this.pick(dev, 'notifications', op.n);
        if (!id) return 'no notification';
        return ok('read notification', await c.post(`/api/notifications/${id}/read`));
      }
      case 'readAll':
        return ok('read all', await c.post('/api/notifications/read-all'));
      case 'emailPref':
        return ok('e-mail choice', await c.put('/api/notifications/email-preferences', { preferences: { 'ticket.assigned': op.email } }));
      case 'request': {
        const doc = await uploadPdf(c, { data: this.world.pdfs[0], name: `Contract ${this.opIndex}` });
        if (doc.status !== 201) return ok('upload for request', doc);
        this.created(doc.body.id);
        const made = await c.post('/api/documents/signature-requests', { documentId: doc.body.id, title: `Request ${this.opIndex}`, signers: [{ name: 'Ada', email: 'ada@example.com' }] });
        if (made.status !== 201) return ok('create request', made);
        this.created(made.body.id);
        const placed = await c.post(`/api/documents/signature-requests/${made.body.id}/fields`, { fields: [{ signerId: made.body.signers[0].id, type: 'signature', page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.06 }] });
        if (placed.status !== 201) return ok('place field', placed);
        return ok('send request', await c.patch(`/api/documents/signature-requests/${made.body.id}`, { action: 'send' }));
      }
      case 'requestAction': {
        const id = this.pick(dev, 'signature_requests', op.r);
        if (!id) return 'no request';
        const base = `/api/documents/signature-requests/${id}`;
        if (op.action === 'remind') return ok('remind', await c.post(`${base}/remind`, {}));
        if (op.action === 'cancel') return ok('cancel', await c.patch(base, { action: 'cancel' }));
        const signer = dev.server.ctx.sqlite.prepare("SELECT id FROM signers WHERE request_id = ? AND status = 'pending'").get(id) as { id: string } | undefined;
        if (!signer) return 'no pending signer';
        const link = await c.post(`${base}/signers/${signer.id}/signing-link`, {});
        if (link.status !== 200) return ok('signing link', link);
        const page = await dev.server.anon.get(`/api/sign/${link.body.token}`);
        if (page.status !== 200) return ok('signing page', page);
        const fields = page.body.fields.map((f: { id: string }) => ({ fieldId: f.id, value: PNG_DATA_URL }));
        const signed = await dev.server.anon.post(`/api/sign/${link.body.token}`, { action: 'sign', fields });
        // The seal runs after the answer: wait for it, so this operation's writes are all its own.
        for (let i = 0; i < 200 && signed.status === 200; i++) {
          const status = (dev.server.ctx.sqlite.prepare('SELECT status FROM signature_requests WHERE id = ?').get(id) as { status: string }).status;
          if (status !== 'sent') break;
          await new Promise((r) => setTimeout(r, 50));
        }
        return ok('sign', signed);
      }
      case 'invite': {
        const res = await c.post(`/api/entities/${this.entityId}/members`, { email: this.memberEmail(op.m), name: `Member ${op.m}`, role: op.role });
        if (res.status === 201) this.invitationCodes.set(op.m, res.body.invitation.code);
        return viaHosted('invite', res);
      }
      case 'accept': {
        const code = this.invitationCodes.get(op.m);
        if (!code) return 'no invitation';
        const res = await fetch(`${this.world.hosted.url}/sync/v1/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, email: this.memberEmail(op.m), password: 'member password 1', name: `Member ${op.m}`, deviceName: `Member ${op.m} laptop` }) });
        const body = (await res.json()) as { error?: string };
        check(res.status < 500, () => `#${this.opIndex} accept: ${res.status} ${json(body)}`);
        if (res.status === 201) this.invitationCodes.delete(op.m);
        return res.status === 201 ? '201' : `${res.status} ${body.error ?? ''}`;
      }
      case 'changeRole': {
        const userId = this.memberId(dev, op.m);
        if (!userId) return 'no member';
        return viaHosted('change role', await c.patch(`/api/entities/${this.entityId}/members/${userId}`, { role: op.role }));
      }
      case 'removeMember': {
        const userId = this.memberId(dev, op.m);
        if (!userId) return 'no member';
        return viaHosted('remove member', await c.delete(`/api/entities/${this.entityId}/members/${userId}`));
      }
      case 'subscribe':
        return ok('subscribe', await c.post('/api/webhook-subscriptions', { url: `${this.world.receiver.url}/${this.entityId}/s${this.opIndex}`, events: ['ticket.created'], ...(op.hosted ? { deliveredBy: 'hosted' } : {}) }));
      case 'deliver':
        return `${await this.deliverOn(dev)} delivered`;
      case 'sync':
        return this.cycle(dev);
      case 'syncWhileWriting': {
        if (!('d' in op.write)) return 'not a write';
        const write = { ...op.write, d: dev.index } as Op & { d: number };
        const [synced, wrote] = await Promise.all([this.cycle(dev), this.perform(dev, write)]);
        return `${synced} | ${write.k}: ${wrote}`;
      }
      case 'restart':
        await this.world.restart(dev);
        return 'restarted';
      case 'fault':
        dev.proxy.arm({ kind: op.fault, target: op.target, ms: 5 + (this.opIndex % 4) * 10 });
        return 'armed';
      case 'partition':
        dev.proxy.partitioned = op.on;
        return op.on ? 'partitioned' : 'connected';
      case 'release':
        await dev.proxy.releaseHeld();
        return 'released';
      case 'skew':
        dev.skewMs = op.seconds * 1000;
        return `skew ${op.seconds} s`;
      default:
        return fail(`unknown operation ${json(op)}`);
    }
  }

  /** The e-mail of the simulation's m-th person in this run. */
  private memberEmail(m: number): string {
    return `member${m}.${this.entityId.slice(0, 8)}@sim.example`;
  }

  /** The id of the m-th person as this device knows her (from the people rows it holds). */
  private memberId(dev: Device, m: number): string | null {
    const row = dev.server.ctx.sqlite.prepare('SELECT user_id FROM entity_people WHERE entity_id = ? AND email = ?').get(this.entityId, this.memberEmail(m)) as { user_id: string } | undefined;
    return row?.user_id ?? null;
  }

  /** The device's outbox consumers (webhooks, notifications) and one pass of its webhook deliveries. */
  private async deliverOn(dev: Device): Promise<number> {
    dev.server.ctx.events.drain();
    return deliverDueWebhooks(dev.server.ctx);
  }

  private async cycle(dev: Device): Promise<string> {
    const res = await dev.client.post('/api/sync/run', {});
    check(res.status === 200, () => `sync run on device ${dev.index + 1}: ${res.status} ${json(res.body)}`);
    await dev.proxy.idle();
    const s = res.body as { state: string; lastError: string | null; waiting: number; rejected: unknown[] };
    check(!/clock skew/i.test(s.lastError ?? '') || s.state === 'clock_skew', () => `device ${dev.index + 1}: a clock-skew failure shows as ${s.state}: ${s.lastError}`);
    return `${s.state}${s.lastError ? ` (${s.lastError})` : ''}, waiting ${s.waiting}, rejected ${s.rejected.length}`;
  }

  private async syncMany(ds: number[], delays: number[]): Promise<string> {
    const notes = await Promise.all(
      ds.map(async (i) => {
        await new Promise((r) => setTimeout(r, delays[i] ?? 0));
        return `d${i + 1}: ${await this.cycle(this.world.devices[i])}`;
      }),
    );
    return notes.join('; ');
  }

  // ---- heal and verify ---------------------------------------------------------------

  async hostedLog() {
    return this.world.hosted.ctx.store.db.select().from(hostedChanges).where(eq(hostedChanges.entityId, this.entityId)).orderBy(asc(hostedChanges.seq));
  }

  private async lastSeq(): Promise<number> {
    const [e] = await this.world.hosted.ctx.store.db.select({ lastSeq: hostedEntities.lastSeq }).from(hostedEntities).where(eq(hostedEntities.id, this.entityId));
    return e.lastSeq;
  }

  private queueOf(dev: Device) {
    return dev.server.ctx.sqlite.prepare('SELECT change_id, table_name, row_id, result, reason, reverted_at FROM sync_changes WHERE entity_id = ?').all(this.entityId) as { change_id: string; result: string | null; reason: string | null; reverted_at: string | null }[];
  }

  /** Changes of groups the hosted instance refused and their device undid (a lost race of guarded transitions). */
  private undone(): Set<string> {
    const out = new Set<string>();
    for (const d of this.world.devices) for (const c of this.queueOf(d)) if (c.reverted_at) out.add(c.change_id);
    return out;
  }

  /** The books on a device: each event's journal matches its status, every entry balances. */
  private checkBooks(dev: Device): void {
    const sqlite = dev.server.ctx.sqlite;
    const events = sqlite
      .prepare(
        `SELECT e.id, e.posting_status AS status,
          (SELECT count(*) FROM ledger_entries x WHERE x.event_id = e.id AND x.kind = 'posting') AS postings,
          (SELECT count(*) FROM ledger_entries x WHERE x.event_id = e.id AND x.kind = 'reversal') AS reversals
         FROM ledger_events e WHERE e.entity_id = ?`,
      )
      .all(this.entityId) as { id: string; status: string; postings: number; reversals: number }[];
    for (const e of events) {
      const want = e.status === 'posted' ? [1, 0] : e.status === 'reversed' ? [1, 1] : [0, 0];
      check(e.postings === want[0] && e.reversals === want[1], () => `device ${dev.index + 1}: event ${e.id} is ${e.status} with ${e.postings} postings and ${e.reversals} reversals`);
    }
    const unbalanced = sqlite
      .prepare(
        `SELECT entry_id, currency, sum(CASE side WHEN 'debit' THEN CAST(amount AS INTEGER) ELSE -CAST(amount AS INTEGER) END) AS net
         FROM ledger_lines WHERE entity_id = ? GROUP BY entry_id, currency HAVING net != 0`,
      )
      .all(this.entityId);
    check(unbalanced.length === 0, () => `device ${dev.index + 1}: unbalanced entries ${json(unbalanced)}`);
    this.world.count('ledger events at the end', events.length);
    const requests = sqlite.prepare('SELECT id, status FROM signature_requests WHERE entity_id = ?').all(this.entityId) as { id: string; status: string }[];
    for (const r of requests) {
      const chain = verifyAuditChain(dev.server.ctx.db, this.entityId, r.id);
      check(chain.valid, () => `device ${dev.index + 1}: audit chain of request ${r.id} broken at ${chain.brokenAt}: ${chain.reason}`);
      this.world.count(`signature requests ${r.status} at the end`);
    }
  }

  private cursorOf(dev: Device): number {
    return (dev.server.ctx.sqlite.prepare('SELECT cursor FROM sync_links WHERE entity_id = ?').get(this.entityId) as { cursor: number }).cursor;
  }

  /** Faults off, clocks back, held requests delivered, then cycles until nothing moves. */
  async heal(): Promise<void> {
    for (const d of this.world.devices) {
      await d.proxy.idle();
      d.proxy.heal();
      d.skewMs = 0;
    }
    for (const d of this.world.devices) await d.proxy.releaseHeld();
    await this.settle();
    for (let round = 1; round <= HEAL_ROUNDS; round++) {
      const notes: string[] = [];
      for (const d of this.world.devices) notes.push(await this.cycle(d));
      this.trace.push(`heal ${round} → ${notes.map((n, i) => `d${i + 1}: ${n}`).join('; ')}`);
      const last = await this.lastSeq();
      const quiet = notes.every((n) => n.startsWith('synced')) && this.world.devices.every((d) => this.queueOf(d).every((c) => c.result !== null) && this.cursorOf(d) === last);
      if (quiet) return;
    }
    fail(`not quiescent after ${HEAL_ROUNDS} heal rounds: hosted seq ${await this.lastSeq()}; ${this.world.devices.map((d) => `d${d.index + 1} cursor ${this.cursorOf(d)} queue ${json(this.queueOf(d))}`).join('; ')}`);
  }

  /**
   * Cycles, the devices' outbox consumers and webhook deliveries, and the hosted deliverer, until
   * every event has reached every deliverer and nothing is left to deliver. Virtual time moves on a
   * minute a round (a hosted job waiting for its signing secret is looked at again after 30 s).
   * What the devices write here (deliveries, notifications) is recorded for the oracle like any write.
   */
  private async settle(): Promise<void> {
    for (let round = 1; ; round++) {
      const notes: string[] = [];
      for (const d of this.world.devices) {
        notes.push(`${await this.cycle(d)}, ${await this.deliverOn(d)} delivered`);
        this.writes.push(...this.newChanges(d));
      }
      const hosted = await this.world.hosted.ctx.webhooks!.deliverDue();
      this.trace.push(`settle ${round} → ${notes.map((n, i) => `d${i + 1}: ${n}`).join('; ')}; hosted delivered ${hosted}`);
      const left = await this.undelivered();
      if (left.length === 0) return;
      if (round === SETTLE_ROUNDS) fail(`still to deliver after ${SETTLE_ROUNDS} settle rounds: ${left.join('; ')}`);
      this.world.now += 60_000;
    }
  }

  /** What is still on its way to a webhook receiver: unpushed changes, unread log, pending deliveries and jobs. */
  private async undelivered(): Promise<string[]> {
    const left: string[] = [];
    const last = await this.lastSeq();
    for (const d of this.world.devices) {
      const sqlite = d.server.ctx.sqlite;
      const waiting = this.queueOf(d).filter((c) => c.result === null).length;
      if (waiting) left.push(`d${d.index + 1}: ${waiting} changes to push`);
      if (this.cursorOf(d) !== last) left.push(`d${d.index + 1}: cursor ${this.cursorOf(d)} of ${last}`);
      const pending = sqlite
        .prepare(
          `SELECT count(*) AS n FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
           WHERE d.entity_id = ? AND d.status = 'pending' AND s.delivered_by = (SELECT device_id FROM sync_links WHERE entity_id = ?)`,
        )
        .get(this.entityId, this.entityId) as { n: number };
      if (pending.n) left.push(`d${d.index + 1}: ${pending.n} pending deliveries`);
    }
    const jobs = await this.world.hosted.ctx.store.db.select().from(hostedWebhookJobs).where(and(eq(hostedWebhookJobs.entityId, this.entityId), eq(hostedWebhookJobs.status, 'pending')));
    if (jobs.length) left.push(`hosted: ${jobs.length} pending jobs`);
    return left;
  }

  /**
   * Webhooks: every delivery succeeded; each (subscription, event) arrived at most once, and exactly
   * once each ticket.created that happened after the subscription was made (as Svix: an endpoint
   * gets what happens after it exists — by the event's and the subscription's own times and ids).
   */
  private checkWebhooks(dump: Dump): void {
    for (const d of dump.webhook_deliveries ?? []) check(d.status === 'succeeded', () => `delivery ${d.id} of event ${d.event_id} is ${d.status}`);
    const arrived = new Map<string, number>();
    for (const r of this.world.receiver.received.filter((x) => x.path.startsWith(`/${this.entityId}/`))) arrived.set(`${r.path} ${r.webhookId}`, (arrived.get(`${r.path} ${r.webhookId}`) ?? 0) + 1);
    for (const [key, n] of arrived) check(n === 1, () => `webhook ${key} arrived ${n} times`);
    const created = (dump.entity_events ?? []).filter((e) => e.type === 'ticket.created');
    for (const sub of dump.webhook_subscriptions ?? []) {
      const path = new URL(String(sub.url)).pathname;
      const due = created.filter((e) => !isOlder({ id: String(e.id), createdAt: String(e.created_at) }, { id: String(sub.id), createdAt: String(sub.created_at) }));
      for (const e of due) check(arrived.get(`${path} ${e.id}`) === 1, () => `ticket.created ${e.id} (at ${e.created_at}) did not reach subscription ${sub.id} (made at ${sub.created_at}, delivered by ${sub.delivered_by})`);
      this.world.count(`webhooks delivered by ${sub.delivered_by === 'hosted' ? 'the hosted instance' : 'a device'}`, due.length);
    }
  }

  /** People: on every device the local memberships follow the people rows; on the hosted instance the rows follow its members. */
  private async checkPeople(dumps: Dump[]): Promise<void> {
    for (const [i, d] of this.world.devices.entries()) {
      const held = new Map((d.server.ctx.sqlite.prepare('SELECT user_id, role FROM memberships WHERE entity_id = ?').all(this.entityId) as { user_id: string; role: string }[]).map((m) => [m.user_id, m.role]));
      for (const p of dumps[i].entity_people ?? []) {
        const want = p.state === 'removed' ? undefined : p.role;
        check(held.get(String(p.user_id)) === want, () => `device ${i + 1}: ${p.email} is ${p.state} ${p.role} in the people rows, membership ${held.get(String(p.user_id)) ?? 'none'}`);
      }
      this.world.count('people rows at the end', i === 0 ? (dumps[i].entity_people ?? []).length : 0);
    }
    // On the hosted instance a member is in `members`; an invited person only has an open invitation.
    const members = new Map((await this.world.hosted.ctx.store.db.select().from(hostedMembers).where(eq(hostedMembers.entityId, this.entityId))).map((m) => [m.accountId, m.role]));
    const open = new Map<string, Set<string>>();
    for (const inv of await this.world.hosted.ctx.store.db.select().from(hostedInvitations).where(eq(hostedInvitations.entityId, this.entityId))) {
      if (inv.acceptedAt || inv.revokedAt || !inv.accountId) continue;
      open.set(inv.accountId, (open.get(inv.accountId) ?? new Set()).add(inv.role));
    }
    for (const p of dumps[0].entity_people ?? []) {
      const id = String(p.user_id);
      const holds = p.state === 'active' ? members.get(id) === p.role : p.state === 'invited' ? !members.has(id) && Boolean(open.get(id)?.has(String(p.role))) : !members.has(id) && !open.has(id);
      check(holds, () => `hosted: ${p.email} is ${p.state} ${p.role} in the people rows; member ${members.get(id) ?? 'no'}, open invitations ${json([...(open.get(id) ?? [])])}`);
    }
  }

  async verify(): Promise<void> {
    const devices = this.world.devices;
    for (const d of devices) check(this.newChanges(d).length === 0, () => `device ${d.index + 1} captured changes while healing`);

    // Nothing waits, nothing was rejected — but groups that lost a guarded race, which were undone.
    for (const d of devices) {
      const queue = this.queueOf(d).filter((c) => !c.reverted_at);
      check(queue.length === 0, () => `device ${d.index + 1} still has queued or rejected changes: ${json(queue)}`);
      for (const c of this.queueOf(d)) check(c.result === 'rejected', () => `device ${d.index + 1}: undone change ${c.change_id} was ${c.result}`);
    }
    const undone = this.undone();
    // The hosted instance writes too (a ticket's final number when its insert arrives): its own
    // changes in the log are writes like a device's, judged by the same oracle.
    const log = await this.hostedLog();
    const hostedWrites: Write[] = log
      .filter((c) => c.deviceId === HOSTED_DEVICE_ID)
      .map((c) => ({ device: -1, opIndex: -1, changeId: c.id, table: c.tableName, rowId: c.rowId, op: c.op, columns: c.columns, hlc: c.hlc }));
    this.world.count('changes the hosted instance wrote (final ticket numbers)', hostedWrites.length);
    const accepted = [...this.writes.filter((w) => !undone.has(w.changeId)), ...hostedWrites];
    this.world.count('changes undone (lost guarded races)', undone.size);

    // The hosted log: gap-free seqs, every accepted change exactly once, nothing undone, nothing else.
    log.forEach((c, i) => check(c.seq === i + 1, () => `hosted log seq ${c.seq} at position ${i + 1}`));
    const logged = new Map<string, number>();
    for (const c of log) logged.set(c.id, (logged.get(c.id) ?? 0) + 1);
    for (const w of accepted) check(logged.get(w.changeId) === 1, () => `change ${w.changeId} (${w.table} ${w.rowId}, op #${w.opIndex} on device ${w.device + 1}) is in the hosted log ${logged.get(w.changeId) ?? 0} times`);
    for (const id of undone) check(!logged.has(id), () => `undone change ${id} is in the hosted log`);
    check(log.length === accepted.length, () => `the hosted log has ${log.length} changes, the devices captured ${accepted.length} that were not undone`);
    const seqOf = new Map(log.map((c) => [c.id, c.seq]));
    const byId = new Map([...this.writes, ...hostedWrites].map((w) => [w.changeId, w]));
    for (const c of log) {
      const w = byId.get(c.id)!;
      check(c.hlc === w.hlc && c.rowId === w.rowId && c.tableName === w.table && isDeepStrictEqual(c.columns, w.columns), () => `hosted log entry ${c.seq} differs from the captured change: ${json(c)} vs ${json(w)}`);
    }

    // The oracle: per cell the value of the highest-HLC write; a row with a delete is gone; a fact is written once.
    const expected = this.expected([...accepted].sort((x, y) => seqOf.get(x.changeId)! - seqOf.get(y.changeId)!));
    for (const d of devices) this.checkBooks(d);
    const dumps = devices.map((d) => this.dump(d));
    for (const t of this.world.tables) {
      const want = normaliseRows(expected.rows[t.name], t);
      for (const [i, dump] of dumps.entries()) {
        const got = normaliseRows(dump[t.name], t);
        if (!isDeepStrictEqual(got, want)) fail(`device ${i + 1}, ${t.name}: not the highest-HLC value of every cell\n${diffRows(want, got, (r) => this.rowIdOf(t, r))}`);
      }
    }
    // Identical canonical dumps (implied by the above, kept as the headline check).
    // (Device-only columns — a signer's sealed token, this device's link base — differ by design.)
    const synced = (dump: Dump) => Object.fromEntries(this.world.tables.map((t) => [t.name, normaliseRows(dump[t.name], t)]));
    for (let i = 1; i < dumps.length; i++) check(isDeepStrictEqual(synced(dumps[i]), synced(dumps[0])), () => `device ${i + 1}'s dump differs from device 1's`);
    await this.checkPeople(dumps);
    this.checkWebhooks(dumps[0]);

    // Facts exactly once: one write and one log entry per message, present once everywhere.
    const facts = accepted.filter((w) => w.op === 'fact');
    const factIds = new Set(facts.map((w) => `${w.table}:${w.rowId}`));
    check(factIds.size === facts.length, () => 'a fact was captured twice');
    for (const t of this.world.tables.filter((x) => x.kind === 'fact')) {
      const ids = facts.filter((w) => w.table === t.name).map((w) => w.rowId).sort();
      for (const [i, dump] of dumps.entries()) check(isDeepStrictEqual(dump[t.name].map((r) => this.rowIdOf(t, r)).sort(), ids), () => `device ${i + 1}: ${t.name} is not every fact exactly once`);
    }

    // Events exactly once per cause (what every webhook deliverer reads): each ticket an operation
    // created after the link has one `ticket.created` in the entity's events, on every device — not
    // one per device that saw it, not none; no ticket has two.
    const createdByOps = new Set(accepted.filter((w) => w.table === 'helpdesk_tickets' && w.opIndex >= 0 && 'created_at' in w.columns).map((w) => w.rowId));
    for (const [i, dump] of dumps.entries()) {
      const perTicket = new Map<string, number>();
      for (const e of dump.entity_events ?? []) {
        if (e.type !== 'ticket.created') continue;
        const id = (JSON.parse(String(e.data)) as { ticket?: { id?: string } }).ticket?.id ?? '';
        perTicket.set(id, (perTicket.get(id) ?? 0) + 1);
      }
      for (const [id, n] of perTicket) check(n === 1, () => `device ${i + 1}: ticket ${id} has ${n} ticket.created events`);
      for (const id of createdByOps) check(perTicket.get(id) === 1, () => `device ${i + 1}: ticket ${id}, created by an operation, has ${perTicket.get(id) ?? 0} ticket.created events`);
    }

    // Stamps: every live cell carries the highest stamp on every device and on the hosted instance.
    for (const [i, d] of devices.entries()) {
      const stamps = d.server.ctx.sqlite.prepare('SELECT table_name, row_id, "column", hlc FROM sync_stamps').all() as { table_name: string; row_id: string; column: string; hlc: string }[];
      const byCell = new Map(stamps.map((s) => [`${s.table_name}|${s.row_id}|${s.column}`, s.hlc]));
      for (const [key, cell] of expected.cells) {
        if (expected.gone.has(key.split('|').slice(0, 2).join('|'))) continue;
        // A row taken whole from a snapshot has one row-wide stamp ('*') for the columns without their own.
        const [table, rowId, column] = key.split('|');
        const stamp = byCell.get(key) ?? (column === '_deleted' ? undefined : byCell.get(`${table}|${rowId}|*`));
        check(stamp === cell.hlc, () => `device ${i + 1}: stamp of ${key.replaceAll('|', ' ')} is ${stamp}, the highest write is ${cell.hlc}`);
      }
    }
    const hostedRowList = await this.world.hosted.ctx.store.db.select().from(hostedRows).where(eq(hostedRows.entityId, this.entityId));
    const hostedByKey = new Map(hostedRowList.map((r) => [`${r.tableName}|${r.rowId}`, r]));
    for (const [key, cell] of expected.cells) {
      const [table, rowId, column] = key.split('|');
      const row = hostedByKey.get(`${table}|${rowId}`);
      check(row, () => `hosted: no row ${table} ${rowId}`);
      const stamp = stampsPerColumn(row.data, row.stamps)[column];
      check(stamp === cell.hlc && isDeepStrictEqual(row.data[column], cell.value), () => `hosted: ${table} ${rowId} ${column} = ${json(row.data[column])} @ ${stamp}, the highest write is ${json(cell.value)} @ ${cell.hlc}`);
    }
    for (const r of hostedRowList) {
      const key = `${r.tableName}|${r.rowId}`;
      check(Boolean(r.data[DELETED]) === expected.deleted.has(key), () => `hosted: ${key} deleted=${json(r.data[DELETED])}, expected ${expected.deleted.has(key)}`);
    }
    check(hostedRowList.length === expected.rowCount, () => `hosted has ${hostedRowList.length} rows, the writes made ${expected.rowCount}`);

    const writers = new Map<string, Set<number>>();
    for (const w of this.writes) for (const c of Object.keys(w.columns)) writers.set(`${w.table} ${w.rowId} ${c}`, (writers.get(`${w.table} ${w.rowId} ${c}`) ?? new Set()).add(w.device));
    this.world.count('cells written on 2+ devices', [...writers.values()].filter((s) => s.size > 1).length);
    this.world.count('changes captured', this.writes.length);
    this.world.count('rows deleted', expected.deleted.size);
    this.world.count('rows gone with their parent', expected.gone.size - expected.deleted.size);
    this.world.count('proxy faults hit', this.world.devices.reduce((n, d) => n + d.proxy.log.length, 0));

    // Every device read the whole log.
    const last = await this.lastSeq();
    for (const d of devices) check(this.cursorOf(d) === last, () => `device ${d.index + 1} cursor ${this.cursorOf(d)} ≠ hosted seq ${last}`);
  }

  /**
   * What the accepted writes (in hosted log order) say every replica must hold: per cell the
   * highest-HLC write, except that an accepted transition sets its cells whatever their stamps
   * (its precondition held, so it is the newest decision) and keeps the highest stamp.
   */
  private expected(accepted: Write[]) {
    const cells = new Map<string, { value: unknown; hlc: string }>();
    const rowsSeen = new Set<string>();
    for (const w of accepted) {
      const rowKey = `${w.table}|${w.rowId}`;
      rowsSeen.add(rowKey);
      for (const [column, value] of Object.entries(w.columns)) {
        const key = `${rowKey}|${column}`;
        const cell = cells.get(key);
        if (w.op === 'transition') cells.set(key, { value, hlc: !cell || w.hlc > cell.hlc ? w.hlc : cell.hlc });
        else if (!cell || w.hlc > cell.hlc) cells.set(key, { value, hlc: w.hlc });
      }
    }
    const deleted = new Set([...rowsSeen].filter((rowKey) => cells.get(`${rowKey}|${DELETED}`)?.value));
    // A row whose parent is gone is gone too (the schema's ON DELETE CASCADE): the parent's delete
    // takes it where it is applied after the row, and a device receiving the row after the delete drops it.
    const gone = new Set(deleted);
    for (let more = true; more; ) {
      more = false;
      for (const key of rowsSeen) {
        if (gone.has(key)) continue;
        const [table, rowId] = key.split('|');
        for (const fk of this.world.foreignKeys.get(table) ?? []) {
          const parentId = cells.get(`${table}|${rowId}|${fk.column}`)?.value;
          if (typeof parentId === 'string' && !rowsSeen.has(`${fk.parent}|${parentId}`)) fail(`${key} refers to ${fk.parent} ${parentId}, which no write made`);
          if (typeof parentId === 'string' && gone.has(`${fk.parent}|${parentId}`)) {
            gone.add(key);
            more = true;
          }
        }
      }
    }
    const rows: Record<string, Row[]> = {};
    for (const t of this.world.tables) {
      const live = [...rowsSeen].filter((k) => k.startsWith(`${t.name}|`) && !gone.has(k)).map((k) => k.slice(t.name.length + 1));
      rows[t.name] = live
        .sort()
        .map((rowId) => Object.fromEntries(t.columns.map((c) => {
          const cell = cells.get(`${t.name}|${rowId}|${c}`);
          return [c, cell ? cell.value : `(never written: ${c})`];
        })));
    }
    return { cells, deleted, gone, rows, rowCount: rowsSeen.size };
  }
}

/** Rows as plain objects with the table's columns in order, sorted by row id. */
function normaliseRows(rows: Row[], t: SyncedTable): Row[] {
  const id = (r: Row) => (t.primaryKey.length === 1 ? String(r[t.primaryKey[0]]) : json(t.primaryKey.map((c) => r[c])));
  return rows.map((r) => Object.fromEntries(t.columns.map((c) => [c, r[c] === undefined ? null : r[c]]))).sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
}

function diffRows(want: Row[], got: Row[], id: (r: Row) => string): string {
  const w = new Map(want.map((r) => [id(r), r]));
  const g = new Map(got.map((r) => [id(r), r]));
  const lines: string[] = [];
  for (const [k, r] of w) {
    const other = g.get(k);
    if (!other) lines.push(`missing ${k}: ${json(r)}`);
    else for (const c of Object.keys(r)) if (!isDeepStrictEqual(r[c], other[c])) lines.push(`${k}.${c}: expected ${json(r[c])}, got ${json(other[c])}`);
  }
  for (const [k, r] of g) if (!w.has(k)) lines.push(`unexpected ${k}: ${json(r)}`);
  return lines.join('\n');
}
