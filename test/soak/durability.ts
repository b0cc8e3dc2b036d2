import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { makeClient, type ApiResponse, type Client } from '../helpers/server.js';
import type { createMessageBody, createTicketBody, messageSchema, ticketSchema, ticketWithMessagesSchema } from '../../server/helpdesk/schemas.js';
import type { eventPageSchema, ledgerEventDetailSchema, ledgerEventSchema, postEventBody, trialBalanceResponse } from '../../server/ledger/schemas.js';
import type { createNotificationBody, notificationSchema } from '../../server/notifications/schemas.js';
import type { createFolderBody, folderSchema } from '../../server/folders/schemas.js';
import { mustCurrency, toMinor } from '../../server/ledger/money.js';
import { checkDatabase, type AckedIds, type DbReport } from './durability-db.js';
import { killServerProcess, startServerProcess, stopServerProcess, type ServerProcess } from './server-process.js';
import { seededRng, type Rng } from '../helpers/rng.js';

/**
 * Durability under SIGKILL, with the real server as a child process (issue 12).
 *
 * One cycle: a new user and entity with an API key; `writers` concurrent clients make
 * acknowledged writes (helpdesk tickets and messages, ledger events posted to the journal and
 * reversals, notifications, folders and folder renames) and record every 2xx answer; after a
 * random delay (seeded) the server's whole process group gets SIGKILL while writes are in
 * flight. Then, with no server running, the database file must pass `PRAGMA integrity_check`
 * and the invariants that a half-applied write would break (see durability-db.ts) and still
 * hold every write ever acknowledged; the server restarts on the same data dir and every
 * write of the cycle is read back through the API and compared, the journal balances and
 * matches the file, unacknowledged ledger posts retried with their idempotency key land
 * exactly once, the outbox consumer made each ticket.assigned notification exactly once, and
 * new writes are accepted. After the last cycle every acknowledged write of every cycle is read
 * back once more, the server stops on SIGTERM, and the file is checked again.
 */

type Ticket = z.output<typeof ticketSchema>;
type TicketWithMessages = z.output<typeof ticketWithMessagesSchema>;
type TicketMessage = z.output<typeof messageSchema>;
type LedgerEvent = z.output<typeof ledgerEventSchema>;
type LedgerEventDetail = z.output<typeof ledgerEventDetailSchema>;
type EventPage = z.output<typeof eventPageSchema>;
type TrialBalance = z.output<typeof trialBalanceResponse>;
type Notification = z.output<typeof notificationSchema>;
type Folder = z.output<typeof folderSchema>;
type CreateTicket = z.input<typeof createTicketBody>;
type CreateMessage = z.input<typeof createMessageBody>;
type PostEvent = z.input<typeof postEventBody>;
type CreateNotification = z.input<typeof createNotificationBody>;
type CreateFolder = z.input<typeof createFolderBody>;

export interface DurabilityOptions {
  /** The server's data dir, kept across the cycles' restarts. */
  dataDir: string;
  cycles: number;
  /** Seeds the kill moments and every writer's choices. */
  seed: number;
  /** Concurrent writers per cycle (default 8). */
  writers?: number;
  /**
   * The kill comes this many ms after the writers start: uniform in [min, max) (default 500–2000),
   * or later if by then some area of CORE_KINDS has no acknowledged write yet.
   */
  killWindowMs?: [number, number];
  log?: (line: string) => void;
}

export const WRITE_KINDS = ['ticket', 'message', 'ledgerPost', 'ledgerReverse', 'notification', 'folder', 'folderRename'] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];
type PerKind = Record<WriteKind, number>;
/** Kinds that every cycle has acknowledged before its kill (reversals and renames need one of these first). */
export const CORE_KINDS = ['ticket', 'message', 'ledgerPost', 'notification', 'folder'] as const satisfies readonly WriteKind[];

export interface CycleReport {
  cycle: number;
  /** When the SIGKILL went out, in ms after the writers started. */
  killAfterMs: number;
  /** Writes sent but not answered when the SIGKILL went out. */
  inFlightAtKill: number;
  started: PerKind;
  acknowledged: PerKind;
  unacknowledged: PerKind;
  /** Unacknowledged ledger posts that had committed (their retry was an idempotent replay). */
  committedButUnacknowledged: number;
  restartMs: number;
  db: DbReport['counts'];
  problems: string[];
}

export interface DurabilityReport {
  seed: number;
  cycles: CycleReport[];
  /** Every problem found, prefixed with its cycle; empty when all held. */
  problems: string[];
  durationMs: number;
}

// ── what a cycle did ─────────────────────────────────────────────────────────────────────────

interface Tenant {
  entityId: string;
  userId: string;
  key: string;
}

