import { eq, inArray } from 'drizzle-orm';
import type { ImapFlow } from 'imapflow';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Tx } from '../db/tx.js';
import { helpdeskMailboxImap } from './tables.js';
import { describeImapError, imapClient, openInbox } from './imap.js';
import { imapRowOf, imapSettingsOf, type ImapRow } from './mailbox.js';
import { ingestEmail, MAX_RAW_BYTES } from './mail-in.js';
import { backoffMs as backoff } from '../backoff.js';

/** Without a kept connection (or IDLE), the mailbox is checked this often. */
const POLL_EVERY_MS = 60_000;
/** Even with IDLE, a full check now and then (a push can be missed on a flaky link). */
const SAFETY_POLL_MS = 5 * 60_000;
/** Backoff after failures: 30 s, 1 min, 2 min … at most 30 min. */
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_MAX_MS = 30 * 60_000;
/** A newly connected mailbox brings in its recent mail only, not years of it. */
const FIRST_SYNC_DAYS = 7;

export interface PollResult {
  fetched: number;
  created: number;
  appended: number;
  ignored: number;
  duplicates: number;
  skipped: number;
}

interface MailIn {
  /** Connections kept open (IDLE) per entity, when loops run on timers. */
  watches: Map<string, ImapFlow>;
  /** One poll at a time per entity. */
  queues: Map<string, Promise<unknown>>;
  stopping: boolean;
}
const states = new WeakMap<Context, MailIn>();
const stateOf = (ctx: Context): MailIn => {
  let s = states.get(ctx);
  if (!s) states.set(ctx, (s = { watches: new Map(), queues: new Map(), stopping: false }));
  return s;
};

function setImap(ctx: Context, entityId: string, set: Partial<ImapRow>) {
  if (stateOf(ctx).stopping) return;
  ctx.db.update(helpdeskMailboxImap).set(set).where(eq(helpdeskMailboxImap.entityId, entityId)).run();
}

const later = (ctx: Context, ms: number) => new Date(ctx.clock.now().getTime() + ms).toISOString();
export const backoffMs = (failures: number) => backoff(failures, { baseMs: BACKOFF_BASE_MS, maxMs: BACKOFF_MAX_MS });

/** Which UIDs to take: after the last one taken, or (first time, or the mailbox was recreated) recent mail. */
async function uidsToFetch(client: ImapFlow, row: ImapRow, ctx: Context): Promise<{ uids: number[]; validity: string; floor: number }> {
  const box = client.mailbox;
  if (!box) throw new Error('INBOX is not open');
  const validity = String(box.uidValidity);
  if (row.uidValidity !== validity) {
    const since = new Date(ctx.clock.now().getTime() - FIRST_SYNC_DAYS * 86_400_000);
    const found = (await client.search({ since }, { uid: true })) || [];
    // Older mail than the window is behind us from now on; Message-IDs dedupe any overlap.
    return { uids: found.sort((a, b) => a - b), validity, floor: Math.max(0, Number(box.uidNext) - 1) };
  }
  if (box.exists === 0) return { uids: [], validity, floor: row.lastUid };
  const found = (await client.search({ uid: `${row.lastUid + 1}:*` }, { uid: true })) || [];
  // `n:*` always matches the newest message, even one below n.
  return { uids: found.filter((u) => u > row.lastUid).sort((a, b) => a - b), validity, floor: row.lastUid };
}

const saveProgress = (entityId: string, validity: string, uid: number) => (tx: Tx) => {
  tx.update(helpdeskMailboxImap).set({ uidValidity: validity, lastUid: uid }).where(eq(helpdeskMailboxImap.entityId, entityId)).run();
};

/** Attempts at one message before it is skipped, so one bad message never blocks the mailbox. */
const MAX_MESSAGE_ATTEMPTS = 3;
const attempts = new Map<string, number>();

/** A message that could not be taken in (a bug or a database failure, not the IMAP server). */
class IngestFailure extends Error {
  constructor(readonly uid: number) {
    super(`Message ${uid} of INBOX could not be taken in; it is tried again, and skipped after ${MAX_MESSAGE_ATTEMPTS} attempts.`);
  }
}

