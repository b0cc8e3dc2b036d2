import type { Statement } from 'better-sqlite3';
import { ZodError } from 'zod';
import type { Context } from '../context.js';
import { write } from '../db/write.js';
import { HttpError, zodDetails, zodMessage } from '../http/errors.js';
import { postPrepared, type PostDefaults, type PostEventResult, type PreparedEvent } from './post-event.js';
import { durably, ensureLedger } from './setup.js';

/**
 * Group commit for ledger postings. `synchronous=FULL` makes every commit wait for an fsync,
 * which costs more than posting an event; so requests that arrive together share one commit.
 * A request is queued and answered only after the transaction holding its event committed.
 * While the process is busy (posting, or waiting for the fsync of the group before — better-sqlite3
 * blocks the event loop), further requests queue in the socket buffers; the next turn of the
 * event loop reads them all and they go into the next group. Each event runs in its own
 * savepoint (and its own sync change group), so one event's failure — 409 for a reused
 * idempotency key, an unexpected error — undoes that event only; events, their outbox records
 * (webhooks, notifications) and idempotency keys behave exactly as one transaction per event.
 */

/** Events per transaction: bounds how long one commit holds the event loop. */
export const MAX_GROUP_EVENTS = 250;
/** Events waiting for a commit; beyond it requests are refused with 503 and Retry-After. */
export const MAX_WAITING_EVENTS = 1000;

export interface GroupItem {
  entityId: string;
  prepared: PreparedEvent;
  defaults: PostDefaults;
}

export type GroupOutcome = { ok: true; result: PostEventResult } | { ok: false; error: unknown };

export interface GroupCommitStats {
  /** Transactions committed by group commit (single POSTs and batches). */
  transactions: number;
  /** Events (including replays and per-event failures) those transactions handled. */
  events: number;
  /** Size of the largest group so far. */
  largestGroup: number;
}

interface Waiting extends GroupItem {
  resolve(result: PostEventResult): void;
  reject(error: unknown): void;
}

interface Committer {
  queue: Waiting[];
  scheduled: boolean;
  stats: GroupCommitStats;
}

const committers = new WeakMap<Context, Committer>();

function committerOf(ctx: Context): Committer {
  let c = committers.get(ctx);
  if (!c) {
    c = { queue: [], scheduled: false, stats: { transactions: 0, events: 0, largestGroup: 0 } };
    committers.set(ctx, c);
  }
  return c;
}

/** Counters for tests and benchmarks: how many transactions group commit used for how many events. */
export function groupCommitStats(ctx: Context): GroupCommitStats {
  return { ...committerOf(ctx).stats };
}

/** Posts a prepared event with the next group commit; resolves after that commit. */
export function postEventGrouped(ctx: Context, item: GroupItem): Promise<PostEventResult> {
  const c = committerOf(ctx);
  if (c.queue.length >= MAX_WAITING_EVENTS) {
    return Promise.reject(new HttpError(503, 'The ledger is busy: too many events are waiting to be posted; try again shortly', undefined, { 'Retry-After': '1' }));
  }
  return new Promise<PostEventResult>((resolve, reject) => {
    c.queue.push({ ...item, resolve, reject });
    schedule(ctx, c);
  });
}

function schedule(ctx: Context, c: Committer): void {
  if (c.scheduled) return;
  c.scheduled = true;
  // After the poll phase: every request the event loop has read by then joins this group.
  setImmediate(() => flush(ctx, c));
}

function flush(ctx: Context, c: Committer): void {
  c.scheduled = false;
  const group = c.queue.splice(0, MAX_GROUP_EVENTS);
  if (c.queue.length > 0) schedule(ctx, c);
  if (group.length === 0) return;
  let outcomes: GroupOutcome[];
  try {
    outcomes = postGroup(ctx, group);
  } catch (error) {
    // The commit itself failed (disk full, I/O error): nothing of the group was stored.
    for (const w of group) w.reject(error);
    return;
  }
  group.forEach((w, i) => {
    const o = outcomes[i];
    if (o.ok) w.resolve(o.result);
    else w.reject(o.error);
  });
}

/**
 * Posts `items` in one transaction, committed with `synchronous=FULL`, each event in its own
 * savepoint. Returns an outcome per item, in order; throws only when the transaction as a
 * whole fails (then nothing was stored).
 */
export function postGroup(ctx: Context, items: GroupItem[]): GroupOutcome[] {
  const outcomes: GroupOutcome[] = [];
  const sp = savepoints(ctx);
  durably(ctx, () =>
    write(ctx, (db) => {
      for (const item of items) {
        newSyncGroup(ctx);
        sp.begin.run();
        try {
          ensureLedger(ctx, db, item.entityId);
          const result = postPrepared(ctx, db, item.entityId, item.prepared, item.defaults);
          sp.release.run();
          outcomes.push({ ok: true, result });
        } catch (error) {
          // Errors SQLite answers by rolling back the whole transaction (disk full, I/O): the
          // group fails as a whole rather than going on outside any transaction.
          if (!ctx.sqlite.inTransaction) throw error;
          sp.rollback.run();
          sp.release.run();
          outcomes.push({ ok: false, error });
        }
      }
      newSyncGroup(ctx);
    }),
  );
  const stats = committerOf(ctx).stats;
  stats.transactions += 1;
  stats.events += items.length;
  stats.largestGroup = Math.max(stats.largestGroup, items.length);
  return outcomes;
}

// A savepoint per event, by hand: drizzle's nested transaction builds a new transaction object
// per call, which showed in the profile.
const savepointCache = new WeakMap<Context['sqlite'], { begin: Statement; release: Statement; rollback: Statement }>();
function savepoints(ctx: Context) {
  let sp = savepointCache.get(ctx.sqlite);
  if (!sp) {
    sp = { begin: ctx.sqlite.prepare('SAVEPOINT ledger_event'), release: ctx.sqlite.prepare('RELEASE ledger_event'), rollback: ctx.sqlite.prepare('ROLLBACK TO ledger_event') };
    savepointCache.set(ctx.sqlite, sp);
  }
  return sp;
}

/**
 * Each event's changes travel to the hosted instance as their own sync group, as they did with
 * one transaction per event: a refused event (a guarded race lost) is undone alone.
 */
function newSyncGroup(ctx: Context): void {
  ctx.unitOfWork.split();
}

/** An error as the status and `{ error, details? }` body the API answers it with. */
export function errorResult(ctx: Context, error: unknown): { status: number; body: { error: string; details?: unknown } } {
  if (error instanceof HttpError) return { status: error.status, body: error.details === undefined ? { error: error.message } : { error: error.message, details: error.details } };
  if (error instanceof ZodError) return { status: 400, body: { error: zodMessage(error), details: zodDetails(error) } };
  ctx.log.error({ err: error }, 'ledger batch: posting an event failed');
  return { status: 500, body: { error: 'Internal server error' } };
}