/** Every write of one cycle that the server acknowledged, in its latest acknowledged state. */
interface CycleLog {
  cycle: number;
  tenant: Tenant;
  tickets: Map<string, Ticket>;
  messages: Map<string, TicketMessage>;
  events: Map<string, LedgerEvent>;
  /** Acknowledged posted events whose reversal was sent but not answered: posted or reversed. */
  reversalsInFlight: Set<string>;
  /** Ledger posts sent but not answered (retried with their idempotency key after restart). */
  unackedPosts: PostEvent[];
  notifications: Map<string, Notification>;
  /** Latest acknowledged folder, and the names of renames sent but not answered. */
  folders: Map<string, { folder: Folder; unackedNames: string[] }>;
  /** Anything a healthy server must not do before the kill (non-2xx, bad echo, failed request). */
  unexpected: string[];
  started: PerKind;
  acknowledged: PerKind;
  unacknowledged: PerKind;
  inFlight: number;
  notificationsStarted: number;
  assignedTicketsStarted: number;
  customerRepliesToAssigned: number;
}

/**
 * The notifications list shows at most 100 (no paging) and the outbox consumer adds one per
 * assigned ticket: these caps keep every notification of a cycle's entity readable via the API.
 */
const MAX_NOTIFICATIONS = 40;
const MAX_ASSIGNED_TICKETS = 30;
/**
 * A customer's reply on an assigned ticket notifies its assignee too. The three caps together
 * (40 + 30 + 25 = 95) stay under the list's 100.
 */
const MAX_CUSTOMER_REPLY_NOTIFICATIONS = 25;
const NOTIFICATION_LIST_LIMIT = 100;

const SCOPES = ['read:helpdesk', 'write:helpdesk', 'read:ledger', 'write:ledger', 'read:notifications', 'write:notifications', 'read:documents', 'write:documents'];
const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
const CHANNELS = ['email', 'web', 'phone', 'chat', 'api'] as const;
const ICONS = ['folder', 'archive', 'briefcase', 'contract', 'invoice', 'receipt', 'star', 'lock', 'users', 'inbox', 'tag', 'heart'] as const;
const CURRENCIES = ['USD', 'EUR'] as const;
const WORDS = ['alpha', 'bravo', 'delta', 'echo', 'kilo', 'lima', 'oscar', 'sierra', 'tango', 'zulu', 'naïve', 'café', '日本', '—', '"quoted"', "it's"];
const WEIGHTS: [WriteKind, number][] = [
  ['ticket', 3],
  ['message', 4],
  ['ledgerPost', 4],
  ['ledgerReverse', 1],
  ['notification', 1.5],
  ['folder', 1.5],
  ['folderRename', 1],
];