async function ingestOrSkip(ctx: Context, entityId: string, raw: Buffer, validity: string, uid: number) {
  const key = `${entityId}:${validity}:${uid}`;
  try {
    const r = await ingestEmail(ctx, entityId, raw, saveProgress(entityId, validity, uid));
    attempts.delete(key);
    return r;
  } catch (err) {
    const n = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, n);
    ctx.log.error({ entityId, uid, attempt: n, err: { name: (err as Error).name, code: (err as { code?: string }).code } }, 'helpdesk e-mail could not be taken in');
    if (n < MAX_MESSAGE_ATTEMPTS) throw new IngestFailure(uid);
    attempts.delete(key);
    write(ctx, (tx) => saveProgress(entityId, validity, uid)(tx));
    return { outcome: 'unreadable' as const };
  }
}

/** Takes the new messages of the open INBOX, one by one, saving progress with each. */
async function fetchNew(ctx: Context, entityId: string, client: ImapFlow, row: ImapRow): Promise<PollResult> {
  const result: PollResult = { fetched: 0, created: 0, appended: 0, ignored: 0, duplicates: 0, skipped: 0 };
  const { uids, validity, floor } = await uidsToFetch(client, row, ctx);
  const sizes = new Map<number, number>();
  if (uids.length) for await (const m of client.fetch(uids, { uid: true, size: true }, { uid: true })) sizes.set(m.uid, m.size ?? 0);
  for (const uid of uids) {
    if (ctx.loops.signal.aborted) return result;
    const size = sizes.get(uid);
    if (size === undefined) continue; // expunged meanwhile
    result.fetched++;
    if (size > MAX_RAW_BYTES) {
      ctx.log.warn({ entityId, uid, size }, 'helpdesk e-mail over the size limit skipped');
      write(ctx, (tx) => saveProgress(entityId, validity, uid)(tx));
      result.skipped++;
      continue;
    }
    const message = await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
    if (!message || !message.source) continue;
    const r = await ingestOrSkip(ctx, entityId, message.source, validity, uid);
    if (r.outcome === 'created') result.created++;
    else if (r.outcome === 'appended') result.appended++;
    else if (r.outcome === 'duplicate') result.duplicates++;
    else if (r.outcome === 'ignored') result.ignored++;
    else result.skipped++;
  }
  const last = Math.max(floor, uids.at(-1) ?? 0);
  write(ctx, (tx) => saveProgress(entityId, validity, Math.max(last, imapRowOf(tx, entityId)?.lastUid ?? 0))(tx));
  return result;
}

/** Keeps the connection open after a poll: new mail is pushed (IDLE) and polled on arrival. */
function watch(ctx: Context, entityId: string, client: ImapFlow) {
  const s = stateOf(ctx);
  s.watches.set(entityId, client);
  client.on('exists', () => void pollMailbox(ctx, entityId).catch(() => undefined));
  client.on('close', () => {
    if (s.watches.get(entityId) === client) s.watches.delete(entityId);
    // Dropped by the server or the network: the next tick connects again.
    if (!client.closedByClient) setImap(ctx, entityId, { state: 'connecting', nextAttemptAt: nowIso(ctx), updatedAt: nowIso(ctx) });
  });
}