const zeroes = (): PerKind => Object.fromEntries(WRITE_KINDS.map((k) => [k, 0])) as PerKind;
const sum = (p: PerKind) => Object.values(p).reduce((a, b) => a + b, 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const withEntity = (p: string, entityId: string) => `${p}${p.includes('?') ? '&' : '?'}entityId=${entityId}`;
const json = (v: unknown) => JSON.stringify(v);

function newCycleLog(cycle: number, tenant: Tenant): CycleLog {
  return {
    cycle,
    tenant,
    tickets: new Map(),
    messages: new Map(),
    events: new Map(),
    reversalsInFlight: new Set(),
    unackedPosts: [],
    notifications: new Map(),
    folders: new Map(),
    unexpected: [],
    started: zeroes(),
    acknowledged: zeroes(),
    unacknowledged: zeroes(),
    inFlight: 0,
    notificationsStarted: 0,
    assignedTicketsStarted: 0,
    customerRepliesToAssigned: 0,
  };
}

function ackedIds(logs: CycleLog[]): AckedIds {
  return {
    tickets: logs.flatMap((l) => [...l.tickets.keys()]),
    messages: logs.flatMap((l) => [...l.messages.keys()]),
    ledgerEvents: logs.flatMap((l) => [...l.events.keys()]),
    notifications: logs.flatMap((l) => [...l.notifications.keys()]),
    folders: logs.flatMap((l) => [...l.folders.keys()]),
  };
}

/** A client for the tenant's API key that names the entity in the query (every route accepts that). */
function apiClient(url: string, tenant: Tenant): Client {
  const c = makeClient(url, { authorization: `Bearer ${tenant.key}` });
  const e = (p: string) => withEntity(p, tenant.entityId);
  return {
    request: (method, p, o) => c.request(method, e(p), o),
    get: (p, o) => c.get(e(p), o),
    post: (p, b, o) => c.post(e(p), b, o),
    put: (p, b, o) => c.put(e(p), b, o),
    patch: (p, b, o) => c.patch(e(p), b, o),
    delete: (p, b, o) => c.delete(e(p), b, o),
  };
}

async function createTenant(url: string, cycle: number): Promise<Tenant> {
  const anon = makeClient(url);
  const signup = await anon.post('/api/auth/signup', {
    email: `durability-${cycle}-${Date.now()}@example.com`,
    password: 'correct horse battery staple',
    name: `Durability ${cycle}`,
    entityName: `Durability cycle ${cycle}`,
  });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${json(signup.body)}`);
  const entityId: string = signup.body.entity.id;
  const cookie = (signup.headers.get('set-cookie') ?? '').split(';')[0];
  const session = makeClient(url, { cookie, origin: url, 'x-entity-id': entityId });
  const key = await session.post('/api/settings/api-keys', { name: 'durability writers', scopes: SCOPES });
  if (key.status !== 201) throw new Error(`api key failed: ${key.status} ${json(key.body)}`);
  return { entityId, userId: signup.body.user.id, key: key.body.key };
}

// ── writers ──────────────────────────────────────────────────────────────────────────────────

interface Stop {
  stopped: boolean;
}

/** Sends one write and books it: acknowledged (2xx), unacknowledged (no answer), or unexpected. */
async function send<T>(log: CycleLog, stop: Stop, kind: WriteKind, call: () => Promise<ApiResponse<T>>): Promise<ApiResponse<T> | undefined> {
  log.started[kind]++;
  log.inFlight++;
  let res: ApiResponse<T>;
  try {
    res = await call();
  } catch (err) {
    log.unacknowledged[kind]++;
    if (!stop.stopped) log.unexpected.push(`${kind}: request failed while the server was up: ${String(err)}`);
    return undefined;
  } finally {
    log.inFlight--;
  }
  if (res.status < 200 || res.status > 299) {
    log.unexpected.push(`${kind}: HTTP ${res.status} ${json(res.body)}`);
    return undefined;
  }
  log.acknowledged[kind]++;
  return res;
}

/** The acknowledged object must carry what was sent. */
function checkEcho(log: CycleLog, kind: WriteKind, sent: object, acked: object): void {
  for (const [k, v] of Object.entries(sent)) {
    if (k === 'entityId') continue;
    const got = (acked as Record<string, unknown>)[k];
    if (!isDeepStrictEqual(got ?? null, v ?? null)) log.unexpected.push(`${kind}: sent ${k}=${json(v)}, acknowledged ${json(got)}`);
  }
}

function words(r: Rng, n: number): string {
  return Array.from({ length: n }, () => r.pick(WORDS)).join(' ');
}

function amount(r: Rng): string {
  const cents = r.int(1, 5_000_000);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function ledgerPayload(r: Rng, type: string, label: string): Record<string, unknown> {
  const currency = r.pick(CURRENCIES);
  const tax = r.chance(0.6) ? { taxAmount: amount(r) } : {};
  switch (type) {
    case 'invoice_created':
      return { invoiceNumber: label, customerName: words(r, 2), currency, netAmount: amount(r), ...tax };
    case 'expense_recorded':
      return { description: `${label} ${words(r, 2)}`, merchant: words(r, 1), currency, netAmount: amount(r), ...tax };
    case 'payment_received':
      return { reference: label, payerName: words(r, 2), currency, netAmount: amount(r), ...tax };
    default:
      return { ownerName: words(r, 2), currency, amount: amount(r) };
  }
}

/** What a posted event's entry must move, in minor units: the gross amount of its payload. */
function expectedGross(payload: Record<string, unknown>): { currency: string; gross: bigint } {
  const currency = String(payload.currency);
  const cur = mustCurrency(currency);
  const parts = ['netAmount', 'taxAmount', 'amount'].map((k) => payload[k]).filter((v): v is string => typeof v === 'string');
  return { currency, gross: parts.reduce((s, v) => s + toMinor(v, cur), 0n) };
}

function pickKind(r: Rng): WriteKind {
  let x = r.next() * WEIGHTS.reduce((s, [, w]) => s + w, 0);
  for (const [kind, w] of WEIGHTS) {
    if ((x -= w) < 0) return kind;
  }
  return WEIGHTS[0][0];
}

/** One writer: sequential writes of random kinds until the kill. */
async function runWriter(w: number, r: Rng, client: Client, log: CycleLog, stop: Stop): Promise<void> {
  const reversible: string[] = [];
  const myFolders: string[] = [];
  const ticketIds = () => [...log.tickets.keys()];
  let n = 0;
  while (!stop.stopped) {
    n++;
    const label = `c${log.cycle}-w${w}-${n}`;
    let kind = pickKind(r);
    if (kind === 'message' && log.tickets.size === 0) kind = 'ticket';
    if (kind === 'ledgerReverse' && reversible.length === 0) kind = 'ledgerPost';
    if (kind === 'folderRename' && myFolders.length === 0) kind = 'folder';
    if (kind === 'notification' && log.notificationsStarted >= MAX_NOTIFICATIONS) kind = 'message';
    if (kind === 'message' && log.tickets.size === 0) kind = 'ticket';

    switch (kind) {
      case 'ticket': {
        const assign = log.assignedTicketsStarted < MAX_ASSIGNED_TICKETS && r.chance(0.3);
        if (assign) log.assignedTicketsStarted++;
        const body: CreateTicket = {
          subject: `${label} ${words(r, 3)}`,
          description: r.chance(0.7) ? words(r, 12) : null,
          priority: r.pick(PRIORITIES),
          channel: r.pick(CHANNELS),
          contactEmail: `customer-${r.int(1, 1000)}@example.com`,
          contactName: r.chance(0.5) ? words(r, 2) : null,
          ...(assign ? { assignedTo: log.tenant.userId } : {}),
        };
        const res = await send(log, stop, kind, () => client.post<Ticket>('/api/helpdesk/tickets', body));
        if (res) {
          checkEcho(log, kind, body, res.body);
          log.tickets.set(res.body.id, res.body);
        }
        break;
      }
      case 'message': {
        const ticketId = r.pick(ticketIds());
        let authorType: 'customer' | 'agent' = r.chance(0.3) ? 'customer' : 'agent';
        if (authorType === 'customer' && log.tickets.get(ticketId)?.assignedTo) {
          if (log.customerRepliesToAssigned >= MAX_CUSTOMER_REPLY_NOTIFICATIONS) authorType = 'agent';
          else log.customerRepliesToAssigned++;
        }
        const body: CreateMessage = { body: `${label} ${words(r, 8)}`, authorType, isInternal: authorType === 'agent' && r.chance(0.3) };
        const res = await send(log, stop, kind, () => client.post<TicketMessage>(`/api/helpdesk/tickets/${ticketId}/messages`, body));
        if (res) {
          checkEcho(log, kind, { ...body, ticketId }, res.body);
          log.messages.set(res.body.id, res.body);
        }
        break;
      }
      case 'ledgerPost': {
        const type = r.pick(['invoice_created', 'expense_recorded', 'payment_received', 'owner_contribution']);
        const body: PostEvent = { type, payload: ledgerPayload(r, type, label), idempotencyKey: label, correlationId: label };
        const res = await send(log, stop, kind, () => client.post<LedgerEvent>('/api/ledger/events', body));
        if (res) {
          checkEcho(log, kind, body, res.body);
          if (res.status !== 201 || res.body.postingStatus !== 'posted') log.unexpected.push(`${kind}: ${label} answered ${res.status} ${res.body.postingStatus} (expected 201 posted)`);
          log.events.set(res.body.id, res.body);
          reversible.push(res.body.id);
        } else if (stop.stopped) {
          log.unackedPosts.push(body);
        }
        break;
      }
      case 'ledgerReverse': {
        const eventId = reversible.splice(r.int(0, reversible.length), 1)[0];
        log.reversalsInFlight.add(eventId);
        const res = await send(log, stop, kind, () => client.post<LedgerEvent>(`/api/ledger/events/${eventId}/reverse`, { reason: `${label} reversal` }));
        if (res) {
          if (res.body.postingStatus !== 'reversed') log.unexpected.push(`${kind}: ${eventId} answered ${res.body.postingStatus}`);
          log.events.set(eventId, res.body);
          log.reversalsInFlight.delete(eventId);
        }
        break;
      }
      case 'notification': {
        log.notificationsStarted++;
        const body: CreateNotification = { type: 'durability.check', title: `${label} ${words(r, 3)}`, body: r.chance(0.5) ? words(r, 10) : null, link: `/helpdesk?from=${label}` };
        const res = await send(log, stop, kind, () => client.post<Notification>('/api/notifications', body));
        if (res) {
          checkEcho(log, kind, body, res.body);
          log.notifications.set(res.body.id, res.body);
        }
        break;
      }
      case 'folder': {
        const parentId = myFolders.length && r.chance(0.4) ? r.pick(myFolders) : null;
        const color = `#${r.int(0, 0x1000000).toString(16).padStart(6, '0')}`;
        const body: CreateFolder = { name: `${label} ${words(r, 2)}`, description: words(r, 6), parentId, color, icon: r.pick(ICONS) };
        const res = await send(log, stop, kind, () => client.post<Folder>('/api/documents/folders', body));
        if (res) {
          checkEcho(log, kind, body, res.body);
          log.folders.set(res.body.id, { folder: res.body, unackedNames: [] });
          myFolders.push(res.body.id);
        }
        break;
      }
      case 'folderRename': {
        const folderId = r.pick(myFolders);
        const entry = log.folders.get(folderId)!;
        const name = `${label} renamed ${words(r, 2)}`;
        entry.unackedNames.push(name);
        const res = await send(log, stop, kind, () => client.patch<Folder>(`/api/documents/folders/${folderId}`, { name }));
        if (res) {
          checkEcho(log, kind, { name }, res.body);
          entry.folder = res.body;
          entry.unackedNames = entry.unackedNames.filter((x) => x !== name);
        }
        break;
      }
    }
  }
}

// ── reading back ─────────────────────────────────────────────────────────────────────────────

/** Runs `fn` over `items`, at most `limit` at a time. */
async function forEachLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const omit = <T extends object>(o: T, keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
const TICKET_MUTABLE = ['status', 'updatedAt', 'firstResponseAt', 'resolvedAt', 'closedAt'];

/** Reads every acknowledged write of `log` back through the API and compares it. */
async function verifyAcknowledged(client: Client, log: CycleLog): Promise<string[]> {
  const problems: string[] = [];
  const differs = (what: string, id: string, expected: unknown, actual: unknown) => {
    if (!isDeepStrictEqual(actual, expected)) problems.push(`${what} ${id} differs: acknowledged ${json(expected)}, stored ${json(actual)}`);
  };

  // Tickets (immutable fields; status and times move with later messages) and their messages.
  const messagesByTicket = new Map<string, TicketMessage[]>();
  for (const m of log.messages.values()) messagesByTicket.set(m.ticketId, [...(messagesByTicket.get(m.ticketId) ?? []), m]);
  const ticketIds = [...new Set([...log.tickets.keys(), ...messagesByTicket.keys()])];
  await forEachLimit(ticketIds, 8, async (id) => {
    const res = await client.get<TicketWithMessages>(`/api/helpdesk/tickets/${id}`);
    if (res.status !== 200) {
      problems.push(`acknowledged ticket ${id}: GET answered ${res.status} ${json(res.body)}`);
      return;
    }
    const { messages, ...ticket } = res.body;
    const acked = log.tickets.get(id);
    if (acked) differs('ticket', id, omit(acked, TICKET_MUTABLE), omit(ticket, TICKET_MUTABLE));
    if (!messages.some((m) => m.authorType === 'system' && m.body.startsWith(`Ticket ${ticket.ticketNumber} created by `))) problems.push(`ticket ${id} lost its "created" timeline message`);
    const stored = new Map(messages.map((m) => [m.id, m]));
    for (const m of messagesByTicket.get(id) ?? []) {
      const s = stored.get(m.id);
      if (!s) problems.push(`acknowledged message ${m.id} missing from ticket ${id}`);
      else differs('message', m.id, m, s);
    }
  });

  // Ledger events with their journal entries.
  await forEachLimit([...log.events.keys()], 8, async (id) => {
    const res = await client.get<LedgerEventDetail>(`/api/ledger/events/${id}`);
    if (res.status !== 200) {
      problems.push(`acknowledged ledger event ${id}: GET answered ${res.status} ${json(res.body)}`);
      return;
    }
    const { entries, ...event } = res.body;
    const acked = log.events.get(id)!;
    if (log.reversalsInFlight.has(id)) {
      differs('ledger event', id, omit(acked, ['postingStatus', 'updatedAt']), omit(event, ['postingStatus', 'updatedAt']));
      if (event.postingStatus !== 'posted' && event.postingStatus !== 'reversed') problems.push(`ledger event ${id} with an unanswered reversal is ${event.postingStatus}`);
    } else {
      differs('ledger event', id, acked, event);
    }
    const posting = entries.filter((e) => e.kind === 'posting');
    const reversal = entries.filter((e) => e.kind === 'reversal');
    if (posting.length !== 1 || reversal.length !== (event.postingStatus === 'reversed' ? 1 : 0)) {
      problems.push(`${event.postingStatus} ledger event ${id} has ${posting.length} posting and ${reversal.length} reversal entries`);
      return;
    }
    const { currency, gross } = expectedGross(event.payload);
    for (const entry of [...posting, ...reversal]) {
      const total = (side: 'debit' | 'credit') => entry.lines.filter((l) => l.side === side && l.currency === currency).reduce((s, l) => s + toMinor(l.amount, mustCurrency(currency)), 0n);
      if (entry.lines.some((l) => l.currency !== currency) || total('debit') !== gross || total('credit') !== gross) {
        problems.push(`${entry.kind} entry ${entry.id} of event ${id} does not move ${gross} ${currency} (minor) on each side: ${json(entry.lines)}`);
      }
    }
  });

  // Notifications: all of the entity fit in one list (see MAX_NOTIFICATIONS).
  if (log.notifications.size) {
    const res = await client.get<Notification[]>(`/api/notifications?limit=${NOTIFICATION_LIST_LIMIT}`);
    if (res.status !== 200) problems.push(`notifications: GET answered ${res.status}`);
    else {
      if (res.body.length >= NOTIFICATION_LIST_LIMIT) problems.push(`the entity has ${res.body.length}+ notifications: the list cannot show them all (lower MAX_NOTIFICATIONS)`);
      const stored = new Map(res.body.map((x) => [x.id, x]));
      for (const [id, acked] of log.notifications) {
        const s = stored.get(id);
        if (!s) problems.push(`acknowledged notification ${id} missing`);
        else differs('notification', id, acked, s);
      }
    }
  }

  // Folders: the latest acknowledged state, or the name of a rename still in flight.
  if (log.folders.size) {
    const res = await client.get<Folder[]>('/api/documents/folders');
    if (res.status !== 200) problems.push(`folders: GET answered ${res.status}`);
    else {
      const stored = new Map(res.body.map((f) => [f.id, f]));
      for (const [id, { folder, unackedNames }] of log.folders) {
        const s = stored.get(id);
        if (!s) problems.push(`acknowledged folder ${id} missing`);
        else if (unackedNames.length === 0) differs('folder', id, folder, s);
        else {
          differs('folder', id, omit(folder, ['name', 'updatedAt']), omit(s, ['name', 'updatedAt']));
          if (![folder.name, ...unackedNames].includes(s.name)) problems.push(`folder ${id} is named ${json(s.name)}: neither the acknowledged ${json(folder.name)} nor an unanswered rename ${json(unackedNames)}`);
        }
      }
    }
  }
  return problems;
}

/** The trial balance after restart balances and equals the journal read from the file at the kill. */
async function verifyTrialBalance(client: Client, journal: DbReport['journal'], entityId: string): Promise<string[]> {
  const res = await client.get<TrialBalance>('/api/ledger/trial-balance');
  if (res.status !== 200) return [`trial balance: GET answered ${res.status} ${json(res.body)}`];
  const problems: string[] = [];
  const fromFile = journal.get(entityId) ?? new Map();
  for (const t of res.body.totals) {
    const cur = mustCurrency(t.currency);
    if (t.debit !== t.credit || toMinor(t.balance.replace(/^-/, ''), cur) !== 0n) problems.push(`trial balance in ${t.currency} does not balance: ${json(t)}`);
    const f = fromFile.get(t.currency);
    if (!f || toMinor(t.debit, cur) !== f.debit || toMinor(t.credit, cur) !== f.credit) {
      problems.push(`trial balance in ${t.currency} (${t.debit} / ${t.credit}) differs from the journal in the file (${f ? `${f.debit} / ${f.credit} minor` : 'none'})`);
    }
  }
  const apiCurrencies = new Set(res.body.totals.map((t) => t.currency));
  for (const currency of fromFile.keys()) if (!apiCurrencies.has(currency)) problems.push(`trial balance lacks ${currency}, which the journal in the file has`);
  return problems;
}

/** Retries every unanswered ledger post with its idempotency key: each must exist exactly once. */
async function retryUnacknowledgedPosts(client: Client, log: CycleLog): Promise<{ problems: string[]; committed: number }> {
  const problems: string[] = [];
  let committed = 0;
  for (const body of log.unackedPosts) {
    const res = await client.post<LedgerEvent>('/api/ledger/events', body);
    const replayed = res.status === 200 && res.headers.get('idempotent-replayed') === 'true';
    if (res.status !== 201 && !replayed) {
      problems.push(`retry of unanswered ledger post ${body.idempotencyKey}: ${res.status} ${json(res.body)}`);
      continue;
    }
    if (replayed) committed++;
    log.events.set(res.body.id, res.body);
    const list = await client.get<EventPage>(`/api/ledger/events?correlationId=${encodeURIComponent(body.correlationId!)}`);
    if (list.status !== 200 || list.body.total !== 1) problems.push(`ledger post ${body.idempotencyKey} exists ${list.body.total} times after its retry`);
  }
  log.unackedPosts = [];
  return { problems, committed };
}

/** After restart the outbox consumer makes exactly one ticket.assigned notification per assigned ticket. */
async function verifyAssignedNotifications(client: Client, tenant: Tenant, timeoutMs = 15_000): Promise<string[]> {
  const assigned: string[] = [];
  let cursor: string | null = null;
  do {
    const res: ApiResponse<Ticket[]> = await client.get<Ticket[]>(`/api/helpdesk/tickets?assignedTo=${tenant.userId}&limit=200${cursor ? `&cursor=${cursor}` : ''}`);
    if (res.status !== 200) return [`assigned tickets: GET answered ${res.status}`];
    assigned.push(...res.body.map((t) => t.id));
    cursor = res.headers.get('x-next-cursor');
  } while (cursor);
  const links = new Set(assigned.map((id) => `/helpdesk/tickets/${id}`));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get<Notification[]>(`/api/notifications?limit=${NOTIFICATION_LIST_LIMIT}`);
    if (res.status !== 200) return [`notifications: GET answered ${res.status}`];
    const counts = new Map<string, number>();
    for (const n of res.body) if (n.type === 'ticket.assigned' && n.link) counts.set(n.link, (counts.get(n.link) ?? 0) + 1);
    const missing = [...links].filter((l) => !counts.has(l));
    if (missing.length === 0 || Date.now() > deadline) {
      const problems = missing.length ? [`no ticket.assigned notification within ${timeoutMs} ms for ${missing.join(', ')}`] : [];
      for (const [link, n] of counts) {
        if (n > 1) problems.push(`${n} ticket.assigned notifications for ${link}`);
        if (!links.has(link)) problems.push(`ticket.assigned notification for ${link}, which is not an assigned ticket`);
      }
      return problems;
    }
    await sleep(100);
  }
}