async function pollOnce(ctx: Context, entityId: string): Promise<PollResult | null> {
  const s = stateOf(ctx);
  const row = imapRowOf(ctx.db, entityId);
  if (!row || s.stopping) return null;
  // Kept connections only when loops run on timers (tests drive polls by hand and close them).
  const keep = ctx.config.backgroundLoops;
  const kept = s.watches.get(entityId);
  let client = kept?.usable ? kept : undefined;
  try {
    if (!client) {
      if (kept) {
        s.watches.delete(entityId);
        kept.close();
      }
      setImap(ctx, entityId, { state: 'connecting', updatedAt: nowIso(ctx) });
      client = await imapClient(imapSettingsOf(ctx, row), { keepIdle: keep });
      await client.connect();
      // Listening before the first fetch: mail arriving meanwhile triggers the next poll.
      if (keep) watch(ctx, entityId, client);
    }
    const lock = await openInbox(client);
    let result: PollResult;
    try {
      result = await fetchNew(ctx, entityId, client, row);
    } finally {
      lock.release();
    }
    const pushed = keep && client.capabilities.has('IDLE');
    if (!keep) await client.logout().catch(() => client!.close());
    const now = nowIso(ctx);
    setImap(ctx, entityId, { state: pushed ? 'idle' : 'polling', failures: 0, lastError: null, lastCheckedAt: now, nextAttemptAt: keep ? later(ctx, pushed ? SAFETY_POLL_MS : POLL_EVERY_MS) : later(ctx, POLL_EVERY_MS), updatedAt: now });
    return result;
  } catch (err) {
    // We closed it ourselves (new settings, shutting down): not the server's failure.
    if (client?.closedByClient) return null;
    const failure = err instanceof IngestFailure ? { reason: 'ingest', message: err.message } : describeImapError(err, row);
    const failures = (imapRowOf(ctx.db, entityId)?.failures ?? row.failures) + 1;
    if (client) {
      if (s.watches.get(entityId) === client) s.watches.delete(entityId);
      client.close();
    }
    ctx.log.warn({ entityId, reason: failure.reason, failures }, 'helpdesk mailbox check failed');
    setImap(ctx, entityId, { state: 'backoff', failures, lastError: failure.message, nextAttemptAt: later(ctx, backoffMs(failures)), updatedAt: nowIso(ctx) });
    return null;
  }
}

/**
 * Checks the entity's mailbox now: new mail becomes tickets and messages. Resolves with what it
 * took, or null when the mailbox is off or could not be reached (its state says why).
 */
export function pollMailbox(ctx: Context, entityId: string): Promise<PollResult | null> {
  const s = stateOf(ctx);
  const run = (s.queues.get(entityId) ?? Promise.resolve()).catch(() => undefined).then(() => pollOnce(ctx, entityId));
  s.queues.set(entityId, run);
  return run;
}

/** The loop's tick: every mailbox that is due is checked (a kept connection is reused). */
export async function checkMailboxes(ctx: Context): Promise<void> {
  const now = nowIso(ctx);
  for (const row of ctx.db.select().from(helpdeskMailboxImap).all()) {
    if (stateOf(ctx).stopping || ctx.loops.signal.aborted) return;
    if (row.nextAttemptAt && row.nextAttemptAt > now) continue;
    await pollMailbox(ctx, row.entityId);
  }
}

/**
 * Settings changed or removed: drop the kept connection, and (when loops run on timers) connect
 * with the new settings now rather than at the next tick, so the settings page shows the outcome.
 */
export function restartMailIn(ctx: Context, entityId: string): void {
  const client = stateOf(ctx).watches.get(entityId);
  stateOf(ctx).watches.delete(entityId);
  client?.close();
  if (ctx.config.backgroundLoops) void pollMailbox(ctx, entityId).catch(() => undefined);
}

export function startMailIn(ctx: Context): void {
  // Nothing is connected yet in this process: whatever a previous run left, connect afresh.
  ctx.db
    .update(helpdeskMailboxImap)
    .set({ state: 'connecting', nextAttemptAt: nowIso(ctx) })
    .where(inArray(helpdeskMailboxImap.state, ['idle', 'polling', 'connecting']))
    .run();
  ctx.loops.add('helpdesk.mail-in', 5_000, () => checkMailboxes(ctx));
}

export async function stopMailIn(ctx: Context): Promise<void> {
  const s = stateOf(ctx);
  s.stopping = true;
  await Promise.all([...s.queues.values()].map((p) => p.catch(() => undefined)));
  await Promise.all([...s.watches.values()].map((c) => c.logout().catch(() => c.close())));
  s.watches.clear();
}