/** One write of each kind on the restarted server, read back at once; returns them as a log. */
async function writeAfterRestart(client: Client, tenant: Tenant, cycle: number, maxSeq: number): Promise<{ log: CycleLog; problems: string[] }> {
  const log = newCycleLog(cycle, tenant);
  const stop: Stop = { stopped: false };
  const label = `c${cycle}-after-restart`;
  const ticket = await send(log, stop, 'ticket', () => client.post<Ticket>('/api/helpdesk/tickets', { subject: `${label} ticket`, assignedTo: tenant.userId }));
  if (ticket) {
    log.tickets.set(ticket.body.id, ticket.body);
    const seq = Number(ticket.body.ticketNumber.slice(ticket.body.ticketNumber.lastIndexOf('-') + 1));
    if (!(seq > maxSeq)) log.unexpected.push(`ticket number ${ticket.body.ticketNumber} after restart does not follow ${maxSeq}, the highest in the file`);
    const message = await send(log, stop, 'message', () => client.post<TicketMessage>(`/api/helpdesk/tickets/${ticket.body.id}/messages`, { body: `${label} message` }));
    if (message) log.messages.set(message.body.id, message.body);
  }
  const event = await send(log, stop, 'ledgerPost', () =>
    client.post<LedgerEvent>('/api/ledger/events', { type: 'owner_contribution', payload: { currency: 'USD', amount: '1.00' }, idempotencyKey: label, correlationId: label }),
  );
  if (event) log.events.set(event.body.id, event.body);
  const notification = await send(log, stop, 'notification', () => client.post<Notification>('/api/notifications', { title: `${label} notification` }));
  if (notification) log.notifications.set(notification.body.id, notification.body);
  const folder = await send(log, stop, 'folder', () => client.post<Folder>('/api/documents/folders', { name: `${label} folder` }));
  if (folder) log.folders.set(folder.body.id, { folder: folder.body, unackedNames: [] });
  const problems = [...log.unexpected.map((u) => `write after restart: ${u}`), ...(await verifyAcknowledged(client, log))];
  if (sum(log.acknowledged) !== 5) problems.push(`after restart only ${sum(log.acknowledged)} of 5 writes were accepted`);
  return { log, problems };
}

function mergeInto(target: CycleLog, extra: CycleLog): void {
  for (const [id, t] of extra.tickets) target.tickets.set(id, t);
  for (const [id, m] of extra.messages) target.messages.set(id, m);
  for (const [id, e] of extra.events) target.events.set(id, e);
  for (const [id, n] of extra.notifications) target.notifications.set(id, n);
  for (const [id, f] of extra.folders) target.folders.set(id, f);
}

// ── the run ──────────────────────────────────────────────────────────────────────────────────

async function runCycle(
  server: ServerProcess,
  cycle: number,
  seed: number,
  history: CycleLog[],
  opts: DurabilityOptions,
): Promise<{ report: CycleReport; server: ServerProcess; log: CycleLog }> {
  const r = seededRng(seed);
  const dbFile = path.join(opts.dataDir, 'bureau.db');
  const tenant = await createTenant(server.url, cycle);
  const log = newCycleLog(cycle, tenant);
  const client = apiClient(server.url, tenant);
  const stop: Stop = { stopped: false };
  const [minKill, maxKill] = opts.killWindowMs ?? [500, 2000];
  const plannedKillMs = r.int(minKill, maxKill);
  const writersStarted = Date.now();
  const writers = Array.from({ length: opts.writers ?? 8 }, (_, w) => runWriter(w, seededRng(seed + 1 + w), client, log, stop));

  await sleep(plannedKillMs);
  // On a slow machine the window may close before some area took a write: wait for one each.
  const deadline = Date.now() + 30_000;
  while (CORE_KINDS.some((k) => log.acknowledged[k] === 0) && log.unexpected.length === 0 && Date.now() < deadline) await sleep(5);
  stop.stopped = true;
  const inFlightAtKill = log.inFlight;
  const killAfterMs = Date.now() - writersStarted;
  const killed = killServerProcess(server); // sends SIGKILL to the group synchronously
  await Promise.all([...writers, killed]);

  const problems = log.unexpected.map((u) => `before the kill: ${u}`);
  if (inFlightAtKill === 0) problems.push('no write was in flight at the kill');
  const db = checkDatabase(dbFile, ackedIds([...history, log]));
  problems.push(...db.problems.map((p) => `database after SIGKILL: ${p}`));

  const t0 = Date.now();
  let restarted: ServerProcess;
  try {
    restarted = await startServerProcess(opts.dataDir);
  } catch (err) {
    throw new Error([...problems, `restart on the same data dir failed: ${err instanceof Error ? err.message : String(err)}`].join('\n'));
  }
  const restartMs = Date.now() - t0;
  const after = apiClient(restarted.url, tenant);
  problems.push(...(await verifyTrialBalance(after, db.journal, tenant.entityId)));
  problems.push(...(await verifyAcknowledged(after, log)));
  const retried = await retryUnacknowledgedPosts(after, log);
  problems.push(...retried.problems);
  problems.push(...(await verifyAssignedNotifications(after, tenant)));
  const fresh = await writeAfterRestart(after, tenant, cycle, db.maxTicketSeq.get(tenant.entityId) ?? 0);
  problems.push(...fresh.problems);
  mergeInto(log, fresh.log);

  return {
    server: restarted,
    log,
    report: {
      cycle,
      killAfterMs,
      inFlightAtKill,
      started: log.started,
      acknowledged: log.acknowledged,
      unacknowledged: log.unacknowledged,
      committedButUnacknowledged: retried.committed,
      restartMs,
      db: db.counts,
      problems,
    },
  };
}

function describeCycle(c: CycleReport): string {
  const kinds = WRITE_KINDS.map((k) => `${k} ${c.acknowledged[k]}`).join(', ');
  return (
    `cycle ${c.cycle}: SIGKILL after ${c.killAfterMs} ms with ${c.inFlightAtKill} writes in flight; acknowledged ${sum(c.acknowledged)} (${kinds}); ` +
    `unanswered ${sum(c.unacknowledged)}, of which ledger posts that had committed: ${c.committedButUnacknowledged}; restart ${c.restartMs} ms; ` +
    `file: ${c.db.tickets} tickets, ${c.db.messages} messages, ${c.db.ledgerEvents} ledger events, ${c.db.journalEntries} entries, ${c.db.notifications} notifications, ${c.db.folders} folders` +
    (c.problems.length ? `; ${c.problems.length} PROBLEMS` : '; all checks held')
  );
}

/** Runs `cycles` kill/restart cycles on one data dir; stops at the first cycle with a problem. */
export async function runDurability(opts: DurabilityOptions): Promise<DurabilityReport> {
  const started = Date.now();
  const log = opts.log ?? (() => undefined);
  const master = seededRng(opts.seed);
  const history: CycleLog[] = [];
  const cycles: CycleReport[] = [];
  const problems: string[] = [];
  log(`durability: seed ${opts.seed}, ${opts.cycles} cycles, ${opts.writers ?? 8} writers, data dir ${opts.dataDir}`);
  let server = await startServerProcess(opts.dataDir);
  try {
    for (let cycle = 1; cycle <= opts.cycles; cycle++) {
      const result = await runCycle(server, cycle, master.int(0, 2 ** 31), history, opts);
      server = result.server;
      history.push(result.log);
      cycles.push(result.report);
      log(describeCycle(result.report));
      problems.push(...result.report.problems.map((p) => `cycle ${cycle}: ${p}`));
      if (problems.length) break;
    }
    if (problems.length === 0) {
      for (const h of history) problems.push(...(await verifyAcknowledged(apiClient(server.url, h.tenant), h)).map((p) => `final read-back of cycle ${h.cycle}: ${p}`));
    }
    if (!(await stopServerProcess(server))) problems.push(`the server did not stop cleanly on SIGTERM:\n${server.output()}`);
    const final = checkDatabase(path.join(opts.dataDir, 'bureau.db'), ackedIds(history));
    problems.push(...final.problems.map((p) => `database after the final stop: ${p}`));
  } finally {
    await killServerProcess(server);
  }
  for (const p of problems) log(`PROBLEM ${p}`);
  return { seed: opts.seed, cycles, problems, durationMs: Date.now() - started };
}
